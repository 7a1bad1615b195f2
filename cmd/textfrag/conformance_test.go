package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/corpus"
	"github.com/textfrag/textfrag/internal/symbols"
)

// TestCheckConformance runs every case of the shared corpus through
// "check --format json", as CI runs it: a case that wants an error gets an
// error of that kind (and, for names, that sub-kind), a case that wants a
// selection passes without errors, and a link that is not ours passes
// untouched. The command has every symbol parser (internal/symbols), so it
// runs the tree-sitter cases too. Cases with Markdown of their own are the
// placement rule, written for the library's dialect (footnotes, definition
// lists), which the library's runner holds; the command's pages are GFM.
func TestCheckConformance(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, cs := range cases {
		if cs.Markdown != "" {
			continue
		}
		t.Run(cs.Name, func(t *testing.T) {
			root := t.TempDir()
			if err := cs.Materialize(root); err != nil {
				t.Fatal(err)
			}
			e2eWrite(t, root, map[string]string{cs.Doc: conformanceDoc(cs)})
			args := []string{"check", "--format", "json", "--root", root}
			globs := make([]string, 0, len(cs.Charsets))
			for g := range cs.Charsets {
				globs = append(globs, g)
			}
			sort.Strings(globs)
			for _, g := range globs {
				args = append(args, "--charset", g+"="+cs.Charsets[g])
			}
			t.Chdir(root)
			out, stderr, code := runIn(t, append(args, cs.Doc)...)
			var recs []checkRecord
			if err := json.Unmarshal([]byte(out), &recs); err != nil {
				t.Fatalf("check: %v: %q %s", err, out, stderr)
			}
			var errs []checkRecord
			for _, r := range recs {
				if r.Severity == "error" {
					errs = append(errs, r)
				}
			}
			w := cs.WantWith(symbols.Set())
			switch {
			case w.Error != "":
				if code != 1 || len(errs) == 0 || errs[0].Kind != w.Error {
					t.Fatalf("want a %s error; check exits %d with %+v", w.Error, code, recs)
				}
				conformanceSubKind(t, w, errs[0])
			case len(errs) > 0:
				t.Fatalf("want no error; check says %+v", errs)
			case w.Ignored && len(recs) > 0:
				t.Fatalf("an ignored link is reported: %+v", recs)
			}
			// What the box shows (marker lines left out): render's HTML.
			if (w.Shown != nil || w.Numbers != nil) && w.Error == "" {
				t.Chdir(root)
				html, stderr, code := runIn(t, "render", "--root", root, cs.Doc)
				box, ok := corpus.FindBox(html)
				if code != 0 || !ok {
					t.Fatalf("render: exit %d, no box in %q\n%s", code, html, stderr)
				}
				if want := w.BoxText(); want != nil && box.Text != *want {
					t.Errorf("render: the box shows %q, want %q", box.Text, *want)
				}
				if w.Numbers != nil && !slices.Equal(box.Numbers, w.Numbers) {
					t.Errorf("render: line numbers %v, want %v", box.Numbers, w.Numbers)
				}
			}
			// A named quote: resolve --options gives the text the name
			// spans, from the page's directory.
			if _, named, _ := symbol.ParseSelector(cs.Title); named && w.Text != nil && w.Error == "" && len(cs.Charsets) == 0 {
				t.Chdir(filepath.Join(root, filepath.Dir(filepath.FromSlash(cs.Doc))))
				out, stderr, code := runIn(t, "resolve", "--root", root, "--options", cs.Title, cs.Link)
				if code != 0 || out != *w.Text {
					t.Errorf("resolve --options %q %s: exit %d, %q (want %q)\n%s", cs.Title, cs.Link, code, out, *w.Text, stderr)
				}
			}
		})
	}
}

// conformanceDoc is the page a case's link is written in: the link alone in a paragraph, with the case's title.
func conformanceDoc(cs corpus.Case) string {
	text := cs.Text
	if text == "" {
		text = "quote"
	}
	return "[" + text + "](" + cs.Destination() + ")\n"
}

// conformanceSubKind checks a name error's sub-kind against the case's.
func conformanceSubKind(t *testing.T, w corpus.Want, rec checkRecord) {
	t.Helper()
	if rec.Symbol != w.Symbol {
		t.Errorf("want symbol %q; check says %+v", w.Symbol, rec)
	}
}
