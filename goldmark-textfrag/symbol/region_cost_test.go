package symbol

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// manyBegins is a file of n regions all named r, each closed: the shape a
// fork writes to make the ambiguous-name message cost the square of the
// markers (each begin's candidate used to look for its end from the first
// marker on).
func manyBegins(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "// textfrag:begin r\nline %d\n// textfrag:end r\n", i)
	}
	return []byte(b.String())
}

// The region rule looks at each marker a bounded number of times: twice the
// begin markers cost at most about twice the looks, and the candidates are
// still each begin's own region.
func TestRegionLinearInMarkers(t *testing.T) {
	visits := func(n int) int64 {
		before := regionVisits.Load()
		_, err := Set{}.Find("src/a.go", "", manyBegins(n), Selector{Kind: Region, Name: "r"})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrAmbiguous) || len(e.Candidates) != n {
			t.Fatalf("%d begins: %v", n, err)
		}
		for i, c := range e.Candidates {
			if c.Start != 3*i+1 || c.End != 3*i+2 {
				t.Fatalf("candidate %d is lines [%d, %d), want [%d, %d)", i, c.Start, c.End, 3*i+1, 3*i+2)
			}
		}
		return regionVisits.Load() - before
	}
	small, large := visits(2000), visits(4000)
	if small <= 0 || float64(large) > 2.2*float64(small) {
		t.Errorf("2,000 begins: %d marker visits; 4,000: %d (more than 2.2 times)", small, large)
	}
}

// A begin with no end after it still spans itself alone among the
// candidates, and an end before every begin closes none of them.
func TestRegionCandidatesWithoutEnd(t *testing.T) {
	src := "// textfrag:end r\n// textfrag:begin r\nx\n// textfrag:end r\n// textfrag:begin r\ny\n"
	_, err := Set{}.Find("src/a.go", "", []byte(src), Selector{Kind: Region, Name: "r"})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrAmbiguous) || len(e.Candidates) != 2 {
		t.Fatalf("%v", err)
	}
	if c := e.Candidates[0]; c.Start != 2 || c.End != 3 {
		t.Errorf("first candidate [%d, %d), want [2, 3)", c.Start, c.End)
	}
	if c := e.Candidates[1]; c.Start != 5 || c.End != 5 {
		t.Errorf("second candidate [%d, %d), want [5, 5)", c.Start, c.End)
	}
}

// BenchmarkRegionManyBegins is the ambiguous-name lookup in a file of
// 4,000 begin markers of one name.
func BenchmarkRegionManyBegins(b *testing.B) {
	src := manyBegins(4000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := (Set{}).Find("src/a.go", "", src, Selector{Kind: Region, Name: "r"}); !errors.Is(err, ErrAmbiguous) {
			b.Fatal(err)
		}
	}
}
