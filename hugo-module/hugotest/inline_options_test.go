package hugotest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestInlineDedentLangWarn: dedent and lang= on a link that stays a link
// in running text, or becomes a quote, do nothing, so Hugo warns as the
// goldmark extension does (and fails under warningsAsErrors); on a box
// they do not warn, nor does lang= with sym=, where it names the language
// the symbol is looked up in.
func TestInlineDedentLangWarn(t *testing.T) {
	doc := "---\ntitle: t\n---\n\n" +
		"See [a](src/a.txt#line=0,2 \"dedent\") here.\n\n" +
		"See [b](src/a.txt#line=1,2 \"lang=go\") here.\n\n" +
		"The [q](src/a.txt#char=0,3 \"quote lang=Go dedent\").\n\n" +
		"See [F](src/a.go#line=2,3 \"sym=F lang=go\") here.\n\n" +
		"[box](src/a.txt#line=0,2 \"dedent lang=go\")\n"
	project := func() string {
		root := newProject(t)
		write(t, filepath.Join(root, "src", "a.go"), "package a\n\nfunc F() {}\n")
		return root
	}
	r := site{Root: project(), Docs: map[string]string{"page.md": doc}, Params: `symbols = "checked-in-ci"`}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the log", r.Log, "WARN",
		`: textfrag: link "src/a.txt#line=0,2": link title: dedent removes the indentation a box's lines share, but this link is inside running text, where it makes no box; put the link alone in its paragraph to make it a box, or remove dedent`,
		`: textfrag: link "src/a.txt#line=1,2": link title: lang=go picks how a box's lines are highlighted, but this link is inside running text, where it makes no box; put the link alone in its paragraph to make it a box, or remove lang=`,
		`: textfrag: link "src/a.txt#char=0,3": link title: dedent removes`,
		`: textfrag: link "src/a.txt#char=0,3": link title: lang=go picks`)
	if n := strings.Count(r.Log, "dedent removes the indentation"); n != 2 {
		t.Errorf("%d warnings about dedent, want 2 (none for the box):\n%s", n, r.Log)
	}
	if n := strings.Count(r.Log, "picks how a box's lines are highlighted"); n != 2 {
		t.Errorf("%d warnings about lang=, want 2 (none for the box or with sym=):\n%s", n, r.Log)
	}
	mustContain(t, "the page", r.Pages["page.md"], `See <a href="src/a.txt#line=0,2"`, `<q class="textfrag-quote"`, `class="textfrag textfrag-line" role="figure"`)

	r = site{Root: project(), Docs: map[string]string{"page.md": "---\ntitle: t\n---\n\nSee [a](src/a.txt#line=0,2 \"dedent\") here.\n"}, Params: "warningsAsErrors = true"}.build(t)
	if r.Err == nil {
		t.Fatal("warningsAsErrors: the build succeeded")
	}
	mustContain(t, "the log", r.Log, `textfrag title error: link "src/a.txt#line=0,2": link title: dedent removes the indentation`)
}
