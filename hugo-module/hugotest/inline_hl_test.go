package hugotest

import (
	"strings"
	"testing"
)

// TestInlineHlWarns: hl= on a link that stays a link in running text (or
// becomes a quote) emphasizes nothing, so Hugo warns as the goldmark
// extension does, and fails under warningsAsErrors; hl= on a box does not.
func TestInlineHlWarns(t *testing.T) {
	doc := "---\ntitle: t\n---\n\nSee [a](src/a.txt#line=0,2 \"hl=1\") here.\n\n[box](src/a.txt#line=0,2 \"hl=2\")\n\nThe [q](src/a.txt#char=0,3 \"quote hl=1,2-3\").\n"
	r := site{Root: newProject(t), Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the log", r.Log, "WARN",
		`: textfrag: link "src/a.txt#line=0,2": link title: hl=1 emphasizes lines of a box, but this link is inside running text, where it stays a link and shows no lines; put the link alone in its paragraph to make it a box, or remove hl=`,
		`: textfrag: link "src/a.txt#char=0,3": link title: hl=1,2-3 emphasizes lines of a box`)
	if n := strings.Count(r.Log, "emphasizes lines of a box"); n != 2 {
		t.Errorf("%d warnings about hl=, want 2 (none for the box):\n%s", n, r.Log)
	}
	mustContain(t, "the page", r.Pages["page.md"], `See <a href="src/a.txt#line=0,2"`, `<q class="textfrag-quote"`, `class="textfrag textfrag-line" role="figure"`)

	r = site{Root: newProject(t), Docs: map[string]string{"page.md": doc}, Params: "warningsAsErrors = true"}.build(t)
	if r.Err == nil {
		t.Fatal("warningsAsErrors: the build succeeded")
	}
	mustContain(t, "the log", r.Log, `textfrag title error: link "src/a.txt#line=0,2": link title: hl=1 emphasizes lines of a box`)
}
