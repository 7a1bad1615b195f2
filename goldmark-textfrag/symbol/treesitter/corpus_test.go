//go:build cgo

package treesitter

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/corpus"
)

// The corpus's tree-sitter cases, straight through symbol.Set.Find: the
// name's span must equal the link's lines for a selection, and the error's
// kind must be the one the case wants otherwise. (The goldmark conformance
// test runs the same cases through Convert.)
func TestCorpusThroughFind(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	set := symbol.Default().Merge(Parsers())
	langs := map[string]bool{}
	n := 0
	for _, c := range cases {
		if c.Source != "15-symbols-treesitter.json" {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			sel, ok, err := symbol.ParseSelector(c.Title)
			if err != nil || !ok {
				t.Fatalf("title %q: %v", c.Title, err)
			}
			path, frag, _ := strings.Cut(c.Link, "#")
			first, end := linkLines(t, frag)
			src, err := c.Files[path].Bytes()
			if err != nil {
				t.Fatal(err)
			}
			langs[symbol.LanguageOf(path, c.TitleLang())] = true
			span, err := set.Find(path, c.TitleLang(), src, sel)
			switch {
			case c.Want.Error == "" && err != nil:
				t.Fatalf("%v", err)
			case c.Want.Error == "" && (span.Start != first || span.End != end):
				t.Fatalf("%s spans %s, the link line=%d,%d", sel, span.Fragment(), first, end)
			case c.Want.Error == "":
			case c.Want.Symbol == "mismatch":
				if err != nil || span.Start == first && span.End == end {
					t.Fatalf("want a mismatch: %s, %v", span.Fragment(), err)
				}
			case symbol.ErrorKind(err) != c.Want.Symbol:
				t.Fatalf("error %v (%s), want %s", err, symbol.ErrorKind(err), c.Want.Symbol)
			}
		})
	}
	if n < 40 {
		t.Fatalf("%d cases in 15-symbols-treesitter.json", n)
	}
	for _, l := range []string{"python", "javascript", "typescript", "tsx", "rust", "java", "c", "cpp"} {
		if !langs[l] {
			t.Errorf("no corpus case in %s", l)
		}
	}
}

// linkLines reads line=A,B from a fragment.
func linkLines(t *testing.T, frag string) (int, int) {
	spec, _, _ := strings.Cut(strings.TrimPrefix(frag, "line="), ";")
	a, b, ok := strings.Cut(spec, ",")
	first, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		t.Fatal(fmt.Sprintf("fragment %q is not line=A,B", frag))
	}
	return first, end
}
