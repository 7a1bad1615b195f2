package page

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// TestCheck: one call gives the problems check reports for a page, links
// and shortcodes together, in document order, with their positions.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	src := "---\ntitle: T\n---\n{{< textfrag title=\"x\" >}}\n\n[a](a.go#line=5,6)\n\n[b](missing.go#line=1)\n"
	p, err := Check(NewMarkdown(r, false, nil, nil), r, filepath.Join(dir, "p.md"), []byte(src), false)
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
