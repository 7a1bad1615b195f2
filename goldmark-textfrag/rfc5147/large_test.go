package rfc5147

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// straddlers are put across piece and buffer boundaries: split is how many
// of their bytes come before the boundary.
var straddlers = []struct {
	s     string
	split int
}{
	{"\r\n", 1},
	{"\r\u0085", 1},
	{"\r\u0085", 2},
	{"😀", 1},
	{"😀", 2},
	{"😀", 3},
	{"\u0085", 1},
	{"é", 1},
	{"\u20ac", 2},
	{"\r😀", 1},
	{"\r😀", 4}, // CR and three bytes of a rune: the most the stream carries
	{"\n\r", 1},
	{"\r\r\n", 2},
}

// largeText builds a text of about size bytes in which a straddler crosses
// every multiple of 32 KiB (the scanner's piece, and a divisor of the 256 KiB
// read buffer), shifted back by shift bytes.
func largeText(size, shift int) string {
	rng := rand.New(rand.NewPCG(7, uint64(shift)))
	var b strings.Builder
	ascii := []string{"func f() {", "\treturn x", "}", "// comment", "x := 1", ""}
	for k := 1; k*subChunk < size; k++ {
		st := straddlers[(k-1)%len(straddlers)]
		at := k*subChunk - shift - st.split
		for b.Len() < at {
			if b.Len()%7 == 0 && b.Len()+4 < at {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
				continue
			}
			line := ascii[rng.IntN(len(ascii))] + "\n"
			if rng.IntN(4) == 0 {
				line = strings.TrimSuffix(line, "\n") + "\r\n"
			}
			b.WriteString(line[:min(len(line), at-b.Len())])
		}
		b.WriteString(st.s)
	}
	return b.String()
}

// TestSelectLarge selects around every boundary of a text larger than the
// read buffer, and checks every way of selecting against the reference.
func TestSelectLarge(t *testing.T) {
	for _, variant := range []struct {
		name  string
		bom   string
		shift int
	}{{"plain", "", 0}, {"bom", "\xEF\xBB\xBF", 3}} {
		t.Run(variant.name, func(t *testing.T) {
			if testing.Short() && variant.bom != "" {
				t.Skip("one variant in -short mode")
			}
			text := largeText(1100<<10, variant.shift)
			raw := []byte(variant.bom + text)
			// The straddlers must sit where intended.
			for k := 1; (k+1)*subChunk < len(raw); k++ {
				st := straddlers[(k-1)%len(straddlers)]
				at := k*subChunk - st.split
				if !bytes.HasPrefix(raw[at:], []byte(st.s)) {
					t.Fatalf("straddler %q not at raw byte %d", st.s, at)
				}
			}
			ref := newRef(text)
			tx, err := NewText(raw, UTF8)
			if err != nil {
				t.Fatal(err)
			}
			if tx.Facts().Length != ref.n() || tx.Lines() != ref.lines() {
				t.Fatalf("NewText: %d chars, %d lines; want %d, %d", tx.Facts().Length, tx.Lines(), ref.n(), ref.lines())
			}
			sum := md5.Sum(raw)
			var frags []string
			for k := 1; k*subChunk < len(raw); k++ {
				b := int64(k*subChunk - len(variant.bom)) // the boundary in the text
				c := int64(0)
				for c < ref.n() && int64(ref.chars[c].end) <= b {
					c++
				}
				l := ref.endsBefore[c]
				frags = append(frags,
					fmt.Sprintf("char=%d,%d", max(c-1, 0), c+2), fmt.Sprintf("char=%d", c), fmt.Sprintf("char=%d", c+1),
					fmt.Sprintf("char=,%d", c+1), fmt.Sprintf("char=%d,", max(c-2, 0)),
					fmt.Sprintf("line=%d,%d", max(l-1, 0), l+1), fmt.Sprintf("line=%d", l), fmt.Sprintf("line=%d", l+1),
					fmt.Sprintf("line=%d,", l), fmt.Sprintf("line=%d,%d", l, l+100000),
				)
			}
			frags = append(frags, "line=,1", "line=1,", "char=0,", "char=1,", fmt.Sprintf("char=%d", ref.n()), fmt.Sprintf("line=%d", ref.lines()))
			for i, fs := range frags {
				f := mustParse(t, fs)
				want := ref.selection(f, sum)
				s, err := tx.Select(f)
				if err != nil {
					t.Fatal(err)
				}
				if d := diffRef(s, want); d != "" {
					t.Errorf("Text.Select #%s: %s", fs, d)
				}
				// Streaming costs a pass over the text: do it for a char
				// range, and the open ranges, around each boundary.
				if i%10 != 0 && !strings.HasSuffix(fs, ",") {
					continue
				}
				for _, n := range []int{streamBuf, 4093} {
					s, err := streamSmall(raw, f, n)
					if err != nil {
						t.Fatal(err)
					}
					if d := diffRef(s, want); d != "" {
						t.Errorf("selectStream (buffer %d) #%s: %s", n, fs, d)
					}
				}
			}
			// And through the public streaming function.
			f := mustParse(t, "line=3000,4000")
			s, err := SelectReader(bytes.NewReader(raw), f)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffRef(s, ref.selection(f, sum)); d != "" {
				t.Errorf("SelectReader: %s", d)
			}
		})
	}
}

// TestNotTextLarge puts bad bytes after the first buffer: the error names
// the same place whether the text is scanned in memory or streamed.
func TestNotTextLarge(t *testing.T) {
	text := largeText(600<<10, 0)
	for _, at := range []int{subChunk - 1, streamBuf - 1, streamBuf, streamBuf + 1, 2*streamBuf - 2, len(text) - 1} {
		for _, bad := range []string{"\x00", "\xFF", "\xC3"} {
			raw := []byte(text[:at] + bad + text[at:])
			ref := newRef(text[:at])
			_, err := NewText(raw, UTF8)
			want := fmt.Sprintf("at byte %d (line %d, column %d)", at, ref.endsBefore[ref.n()]+1, ref.n()-ref.lineStart[ref.n()]+1)
			if err == nil || !strings.Contains(err.Error(), want) {
				// A bad byte inside a character moves the error to that character.
				if !strings.HasPrefix(text[at:], "\n") && at > 0 && text[at-1] < 0x80 {
					t.Errorf("NewText with %q at %d: %v, want %q", bad, at, err, want)
				}
			}
			for _, n := range []int{streamBuf, 4093} {
				_, serr := streamSmall(raw, mustParse(t, "line=1"), n)
				if fmt.Sprint(serr) != fmt.Sprint(err) {
					t.Errorf("%q at %d, buffer %d: stream says %v, NewText %v", bad, at, n, serr, err)
				}
			}
		}
	}
}
