package mdlink

import (
	"fmt"
	"strings"
	"testing"
)

func TestFindShortcodes(t *testing.T) {
	page := "Intro {{< textfrag \"a.go#line=1,2;md5=x\" \"Title\" \"hl=2\" >}}\n" + // 1
		"{{% textfrag src=\"b.go#line=3\" title=\"T\" %}}\n" + // 2
		"é {{<textfrag `c.go#char=0,4`/>}}\n" + // 3
		"{{</* textfrag \"escaped.go#line=1\" */>}} and {{%/* textfrag \"e2.go#line=1\" */%}}\n" + // 4
		"```\n{{< textfrag d.go#line=5 >}}\n```\n" + // 5-7
		"{{< other \"x.go#line=1\" >}} {{< /textfrag >}} {{ not a shortcode }}\n" + // 8
		"{{< textfrag title=\"no path\" >}}\n" + // 9
		"{{< textfrag \"f\\\"g.go#line=1\" >}}\n" + // 10
		"{{< textfrag title=\"x\" src=\"h.go#line=2\" >}}\n" + // 11
		"{{< textfrag \"unterminated.go#line=1 >}}\n" // 12
	got := FindShortcodes([]byte(page))
	var lines []string
	for _, l := range got {
		written := ""
		if l.Start >= 0 {
			written = page[l.Start:l.End]
		}
		lines = append(lines, fmt.Sprintf("%d:%d %q %q %s", l.Line, l.Column, l.Dest, written, l.Err))
	}
	want := []string{
		`1:7 "a.go#line=1,2;md5=x" "a.go#line=1,2;md5=x" `,
		`2:1 "b.go#line=3" "b.go#line=3" `,
		`3:3 "c.go#char=0,4" "c.go#char=0,4" `,
		`6:1 "d.go#line=5" "d.go#line=5" `,
		`9:1 "" "" the textfrag shortcode names no path: write {{< textfrag "../src/a.go#line=10,20" >}}`,
		`10:1 "f\"g.go#line=1" "" the path is written with escapes; write it without backslashes`,
		`11:1 "h.go#line=2" "h.go#line=2" `,
		`12:1 "" "" this textfrag shortcode does not close: end it with >}} (or %}} after {{%), and quote values that hold spaces`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestFind checks that destinations are found at their exact bytes,
// in every Markdown form, and never inside code.
func TestFind(t *testing.T) {
	src := "\uFEFF# Tïtle\r\n" +
		"See [a `](x)` b](a.go#line=1,2 \"t\") and ![i](<b c.go#char=1>)\r\n" +
		"`[no](code.go#line=1)` and [other](#intro) and [web](https://x.org/a#line=1)\r\n" +
		"> [q](\r\n> q.go#line=3)\r\n" +
		"\r\n" +
		"```\r\n[no](fenced.go#line=1)\r\n```\r\n" +
		"\r\n" +
		"    [no](indented.go#line=1)\r\n" +
		"\r\n" +
		"[ref]: r.go#line=2\r\n" +
		"  [Ref2]:\r\n   <r2.go#line=3> 'tt'\r\n" +
		"\r\n" +
		"use [ref] and [x][ref2] and [![img](i.png)](n.go#line=4)\r\n" +
		"| a | b |\r\n|---|---|\r\n| [c](c.go#line=5) | d |\r\n" +
		"[html <span title=\"]\">x</span>](h.go#line=6)\r\n"
	links := Find([]byte(src))
	var got []string
	for _, l := range links {
		if l.Start < 0 {
			got = append(got, fmt.Sprintf("%d:%d %s ERR", l.Line, l.Column, l.Dest))
			continue
		}
		if src[l.Start:l.End] != l.Dest {
			t.Errorf("%s: bytes at %d are %q", l.Dest, l.Start, src[l.Start:l.End])
		}
		got = append(got, fmt.Sprintf("%d:%d %s", l.Line, l.Column, l.Dest))
	}
	want := []string{
		"2:5 a.go#line=1,2",
		"2:41 b c.go#char=1",
		"3:48 https://x.org/a#line=1", // found; pin leaves remote links alone
		"4:3 q.go#line=3",
		"13:1 r.go#line=2",
		"14:3 r2.go#line=3",
		"17:29 n.go#line=4",
		"20:3 c.go#line=5",
		"21:1 h.go#line=6 ERR", // goldmark knows raw HTML hides the ']'; pin refuses to guess
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzFindShortcodes: the scanner never panics, and every path it
// offers for rewriting is written exactly so at its offsets.
func FuzzFindShortcodes(f *testing.F) {
	for _, seed := range []string{
		"{{< textfrag \"a#line=1\" >}}", "{{% textfrag src=`b` /%}}", "{{</* textfrag x */>}}",
		"{{< textfrag \"a\\\"b\" >}}", "{{< a `", "{{<", "{{< textfrag src=",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, page string) {
		for _, l := range FindShortcodes([]byte(page)) {
			if l.Start >= 0 && page[l.Start:l.End] != l.Dest {
				t.Fatalf("%q at %d:%d is %q in the page", l.Dest, l.Start, l.End, page[l.Start:l.End])
			}
			if l.Line < 1 || l.Column < 1 {
				t.Fatalf("position %d:%d", l.Line, l.Column)
			}
		}
	})
}

// BenchmarkFindShortcodesHostile: unclosed shortcodes and raw strings
// repeated cost linear time.
func BenchmarkFindShortcodesHostile(b *testing.B) {
	page := []byte(strings.Repeat("{{< a `x ", 20000) + strings.Repeat("{{< textfrag \"x ", 20000))
	for b.Loop() {
		FindShortcodes(page)
	}
}

// TestPageOverlap: a shortcode written inside a link's destination
// is reported, not rewritten twice.
func TestPageOverlap(t *testing.T) {
	page := "[a](x.go#line=1{{<textfrag\"y.go#line=2\">}})\n\n{{< textfrag \"z.go#line=3\" >}}\n"
	links := Page([]byte(page))
	var got []string
	for _, l := range links {
		got = append(got, fmt.Sprintf("%d:%d %s %v %s", l.Line, l.Column, l.Dest, l.Start >= 0, l.Err))
	}
	want := []string{
		"1:1 x.go#line=1{{<textfrag\"y.go#line=2\">}} true ",
		"1:16 y.go#line=2 false the shortcode's path is also part of a Markdown link",
		"3:1 z.go#line=3 true ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFindTitle: each kind of link carries its title as goldmark parsed
// it, as the build reads its options (backslash escapes kept).
func TestFindTitle(t *testing.T) {
	src := "[a](a.go#line=1,2 \"sym=Server.Handle\") ![i](i.go#line=1,2 'region=setup')\n" +
		"[b](b.go#line=1,2 (sym=A\\.b lang=go)) [c](c.go#line=1,2)\n\n" +
		"[d]: d.go#line=3,4\n  \"sym=Outer::f doc\"\n"
	want := []string{"sym=Server.Handle", "region=setup", "sym=A\\.b lang=go", "", "sym=Outer::f doc"}
	links := Find([]byte(src))
	if len(links) != len(want) {
		t.Fatalf("%d links, want %d: %+v", len(links), len(want), links)
	}
	for i, l := range links {
		if l.Title != want[i] {
			t.Errorf("%s: title %q, want %q", l.Dest, l.Title, want[i])
		}
	}
}

// TestShortcodeTitle: a shortcode carries its options argument (options=,
// or the third positional one) as its title, as the Hugo module reads it,
// so that pin follows a shortcode's name as it follows a link's.
func TestShortcodeTitle(t *testing.T) {
	src := "{{< textfrag \"e.go#line=1,2\" \"Caption\" \"sym=E doc\" >}}\n" +
		"{{< textfrag src=\"f.go#line=1,2\" options=\"region=r1\" title=\"T\" >}}\n" +
		"{{% textfrag \"g.go#line=1,2\" \"Caption\" %}}\n"
	want := []string{"sym=E doc", "region=r1", ""}
	links := FindShortcodes([]byte(src))
	if len(links) != len(want) {
		t.Fatalf("%d links, want %d: %+v", len(links), len(want), links)
	}
	for i, l := range links {
		if l.Title != want[i] {
			t.Errorf("%s: title %q, want %q", l.Dest, l.Title, want[i])
		}
	}
}

// TestFindEscaped: a destination Markdown decodes into an RFC 5147 link is
// found and located as written, so that check reports it and pin leaves
// it alone (target.ErrEscaped); one read as another fragment is not.
func TestFindEscaped(t *testing.T) {
	src := "![x](a.txt&#35;line=0,1)\n\n" +
		"See [w](a.txt#&#108;ine=0,1) and [y](a.txt\\#line=0,1).\n\n" +
		"[z](a.txt&#35;intro) [v](a.txt#line%3D1)\n\n" +
		"[r]: a.txt&num;line=0,1\n"
	var got []string
	for _, l := range Find([]byte(src)) {
		if l.Start < 0 || src[l.Start:l.End] != l.Dest {
			t.Errorf("%q not located as written: %+v", l.Dest, l)
		}
		got = append(got, fmt.Sprintf("%d:%d %s %s", l.Line, l.Column, l.Kind, l.Dest))
	}
	want := []string{
		"1:1 image a.txt&#35;line=0,1",
		"3:5 inline a.txt#&#108;ine=0,1",
		"3:34 inline a.txt\\#line=0,1",
		"7:1 definition a.txt&num;line=0,1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
