package textfrag

import (
	"strings"
	"testing"
)

// TestDedent: the margin removed is textwrap.dedent's (the wants are what
// Python 3's textwrap.dedent returns for each input), and omitted lines
// (region markers the box leaves out) count toward no margin: the lines
// shown are dedented as textwrap.dedent dedents them without the omitted
// ones.
func TestDedent(t *testing.T) {
	for _, c := range []struct {
		in    string
		omit  []int // human numbers, the first line being 10
		shown string
	}{
		{"    a\n      b\n    c\n", nil, "a\n  b\nc\n"},
		{"\ta\n  b\n", nil, "\ta\n  b\n"},
		{"  a\n \n\t\n  b", nil, "a\n\n\nb"},
		{"  \t a\n  \t  b\n", nil, "a\n b\n"},
		{"    x\n  // textfrag:begin r\n    y\n", nil, "  x\n// textfrag:begin r\n  y\n"},
		// textwrap.dedent("    x\n    y\n") without the marker line.
		{"    x\n  // textfrag:begin r\n    y\n", []int{11}, "x\ny\n"},
		// Every line omitted but one; numbers outside the lines are ignored.
		{"  a\n b\n    c\n", []int{9, 10, 11, 13, 40}, "c\n"},
	} {
		lines := strings.SplitAfter(c.in, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		dedent(lines, c.omit, 10)
		var shown strings.Builder
		for i, l := range lines {
			omitted := false
			for _, o := range c.omit {
				omitted = omitted || o == 10+i
			}
			if !omitted {
				shown.WriteString(l)
			}
		}
		if shown.String() != c.shown {
			t.Errorf("dedent(%q, omit %v) shows %q, want %q", c.in, c.omit, shown.String(), c.shown)
		}
	}
}

// TestDedentLinear: dedent looks at each line and each omitted number a
// bounded number of times (dedentSteps), not at every omitted number for
// every line: doubling a box of lines and marker lines doubles the work.
// Counted, not timed.
func TestDedentLinear(t *testing.T) {
	steps := func(n int) int64 {
		// n lines, every other one a marker line the box omits.
		var lines, omit = make([]string, 0, 2*n), make([]int, 0, n)
		for i := range n {
			lines = append(lines, "    code\n", "  // textfrag:begin r\n")
			omit = append(omit, 1+2*i+1)
		}
		before := dedentSteps.Load()
		dedent(lines, omit, 1)
		if lines[0] != "code\n" {
			t.Fatalf("line 1 dedented to %q", lines[0])
		}
		return dedentSteps.Load() - before
	}
	const n = 2000
	small, large := steps(n), steps(2*n)
	t.Logf("%d lines, %d omitted: %d steps; doubled: %d (×%.2f)", 2*n, n, small, large, float64(large)/float64(small))
	if large > small*5/2 || large > 2*(4*n+2*n) {
		t.Errorf("steps %d → %d for twice the lines and omitted lines (linear: ×2, at most 2 a line and omitted number)", small, large)
	}
}
