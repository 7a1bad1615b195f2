package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
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

// A title the build refuses names nothing (nameOf), so that no name
// feature acts on it, and the action that moves a named link is not
// titled for it even when given a move; titleRefused gives the build's
// error once, and says a name the title reads is not looked up.
func TestRefusedTitleNamesNothing(t *testing.T) {
	moved := pin.Change{Class: pin.Moved, NewDest: "a.go#line=8,11;md5=0123456789abcdef0123456789abcdef"}
	for _, tc := range []struct {
		title, name, lang, action string
	}{
		{"sym=Server.Handle", "sym=Server.Handle", "", "Move to sym=Server.Handle's lines 9–11"},
		{"lang=go doc sym=Server.Handle hl=8", "sym=Server.Handle doc", "go", "Move to sym=Server.Handle doc's lines 9–11"},
		{"region=setup", "region=setup", "", "Move to region=setup's lines 9–11"},
		{"sym=Server.Handle bogus", "", "", ""},
		{"hl=0 sym=Server.Handle", "", "", ""},
		{"lang= sym=Server.Handle", "", "", ""},
		{"dedent=1 region=setup", "", "", ""},
		{"doc region=setup", "", "", ""},
		{"sym=A region=setup", "", "", ""},
		{"quote sym=A", "", "", ""},
		{"dedent", "", "", ""},
	} {
		l := mdlink.Link{Dest: "a.go#line=6,9", Title: tc.title}
		sel, lang, ok := nameOf(l)
		if ok != (tc.name != "") || ok && (sel.String() != tc.name || lang != tc.lang) {
			t.Errorf("%q: nameOf %q %q %v, want %q %q", tc.title, sel, lang, ok, tc.name, tc.lang)
		}
		title, ok := namedActionTitle(l, moved)
		if ok != (tc.action != "") || title != tc.action {
			t.Errorf("%q: action %q %v, want %q", tc.title, title, ok, tc.action)
		}
	}

	const bogus = `link title: unknown option "bogus"; options are hl=12,15-17, dedent, lang=NAME, quote, sym=NAME, region=NAME and doc`
	notLooked := "`sym=A`: not looked up while the build refuses the title; fix the title first"
	for _, tc := range []struct {
		title    string
		problems []*textfrag.Problem
		want     []string
	}{
		{"sym=A", nil, nil},
		{"sym=A bogus", nil, []string{"error: " + bogus, notLooked}},
		{"sym=A bogus", []*textfrag.Problem{{Message: bogus}}, []string{notLooked}},
		{"sym=A bogus", []*textfrag.Problem{{Message: "md5 mismatch"}}, []string{"error: " + bogus, notLooked}},
		{"dedent bogus", nil, []string{"error: " + bogus}},
	} {
		if got := titleRefused(tc.title, tc.problems); !slices.Equal(got, tc.want) {
			t.Errorf("%q %v: %q, want %q", tc.title, tc.problems, got, tc.want)
		}
	}
}
