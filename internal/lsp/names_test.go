package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// titleTyped finds the title being written after a destination, in each
// of the three title delimiters, and nothing outside a title.
func TestTitleTyped(t *testing.T) {
	for _, tc := range []struct {
		typed, dest, title string
		ok                 bool
	}{
		{`a.go#line=1,2 "sym=`, "a.go#line=1,2", "sym=", true},
		{`a.go#line=1,2  'lang=go sym=Ser`, "a.go#line=1,2", "lang=go sym=Ser", true},
		{`a.go#line=1,2 (region=`, "a.go#line=1,2", "region=", true},
		{`<a b.go#line=1,2> "sym=`, "", "", false}, // a destination with a space: not split here
		{`<a.go#line=1,2> "sym=`, "a.go#line=1,2", "sym=", true},
		{`a.go#line=1,2 "sym=X" `, "", "", false}, // the title is closed
		{`a.go#line=1,2) sym=`, "", "", false},    // after the link
		{`a.go "sym=`, "", "", false},             // no fragment: not a quote
		{`a.go#line=1,2`, "", "", false},
		{`a.go#line=1,2 `, "", "", false},
		{` "sym=`, "", "", false},
	} {
		dest, title, ok := titleTyped(tc.typed)
		if ok != tc.ok || ok && (dest != tc.dest || title != tc.title) {
			t.Errorf("%q: %q %q %v, want %q %q %v", tc.typed, dest, title, ok, tc.dest, tc.title, tc.ok)
		}
	}
}

// Completion lists no names of a file the Resolver streams (over its cache
// limit): names are never looked up in part of a file, and the file is not
// held whole for completion either.
func TestCompleteNameTooLarge(t *testing.T) {
	root := t.TempDir()
	src := "package a\n\nfunc A() {}\n\nfunc B() {}\n"
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	line := `[a](../a.go#line=2,3 "sym=`
	for _, tc := range []struct {
		limit int64
		want  int
	}{{0, 2}, {int64(len(src)) - 1, 0}} {
		base, err := target.New(target.Options{Root: root, CacheLimit: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		s := &Server{cfg: Config{Root: root}, base: base, enc: encodingUTF8, docs: map[string]*document{}}
		d := &document{path: filepath.Join(root, "docs/page.md"), proj: "docs/page.md", text: []byte(line + "\n"), markdown: true}
		dest, title, ok := titleTyped(line[len("[a]("):])
		if !ok {
			t.Fatal("no title")
		}
		if got := s.completeName(d, dest, title, len(line)); len(got.Items) != tc.want {
			t.Errorf("cache limit %d: %+v, want %d items", tc.limit, got.Items, tc.want)
		}
	}
}
