package mdlink

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// naivePosition counts a position from the start of the page: the
// definition the incremental count must agree with.
func naivePosition(src []byte, pos int) (int, int) {
	line, start := 1, 0
	for i := 0; i < pos; i++ {
		if src[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(src[start:pos]) + 1
}

// TestPositionsAnyOrder: positions asked for forwards, backwards and on
// the same line agree with counting from the start.
func TestPositionsAnyOrder(t *testing.T) {
	src := []byte("ä b\r\nčd [x](y)\n\n\nend é ü\nno newline at end")
	order := []int{0, 2, 3, 5, 9, 8, 4, 20, 6, len(src), 0, len(src) - 1, 12, 13}
	ps := newPositions(src)
	for _, pos := range order {
		l, c := ps.at(pos)
		wl, wc := naivePosition(src, pos)
		if l != wl || c != wc {
			t.Errorf("at(%d) = %d:%d, want %d:%d", pos, l, c, wl, wc)
		}
	}
}

// TestDestPositions: DestLine and DestColumn locate Start, and Kind says
// how each link is written.
func TestDestPositions(t *testing.T) {
	src := "é [a](\n  a.go#line=1) ![i](i.go#char=1)\n\n[r]: r.go#line=2\n\n{{< textfrag \"s.go#line=3\" >}}\n"
	var got []string
	for _, l := range Page([]byte(src)) {
		wl, wc := naivePosition([]byte(src), l.Start)
		if l.DestLine != wl || l.DestColumn != wc {
			t.Errorf("%s: dest at %d:%d, want %d:%d", l.Dest, l.DestLine, l.DestColumn, wl, wc)
		}
		got = append(got, fmt.Sprintf("%s %d:%d %d:%d", l.Kind, l.Line, l.Column, l.DestLine, l.DestColumn))
	}
	want := "inline 1:3 2:3\nimage 2:16 2:21\ndefinition 4:1 4:6\nshortcode 6:1 6:15"
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// benchPage is a page of n links, ten to a paragraph line.
func benchPage(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "See [quote %d](../src/f%d.go#line=%d,%d;md5=0123456789abcdef0123456789abcdef) ", i, i%200, i, i+5)
		if i%10 == 9 {
			b.WriteString("\n\n")
		}
	}
	return []byte(b.String())
}

// BenchmarkFind: the cost per link stays flat as pages grow (it was
// quadratic: every position counted from the start of the page).
func BenchmarkFind(b *testing.B) {
	for _, n := range []int{500, 5000, 50000} {
		src := benchPage(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if got := len(Find(src)); got != n {
					b.Fatalf("%d links, want %d", got, n)
				}
			}
		})
	}
}

// BenchmarkFindShortcodes: the same for shortcodes, which Hugo pages may
// hold by the thousand on one line.
func BenchmarkFindShortcodes(b *testing.B) {
	src := []byte(strings.Repeat("{{< textfrag \"../src/a.go#line=1,2\" >}} ", 50000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		FindShortcodes(src)
	}
}
