package hugotest

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// manyMarkers is a file of n regions all named r and n regions named q0,
// q1, …: a fork's file that made the templates cost the square of its
// markers (each marker appended to a copied list; each begin of an
// ambiguous name searched for its end from the first marker on).
func manyMarkers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "// textfrag:begin r\nx%d := %d\n// textfrag:end r\n// textfrag:begin q%d\n// textfrag:end q%d\n", i, i, i, i)
	}
	return b.String()
}

// The region templates are linear in the markers of a file: the work of a
// build, counted as the heap allocations it makes (a count, not a time),
// grows by about twice as much from 2N to 4N markers as from N to 2N (the
// square would make it four times), and the messages are the engine's,
// candidates and close names included.
func TestRegionManyMarkersLinear(t *testing.T) {
	const doc = "---\ntitle: t\n---\n\n![all](../src/m.go#line=1,2 \"region=r\")\n\n![none](../src/m.go#line=1,2 \"region=q\")\n"
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
			"region=q is not in src/m.go; close names: q")
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
