package pin

// This file holds what sameSection asks of the lines near a quote,
// answered from arrays made once per line map: the nearest line that says
// something beyond a line, the first line of a section the diff carried,
// whether an edited line was paired alone. Each was a walk from the line
// asked about (over blank lines, deleted lines, a run of changes) once per
// quote, and a fork chooses how long those runs are and how many quotes
// stand next to them: Q quotes by a run of N blank lines cost Q × N.

// lineRuns is what one line map answers about runs of lines, made once
// (lineMap.runs).
type lineRuns struct {
	// oldNext, oldPrev: for each old line, the nearest old line at or
	// after it (at or before it) that says something, len(a) (-1) for
	// none; newNext, newPrev the same for the new lines.
	oldNext, oldPrev, newNext, newPrev []int32
	// oldCarried: for each old line, the first old line at or after it
	// the diff did not delete and that says something, or len(a);
	// newCarried: the first new line at or after it carried from an old
	// line (kept or edited) that says something, or len(b).
	oldCarried, newCarried []int32
	// paired memoizes pairedAlone: 0 not asked, 1 no, 2 yes.
	paired []uint8
}

// runs returns m's lineRuns (a, b are its old and new lines), made once.
func (m *lineMap) runs(a, b []string) *lineRuns {
	if m.lineRuns != nil {
		return m.lineRuns
	}
	r := &lineRuns{paired: make([]uint8, len(a))}
	r.oldNext, r.oldPrev = nearest(a, func(i int) bool { return substantive(a[i]) })
	r.newNext, r.newPrev = nearest(b, func(j int) bool { return substantive(b[j]) })
	r.oldCarried, _ = nearest(a, func(i int) bool { return m.fate[i] != lineDeleted && substantive(a[i]) })
	r.newCarried, _ = nearest(b, func(j int) bool { return m.fromNew[j] >= 0 && substantive(b[j]) })
	m.lineRuns = r
	return r
}

// nearest returns, for each of lines, the nearest line at or after it
// (next; len(lines) for none) and at or before it (prev; -1 for none) for
// which ok holds.
func nearest(lines []string, ok func(int) bool) (next, prev []int32) {
	n := len(lines)
	next, prev = make([]int32, n), make([]int32, n)
	at := int32(n)
	for i := n - 1; i >= 0; i-- {
		if ok(i) {
			at = int32(i)
		}
		next[i] = at
	}
	at = -1
	for i := range n {
		if ok(i) {
			at = int32(i)
		}
		prev[i] = at
	}
	return next, prev
}

// sayingBeyond returns the nearest line that says something beyond line
// i (after it when step is 1, before it when -1), by next and prev of
// those lines: -1 or len(next) for none, as the walk over the lines that
// say nothing ended.
func sayingBeyond(i, step int, next, prev []int32) int {
	i += step
	switch {
	case i < 0:
		return -1
	case i >= len(next):
		return len(next)
	case step > 0:
		return int(next[i])
	}
	return int(prev[i])
}

// firstFrom returns the first line from i on, before limit, at which
// first (oldCarried or newCarried) says the walk stops; limit for none.
func firstFrom(i, limit int, first []int32) int {
	if i >= limit {
		return i
	}
	return min(int(first[i]), limit)
}
