package hugotest

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// manyMarkers is a file of n regions all named r and n regions named p0.q,
// p1.q, …: a fork's file that made the templates cost the square of its
// markers (each marker appended to a copied list; each begin of an
// ambiguous name searched for its end from the first marker on; each
// close name appended, and every p….q is close to z.q: the same last
// component).
func manyMarkers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "// textfrag:begin r\nx%d := %d\n// textfrag:end r\n// textfrag:begin p%d.q\n// textfrag:end p%d.q\n", i, i, i, i)
	}
	return b.String()
}

// The region templates are linear in the markers of a file: the work of a
// build, counted as the heap allocations it makes (a count, not a time),
// grows by about twice as much from 2N to 4N markers as from N to 2N (the
// square would make it four times), and the messages are the engine's,
// candidates and close names included.
func TestRegionManyMarkersLinear(t *testing.T) {
	const doc = "---\ntitle: t\n---\n\n![all](../src/m.go#line=1,2 \"region=r\")\n\n![none](../src/m.go#line=1,2 \"region=z.q\")\n"
	allocs := func(n int) uint64 {
		root := t.TempDir()
		write(t, filepath.Join(root, "src", "m.go"), manyMarkers(n))
		s := site{Root: root, Docs: map[string]string{"docs/page.md": doc}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := s.build(t)
		runtime.ReadMemStats(&after)
		if r.Err == nil {
			t.Fatalf("%d markers: the build passed", 4*n)
		}
		// The candidates: each begin's region, the last one's too.
		mustContain(t, "the log", r.Log,
			fmt.Sprintf("region=r matches %d begin markers in src/m.go: region r (line 2), region r (line 7), ", n),
			fmt.Sprintf(", region r (line %d)", 5*(n-1)+2),
			"region=z.q is not in src/m.go; close names: p0.q, p1.q, p10.q, p100.q, p10")
		return after.Mallocs - before.Mallocs
	}
	const n = 500
	a1, a2, a4 := allocs(n), allocs(2*n), allocs(4*n)
	t.Logf("heap allocations: %d regions %d, %d regions %d, %d regions %d", 2*n, a1, 4*n, a2, 8*n, a4)
	if a2 <= a1 || a4 <= a2 {
		t.Fatalf("allocations do not grow with the markers: %d, %d, %d", a1, a2, a4)
	}
	if grow, base := a4-a2, a2-a1; float64(grow) > 2.5*float64(base) {
		t.Errorf("from %d to %d markers the build made %d more allocations, from %d to %d %d more: %.1f times (linear is 2)",
			4*n, 8*n, base, 8*n, 16*n, grow, float64(grow)/float64(base))
	}
}

// The close names a region that is not found lists are the engine's: the
// same limit (a fifth of the name's length, at least 1, and less than the
// name's length), the same order.
func TestRegionCloseNamesAsEngine(t *testing.T) {
	var src strings.Builder
	for _, name := range []string{"hello", "helxx", "hallo", "setup", "set", "s", "t", "a.setup", "setup2"} {
		fmt.Fprintf(&src, "// textfrag:begin %s\nx\n// textfrag:end %s\n", name, name)
	}
	// The list, up to the remedy: "; fix the name" in the engine's one
	// line, ". Fix the name" in Hugo's message and remedy.
	closeRE := regexp.MustCompile(`region=\S+ is not in src/m\.go(?:; close names: (.*?))?(?:; fix|\. Fix) the name`)
	closeOf := func(s string) string {
		m := closeRE.FindStringSubmatch(s)
		if m == nil {
			return "no message"
		}
		return "[" + m[1] + "]"
	}
	for _, q := range []string{"hellp", "s2", "x", "setpu", "b.setup", "helo"} {
		_, err := symbol.Set{}.Find("src/m.go", "", []byte(src.String()), symbol.Selector{Kind: symbol.Region, Name: q})
		if !errors.Is(err, symbol.ErrNotFound) {
			t.Fatalf("engine, region=%s: %v", q, err)
		}
		want := closeOf(err.Error())
		root := t.TempDir()
		write(t, filepath.Join(root, "src", "m.go"), src.String())
		doc := fmt.Sprintf("---\ntitle: t\n---\n\n![q](../src/m.go#line=1,2 \"region=%s\")\n", q)
		r := site{Root: root, Docs: map[string]string{"docs/page.md": doc}}.build(t)
		if r.Err == nil {
			t.Fatalf("region=%s: the build passed", q)
		}
		if got := closeOf(r.Log); got != want || want == "no message" {
			t.Errorf("region=%s: Hugo says %q, the engine %q", q, got, want)
		}
	}
}
