package pin

import "github.com/textfrag/textfrag/goldmark-textfrag/symbol"

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
	return x
}

// enclosing is enclosing(x.spans, s, e), to the same answer: the
// smallest declaration that holds lines [s, e), the first of equals.
func (x *spanIndex) enclosing(s, e int) int {
	e = max(e, s+1)
	if s < 0 || s >= x.size {
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
