package page

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// TestCheck: one call gives the problems check reports for a page, links
// and shortcodes together, in document order, with their positions.
func TestCheck(t *testing.T) {
	dir, r := checkProject(t)
	src := "---\ntitle: T\n---\n{{< textfrag title=\"x\" >}}\n\n[a](a.go#line=5,6)\n\n[b](missing.go#line=1)\n"
	p, err := Check(NewMarkdown(r, false, nil, nil), r, filepath.Join(dir, "p.md"), []byte(src), CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range p.Problems {
		got = append(got, fmt.Sprintf("%d:%d %s %s", q.Line, q.Column, q.Severity, q.Kind))
	}
	want := "4:1 error shortcode\n6:1 warning warning\n8:1 error missing" // a range past the end is clamped, with a warning
	if p.Links != 3 || strings.Join(got, "\n") != want {
		t.Errorf("%d links, problems:\n%s\nwant 3 links:\n%s", p.Links, strings.Join(got, "\n"), want)
	}
}

// TestCheckFrontMatter: the RFC 5147 links of the front matter's strings
// (a summary Hugo renders as Markdown, a description or title a theme
// markdownifies, nested params) are verified from the page's directory,
// counted, and placed where the link is written; strings without a
// fragment, code spans and other fragments are not links to check.
func TestCheckFrontMatter(t *testing.T) {
	dir, r := checkProject(t)
	src := "---\ntitle: \"The [stale](a.go#line=0,1;md5=0123456789abcdef0123456789abcdef) title\"\n" +
		"summary: See [missing](nothere.go#line=0,1) and `[code](a.go#line=9,9)`.\n" +
		"description: |\n  Lines:\n  [fine](a.go#line=0,1)\n  and [past](a.go#line=7,9).\n" +
		"params:\n  more: [\"x [gone](gone.go#char=0,1)\"]\n  other: https://example.org/#section\n" +
		"---\n\nBody [ok](a.go#line=0,1).\n"
	p, err := Check(NewMarkdown(r, false, nil, nil), r, filepath.Join(dir, "p.md"), []byte(src), CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range p.Problems {
		got = append(got, fmt.Sprintf("%d:%d %s %s %s", q.Line, q.Column, q.Severity, q.Kind, q.Link))
	}
	want := strings.Join([]string{
		"2:13 error integrity a.go#line=0,1;md5=0123456789abcdef0123456789abcdef",
		"3:14 error missing nothere.go#line=0,1",
		"7:7 warning warning a.go#line=7,9",
		"9:13 error missing gone.go#char=0,1",
	}, "\n")
	if p.Links != 6 || strings.Join(got, "\n") != want {
		t.Errorf("%d links, problems:\n%s\nwant 6 links:\n%s", p.Links, strings.Join(got, "\n"), want)
	}
}

// TestCheckUnpinnedShortcodes: with CheckOptions.Unpinned, a textfrag
// shortcode without md5= is warned about as a link without it is, at the
// shortcode's place and with the same kind and advice; one with md5= is
// not; without the option, neither is.
func TestCheckUnpinnedShortcodes(t *testing.T) {
	dir, r := checkProject(t)
	src := "{{< textfrag \"a.go#line=0,1\" >}}\n\n" +
		"{{< textfrag \"a.go#line=0,1;md5=2094b601daac3d68f5aed51d3c20f7cd\" >}}\n\n" +
		"[link](a.go#line=1,2)\n"
	md := NewMarkdown(r, false, nil, nil, textfrag.WithUnpinnedWarnings(true))
	name := filepath.Join(dir, "p.md")
	for _, c := range []struct {
		o    CheckOptions
		want string
	}{
		{CheckOptions{Unpinned: true}, "1:1 warning unpinned a.go#line=0,1\n5:1 warning unpinned a.go#line=1,2"},
		{CheckOptions{}, "5:1 warning unpinned a.go#line=1,2"},
	} {
		p, err := Check(md, r, name, []byte(src), c.o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, q := range p.Problems {
			got = append(got, fmt.Sprintf("%d:%d %s %s %s", q.Line, q.Column, q.Severity, q.Kind, q.Link))
			if q.Kind == "unpinned" && q.Message != textfrag.UnpinnedWarning(name) {
				t.Errorf("%d:%d: message %q, want the links' own", q.Line, q.Column, q.Message)
			}
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%+v: problems:\n%s\nwant:\n%s", c.o, strings.Join(got, "\n"), c.want)
		}
	}
}

// checkProject makes a project root holding a.go ("one\ntwo\n") and a
// resolver for it.
func checkProject(t *testing.T) (string, *target.Resolver) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	return dir, r
}
