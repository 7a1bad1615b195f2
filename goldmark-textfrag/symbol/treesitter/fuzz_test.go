//go:build cgo

package treesitter

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter/internal/alloccount"
)

// checkDecls fails t unless Decls's answer for src is well formed: either
// declarations inside src (DocStart ≤ Start ≤ End ≤ len) with a name, or a
// parse error.
func checkDecls(t *testing.T, key string, p symbol.Parser, src []byte) {
	t.Helper()
	ds, err := p.Decls(src)
	if err != nil {
		var pe *symbol.ParseError
		if !errors.As(err, &pe) || pe.Offset < -1 || pe.Offset > len(src) {
			t.Fatalf("%s: %q: error %#v", key, src, err)
		}
		if pe.Partial == nil {
			return
		}
		// A partial parse (C, C++): its declarations as below, its
		// damage inside src.
		for _, g := range pe.Partial.Damage {
			if !(0 <= g.Start && g.Start <= g.End && g.End <= len(src) && -1 <= g.Offset && g.Offset <= len(src)) || g.Msg == "" {
				t.Fatalf("%s: %q: bad damage %+v", key, src, g)
			}
		}
		ds = pe.Partial.Decls
	}
	for _, d := range ds {
		if d.Name == "" || d.Kind == "" || !(0 <= d.DocStart && d.DocStart <= d.Start && d.Start <= d.End && d.End <= len(src)) {
			t.Fatalf("%s: %q: bad declaration %+v", key, src, d)
		}
	}
}

// inputs returns random byte strings and random edits of the fixtures:
// cut, duplicated, or with bytes overwritten by brackets, quotes, line ends
// and invalid UTF-8.
func inputs(t *testing.T, r *rand.Rand, n int) [][]byte {
	var fixtures [][]byte
	names, _ := filepath.Glob("testdata/*.*")
	sort.Strings(names)
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fixtures = append(fixtures, b)
	}
	noise := []byte("{}()[]<>;:'\"`/\\*#@!\n\r\t \x00\x85\xc2\xff\xfe=,.$")
	var out [][]byte
	for i := range n {
		var b []byte
		switch i % 3 {
		case 0:
			b = make([]byte, r.IntN(2048))
			for j := range b {
				b[j] = byte(r.IntN(256))
				if b[j] == '\r' {
					b[j] = '\n' // a bare CR stops Decls before the parse
				}
			}
		case 1:
			f := fixtures[r.IntN(len(fixtures))]
			b = append([]byte(nil), f[:r.IntN(len(f)+1)]...)
		default:
			f := fixtures[r.IntN(len(fixtures))]
			b = append([]byte(nil), f...)
			for range 1 + r.IntN(8) {
				b[r.IntN(len(b))] = noise[r.IntN(len(noise))]
			}
		}
		out = append(out, b)
	}
	return out
}

// Random and mangled input never panics, never yields a declaration
// outside the source, and leaves no tree-sitter memory behind.
func TestRandomInput(t *testing.T) {
	alloccount.Install()
	defer alloccount.Uninstall()
	before := alloccount.Live()
	r := rand.New(rand.NewPCG(15, 5147))
	set := Parsers()
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 60
	if testing.Short() {
		n = 30
	}
	for _, src := range inputs(t, r, n) {
		for _, k := range keys {
			checkDecls(t, k, set[k], src)
		}
	}
	if live := alloccount.Live() - before; live != 0 {
		t.Errorf("%d tree-sitter blocks not freed after %d parses", live, n*len(keys))
	}
	// The counter sees tree-sitter's allocations.
	mark := alloccount.Total()
	if _, err := set["python"].Decls([]byte("def f():\n    pass\n")); err != nil {
		t.Fatal(err)
	}
	if alloccount.Total() == mark {
		t.Error("a parse allocated nothing the counter saw")
	}
}

func FuzzDecls(f *testing.F) {
	names, _ := filepath.Glob("testdata/*.*")
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	set := Parsers()
	f.Fuzz(func(t *testing.T, src []byte) {
		// Without its CRs too: a bare CR stops Decls before the parse.
		lf := bytes.ReplaceAll(src, []byte("\r"), nil)
		for k, p := range set {
			checkDecls(t, k, p, src)
			checkDecls(t, k, p, lf)
		}
	})
}
