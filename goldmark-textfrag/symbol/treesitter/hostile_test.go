//go:build cgo

package treesitter

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Nested blocks, deep as a hostile file makes them: names stop at maxDepth
// containers and maxName bytes, so the work stays linear in the file
// (qualified names would otherwise grow with the square of its size).
func TestDeepNesting(t *testing.T) {
	const n = maxNesting // the deepest a file is parsed at
	for _, c := range []struct{ lang, open, close string }{
		{"cpp", "namespace a{", "}"},
		{"rust", "mod a{", "}"},
		{"typescript", "namespace a{", "}"},
		{"java", "class a{", "}"},
	} {
		src := []byte(strings.Repeat(c.open, n) + strings.Repeat(c.close, n))
		start := time.Now()
		ds, err := Parsers()[c.lang].Decls(src)
		if err != nil {
			t.Errorf("%s: %v", c.lang, err)
			continue
		}
		if len(ds) != maxDepth {
			t.Errorf("%s: %d declarations, want the %d outermost", c.lang, len(ds), maxDepth)
		}
		for _, d := range ds {
			if len(d.Name) > maxName {
				t.Errorf("%s: a name of %d bytes", c.lang, len(d.Name))
			}
		}
		t.Logf("%s: %d nested blocks (%d KB) in %v", c.lang, n, len(src)/1024, time.Since(start))
	}
}

// A minified file is one long line: finding each declaration's doc comment
// must not read the line from its start each time.
func TestLongLine(t *testing.T) {
	const n = 20000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "function f%d(){return %d}", i, i)
	}
	src := []byte(b.String())
	start := time.Now()
	ds, err := Parsers()["javascript"].Decls(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != n {
		t.Fatalf("%d declarations, want %d", len(ds), n)
	}
	for _, d := range ds[1:] {
		if d.DocStart != d.Start {
			t.Fatalf("%s has a doc comment on a line of code: %+v", d.Name, d)
		}
	}
	t.Logf("%d functions on one line (%d KB) in %v", n, len(src)/1024, time.Since(start))
}
