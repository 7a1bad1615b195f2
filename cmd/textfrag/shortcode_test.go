package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestFindShortcodeLinks(t *testing.T) {
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
	got := findShortcodeLinks([]byte(page))
	var lines []string
	for _, l := range got {
		written := ""
		if l.start >= 0 {
			written = page[l.start:l.end]
		}
		lines = append(lines, fmt.Sprintf("%d:%d %q %q %s", l.line, l.col, l.dest, written, l.err))
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

// TestShortcodeCheckAndPin: on a Hugo-style content directory, check finds
// stale shortcodes where Hugo expands them (the body and code blocks, not
// escaped ones nor front matter) at their line and column, pin --write
// relocates and pins them inside their quotes, and check then passes.
func TestShortcodeCheckAndPin(t *testing.T) {
	src := numberedSource(1, 10)
	stale := "00000000000000000000000000000000"
	page := "---\ntitle: \"{{< textfrag \\\"../../src/a.go#line=1;md5=" + stale + "\\\" >}}\"\n---\n" +
		"# Page\n\n" +
		"{{< textfrag \"../../src/a.go#line=2,4;md5=" + md5hex(src) + "\" \"Title\" >}}\n\n" +
		"ä {{% textfrag src=\"../../src/a.go#line=5\" %}}\n\n" +
		"```go\n{{< textfrag \"../../src/a.go#line=6;md5=" + stale + "\" >}}\n```\n\n" +
		"Shown as text: {{</* textfrag \"../../src/a.go#line=1;md5=" + stale + "\" */>}}\n"
	s := newPinSite(t, map[string]string{"src/a.go": src, "content/docs/page.md": page, "content/docs/other.md": "[l](../../src/a.go#line=1,2;md5=" + md5hex(src) + ")\n"})
	s.git("init", "-q")
	s.commit("start")
	moved := "// new\n" + src
	s.write("src/a.go", moved)

	_, stderr, code := s.run("check", "content")
	if code != 1 {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	for _, w := range []string{
		"content/docs/page.md:6:1: error: ../../src/a.go#line=2,4;md5=" + md5hex(src) + ": md5 mismatch",
		"content/docs/page.md:11:1: error: ../../src/a.go#line=6;md5=" + stale + ": md5 mismatch",
		"checked 4 links in 2 files: 3 errors, 0 warnings",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("check output lacks %q:\n%s", w, stderr)
		}
	}
	if strings.Contains(stderr, "page.md:2:") || strings.Contains(stderr, "page.md:14:") {
		t.Errorf("a shortcode in the front matter or an escaped one was checked:\n%s", stderr)
	}

	_, stderr, code = s.run("pin", "--write", "--accept-changed", "content")
	if code != 0 {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	for _, w := range []string{
		"content/docs/page.md:6:1: moved: src/a.go lines 3–4 → lines 4–5",
		"content/docs/page.md:8:3: pinned: src/a.go before line 6 md5=" + md5hex(moved),
		"content/docs/page.md:11:1: gone: src/a.go before line 7: no version of the file in git history has md5=" + stale,
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("pin output lacks %q:\n%s", w, stderr)
		}
	}
	want := strings.NewReplacer(
		"a.go#line=2,4;md5="+md5hex(src), "a.go#line=3,5;md5="+md5hex(moved),
		"src=\"../../src/a.go#line=5\"", "src=\"../../src/a.go#line=5;md5="+md5hex(moved)+"\"",
		"a.go#line=6;md5="+stale+"\" >}}\n```", "a.go#line=6;md5="+md5hex(moved)+"\" >}}\n```",
	).Replace(page)
	if got := s.read("content/docs/page.md"); got != want {
		t.Errorf("after pin:\n%s\nwant:\n%s", got, want)
	}
	if _, stderr, code := s.run("check", "content"); code != 0 {
		t.Errorf("check after pin: exit %d\n%s", code, stderr)
	}
}

// FuzzFindShortcodeLinks: the scanner never panics, and every path it
// offers for rewriting is written exactly so at its offsets.
func FuzzFindShortcodeLinks(f *testing.F) {
	for _, seed := range []string{
		"{{< textfrag \"a#line=1\" >}}", "{{% textfrag src=`b` /%}}", "{{</* textfrag x */>}}",
		"{{< textfrag \"a\\\"b\" >}}", "{{< a `", "{{<", "{{< textfrag src=",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, page string) {
		for _, l := range findShortcodeLinks([]byte(page)) {
			if l.start >= 0 && page[l.start:l.end] != l.dest {
				t.Fatalf("%q at %d:%d is %q in the page", l.dest, l.start, l.end, page[l.start:l.end])
			}
			if l.line < 1 || l.col < 1 {
				t.Fatalf("position %d:%d", l.line, l.col)
			}
		}
	})
}

// BenchmarkFindShortcodeLinksHostile: unclosed shortcodes and raw strings
// repeated cost linear time.
func BenchmarkFindShortcodeLinksHostile(b *testing.B) {
	page := []byte(strings.Repeat("{{< a `x ", 20000) + strings.Repeat("{{< textfrag \"x ", 20000))
	for b.Loop() {
		findShortcodeLinks(page)
	}
}

// TestPinPageLinksOverlap: a shortcode written inside a link's destination
// is reported, not rewritten twice.
func TestPinPageLinksOverlap(t *testing.T) {
	page := "[a](x.go#line=1{{<textfrag\"y.go#line=2\">}})\n\n{{< textfrag \"z.go#line=3\" >}}\n"
	links := pinPageLinks([]byte(page))
	var got []string
	for _, l := range links {
		got = append(got, fmt.Sprintf("%d:%d %s %v %s", l.line, l.col, l.dest, l.start >= 0, l.err))
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
