package rfc5147

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// alphabet is what random texts are made of: every line ending, pieces that
// make line endings when put together, and characters of 1 to 4 bytes.
var alphabet = []string{"a", "b", " ", "\t", "\r", "\n", "\r\n", "\u0085", "\r\u0085", "é", "😀", "\f", "\u2028", "\u20ac"}

func randomText(rng *rand.Rand, maxTokens int) string {
	var b strings.Builder
	for range rng.IntN(maxTokens + 1) {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// randomFragment returns a fragment for a text of n characters and l lines:
// numbers mostly near the text's size, sometimes beyond it, with checks
// that pass or fail.
func randomFragment(rng *rand.Rand, n, l int64, raw []byte) string {
	scheme, size := "char", n
	if rng.IntN(2) == 0 {
		scheme, size = "line", l
	}
	num := func() int64 {
		switch rng.IntN(12) {
		case 0:
			return Unbounded
		case 1:
			return size + 1 + rng.Int64N(3)
		}
		return rng.Int64N(size + 1)
	}
	a, b := num(), num()
	if a > b {
		a, b = b, a
	}
	var s string
	switch rng.IntN(4) {
	case 0:
		s = fmt.Sprintf("%s=%d", scheme, a)
	case 1:
		s = fmt.Sprintf("%s=%d,%d", scheme, a, b)
	case 2:
		s = fmt.Sprintf("%s=,%d", scheme, b)
	default:
		s = fmt.Sprintf("%s=%d,", scheme, a)
	}
	sum := md5.Sum(raw)
	for range rng.IntN(3) {
		switch rng.IntN(5) {
		case 0:
			s += fmt.Sprintf(";length=%d", n)
		case 1:
			s += fmt.Sprintf(";length=%d", n+1)
		case 2:
			s += ";md5=" + hex.EncodeToString(sum[:])
		case 3:
			s += ";md5=" + strings.Repeat("0", 32)
		default:
			s += ";sha256=abc"
		}
	}
	return s
}

// TestSelectProperty checks that every way of selecting (in memory,
// streaming through readers that return 1 to 7 bytes, streaming with
// buffers of 1 to 7 bytes) gives the selection of the reference model.
func TestSelectProperty(t *testing.T) {
	seed := uint64(20240601)
	rng := rand.New(rand.NewPCG(seed, seed))
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	for i := range iterations {
		text := randomText(rng, 24)
		raw := []byte(text)
		if rng.IntN(5) == 0 {
			raw = append([]byte("\xEF\xBB\xBF"), raw...)
		}
		ref := newRef(text)
		fs := randomFragment(rng, ref.n(), ref.lines(), raw)
		f, err := Parse(fs)
		if err != nil {
			t.Fatalf("Parse(%q): %v", fs, err)
		}
		want := ref.selection(f, md5.Sum(raw))
		ways := map[string]func() (*Selection, error){
			"Text.Select": func() (*Selection, error) { return selectText(raw, UTF8, f) },
			"SelectReader/OneByteReader": func() (*Selection, error) {
				return SelectReader(iotest.OneByteReader(bytes.NewReader(raw)), f)
			},
			"SelectReader/chunkReader": func() (*Selection, error) { return SelectReader(&chunkReader{data: raw}, f) },
		}
		for n := 1; n <= 7; n++ {
			ways[fmt.Sprintf("selectStream/buf%d", n)] = func() (*Selection, error) { return streamSmall(raw, f, n) }
		}
		for name, run := range ways {
			s, err := run()
			if s == nil {
				t.Fatalf("#%d %s on %q#%s: %v", i, name, raw, fs, err)
			}
			if d := diffRef(s, want); d != "" {
				t.Fatalf("#%d %s on %q#%s: %s", i, name, raw, fs, d)
			}
			failed := false
			for _, st := range want.statuses {
				failed = failed || st == Failed
			}
			if failed != (err != nil) {
				t.Fatalf("#%d %s on %q#%s: error %v, want failure %v", i, name, raw, fs, err, failed)
			}
		}
	}
}

// TestReference checks the reference model itself on hand-worked texts, so
// that the property test does not rest on a wrong model.
func TestReference(t *testing.T) {
	tests := []struct {
		text         string
		chars, lines int64
		linePos      []int64 // of line positions 0..lines
	}{
		{"", 0, 1, []int64{0, 0}},
		{"a", 1, 1, []int64{0, 1}},
		{"a\n", 2, 1, []int64{0, 2}},
		{"a\nb", 3, 2, []int64{0, 2, 3}},
		{"\r\n\n\r\r\u0085\u0085", 5, 5, []int64{0, 1, 2, 3, 4, 5}},
		{"\n\r", 2, 2, []int64{0, 1, 2}},
		{"x\u2028y\fz", 5, 1, []int64{0, 5}},
	}
	for _, tt := range tests {
		m := newRef(tt.text)
		if m.n() != tt.chars || m.lines() != tt.lines {
			t.Errorf("%q: %d chars, %d lines; want %d, %d", tt.text, m.n(), m.lines(), tt.chars, tt.lines)
		}
		for k, want := range tt.linePos {
			if got := m.linePos(int64(k)); got != want {
				t.Errorf("%q: linePos(%d) = %d, want %d", tt.text, k, got, want)
			}
		}
	}
	m := newRef("ab\r\ncd")
	if p := m.point(4); p != (Point{2, 2}) {
		t.Errorf("point(4) = %v", p)
	}
}

// TestScanUTF8 checks the scanner's one-pass validator and counter against
// package unicode/utf8, on random bytes biased towards UTF-8 and line endings.
func TestScanUTF8(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "\n", "\r", "\u0085", "é", "€", "😀", "\xC2", "\x85", "\xFF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xC0\xAF", "\uFFFD", "abcdefgh", "\x00",
		"\xE0\x9F\x80", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEF\xBF\xBF", "\xF0\x8F\xBF\xBF", "\xF0\x90\x80\x80",
		"\xF4\x8F\xBF\xBF", "\xF5\x80\x80\x80", "\xDF\xBF", "\xC1\xBF", "\xE1\x80", "\xF1\x80\x80", "\xC2\xC2\x85", "\x80"}
	for range 100000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		c := []byte(b.String())
		runes, nels, bad := scanUTF8(c)
		wantBad := len(c)
		for i := 0; i < len(c); {
			r, size := utf8.DecodeRune(c[i:])
			if r == utf8.RuneError && size == 1 {
				wantBad = i
				break
			}
			i += size
		}
		if bad != wantBad {
			t.Fatalf("scanUTF8(%q): bad = %d, want %d", c, bad, wantBad)
		}
		if bad == len(c) {
			if runes != int64(utf8.RuneCount(c)) || nels != int64(strings.Count(string(c), "\u0085")) {
				t.Fatalf("scanUTF8(%q) = %d runes, %d NELs; want %d, %d", c, runes, nels, utf8.RuneCount(c), strings.Count(string(c), "\u0085"))
			}
		} else if utf8.Valid(c) {
			t.Fatalf("scanUTF8(%q) rejects valid UTF-8", c)
		}
	}
}

// TestSelectAcrossPiecesProperty selects at random in random texts of a
// few KiB, so that Text.Select resumes from checkpoints (every
// checkpointEvery bytes) and counts most of each selection in bulk pieces
// of selectPiece bytes, walking only the pieces that hold its ends; every
// selection must still be the reference model's.
func TestSelectAcrossPiecesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5147, 512))
	texts := 60
	if testing.Short() {
		texts = 10
	}
	for i := range texts {
		text := randomText(rng, 1000+rng.IntN(3000))
		raw := []byte(text)
		if len(raw) < 2*selectPiece {
			continue
		}
		tx, err := NewText(raw, UTF8)
		if err != nil {
			t.Fatal(err)
		}
		ref := newRef(text)
		sum := md5.Sum(raw)
		for range 40 {
			fs := randomFragment(rng, ref.n(), ref.lines(), raw)
			f, err := Parse(fs)
			if err != nil {
				t.Fatalf("Parse(%q): %v", fs, err)
			}
			s, _ := tx.Select(f)
			if s == nil {
				t.Fatalf("text %d (%d bytes) #%s: no selection", i, len(raw), fs)
			}
			if d := diffRef(s, ref.selection(f, sum)); d != "" {
				t.Fatalf("text %d (%d bytes) #%s: %s", i, len(raw), fs, d)
			}
		}
	}
}
