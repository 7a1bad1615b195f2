package symbol_test

import (
	"bytes"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/filetest"
)

// BenchmarkFind is the cost of a name in a 5,000-line Go file (200 types
// with their constructors, methods, fields and regions):
//
//	go test -run '^$' -bench Find -count 10 ./goldmark-textfrag/symbol
//
// cold-sym parses the file and looks one name up, as the first sym= link
// into a file does; cold-region finds the marker lines and one region;
// indexed-sym and indexed-region are each later lookup in the same file
// (symbol.Index, which target.Resolver keeps per file).
func BenchmarkFind(b *testing.B) {
	src := filetest.GoSource(5000)
	if n := bytes.Count(src, []byte("\n")); n < 4990 || n > 5010 {
		b.Fatalf("%d lines", n)
	}
	set := symbol.Default()
	sym := symbol.Selector{Kind: symbol.Symbol, Name: "T100.Count"}
	region := symbol.Selector{Kind: symbol.Region, Name: "new100"}
	for _, sel := range []symbol.Selector{sym, region} {
		if _, err := set.Find("gen.go", "", src, sel); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("cold-sym", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := set.Find("gen.go", "", src, sym); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold-region", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := set.Find("gen.go", "", src, region); err != nil {
				b.Fatal(err)
			}
		}
	})
	x := set.Index("gen.go", "", src)
	b.Run("indexed-sym", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := x.Find(sym); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("indexed-region", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := x.Find(region); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The generated file is what the benchmark says: its spans, read off the
// template, hold.
func TestGoSourceSpans(t *testing.T) {
	src := filetest.GoSource(5000)
	set := symbol.Default()
	// Block i starts at line position 2 + 25i; in it, the struct is lines
	// 1–5 after its doc, NewT's body region lines 10–11, Count lines 16–21.
	base := 2 + 25*100
	for _, c := range []struct {
		sel        symbol.Selector
		start, end int
	}{
		{symbol.Selector{Kind: symbol.Symbol, Name: "T100"}, base + 1, base + 6},
		{symbol.Selector{Kind: symbol.Symbol, Name: "T100.Count", Doc: true}, base + 16, base + 23},
		{symbol.Selector{Kind: symbol.Region, Name: "new100"}, base + 10, base + 12},
		{symbol.Selector{Kind: symbol.Symbol, Name: "limit100"}, base + 24, base + 25},
	} {
		got, err := set.Find("gen.go", "", src, c.sel)
		if err != nil || got.Start != c.start || got.End != c.end {
			t.Errorf("%s = %+v, %v; want [%d, %d)", c.sel, got, err, c.start, c.end)
		}
	}
}
