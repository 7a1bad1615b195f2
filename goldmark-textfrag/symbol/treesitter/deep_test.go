//go:build cgo

package treesitter

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// A C++ name of a hundred thousand a:: nests one tree node per ::. Read by
// recursion it took a stack frame per :: (an 8 MB file ran the goroutine's
// stack past its 1 GB limit: a fatal error no recover catches). The test
// lowers the limit to 4 MB so that a small file shows the same: the name is
// read without recursion and, too long to record, is not found, while the
// names around it are.
func TestDeepQualifiedName(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	const n = 100000
	long := strings.Repeat("a::", n) + "f"
	src := []byte("namespace " + strings.Repeat("b::", n) + "c { void g() {} }\nvoid " + long + "() {}\nint h() { return 0; }\n")
	set := symbol.Default().Merge(Parsers())
	x := set.Index("src/deep.cpp", "", src)
	if s, err := x.Find(symbol.Selector{Kind: symbol.Symbol, Name: "h"}); err != nil || s.Start != 2 || s.End != 3 {
		t.Errorf("sym=h: %+v, %v; want line 3", s, err)
	}
	for _, name := range []string{strings.ReplaceAll(long, "::", "."), "f", "g", "c.g"} {
		if _, err := x.Find(symbol.Selector{Kind: symbol.Symbol, Name: name}); !errors.Is(err, symbol.ErrNotFound) {
			t.Errorf("sym=%.40s: %v; want not found (the name is longer than %d bytes)", name, err, maxName)
		}
	}
}

// nestedBlocks is a C function of n nested blocks and a declaration with a
// syntax error after it, so that the error's damage is confined (confineC)
// over a tree n deep.
func nestedBlocks(n int) []byte {
	return []byte("void f(){" + strings.Repeat("{", n) + "x;" + strings.Repeat("}", n) + "}\nint y = ;\nvoid g(){}\n")
}

// Confinement walks the tree once with a cursor, keeping the depth itself:
// the cursor's own Depth counts the cursor's stack at every node, which
// made 5,000 nested blocks cost seconds. Twice the depth is at most about
// twice the nodes visited, and the names away from the error are found.
func TestConfineLinearInDepth(t *testing.T) {
	visits := func(n int) int64 {
		before := scanVisits.Load()
		_, err := Parsers()["c"].Decls(nestedBlocks(n))
		var pe *symbol.ParseError
		if !errors.As(err, &pe) || pe.Partial == nil {
			t.Fatalf("%d blocks: %v; want a parse error with a partial parse", n, err)
		}
		found := false
		for _, d := range pe.Partial.Decls {
			found = found || d.Name == "g"
		}
		if !found {
			t.Errorf("%d blocks: g is not among %+v", n, pe.Partial.Decls)
		}
		return scanVisits.Load() - before
	}
	small, large := visits(maxNesting/4), visits(maxNesting/2)
	if small <= 0 || float64(large) > 2.2*float64(small) {
		t.Errorf("%d blocks: %d nodes visited; %d blocks: %d", maxNesting/4, small, maxNesting/2, large)
	}
}

// BenchmarkConfineDeep is the confinement of an error after 5,000 nested
// blocks (20 KB); before the depth was kept by the scan it took seconds.
func BenchmarkConfineDeep(b *testing.B) {
	src := nestedBlocks(maxNesting / 2)
	b.SetBytes(int64(len(src)))
	cpu := cpuTime()
	for b.Loop() {
		if _, err := Parsers()["c"].Decls(src); err == nil {
			b.Fatal("no error")
		}
	}
	if c := cpuTime() - cpu; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
