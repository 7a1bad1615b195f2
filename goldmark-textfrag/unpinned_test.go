package textfrag_test

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// WithUnpinnedWarnings: every link without md5=, in any position, is a
// warning of kind "unpinned" that names the command pinning it; pinned
// links are not; off, nothing is said; with WithWarningsAsErrors it fails.
func TestUnpinnedWarnings(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\ntwo\n"})
	src := "[box](a.txt#line=0,1)\n\n" +
		"- [tight](a.txt#char=0,2;length=8)\n\n" +
		"Text [pinned](a.txt#line=0,1;md5=" + md5hex("one\ntwo\n") + ") and ![alt [in alt](a.txt#line=1,2) x](p.png)\n"
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithUnpinnedWarnings(true))))
	_, problems, _ := convert(t, md, "doc.md", src)
	var got []string
	for _, p := range problems {
		if p.Kind == "unpinned" {
			if p.Severity != textfrag.Warning || !strings.Contains(p.Message, "`textfrag pin --write doc.md`") {
				t.Errorf("problem %v", p)
			}
			got = append(got, p.Link)
		}
	}
	if want := []string{"a.txt#line=0,1", "a.txt#char=0,2;length=8", "a.txt#line=1,2"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("unpinned warnings for %q, want %q", got, want)
	}

	md = goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	if _, problems, err := convert(t, md, "doc.md", "[box](a.txt#line=0,1)\n"); err != nil || len(problems) != 0 {
		t.Errorf("default: %v %v, want no problem", err, problems)
	}
	md = goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithUnpinnedWarnings(true), textfrag.WithWarningsAsErrors(true))))
	if _, _, err := convert(t, md, "doc.md", "[box](a.txt#line=0,1)\n"); err == nil || !strings.Contains(err.Error(), "unpinned") {
		t.Errorf("as errors: %v", err)
	}
}
