package pin

import (
	"math/rand/v2"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// TestSpanIndexAgreesWithScan: the index gives enclosing's answer (the
// smallest declaration holding the range, the first of equals, -1 for
// none) on random declarations, nested, overlapping, equal, empty and
// reaching past each other, and on ranges inside, across and outside
// them.
func TestSpanIndexAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 147))
	for round := range 2000 {
		lines := 1 + rng.IntN(60)
		spans := make([]symbol.Span, rng.IntN(12))
		for i := range spans {
			s := rng.IntN(lines)
			spans[i] = symbol.Span{Start: s, End: s + rng.IntN(lines-s+1)}
		}
		x := newSpanIndex(spans)
		for range 50 {
			s := rng.IntN(lines+4) - 2
			e := s + rng.IntN(8) - 1
			if got, want := x.enclosing(s, e), enclosing(spans, s, e); got != want {
				t.Fatalf("round %d: spans %v, lines [%d, %d): index %d, scan %d", round, spans, s, e, got, want)
			}
		}
	}
}

// TestSpanIndexVisitsFew: one question looks at the declarations that
// hold its line and O(log lines) nodes, not at every declaration: 20,000
// functions side by side, a question each.
func TestSpanIndexVisitsFew(t *testing.T) {
	spans := make([]symbol.Span, 20000)
	for i := range spans {
		spans[i] = symbol.Span{Start: 5 * i, End: 5*i + 4, Name: "f", Kind: "func"}
	}
	x := newSpanIndex(spans)
	looked := 0
	for i := range spans {
		for p := 5*i + 1 + x.size; p >= 1; p /= 2 {
			looked += len(x.node[p])
		}
		if got := x.enclosing(5*i+1, 5*i+3); got != i {
			t.Fatalf("lines of func %d: got %d", i, got)
		}
	}
	if per := float64(looked) / float64(len(spans)); per > 4 {
		t.Errorf("%.1f declarations looked at per question, want a handful", per)
	}
}
