package page

import (
	"bytes"
	"strings"
	"testing"
)

func TestSplitFrontMatter(t *testing.T) {
	for _, c := range []struct {
		name, src string
		title     any
		body      string
		err       bool
	}{
		{"none", "# Title\n", nil, "# Title\n", false},
		{"yaml", "---\ntitle: Hello\n---\n# H\n", "Hello", "\n\n\n# H\n", false},
		{"dots end", "---\ntitle: Hello\n...\nbody\n", "Hello", "\n\n\nbody\n", false},
		{"crlf", "---\r\ntitle: Hello\r\n---\r\nbody\r\n", "Hello", "\n\n\nbody\r\n", false},
		{"bom", "\uFEFF---\ntitle: Hello\n---\n", "Hello", "\n\n\n", false},
		{"no final newline", "---\ntitle: Hello\n---", "Hello", "\n\n", false},
		{"empty", "---\n---\nbody\n", nil, "\n\nbody\n", false},
		{"unclosed: a thematic break", "---\ntitle: Hello\n", nil, "---\ntitle: Hello\n", false},
		{"not first line", "\n---\ntitle: x\n---\n", nil, "\n---\ntitle: x\n---\n", false},
		{"bad yaml", "---\ntitle: [unclosed\n---\nbody\n", nil, "\n\n\nbody\n", true},
		{"not a mapping", "---\n- a\n- b\n---\n", nil, "\n\n\n\n", true},
	} {
		front, body, err := SplitFrontMatter([]byte(c.src))
		if (err != nil) != c.err || string(body) != c.body || front["title"] != c.title {
			t.Errorf("%s: front %v, body %q, err %v", c.name, front, body, err)
		}
		if err != nil {
			if p := err.problem("a.md"); p.Line != 1 || p.Kind != "frontmatter" || !strings.Contains(p.Error(), "a.md:1:1: error: ---: front matter") {
				t.Errorf("%s: problem %v", c.name, p)
			}
		}
	}
}

func FuzzSplitFrontMatter(f *testing.F) {
	for _, s := range []string{"---\ntitle: x\n---\n", "---\n: :\n---", "\uFEFF---\r\n...\r\n", "---\n&a [*a]\n---\n", "---"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, body, _ := SplitFrontMatter(src)
		if bytes.Count(body, []byte("\n")) != bytes.Count(src, []byte("\n")) {
			t.Errorf("line count changed: %q -> %q", src, body)
		}
	})
}

func TestPageLink(t *testing.T) {
	for dest, want := range map[string]string{
		"guide.md":              "guide.html",
		"guide.md#setup":        "guide.html#setup",
		"a/b.md?x=1#y":          "a/b.html?x=1#y",
		"../README.md":          "../index.html",
		"docs/readme.MD":        "docs/index.html",
		"index.md#top":          "index.html#top",
		"/abs/page.md":          "/abs/page.html",
		"my%20page.md":          "my%20page.html",
		"guide.md#line=1,2":     "", // RFC 5147: textfrag's
		"guide.md#char=0,5;md5": "",
		"guide.md#LINE=1":       "", // a mistyped RFC 5147 link: still textfrag's, which says so
		"https://x.org/a.md":    "",
		"//x.org/a.md":          "",
		"mailto:a.md":           "",
		"a.markdown":            "",
		"image.png":             "",
		".md":                   "",
		"dir/":                  "",
		"":                      "",
		"#intro":                "",
	} {
		got, ok := pageLink(dest)
		if ok != (want != "") || got != want {
			t.Errorf("pageLink(%q) = %q, %v; want %q", dest, got, ok, want)
		}
	}
}

func FuzzPageLink(f *testing.F) {
	for _, s := range []string{"a.md", "a.md#line=1", "x:y", "?#", "README.md?#", "%zz.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dest string) {
		if got, ok := pageLink(dest); ok && !strings.Contains(got, ".html") {
			t.Errorf("pageLink(%q) = %q", dest, got)
		}
	})
}
