package target_test

import (
	"errors"
	"sort"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/corpus"
)

// TestConformance runs every case of the shared corpus through the resolver.
func TestConformance(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("the corpus is empty")
	}
	for _, c := range cases {
		t.Run(c.Source+"/"+c.Name, func(t *testing.T) {
			root := t.TempDir()
			if err := c.Materialize(root); err != nil {
				t.Fatal(err)
			}
			var rules []target.CharsetRule
			for glob, cs := range c.Charsets {
				rules = append(rules, target.CharsetRule{Glob: glob, Charset: cs})
			}
			sort.Slice(rules, func(i, j int) bool { return rules[i].Glob < rules[j].Glob })
			r, err := target.New(target.Options{Root: root, Charsets: rules})
			if err != nil {
				t.Fatal(err)
			}
			res, err := r.Resolve(c.Doc, c.Link)
			// A name in the title is checked once the link resolved: its
			// misuse first, then its lines.
			sel, named, titleErr := symbol.ParseSelector(c.Title)
			switch {
			case err != nil:
			case titleErr != nil:
				res, err = nil, &target.Error{Doc: c.Doc, Link: c.Link, Path: res.Path, Err: titleErr}
			case named:
				if err = r.CheckName(c.Doc, res, c.TitleLang(), sel); err != nil {
					res = nil
				}
			}
			w := c.WantWith(symbol.Default())
			switch {
			case w.Ignored:
				if !errors.Is(err, target.ErrNotOurs) {
					t.Fatalf("Resolve(%q, %q) = %v, %v; want the link ignored (ErrNotOurs)", c.Doc, c.Link, res, err)
				}
				return
			case errors.Is(err, target.ErrNotOurs):
				t.Fatalf("Resolve(%q, %q): link ignored (ErrNotOurs), want %+v", c.Doc, c.Link, w)
			case w.Error != "":
				if err == nil {
					t.Fatalf("Resolve(%q, %q) selected %q, want a %s error", c.Doc, c.Link, res.Selection.Text, w.Error)
				}
				if got, sub := target.Kind(err), symbol.ErrorKind(err); got != w.Error || sub != w.Symbol {
					t.Fatalf("error kind %q %q (%v), want %q %q", got, sub, err, w.Error, w.Symbol)
				}
				var te *target.Error
				if !errors.As(err, &te) || te.Link != c.Link || te.Doc != c.Doc {
					t.Errorf("error %#v does not name the document and link", err)
				}
				return
			case err != nil:
				t.Fatalf("Resolve(%q, %q): %v", c.Doc, c.Link, err)
			}
			s := res.Selection
			if w.Text != nil && string(s.Text) != *w.Text {
				t.Errorf("text %q, want %q", s.Text, *w.Text)
			}
			if w.Chars != nil && (len(w.Chars) != 2 || s.Chars != (rfc5147.Span{Start: int64(w.Chars[0]), End: int64(w.Chars[1])})) {
				t.Errorf("chars %v, want %v", s.Chars, w.Chars)
			}
			if w.Lines != nil && (len(w.Lines) != 2 || s.Lines != (rfc5147.Span{Start: int64(w.Lines[0]), End: int64(w.Lines[1])})) {
				t.Errorf("lines %v, want %v", s.Lines, w.Lines)
			}
			if w.Clamped != nil && s.Clamped != *w.Clamped {
				t.Errorf("clamped %v, want %v", s.Clamped, *w.Clamped)
			}
			if w.Label != nil && s.Label() != *w.Label {
				t.Errorf("label %q, want %q", s.Label(), *w.Label)
			}
			if w.UnknownChecks != nil {
				var unknown []string
				for _, cr := range s.Checks {
					if cr.Status == rfc5147.Ignored {
						unknown = append(unknown, cr.Check.String())
					}
				}
				if len(unknown) != len(w.UnknownChecks) {
					t.Errorf("ignored checks %q, want %q", unknown, w.UnknownChecks)
				} else {
					for i := range unknown {
						if unknown[i] != w.UnknownChecks[i] {
							t.Errorf("ignored checks %q, want %q", unknown, w.UnknownChecks)
							break
						}
					}
				}
			}
		})
	}
}
