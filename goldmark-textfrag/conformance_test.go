package textfrag_test

import (
	"bytes"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/corpus"
)

// TestConformance runs the shared corpus through Convert: each case's link,
// alone in its paragraph of the case's document, must give the box, error,
// warning or untouched link the corpus says.
func TestConformance(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			root := t.TempDir()
			if err := c.Materialize(root); err != nil {
				t.Fatal(err)
			}
			var rules []target.CharsetRule
			for glob, cs := range c.Charsets {
				rules = append(rules, target.CharsetRule{Glob: glob, Charset: cs})
			}
			sort.Slice(rules, func(i, j int) bool { return rules[i].Glob < rules[j].Glob })
			// Markdown as Hugo renders it by default, so that both front
			// ends read the corpus's Markdown alike.
			md := goldmark.New(goldmark.WithExtensions(
				extension.GFM, extension.Footnote, extension.DefinitionList, extension.Typographer,
				textfrag.New(textfrag.WithRoot(root), textfrag.WithCharsets(rules...), textfrag.WithHighlighting(false),
					textfrag.WithSymbols(extraSymbols))))
			src := "[" + c.Text + "](" + c.Destination() + ")\n"
			if c.Markdown != "" {
				src = c.Document()
			}
			pc := parser.NewContext()
			textfrag.SetDocument(pc, c.Doc)
			var out bytes.Buffer
			err := md.Convert([]byte(src), &out, parser.WithContext(pc))
			w := c.WantWith(symbol.Default().Merge(extraSymbols))
			switch {
			case w.Error != "":
				var p *textfrag.Problem
				if !errors.As(err, &p) {
					t.Fatalf("Convert error = %v, want a %s error", err, w.Error)
				}
				if p.Kind != w.Error || p.Reason != w.Symbol {
					t.Fatalf("error kind %q %q (%v), want %q %q", p.Kind, p.Reason, p, w.Error, w.Symbol)
				}
				if p.Line != 1 || p.Column != 1 || p.Document != c.Doc {
					t.Errorf("error at %s:%d:%d, want %s:1:1", p.Document, p.Line, p.Column, c.Doc)
				}
				return
			case err != nil:
				t.Fatalf("Convert: %v", err)
			case w.Ignored:
				var plain bytes.Buffer
				gfm := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList, extension.Typographer))
				if err := gfm.Convert([]byte(src), &plain); err != nil {
					t.Fatal(err)
				}
				if out.String() != plain.String() {
					t.Fatalf("ignored link changed:\n%s\nwant\n%s", out.String(), plain.String())
				}
				return
			}
			if c.Markdown != "" {
				boxes, links := corpus.Placement(out.String())
				if !slices.Equal(boxes, w.Boxes) || !slices.Equal(links, w.Links) {
					t.Errorf("boxes %q and links %q, want %q and %q; page:\n%s", boxes, links, w.Boxes, w.Links, out.String())
				}
				return
			}
			box, ok := corpus.FindBox(out.String())
			if !ok {
				t.Fatalf("no box in\n%s", out.String())
			}
			if w.Title != nil && box.Title != *w.Title {
				t.Errorf("title %q, want %q", box.Title, *w.Title)
			}
			if want := w.BoxText(); want != nil && box.Text != *want {
				t.Errorf("text %q, want %q", box.Text, *want)
			}
			if w.Numbers != nil && !slices.Equal(box.Numbers, w.Numbers) {
				t.Errorf("line numbers %v, want %v", box.Numbers, w.Numbers)
			}
			if w.Label != nil && box.Label != *w.Label {
				t.Errorf("label %q, want %q", box.Label, *w.Label)
			}
			if w.Fragment != nil && box.Fragment != *w.Fragment {
				t.Errorf("data-textfrag-fragment %q, want %q", box.Fragment, *w.Fragment)
			}
			var clampWarnings, ignoredChecks int
			for _, p := range textfrag.Problems(pc) {
				switch {
				case strings.Contains(p.Message, "goes past the end"):
					clampWarnings++
				case strings.Contains(p.Message, "unknown integrity check"):
					ignoredChecks++
				}
			}
			if w.Clamped != nil && (clampWarnings == 1) != *w.Clamped {
				t.Errorf("%d clamping warnings, want clamped=%v", clampWarnings, *w.Clamped)
			}
			if w.UnknownChecks != nil && ignoredChecks != len(w.UnknownChecks) {
				t.Errorf("%d ignored-check warnings, want %d (%v)", ignoredChecks, len(w.UnknownChecks), w.UnknownChecks)
			}
		})
	}
}

// extraSymbols are parsers for the languages symbol.Default does not know:
// none here. The tree-sitter parsers are a module of their own, which the
// library's tests must not need (TestModuleGraph): with them, the corpus runs
// as written through this library in cmd/textfrag's TestConformance and
// through the parsers in symbol/treesitter's corpus test.
var extraSymbols symbol.Set
