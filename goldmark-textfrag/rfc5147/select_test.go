package rfc5147

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// want is an expected selection, worked out by hand from SEMANTICS.md §2.
type want struct {
	text         string
	chars, lines Span
	bytes        Span
	first, last  Point
	clamped      bool
	atEnd        bool
	label        string
}

func (w want) check(t *testing.T, s *Selection) {
	t.Helper()
	if string(s.Text) != w.text {
		t.Errorf("Text = %q, want %q", s.Text, w.text)
	}
	if s.Chars != w.chars {
		t.Errorf("Chars = %v, want %v", s.Chars, w.chars)
	}
	if s.Lines != w.lines {
		t.Errorf("Lines = %v, want %v", s.Lines, w.lines)
	}
	if s.Bytes != w.bytes {
		t.Errorf("Bytes = %v, want %v", s.Bytes, w.bytes)
	}
	if s.First != w.first {
		t.Errorf("First = %v, want %v", s.First, w.first)
	}
	if s.Last != w.last {
		t.Errorf("Last = %v, want %v", s.Last, w.last)
	}
	if s.Clamped != w.clamped {
		t.Errorf("Clamped = %v, want %v", s.Clamped, w.clamped)
	}
	if s.AtEnd != w.atEnd {
		t.Errorf("AtEnd = %v, want %v", s.AtEnd, w.atEnd)
	}
	if got := s.Label(); got != w.label {
		t.Errorf("Label() = %q, want %q", got, w.label)
	}
	if s.Empty() != (w.chars.Len() == 0) {
		t.Errorf("Empty() = %v with Chars %v", s.Empty(), s.Chars)
	}
}

// span and pt keep the table short.
func span(a, b int64) Span { return Span{a, b} }
func pt(l, c int64) Point  { return Point{l, c} }

func TestSelect(t *testing.T) {
	lines15 := numberedLines(15)
	tests := []struct {
		name, text, frag string
		want             want
	}{
		// LF. a0 \n1 b2 c3 \n4 d5 \n6: 7 characters, 3 lines.
		{"lf/line", "a\nbc\nd\n", "line=1,2", want{"bc\n", span(2, 5), span(1, 2), span(2, 5), pt(2, 1), pt(2, 3), false, false, "line 2"}},
		{"lf/all", "a\nbc\nd\n", "line=0,3", want{"a\nbc\nd\n", span(0, 7), span(0, 3), span(0, 7), pt(1, 1), pt(3, 2), false, true, "lines 1–3"}},
		// CR+LF is one character. o0 n1 e2 CRLF3 t4 w5 o6 CRLF7 t8 h9 r10 e11 e12.
		{"crlf/line", "one\r\ntwo\r\nthree", "line=1,2", want{"two\r\n", span(4, 8), span(1, 2), span(5, 10), pt(2, 1), pt(2, 4), false, false, "line 2"}},
		{"crlf/last-line", "one\r\ntwo\r\nthree", "line=2,", want{"three", span(8, 13), span(2, 3), span(10, 15), pt(3, 1), pt(3, 5), false, true, "line 3"}},
		{"crlf/char", "one\r\ntwo\r\nthree", "char=3,4", want{"\r\n", span(3, 4), span(0, 1), span(3, 5), pt(1, 4), pt(1, 4), false, false, "line 1, col 4"}},
		{"crlf/inside", "one\r\ntwo\r\nthree", "char=4", want{"", span(4, 4), span(1, 1), span(5, 5), pt(2, 1), pt(2, 1), false, false, "before line 2, col 1"}},
		// CR alone. a0 CR1 b2 CR3 c4.
		{"cr/position", "a\rb\rc", "line=2", want{"", span(4, 4), span(2, 2), span(4, 4), pt(3, 1), pt(3, 1), false, false, "before line 3"}},
		{"cr/to-end", "a\rb\rc", "line=1,", want{"b\rc", span(2, 5), span(1, 3), span(2, 5), pt(2, 1), pt(3, 1), false, true, "lines 2–3"}},
		// NEL (U+0085, two bytes in UTF-8). a0 NEL1 b2 NEL3.
		{"nel/line", "a\u0085b\u0085", "line=1,2", want{"b\u0085", span(2, 4), span(1, 2), span(3, 6), pt(2, 1), pt(2, 2), false, true, "line 2"}},
		{"nel/char", "a\u0085b\u0085", "char=1", want{"", span(1, 1), span(0, 0), span(1, 1), pt(1, 2), pt(1, 2), false, false, "before line 1, col 2"}},
		// CR+NEL is one character. a0 CRNEL1 b2.
		{"crnel/line", "a\r\u0085b", "line=1,2", want{"b", span(2, 3), span(1, 2), span(4, 5), pt(2, 1), pt(2, 1), false, true, "line 2"}},
		{"crnel/char", "a\r\u0085b", "char=1,2", want{"\r\u0085", span(1, 2), span(0, 1), span(1, 4), pt(1, 2), pt(1, 2), false, false, "line 1, col 2"}},
		// LF followed by CR is two line endings. a0 LF1 CR2 b3: 3 lines.
		{"lfcr/line2", "a\n\rb", "line=1,2", want{"\r", span(2, 3), span(1, 2), span(2, 3), pt(2, 1), pt(2, 1), false, false, "line 2"}},
		{"lfcr/line3", "a\n\rb", "line=2,", want{"b", span(3, 4), span(2, 3), span(3, 4), pt(3, 1), pt(3, 1), false, true, "line 3"}},
		// CR, then CR+LF. a0 CR1 CRLF2 b3.
		{"crcrlf", "a\r\r\nb", "line=1,2", want{"\r\n", span(2, 3), span(1, 2), span(2, 4), pt(2, 1), pt(2, 1), false, false, "line 2"}},
		// All five endings: CRLF0 LF1 CR2 CRNEL3 NEL4, 5 lines.
		{"mixed/line4", "\r\n\n\r\r\u0085\u0085", "line=3,4", want{"\r\u0085", span(3, 4), span(3, 4), span(4, 7), pt(4, 1), pt(4, 1), false, false, "line 4"}},
		{"mixed/line5", "\r\n\n\r\r\u0085\u0085", "line=4,", want{"\u0085", span(4, 5), span(4, 5), span(7, 9), pt(5, 1), pt(5, 1), false, true, "line 5"}},
		{"mixed/end", "\r\n\n\r\r\u0085\u0085", "line=5", want{"", span(5, 5), span(5, 5), span(9, 9), pt(6, 1), pt(6, 1), false, true, "end of file"}},
		{"mixed/past-end", "\r\n\n\r\r\u0085\u0085", "line=6", want{"", span(5, 5), span(5, 5), span(9, 9), pt(6, 1), pt(6, 1), true, true, "end of file"}},
		// FF, VT, U+2028, U+2029 are ordinary characters: one line of 10 characters.
		{"not-endings/whole", "a\fb\vc\u2028d\u2029e\n", "line=0,1", want{"a\fb\vc\u2028d\u2029e\n", span(0, 10), span(0, 1), span(0, 14), pt(1, 1), pt(1, 10), false, true, "line 1"}},
		{"not-endings/line1", "a\fb\vc\u2028d\u2029e\n", "line=1", want{"", span(10, 10), span(1, 1), span(14, 14), pt(2, 1), pt(2, 1), false, true, "end of file"}},
		{"not-endings/line2", "a\fb\vc\u2028d\u2029e\n", "line=1,2", want{"", span(10, 10), span(1, 1), span(14, 14), pt(2, 1), pt(2, 1), true, true, "end of file"}},
		{"not-endings/char", "a\fb\vc\u2028d\u2029e\n", "char=5,8", want{"\u2028d\u2029", span(5, 8), span(0, 1), span(5, 12), pt(1, 6), pt(1, 8), false, false, "line 1, col 6 – line 1, col 8"}},
		// Astral code points are one character (four bytes). a0 😀1 b2 LF3.
		{"astral/char", "a😀b\n", "char=1,2", want{"😀", span(1, 2), span(0, 1), span(1, 5), pt(1, 2), pt(1, 2), false, false, "line 1, col 2"}},
		{"astral/after", "a😀b\n", "char=2", want{"", span(2, 2), span(0, 0), span(5, 5), pt(1, 3), pt(1, 3), false, false, "before line 1, col 3"}},
		{"astral/all", "a😀b\n", "char=,4", want{"a😀b\n", span(0, 4), span(0, 1), span(0, 7), pt(1, 1), pt(1, 4), false, true, "line 1, col 1 – line 1, col 4"}},
		// A BOM in the middle is a character (ZERO WIDTH NO-BREAK SPACE).
		{"inner-bom", "a\uFEFFb", "char=1,2", want{"\uFEFF", span(1, 2), span(0, 1), span(1, 4), pt(1, 2), pt(1, 2), false, false, "line 1, col 2"}},
		// The empty entity has one (empty) line and one position.
		{"empty/first-line", "", "line=,1", want{"", span(0, 0), span(0, 1), span(0, 0), pt(1, 1), pt(1, 1), false, true, "line 1"}},
		{"empty/line0", "", "line=0", want{"", span(0, 0), span(0, 0), span(0, 0), pt(1, 1), pt(1, 1), false, true, "end of file"}},
		{"empty/line1", "", "line=1", want{"", span(0, 0), span(1, 1), span(0, 0), pt(1, 1), pt(1, 1), false, true, "end of file"}},
		{"empty/line2", "", "line=2", want{"", span(0, 0), span(1, 1), span(0, 0), pt(1, 1), pt(1, 1), true, true, "end of file"}},
		{"empty/char0", "", "char=0", want{"", span(0, 0), span(0, 0), span(0, 0), pt(1, 1), pt(1, 1), false, true, "end of file"}},
		{"empty/char1", "", "char=1", want{"", span(0, 0), span(0, 0), span(0, 0), pt(1, 1), pt(1, 1), true, true, "end of file"}},
		{"empty/to-end", "", "char=0,", want{"", span(0, 0), span(0, 0), span(0, 0), pt(1, 1), pt(1, 1), false, true, "end of file"}},
		// No trailing line ending: "a\nb" has 2 lines, as "a\nb\n" does.
		{"no-eol/line2", "a\nb", "line=1,2", want{"b", span(2, 3), span(1, 2), span(2, 3), pt(2, 1), pt(2, 1), false, true, "line 2"}},
		{"no-eol/pos2", "a\nb", "line=2", want{"", span(3, 3), span(2, 2), span(3, 3), pt(2, 2), pt(2, 2), false, true, "end of file"}},
		{"no-eol/pos3", "a\nb", "line=3", want{"", span(3, 3), span(2, 2), span(3, 3), pt(2, 2), pt(2, 2), true, true, "end of file"}},
		{"eol/pos2", "a\nb\n", "line=2", want{"", span(4, 4), span(2, 2), span(4, 4), pt(3, 1), pt(3, 1), false, true, "end of file"}},
		{"eol/pos3", "a\nb\n", "line=3", want{"", span(4, 4), span(2, 2), span(4, 4), pt(3, 1), pt(3, 1), true, true, "end of file"}},
		// Positions sit between characters. a0 b1 c2 LF3 d4 e5 f6 LF7.
		{"pos/char5", "abc\ndef\n", "char=5", want{"", span(5, 5), span(1, 1), span(5, 5), pt(2, 2), pt(2, 2), false, false, "before line 2, col 2"}},
		{"pos/line1", "abc\ndef\n", "line=1", want{"", span(4, 4), span(1, 1), span(4, 4), pt(2, 1), pt(2, 1), false, false, "before line 2"}},
		{"pos/char0", "abc\ndef\n", "char=0", want{"", span(0, 0), span(0, 0), span(0, 0), pt(1, 1), pt(1, 1), false, false, "before line 1, col 1"}},
		{"pos/line0", "abc\ndef\n", "line=0", want{"", span(0, 0), span(0, 0), span(0, 0), pt(1, 1), pt(1, 1), false, false, "before line 1"}},
		{"pos/equal-range", "abc\ndef\n", "line=1,1", want{"", span(4, 4), span(1, 1), span(4, 4), pt(2, 1), pt(2, 1), false, false, "before line 2"}},
		// Open ranges. a0 LF1 b2 LF3 c4 LF5.
		{"open/from-start", "a\nb\nc\n", "line=,2", want{"a\nb\n", span(0, 4), span(0, 2), span(0, 4), pt(1, 1), pt(2, 2), false, false, "lines 1–2"}},
		{"open/to-end", "a\nb\nc\n", "line=1,", want{"b\nc\n", span(2, 6), span(1, 3), span(2, 6), pt(2, 1), pt(3, 2), false, true, "lines 2–3"}},
		{"open/char-from-start", "a\nb\nc\n", "char=,2", want{"a\n", span(0, 2), span(0, 1), span(0, 2), pt(1, 1), pt(1, 2), false, false, "line 1, col 1 – line 1, col 2"}},
		{"open/char-to-end", "a\nb\nc\n", "char=4,", want{"c\n", span(4, 6), span(2, 3), span(4, 6), pt(3, 1), pt(3, 2), false, true, "line 3, col 1 – line 3, col 2"}},
		{"open/at-end", "a\nb\nc\n", "line=3,", want{"", span(6, 6), span(3, 3), span(6, 6), pt(4, 1), pt(4, 1), false, true, "end of file"}},
		{"open/past-end", "a\nb\nc\n", "line=4,", want{"", span(6, 6), span(3, 3), span(6, 6), pt(4, 1), pt(4, 1), true, true, "end of file"}},
		// Clamping. a0 LF1 b2 LF3: 4 characters, 2 lines.
		{"clamp/end", "a\nb\n", "line=1,10", want{"b\n", span(2, 4), span(1, 2), span(2, 4), pt(2, 1), pt(2, 2), true, true, "line 2"}},
		{"clamp/both", "a\nb\n", "line=10,20", want{"", span(4, 4), span(2, 2), span(4, 4), pt(3, 1), pt(3, 1), true, true, "end of file"}},
		{"clamp/char-end", "a\nb\n", "char=2,100", want{"b\n", span(2, 4), span(1, 2), span(2, 4), pt(2, 1), pt(2, 2), true, true, "line 2, col 1 – line 2, col 2"}},
		{"clamp/char-pos", "a\nb\n", "char=100", want{"", span(4, 4), span(2, 2), span(4, 4), pt(3, 1), pt(3, 1), true, true, "end of file"}},
		{"clamp/char-exact", "a\nb\n", "char=4", want{"", span(4, 4), span(2, 2), span(4, 4), pt(3, 1), pt(3, 1), false, true, "end of file"}},
		{"clamp/huge", "a\nb\n", "line=99999999999999999999", want{"", span(4, 4), span(2, 2), span(4, 4), pt(3, 1), pt(3, 1), true, true, "end of file"}},
		{"clamp/huge-end", "a\nb\n", "char=1,99999999999999999999", want{"\nb\n", span(1, 4), span(0, 2), span(1, 4), pt(1, 2), pt(2, 2), true, true, "line 1, col 2 – line 2, col 2"}},
		// RFC 5147 section 5 (SEMANTICS.md §6): line=10,20 on 15 lines is line 11
		// to the end; with fewer than 11 lines it is the end. L1..L9 are 3
		// characters each, L10..L15 four: 51 characters.
		{"rfc/15-lines", lines15, "line=10,20", want{"L11\nL12\nL13\nL14\nL15\n", span(27+4, 51), span(10, 15), span(31, 51), pt(11, 1), pt(15, 4), true, true, "lines 11–15"}},
		{"rfc/5-lines", numberedLines(5), "line=10,20", want{"", span(15, 15), span(5, 5), span(15, 15), pt(6, 1), pt(6, 1), true, true, "end of file"}},
		{"rfc/11-lines", numberedLines(11), "line=10,20", want{"L11\n", span(31, 35), span(10, 11), span(31, 35), pt(11, 1), pt(11, 4), true, true, "line 11"}},
		{"rfc/20-lines", numberedLines(20), "line=10,20", want{"L11\nL12\nL13\nL14\nL15\nL16\nL17\nL18\nL19\nL20\n", span(31, 71), span(10, 20), span(31, 71), pt(11, 1), pt(20, 4), false, true, "lines 11–20"}},
		{"rfc/first-line", lines15, "line=,1", want{"L1\n", span(0, 3), span(0, 1), span(0, 3), pt(1, 1), pt(1, 3), false, false, "line 1"}},
		{"rfc/char100", lines15, "char=100", want{"", span(51, 51), span(15, 15), span(51, 51), pt(16, 1), pt(16, 1), true, true, "end of file"}},
		{"rfc/char10", lines15, "char=10", want{"", span(10, 10), span(3, 3), span(10, 10), pt(4, 2), pt(4, 2), false, false, "before line 4, col 2"}},
		// First and Last points. a0 b1 LF2 c3 d4 CRLF5 e6 f7.
		{"points/range", "ab\ncd\r\nef", "char=1,6", want{"b\ncd\r\n", span(1, 6), span(0, 2), span(1, 7), pt(1, 2), pt(2, 3), false, false, "line 1, col 2 – line 2, col 3"}},
		{"points/one", "ab\ncd\r\nef", "char=6,7", want{"e", span(6, 7), span(2, 3), span(7, 8), pt(3, 1), pt(3, 1), false, false, "line 3, col 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := selectAll(t, []byte(tt.text), mustParse(t, tt.frag))
			if err != nil {
				t.Fatalf("%q#%s: %v", tt.text, tt.frag, err)
			}
			tt.want.check(t, s)
		})
	}
}

// numberedLines returns "L1\nL2\n…Ln\n".
func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "L%d\n", i)
	}
	return b.String()
}

func TestSelectEntityFacts(t *testing.T) {
	tests := []struct {
		text         string
		length, line int64
		md5          string // from md5sum
	}{
		{"", 0, 1, "d41d8cd98f00b204e9800998ecf8427e"},
		{"hello\nworld\n", 12, 2, "0f723ae7f9bf07744445e93ac5595156"},
		{"a\nb", 3, 2, "8cdeb44417f3c26826595d5820cf5700"},
		{"caf\u00e9\n", 5, 1, "6e99834b7c3e3fd53529a5489725d7e8"},
		{"\n", 1, 1, ""},
		{"\n\n", 2, 2, ""},
		{"x", 1, 1, ""},
		{"\r\n\r\n", 2, 2, ""},
		{"\r\r\n", 2, 2, ""},
		{"\n\r", 2, 2, ""},
		{"\r\u0085\u0085", 2, 2, ""},
	}
	for _, tt := range tests {
		tx, err := NewText([]byte(tt.text), UTF8)
		if err != nil {
			t.Fatalf("NewText(%q): %v", tt.text, err)
		}
		if f := tx.Facts(); f.Length != tt.length || f.Charset.Name != "UTF-8" || (tt.md5 != "" && f.MD5Hex() != tt.md5) {
			t.Errorf("NewText(%q).Facts() = %d chars, %s, md5 %s; want %d, UTF-8, %s", tt.text, f.Length, f.Charset.Name, f.MD5Hex(), tt.length, tt.md5)
		}
		if got := tx.Lines(); got != tt.line {
			t.Errorf("NewText(%q).Lines() = %d, want %d", tt.text, got, tt.line)
		}
		if got := string(tx.Bytes()); got != tt.text {
			t.Errorf("NewText(%q).Bytes() = %q", tt.text, got)
		}
		s, err := selectAll(t, []byte(tt.text), mustParse(t, "char=0"))
		if err != nil {
			t.Fatal(err)
		}
		if s.TotalLines != tt.line || s.Entity.Length != tt.length {
			t.Errorf("%q: Selection has %d lines, %d chars; want %d, %d", tt.text, s.TotalLines, s.Entity.Length, tt.line, tt.length)
		}
	}
}

func TestSelectBOM(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		charset string // of the entity
		length  int64
		md5     string // of the raw bytes, from md5sum
		frag    string
		want    want
	}{
		{"utf8", "\xEF\xBB\xBFab\ncd", "UTF-8", 5, "53befad24089c20f6700d3beba682d0f",
			"char=0,1", want{"a", span(0, 1), span(0, 1), span(0, 1), pt(1, 1), pt(1, 1), false, false, "line 1, col 1"}},
		{"utf8/line", "\xEF\xBB\xBFab\ncd", "UTF-8", 5, "53befad24089c20f6700d3beba682d0f",
			"line=,1", want{"ab\n", span(0, 3), span(0, 1), span(0, 3), pt(1, 1), pt(1, 3), false, false, "line 1"}},
		{"utf8/only-bom", "\xEF\xBB\xBF", "UTF-8", 0, "",
			"line=,1", want{"", span(0, 0), span(0, 1), span(0, 0), pt(1, 1), pt(1, 1), false, true, "line 1"}},
		{"utf16le", "\xFF\xFEa\x00\n\x00b\x00", "UTF-16LE", 3, "17464619ef5d58afd261c95050cfa450",
			"line=1,2", want{"b", span(2, 3), span(1, 2), span(2, 3), pt(2, 1), pt(2, 1), false, true, "line 2"}},
		{"utf16le/char0", "\xFF\xFEa\x00\n\x00b\x00", "UTF-16LE", 3, "17464619ef5d58afd261c95050cfa450",
			"char=0,1", want{"a", span(0, 1), span(0, 1), span(0, 1), pt(1, 1), pt(1, 1), false, false, "line 1, col 1"}},
		{"utf16be", "\xFE\xFF\x00a\x00\n\x00b", "UTF-16BE", 3, "5ce7fd4c7366f831afb8e90874f07afe",
			"line=1,2", want{"b", span(2, 3), span(1, 2), span(2, 3), pt(2, 1), pt(2, 1), false, true, "line 2"}},
		// U+1F600 is the surrogate pair D83D DE00; U+00E9 is one unit; CR LF is one character.
		{"utf16le/astral", "\xFF\xFE\x3D\xD8\x00\xDE\xE9\x00\r\x00\n\x00", "UTF-16LE", 3, "",
			"char=0,2", want{"😀é", span(0, 2), span(0, 1), span(0, 6), pt(1, 1), pt(1, 2), false, false, "line 1, col 1 – line 1, col 2"}},
		{"utf16be/crlf", "\xFE\xFF\x00a\x00\r\x00\n\x00b", "UTF-16BE", 3, "",
			"line=,1", want{"a\r\n", span(0, 2), span(0, 1), span(0, 3), pt(1, 1), pt(1, 2), false, false, "line 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := selectAll(t, []byte(tt.raw), mustParse(t, tt.frag))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.check(t, s)
			if s.Entity.Charset.Name != tt.charset || s.Entity.Length != tt.length {
				t.Errorf("entity %s, %d chars; want %s, %d", s.Entity.Charset.Name, s.Entity.Length, tt.charset, tt.length)
			}
			if tt.md5 != "" && s.Entity.MD5Hex() != tt.md5 {
				t.Errorf("md5 %s, want %s (the BOM is hashed)", s.Entity.MD5Hex(), tt.md5)
			}
			if bytes.ContainsRune(s.Text, 0xFEFF) {
				t.Errorf("the BOM was transcluded: %q", s.Text)
			}
		})
	}
	// A UTF-16 BOM overrides a configured charset; a UTF-8 BOM is skipped
	// only for UTF-8 (in Latin-1 its bytes are three characters).
	latin1, err := LookupCharset("latin1")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := NewText([]byte("\xFF\xFEa\x00"), latin1)
	if err != nil || tx.Facts().Charset.Name != "UTF-16LE" || string(tx.Bytes()) != "a" {
		t.Errorf("UTF-16 BOM with latin1 configured: %v, %+v", err, tx)
	}
	tx, err = NewText([]byte("\xEF\xBB\xBFa"), latin1)
	if err != nil || tx.Facts().Length != 4 || string(tx.Bytes()) != "ï»¿a" {
		t.Errorf("UTF-8 BOM in latin1: %v, %+v", err, tx)
	}
}

func TestSelectCharset(t *testing.T) {
	latin1, err := LookupCharset("ISO-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	// "café\n" in Latin-1: é is the single byte E9.
	tx, err := NewText([]byte("caf\xE9\n"), latin1)
	if err != nil {
		t.Fatal(err)
	}
	if f := tx.Facts(); f.Length != 5 || f.MD5Hex() != "70941b2a2a6a84556c97b2a3220ef4be" {
		t.Errorf("facts %d, %s", f.Length, f.MD5Hex())
	}
	s, err := tx.Select(mustParse(t, "char=3,4"))
	if err != nil {
		t.Fatal(err)
	}
	want{"é", span(3, 4), span(0, 1), span(3, 5), pt(1, 4), pt(1, 4), false, false, "line 1, col 4"}.check(t, s)
	// Checks in the entity's own charset, named by an alias, and in UTF-8.
	for frag, ok := range map[string]bool{
		"char=0;md5=70941b2a2a6a84556c97b2a3220ef4be":            true,
		"char=0;md5=70941b2a2a6a84556c97b2a3220ef4be,latin1":     true,
		"char=0;md5=70941b2a2a6a84556c97b2a3220ef4be,ISO-8859-1": true,
		"char=0;md5=6e99834b7c3e3fd53529a5489725d7e8,UTF-8":      true,
		"char=0;md5=6e99834b7c3e3fd53529a5489725d7e8":            false,
		"char=0;length=5,utf-8":                                  true,
	} {
		_, err := tx.Select(mustParse(t, frag))
		if ok != (err == nil) || (err != nil && !errors.Is(err, ErrIntegrity)) {
			t.Errorf("%s on a Latin-1 entity: %v, want ok=%v", frag, err, ok)
		}
	}
}

func TestLookupCharset(t *testing.T) {
	for name, want := range map[string]string{
		"UTF-8": "UTF-8", "utf-8": "UTF-8", "csUTF8": "UTF-8",
		"ISO-8859-1": "ISO_8859-1:1987", "latin1": "ISO_8859-1:1987", "l1": "ISO_8859-1:1987", // the IANA registered name, as documented
		"windows-1252": "windows-1252", "UTF-16LE": "UTF-16LE", "Shift_JIS": "Shift_JIS",
	} {
		cs, err := LookupCharset(name)
		if err != nil {
			t.Errorf("LookupCharset(%q): %v", name, err)
			continue
		}
		if cs.Name != want {
			t.Errorf("LookupCharset(%q).Name = %q, want %q", name, cs.Name, want)
		}
	}
	for _, name := range []string{"", "bogus", "UTF-9"} {
		if _, err := LookupCharset(name); !errors.Is(err, ErrUnknownCharset) {
			t.Errorf("LookupCharset(%q): %v, want ErrUnknownCharset", name, err)
		}
	}
}

func TestIntegrity(t *testing.T) {
	const text = "hello\nworld\n" // 12 characters; md5sum: 0f723ae7f9bf07744445e93ac5595156
	const sum = "0f723ae7f9bf07744445e93ac5595156"
	type res struct {
		status CheckStatus
		got    string
	}
	tests := []struct {
		frag    string
		results []res
		fail    string // part of the error message, "" for success
	}{
		{"line=1,2;length=12", []res{{Passed, "12"}}, ""},
		{"line=1,2;length=012", []res{{Passed, "12"}}, ""},
		{"line=1,2;length=13", []res{{Failed, "12"}}, "the link says 13 characters, the text has 12"},
		{"line=1,2;length=99999999999999999999", []res{{Failed, "12"}}, "the text has 12"},
		{"line=1,2;md5=" + sum, []res{{Passed, sum}}, ""},
		{"line=1,2;md5=" + strings.ToUpper(sum), []res{{Passed, sum}}, ""},
		{"line=1,2;md5=00000000000000000000000000000000", []res{{Failed, sum}}, "md5 mismatch: the file changed since the link was pinned; the file now has md5=" + sum + ";length=12"},
		{"line=1,2;length=12,UTF-8;md5=" + sum + ",utf-8", []res{{Passed, "12"}, {Passed, sum}}, ""},
		{"line=1,2;length=12,csUTF8", []res{{Passed, "12"}}, ""},
		// Unknown checks are ignored: no error, whatever their value.
		{"line=1,2;sha256=whatever", []res{{Ignored, ""}}, ""},
		{"line=1,2;MD5=00000000000000000000000000000000", []res{{Ignored, ""}}, ""},
		{"line=1,2;sha256=x;length=12", []res{{Ignored, ""}, {Passed, "12"}}, ""},
		// The text is ASCII, so it is the same bytes in Latin-1.
		{"line=1,2;md5=" + sum + ",ISO-8859-1", []res{{Passed, sum}}, ""},
		{"line=1,2;length=12,latin1", []res{{Passed, "12"}}, ""},
		// An unknown charset fails the check: it cannot be verified.
		{"line=1,2;length=12,x-bogus", []res{{Failed, ""}}, "not a known IANA charset name"},
		// Every failure is reported.
		{"line=1,2;length=1;md5=" + sum + ";md5=11111111111111111111111111111111", []res{{Failed, "12"}, {Passed, sum}, {Failed, sum}}, "length mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.frag, func(t *testing.T) {
			f := mustParse(t, tt.frag)
			s, err := selectAll(t, []byte(text), f)
			if s == nil {
				t.Fatalf("no selection: %v", err)
			}
			if len(s.Checks) != len(tt.results) {
				t.Fatalf("%d check results, want %d", len(s.Checks), len(tt.results))
			}
			for i, r := range s.Checks {
				if r.Status != tt.results[i].status || r.Got != tt.results[i].got {
					t.Errorf("check %d (%s): %v %q, want %v %q", i, f.Checks[i], r.Status, r.Got, tt.results[i].status, tt.results[i].got)
				}
				if r.Check.String() != f.Checks[i].String() {
					t.Errorf("check %d is %s, want %s", i, r.Check, f.Checks[i])
				}
				if r.Status != Passed && r.Reason == "" {
					t.Errorf("check %d: %v without a reason", i, r.Status)
				}
			}
			if tt.fail == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if string(s.Text) != "world\n" {
					t.Errorf("text %q", s.Text)
				}
				return
			}
			if !errors.Is(err, ErrIntegrity) {
				t.Fatalf("error %v, want ErrIntegrity", err)
			}
			var ie *IntegrityError
			if !errors.As(err, &ie) {
				t.Fatalf("%T is not an *IntegrityError", err)
			}
			if !strings.Contains(err.Error(), tt.fail) {
				t.Errorf("error %q does not say %q", err, tt.fail)
			}
			// Each md5 once: the pinned one is in the link that messages
			// quote, the current one in "the file now has".
			if strings.Count(err.Error(), sum) > 1 || strings.Contains(err.Error(), "00000000000000000000000000000000") {
				t.Errorf("error %q repeats an md5", err)
			}
			if ie.Actual.Length != 12 || ie.Actual.MD5Hex() != sum {
				t.Errorf("Actual = %d, %s", ie.Actual.Length, ie.Actual.MD5Hex())
			}
			failed := 0
			for _, r := range tt.results {
				if r.status == Failed {
					failed++
				}
			}
			if len(ie.Failed) != failed {
				t.Errorf("%d failed checks reported, want %d", len(ie.Failed), failed)
			}
		})
	}
}

func TestIntegrityOtherCharset(t *testing.T) {
	// "café\n": 5 characters; UTF-8 bytes 63 61 66 C3 A9 0A, Latin-1 bytes
	// 63 61 66 E9 0A (md5sum of each below).
	const utf8Sum, latinSum = "6e99834b7c3e3fd53529a5489725d7e8", "70941b2a2a6a84556c97b2a3220ef4be"
	tests := []struct {
		text, frag string
		ok         bool
		got        string
	}{
		{"café\n", "line=1;md5=" + utf8Sum, true, utf8Sum},
		{"café\n", "line=1;md5=" + utf8Sum + ",UTF-8", true, utf8Sum},
		{"café\n", "line=1;md5=" + latinSum + ",ISO-8859-1", true, latinSum},
		{"café\n", "line=1;md5=" + latinSum + ",latin1", true, latinSum},
		{"café\n", "line=1;md5=" + utf8Sum + ",ISO-8859-1", false, latinSum},
		{"café\n", "line=1;md5=" + latinSum, false, utf8Sum},
		{"café\n", "line=1;length=5,ISO-8859-1", true, "5"},
		// Not representable in Latin-1: a mismatch, whatever the value.
		{"😀\n", "line=1;length=2,ISO-8859-1", false, ""},
		{"😀\n", "line=1;length=2", true, "2"},
		{"x\u0100\n", "line=1;md5=" + latinSum + ",latin1", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.text+"#"+tt.frag, func(t *testing.T) {
			s, err := selectAll(t, []byte(tt.text), mustParse(t, tt.frag))
			if s == nil {
				t.Fatalf("no selection: %v", err)
			}
			if tt.ok != (err == nil) {
				t.Fatalf("error %v, want ok=%v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrIntegrity) {
				t.Fatalf("error %v, want ErrIntegrity", err)
			}
			r := s.Checks[0]
			if r.Got != tt.got {
				t.Errorf("Got %q, want %q", r.Got, tt.got)
			}
			if tt.got == "" && !strings.Contains(r.Reason, "cannot be transcoded") {
				t.Errorf("reason %q does not say the text cannot be transcoded", r.Reason)
			}
		})
	}
	// A UTF-16 entity: its own charset named "UTF-16" or by byte order checks
	// the stored bytes; UTF-8 checks the text transcoded, without a BOM.
	raw := []byte("\xFF\xFEa\x00\n\x00b\x00")
	for frag, ok := range map[string]bool{
		"char=0;md5=17464619ef5d58afd261c95050cfa450":          true,
		"char=0;md5=17464619ef5d58afd261c95050cfa450,UTF-16":   true,
		"char=0;md5=17464619ef5d58afd261c95050cfa450,UTF-16LE": true,
		"char=0;md5=8cdeb44417f3c26826595d5820cf5700,UTF-8":    true,
		"char=0;md5=8cdeb44417f3c26826595d5820cf5700":          false,
		"char=0;length=3,UTF-8":                                true,
		"char=0;length=3":                                      true,
	} {
		_, err := selectAll(t, raw, mustParse(t, frag))
		if ok != (err == nil) {
			t.Errorf("UTF-16LE entity, %s: %v, want ok=%v", frag, err, ok)
		}
	}
}

func TestNotText(t *testing.T) {
	tests := []struct {
		name, raw string
		offset    int64
		msg       string
	}{
		{"invalid", "ab\ncd\xFFe", 5, "invalid UTF-8 at byte 5 (line 2, column 3)"},
		{"nul", "ab\ncd\x00e", 5, "a NUL character (binary data) at byte 5 (line 2, column 3)"},
		{"nul-first", "\x00", 0, "NUL character (binary data) at byte 0 (line 1, column 1)"},
		{"overlong", "a\xC0\x80", 1, "invalid UTF-8 at byte 1 (line 1, column 2)"},
		{"surrogate", "a\nb\xED\xA0\x80", 3, "invalid UTF-8 at byte 3 (line 2, column 2)"},
		{"truncated", "ab\xE2\x82", 2, "invalid UTF-8 at byte 2 (line 1, column 3)"},
		{"lone-continuation", "é\x85", 2, "invalid UTF-8 at byte 2 (line 1, column 2)"},
		{"after-cr", "a\r\xFF", 2, "invalid UTF-8 at byte 2 (line 2, column 1)"},
		{"after-crlf", "a\r\n\r\n\xFF", 5, "invalid UTF-8 at byte 5 (line 3, column 1)"},
		{"after-nel", "\u0085x\u0085yz\xFE", 7, "invalid UTF-8 at byte 7 (line 3, column 3)"},
		// The first problem is reported, whichever kind it is.
		{"nul-before-invalid", "a\x00b\xFF", 1, "NUL character (binary data) at byte 1 (line 1, column 2)"},
		{"invalid-before-nul", "a\xFFb\x00", 1, "invalid UTF-8 at byte 1 (line 1, column 2)"},
		// The offset is in the text without the BOM.
		{"after-bom", "\xEF\xBB\xBFa\x00", 1, "at byte 1 (line 1, column 2)"},
		{"astral", "😀😀\x00", 8, "at byte 8 (line 1, column 3)"},
		{"half-bom", "\xEF\xBB", 0, "invalid UTF-8 at byte 0"},
		{"utf16-nul", "\xFF\xFEa\x00\x00\x00", 1, "NUL character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := selectAll(t, []byte(tt.raw), mustParse(t, "line=,1"))
			if !errors.Is(err, ErrNotText) {
				t.Fatalf("error %v, want ErrNotText", err)
			}
			var te *TextError
			if !errors.As(err, &te) {
				t.Fatalf("%T is not a *TextError", err)
			}
			if te.Offset != tt.offset {
				t.Errorf("Offset %d, want %d", te.Offset, tt.offset)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q does not contain %q", err, tt.msg)
			}
		})
	}
	// Text that is not valid in a UTF-16 entity: an odd byte, an unpaired surrogate.
	for _, raw := range []string{"\xFF\xFEa\x00b", "\xFF\xFE\x00\xD8a\x00", "\xFE\xFF\xDC\x00"} {
		if _, err := selectAll(t, []byte(raw), mustParse(t, "char=0")); !errors.Is(err, ErrNotText) {
			t.Errorf("%q: %v, want ErrNotText", raw, err)
		}
	}
	// A literal U+FFFD is text, in UTF-16 as in UTF-8.
	for _, raw := range []string{"\xFF\xFE\xFD\xFF", "\uFFFD"} {
		if _, err := selectAll(t, []byte(raw), mustParse(t, "char=0")); err != nil {
			t.Errorf("%q: %v", raw, err)
		}
	}
}

func TestSelectReaderError(t *testing.T) {
	boom := errors.New("boom")
	f := mustParse(t, "line=1")
	for _, r := range []io.Reader{
		iotest.ErrReader(boom),
		io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(boom)),
		io.MultiReader(strings.NewReader(strings.Repeat("abc\n", 100000)), iotest.ErrReader(boom)),
		io.MultiReader(strings.NewReader("\xFF\xFEa\x00"), iotest.ErrReader(boom)),
	} {
		if _, err := SelectReader(r, f); !errors.Is(err, boom) {
			t.Errorf("SelectReader: %v, want the read error", err)
		}
	}
	// A reader that returns data with io.EOF is read to the end.
	s, err := SelectReader(iotest.DataErrReader(strings.NewReader("a\nb\n")), f)
	if err != nil || string(s.Text) != "" || s.Chars != span(2, 2) {
		t.Errorf("DataErrReader: %v, %+v", err, s)
	}
}

// TestSelectConcurrent applies fragments to one Text from many goroutines,
// including checks in another charset (which are cached); run with -race.
func TestSelectConcurrent(t *testing.T) {
	tx, err := NewText([]byte("café\nxyz\n"), UTF8)
	if err != nil {
		t.Fatal(err)
	}
	f := mustParse(t, "line=1,2;md5=e68571e44a8e491f128eed308822bdef,latin1;length=9,windows-1252")
	done := make(chan error)
	for range 8 {
		go func() {
			s, err := tx.Select(f)
			if err == nil && string(s.Text) != "xyz\n" {
				err = fmt.Errorf("text %q", s.Text)
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
