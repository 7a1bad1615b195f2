package pin

import (
	"slices"
	"sort"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// spanIndex answers enclosing's question (the innermost declaration that
// holds a range of lines) for one version's declarations without looking
// at each of them: a segment tree over line numbers, each declaration
// stored in the O(log lines) nodes that cover its lines, so a question
// visits O(log lines) nodes and the declarations that hold its first line.
// Many quotes into one file then cost quotes × (log lines + nesting), not
// quotes × declarations.
type spanIndex struct {
	spans []symbol.Span
	size  int       // a power of two above every declaration's end line
	node  [][]int32 // node[i]: the declarations node i covers whole
	// byStart holds the declarations that do not end before they start,
	// by first line (then index); odd the others, which no parser makes
	// but which overlapping asks one by one rather than miss.
	byStart, odd []int32
}

func newSpanIndex(spans []symbol.Span) *spanIndex {
	x := &spanIndex{spans: spans, size: 1}
	for _, d := range spans {
		for x.size < d.End {
			x.size *= 2
		}
	}
	x.node = make([][]int32, 2*x.size)
	for i, d := range spans {
		if d.End < d.Start {
			x.odd = append(x.odd, int32(i))
		} else {
			x.byStart = append(x.byStart, int32(i))
		}
		l, r := max(d.Start, 0)+x.size, min(d.End, x.size)+x.size
		for l < r {
			if l&1 == 1 {
				x.node[l] = append(x.node[l], int32(i))
				l++
			}
			if r&1 == 1 {
				r--
				x.node[r] = append(x.node[r], int32(i))
			}
			l, r = l/2, r/2
		}
	}
	slices.SortStableFunc(x.byStart, func(i, j int32) int { return spans[i].Start - spans[j].Start })
	return x
}

// enclosing is enclosing(x.spans, s, e), to the same answer: the
// smallest declaration that holds lines [s, e), the first of equals.
func (x *spanIndex) enclosing(s, e int) int {
	e = max(e, s+1)
	switch {
	case s >= x.size:
		return -1 // every declaration ends before: none holds line s
	case s < 0:
		return enclosing(x.spans, s, e) // no line an index holds: ask them all
	}
	best := -1
	for p := s + x.size; p >= 1; p /= 2 {
		for _, j := range x.node[p] {
			i := int(j)
			d := x.spans[i]
			if d.Start <= s && e <= d.End && (best < 0 || d.End-d.Start < x.spans[best].End-x.spans[best].Start || d.End-d.Start == x.spans[best].End-x.spans[best].Start && i < best) {
				best = i
			}
		}
	}
	return best
}

// overlapping returns the declarations that lines [s, e) (an empty range:
// the line s) touch, as indices in x.spans in increasing order: what
// overlapped names for a quote outside any declaration. Those that hold
// line s are in the O(log lines) nodes above it; the others start after
// s, before e, found by binary search in byStart. A question costs
// O(log lines) and what it returns, not a look at every declaration, so
// many quotes into one file cost quotes × (log lines + answer).
func (x *spanIndex) overlapping(s, e int) []int {
	e = max(e, s+1)
	var out []int
	if s < 0 {
		for i, d := range x.spans { // no line an index holds: ask them all
			if d.Start < e && s < d.End {
				out = append(out, i)
			}
		}
		questionWork.Add(int64(len(x.spans)))
		return out
	}
	steps := int64(0)
	if s < x.size {
		// Start <= s < End: each in exactly one node above line s.
		for p := s + x.size; p >= 1; p /= 2 {
			steps++
			for _, j := range x.node[p] {
				out = append(out, int(j))
			}
		}
	}
	// s < Start < e; End >= Start > s holds for each of byStart.
	k := sort.Search(len(x.byStart), func(k int) bool { steps++; return x.spans[x.byStart[k]].Start > s })
	for ; k < len(x.byStart) && x.spans[x.byStart[k]].Start < e; k++ {
		out = append(out, int(x.byStart[k]))
	}
	for _, j := range x.odd {
		if d := x.spans[j]; d.Start < e && s < d.End && d.Start > s {
			out = append(out, int(j))
		}
	}
	slices.Sort(out)
	questionWork.Add(steps + int64(len(x.odd)+len(out)))
	return out
}
