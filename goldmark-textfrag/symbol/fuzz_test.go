package symbol_test

import (
	"errors"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// lineCount is the number of lines of src by the project's rule.
func lineCount(src []byte) int {
	starts := rfc5147.LineStarts(src)
	n := len(starts)
	if n > 1 && starts[n-1] == len(src) {
		n--
	}
	return n
}

func checkSpan(t *testing.T, what string, s symbol.Span, lines int) {
	t.Helper()
	if s.Start < 0 || s.Start > s.End || s.End > lines {
		t.Fatalf("%s: span [%d, %d) outside 0 ≤ start ≤ end ≤ %d lines", what, s.Start, s.End, lines)
	}
}

// FuzzRegions: any text, any name: no panic; every region found lies in
// the file, strictly between its marker lines, and Find agrees with
// Regions.
func FuzzRegions(f *testing.F) {
	for _, s := range []string{
		"a\n// textfrag:begin r\nb\n// textfrag:end r\n",
		"# textfrag:begin r\r# textfrag:begin s\rx\r# textfrag:end s\r# textfrag:end r",
		"<!-- textfrag:begin a -->\u0085x\u0085<!-- textfrag:end a -->",
		"// textfrag:end r\n// textfrag:begin r\n",
		"{{- /* textfrag:begin a */ -}}\r\n{{/* textfrag:end a */}}",
		"textfrag:textfrag:begin x\ntextfrag:",
	} {
		f.Add([]byte(s), "r")
	}
	f.Fuzz(func(t *testing.T, src []byte, name string) {
		lines := lineCount(src)
		spans, _ := symbol.Regions(src)
		for _, s := range spans {
			checkSpan(t, "Regions "+s.Name, s, lines)
			if s.Start == 0 || s.End >= lines {
				t.Fatalf("region %s [%d, %d) leaves no line for its markers in %d lines", s.Name, s.Start, s.End, lines)
			}
			got, err := symbol.Set{}.Find("a.txt", "", src, symbol.Selector{Kind: symbol.Region, Name: s.Name})
			if err != nil || got != s {
				t.Fatalf("Find(region=%s) = %+v, %v; Regions says %+v", s.Name, got, err, s)
			}
		}
		s, err := symbol.Set{}.Find("a.txt", "", src, symbol.Selector{Kind: symbol.Region, Name: name})
		if err == nil {
			checkSpan(t, "Find", s, lines)
		} else if symbol.ErrorKind(err) == "" || err.Error() == "" {
			t.Fatalf("error %v has no kind", err)
		}
	})
}

// FuzzGoDecls: any text as Go: no panic; a parse error or declarations
// whose spans lie in the file, the doc span around the plain one, and
// each name found again by Find unless declared twice.
func FuzzGoDecls(f *testing.F) {
	for _, s := range []string{
		"package p\n\n// F is f.\nfunc F() {}\n",
		"package p\r\ntype (\r\n\tA[T any] struct{ x T }\r\n\tB interface{ M() }\r\n)\r\nfunc (a *A[T]) M() {}\r\n",
		"package p\nconst (\n\ta, b = 1, 2\n\t_ = 3\n)\nvar c, d int\n",
		"package p\nfunc (",
		"package p\rfunc F() {}\r",
		"package p\ntype T struct{ struct{ a int }; *sync.Mutex; U[int] }\n",
	} {
		f.Add([]byte(s), "F")
	}
	set := symbol.Default()
	f.Fuzz(func(t *testing.T, src []byte, name string) {
		lines := lineCount(src)
		plain, err := set.Symbols("a.go", "", src, false)
		if err != nil {
			if !errors.Is(err, symbol.ErrParse) {
				t.Fatalf("Symbols: %v, want a parse error", err)
			}
			return
		}
		withDoc, err := set.Symbols("a.go", "", src, true)
		if err != nil || len(withDoc) != len(plain) {
			t.Fatalf("with doc: %d spans, %v; without: %d", len(withDoc), err, len(plain))
		}
		x := set.Index("a.go", "", src)
		count := map[string]int{}
		for _, s := range plain {
			count[s.Name]++
		}
		for i, s := range plain {
			checkSpan(t, "sym="+s.Name, s, lines)
			d := withDoc[i]
			checkSpan(t, "sym="+s.Name+" doc", d, lines)
			if d.Start > s.Start || d.End != s.End || d.Name != s.Name {
				t.Fatalf("doc span %+v does not extend %+v", d, s)
			}
			got, err := x.Find(symbol.Selector{Kind: symbol.Symbol, Name: s.Name})
			switch {
			case count[s.Name] > 1 && !errors.Is(err, symbol.ErrAmbiguous):
				t.Fatalf("sym=%s declared %d times: %+v, %v", s.Name, count[s.Name], got, err)
			case count[s.Name] == 1 && (err != nil || got != s):
				t.Fatalf("Find(sym=%s) = %+v, %v; Symbols says %+v", s.Name, got, err, s)
			}
		}
		if s, err := x.Find(symbol.Selector{Kind: symbol.Symbol, Name: name}); err == nil {
			checkSpan(t, "Find", s, lines)
		}
	})
}
