package pin

import (
	"math"
	"sort"
)

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

// strays holds what firstStray needs of one line map and its slide zones,
// made once (lineMap.strays).
type strays struct {
	// zoneNext: for each new line, the first new line at or after it in
	// a slide zone that says something, or len(b).
	zoneNext []int32
	// carriedNext: for each new line, the first new line at or after it
	// carried from an old line (kept or edited), or len(b); keptNext: for
	// each old line, the first old line at or after it kept or edited, or
	// len(a).
	carriedNext, keptNext []int32
	// ordered: the map keeps the order of lines (every line diff and
	// pairing here does): carried new lines come from increasing old
	// lines. Else firstStray walks.
	ordered bool
}

// strays returns m's strays (z its slide zones), made once.
func (m *lineMap) strays(a, b []string, z *slideZones) *strays {
	if m.stray != nil {
		return m.stray
	}
	x := &strays{ordered: true}
	x.zoneNext, _ = nearest(b, func(j int) bool { return z.new[j] && substantive(b[j]) })
	x.carriedNext, _ = nearest(b, func(j int) bool { return m.fromNew[j] >= 0 })
	x.keptNext, _ = nearest(a, func(i int) bool { return m.fate[i] == lineKept || m.fate[i] == lineEdited })
	last := -1
	for _, o := range m.fromNew {
		if o >= 0 {
			x.ordered = x.ordered && o > last
			last = o
		}
	}
	m.stray = x
	return x
}

// firstStray returns the first new line of [ns, ne) that is in a slide
// zone and says something (zone), or that was carried from an old line
// outside [s, e); -1 for none: sameSection's last walk over the lines the
// quote spans now, which an insertion inside the quote makes as long as a
// fork likes. In an ordered map the lines carried from before s are the
// first carried lines, those from e on the last, so each is one look.
func (m *lineMap) firstStray(ns, ne, s, e int, a, b []string, z *slideZones) (j int, zone bool) {
	x := m.strays(a, b, z)
	if !x.ordered {
		for j := ns; j < ne; j++ {
			if z.new[j] && substantive(b[j]) {
				return j, true
			}
			if o := m.fromNew[j]; o >= 0 && (o < s || o >= e) {
				return j, false
			}
		}
		return -1, false
	}
	if ns >= ne {
		return -1, false
	}
	first := len(b) // the first new line carried from outside [s, e)
	c := int(x.carriedNext[ns])
	if c < len(b) && m.fromNew[c] < s {
		first = c
	} else {
		// The first line carried from e on: the first old line kept or
		// edited from e, unless that lies before ns (then every line
		// carried from ns on comes from e on).
		at := len(b)
		if e < len(a) {
			if i := int(x.keptNext[e]); i < len(a) {
				at = m.toNew[i]
			}
		}
		if at < ns {
			at = c
		}
		first = at
	}
	zj := int(x.zoneNext[ns])
	switch {
	case zj < ne && zj <= first:
		return zj, true
	case first < ne:
		return first, false
	}
	return -1, false
}

// runLikeness is what rewrittenInQuote has learnt of one run's new lines,
// in order (lineMap.strayInRun).
type runLikeness struct {
	upTo int // new lines [newStart, upTo) looked at
	// stop is the first of them that ends every question (a line the
	// pinned version had, or one likeDeletedAt could not tell past its
	// budget), or -1.
	stop int
	// minLo and maxHi hold, for each line looked at, the first and the
	// last deleted old line that it or a line before it in the run is
	// like (likeDeletedAt); math.MaxInt and -1 for none yet.
	minLo, maxHi []int
}

// strayInRun reports whether a new line of run n (a run of changes) says
// something, and says what a line of the pinned version said or is like
// a line deleted outside old lines [s, e): rewrittenInQuote's look at
// every new line of the run, which each quote with an edge in the run
// made again. Here the run's lines are looked at once, as far as the
// questions need, and what was learnt answers a question by binary
// search: a line is like a deleted line outside [s, e) exactly when the
// first such line before it lies before s, or the last at or after e.
//
// likeDeletedAt is asked about the same lines in the same order as the
// look at every line asked (the lines it answered it remembers), so its
// budget runs out at the same question, and every answer is the same.
func (m *lineMap) strayInRun(n, s, e int, a, b []string, z *slideZones) bool {
	h := m.hunks[n]
	if m.likeness == nil {
		m.likeness = map[int]*runLikeness{}
	}
	r := m.likeness[n]
	if r == nil {
		r = &runLikeness{upTo: h.newStart, stop: -1}
		m.likeness[n] = r
	}
	steps := int64(0)
	defer func() { questionWork.Add(steps) }()
	if r.stop >= 0 {
		return true
	}
	if p := sort.Search(len(r.minLo), func(p int) bool { steps++; return r.minLo[p] < s || r.maxHi[p] >= e }); p < len(r.minLo) {
		return true
	}
	lo, hi := math.MaxInt, -1
	if k := len(r.minLo); k > 0 {
		lo, hi = r.minLo[k-1], r.maxHi[k-1]
	}
	for k := r.upTo; k < h.newEnd; k++ {
		steps++
		r.upTo = k + 1
		if substantive(b[k]) {
			if z.had[b[k]] {
				r.stop = k
				return true
			}
			l, hh, ok := m.likeDeletedAt(b[k], a)
			if !ok {
				r.stop = k
				return true
			}
			if l >= 0 {
				lo, hi = min(lo, l), max(hi, hh)
			}
		}
		r.minLo, r.maxHi = append(r.minLo, lo), append(r.maxHi, hi)
		if lo < s || hi >= e {
			return true
		}
	}
	return false
}
