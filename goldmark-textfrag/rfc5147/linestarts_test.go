package rfc5147

import (
	"slices"
	"strconv"
	"testing"
)

func TestLineStarts(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int
	}{
		{"", []int{0}},
		{"a", []int{0}},
		{"a\n", []int{0, 2}},
		{"a\r\nb", []int{0, 3}},
		{"a\rb\r", []int{0, 2, 4}},
		{"\r\r\n\n", []int{0, 1, 3, 4}},
		{"a\u0085b\r\u0085c", []int{0, 3, 7}},
		{"é\u00a0\n", []int{0, 5}}, // NBSP (C2 A0) is no NEL
	} {
		if got := LineStarts([]byte(c.text)); !slices.Equal(got, c.want) {
			t.Errorf("LineStarts(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// LineStarts agrees with the scanner that selects lines: line position k
// starts where #line=k,… starts.
func FuzzLineStarts(f *testing.F) {
	for _, s := range []string{"a\r\nb\rc\nd\u0085e\r\u0085", "\r", "x\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text, err := NewText([]byte(s), UTF8)
		if err != nil {
			return // not text
		}
		starts := LineStarts(text.Bytes())
		n := len(starts)
		if n > 1 && starts[n-1] == len(text.Bytes()) {
			n--
		}
		if int64(n) != text.Lines() {
			t.Fatalf("%d lines, Text says %d", n, text.Lines())
		}
		for k, off := range starts {
			f, err := Parse("line=" + strconv.Itoa(k))
			if err != nil {
				t.Fatal(err)
			}
			sel, err := text.Select(f)
			if err != nil {
				t.Fatal(err)
			}
			if sel.Chars.Start != int64(countRunes(text.Bytes()[:off])) {
				t.Fatalf("line %d starts at byte %d, Select says char %d", k, off, sel.Chars.Start)
			}
		}
	})
}

// countRunes counts characters as RFC 5147 does (a CR+LF or CR+NEL pair
// is one).
func countRunes(p []byte) int {
	n, _ := countPiece(p)
	return int(n)
}
