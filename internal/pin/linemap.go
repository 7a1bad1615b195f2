package pin

import (
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
)

// This file is step 2 of relocation: map the lines of the pinned version
// of a file onto the file as it is now, the way git blame follows lines.
// One line diff (patience: lines unique on both sides anchor it, so a
// block duplicated elsewhere is matched inside its own declaration, not
// with its twin), then, inside each run of changed lines, lines are paired
// with the new line they were edited into when they are similar enough.
// Every old line then has a fate: kept, edited (paired) or deleted, or
// unknown when a changed run is too large to pair.

// lineFate is what became of one line of the pinned version.
type lineFate uint8

const (
	lineDeleted lineFate = iota // removed: no new line holds it
	lineKept                    // the same characters at toNew
	lineEdited                  // changed into the similar line at toNew
	lineUnknown                 // in a changed run too large to pair
)

// lineMap maps the lines of an old text to a new one.
type lineMap struct {
	fate    []lineFate
	toNew   []int // for kept and edited lines: the new line; else -1
	fromNew []int // for each new line: the old line kept or edited into it, or -1 (inserted)
	// hunkOf is, for each old line not kept, the index of its run of
	// changed lines in hunks; -1 for kept lines.
	hunkOf []int
	hunks  []lineHunk
	// distinct is, for each old line, whether it says something (a
	// letter or a digit) no other old line says, and no more than one new
	// line: the lines whose place anchors a quote's.
	distinct []bool
	// zones are the lines whose pairing was chosen among equal ones, made
	// once (outline.go).
	zones *slideZones
	// like, deleted and likeCells are likeDeletedAt's: the lines asked
	// about, the deleted lines, the comparisons made.
	like      map[string][2]int
	deleted   []deletedLine
	likeCells int
	// occurs indexes the new lines for deletedLines, made once
	// (occurs.go).
	occurs *lineOccurrences
	// deletedScans counts the line comparisons deletedLines spent
	// scanning before occurs was built (scanDeleted).
	deletedScans int64
	// lineRuns are sameSection's nearest lines, made once (beyond.go).
	lineRuns *lineRuns
	stray    *strays // firstStray's, made once (beyond.go)
	// likeness is what strayInRun learnt of each run, by index.
	likeness map[int]*runLikeness
	// moveRuns are movedWith's runs, by old and new first line.
	moveRuns map[[2]int]*moveRun
	// words are mapOffset's word diffs, by run (quotemap.go).
	words map[int]*wordMap
	// chars are charsElsewhere's answers, by text and form.
	chars map[charsKey]charsFound
	// insertedRun: for each new line, the last of the inserted lines
	// from it on (charsElsewhere), made once.
	insertedRun []int32
}

// lineHunk is a run of changed lines: old [oldStart, oldEnd) became new
// [newStart, newEnd).
type lineHunk struct{ oldStart, oldEnd, newStart, newEnd int }

// maxPairCells bounds the pairing of one run of changed lines (old lines
// times new lines): a larger run is a rewrite whose lines are not followed
// (unknown), so the cost stays linear in the file.
const maxPairCells = 1 << 16

// maxPairBytes bounds the bytes one pairing compares: each old line's
// length times the new lines, and each new line's times the old.
const maxPairBytes = 64 << 20

// editedSimilarity is how similar (Dice coefficient of character pairs,
// spaces at the ends aside) a changed line must be to a new line to be
// taken as edited into it.
const editedSimilarity = 0.6

// newLineMap maps the lines of old onto cur.
func newLineMap(old, cur *rfcText) *lineMap {
	a, b := old.contents(), cur.contents()
	m := &lineMap{
		fate: make([]lineFate, len(a)), toNew: make([]int, len(a)), hunkOf: make([]int, len(a)),
		fromNew: make([]int, len(b)),
	}
	for i := range m.toNew {
		m.toNew[i], m.hunkOf[i] = -1, -1
	}
	for j := range m.fromNew {
		m.fromNew[j] = -1
	}
	count := make(map[string][2]int, len(a))
	for _, l := range a {
		c := count[strings.TrimSpace(l)]
		c[0]++
		count[strings.TrimSpace(l)] = c
	}
	for _, l := range b {
		if c, ok := count[strings.TrimSpace(l)]; ok {
			c[1]++
			count[strings.TrimSpace(l)] = c
		}
	}
	m.distinct = make([]bool, len(a))
	for i, l := range a {
		c := count[strings.TrimSpace(l)]
		m.distinct[i] = c[0] == 1 && c[1] <= 1 && substantive(l)
	}
	edits := relocationDiff(a, b)
	for _, e := range edits {
		if e.kind == opEqual {
			m.fate[e.a], m.toNew[e.a], m.fromNew[e.b] = lineKept, e.b, e.a
		}
	}
	m.hunks = hunksOf(edits)
	for n, h := range m.hunks {
		for k := h.oldStart; k < h.oldEnd; k++ {
			m.hunkOf[k] = n
		}
		m.pair(h, a, b)
	}
	return m
}

// hunksOf returns the runs of changed lines of an edit script.
func hunksOf(edits []edit) []lineHunk {
	var hunks []lineHunk
	oi, ni := 0, 0
	for i := 0; i < len(edits); {
		if edits[i].kind == opEqual {
			oi, ni = edits[i].a+1, edits[i].b+1
			i++
			continue
		}
		h := lineHunk{oldStart: oi, oldEnd: oi, newStart: ni, newEnd: ni}
		for ; i < len(edits) && edits[i].kind != opEqual; i++ {
			if edits[i].kind == opDelete {
				h.oldEnd = edits[i].a + 1
			} else {
				h.newEnd = edits[i].b + 1
			}
		}
		hunks = append(hunks, h)
		oi, ni = h.oldEnd, h.newEnd
	}
	return hunks
}

// pair finds, in one run of changed lines, which old lines were edited
// into which new ones: the order-keeping pairing of similar lines with the
// greatest total similarity.
func (m *lineMap) pair(h lineHunk, a, b []string) {
	n, k := h.oldEnd-h.oldStart, h.newEnd-h.newStart
	if n == 0 || k == 0 {
		return // only deleted, or only inserted, lines
	}
	// Each cell compares two lines, at the cost of their lengths: the run's
	// bytes, times the lines on the other side, are bounded too.
	oldBytes, newBytes := 0, 0
	for _, l := range a[h.oldStart:h.oldEnd] {
		oldBytes += len(l)
	}
	for _, l := range b[h.newStart:h.newEnd] {
		newBytes += len(l)
	}
	if n*k > maxPairCells || oldBytes*k+newBytes*n > maxPairBytes {
		for i := h.oldStart; i < h.oldEnd; i++ {
			m.fate[i] = lineUnknown
		}
		return
	}
	ga, gb := make([][]uint32, n), make([][]uint32, k)
	for i := range ga {
		ga[i] = charPairs(a[h.oldStart+i])
	}
	for j := range gb {
		gb[j] = charPairs(b[h.newStart+j])
	}
	// score[i][j]: best total over old[i:], new[j:].
	score := make([]float64, (n+1)*(k+1))
	at := func(i, j int) int { return i*(k+1) + j }
	sim := func(i, j int) float64 {
		// Dice is at most 2·min/(sum) of the pair counts: lines of far
		// apart lengths are not compared.
		x, y := len(ga[i]), len(gb[j])
		if float64(2*min(x, y)) < editedSimilarity*float64(x+y) {
			return 0
		}
		if s := dice(ga[i], gb[j]); s >= editedSimilarity {
			return s
		}
		return 0
	}
	for i := n - 1; i >= 0; i-- {
		for j := k - 1; j >= 0; j-- {
			best := max(score[at(i+1, j)], score[at(i, j+1)])
			if s := sim(i, j); s > 0 {
				best = max(best, score[at(i+1, j+1)]+s)
			}
			score[at(i, j)] = best
		}
	}
	for i, j := 0, 0; i < n && j < k; {
		if s := sim(i, j); s > 0 && score[at(i, j)] == score[at(i+1, j+1)]+s {
			m.fate[h.oldStart+i], m.toNew[h.oldStart+i], m.fromNew[h.newStart+j] = lineEdited, h.newStart+j, h.oldStart+i
			i, j = i+1, j+1
		} else if score[at(i, j)] == score[at(i+1, j)] {
			i++
		} else {
			j++
		}
	}
}

// charPairs returns the pairs of adjacent bytes of a line (spaces at its
// ends aside), sorted, for dice.
func charPairs(line string) []uint32 {
	s := strings.TrimSpace(line)
	if len(s) < 2 {
		if s == "" {
			return nil
		}
		return []uint32{uint32(s[0])}
	}
	out := make([]uint32, len(s)-1)
	for i := range out {
		out[i] = uint32(s[i])<<8 | uint32(s[i+1])
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// dice is the Dice coefficient of two sorted multisets: 2|A∩B|/(|A|+|B|).
// diceCalls counts dice's comparisons, for the tests that bound them.
var diceCalls atomic.Int64

func dice(x, y []uint32) float64 {
	diceCalls.Add(1)
	if len(x) == 0 || len(y) == 0 {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] == y[j]:
			common++
			i, j = i+1, j+1
		case x[i] < y[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(x)+len(y))
}

// substantive reports whether a line says something by itself: it holds a
// letter or a digit. Blank lines and lone braces match anywhere, so they
// never decide where a quote went.
func substantive(line string) bool {
	return strings.IndexFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// maxAnchorDepth bounds the recursion of diffLinesAnchored; deeper ranges
// are diffed by Myers' algorithm alone.
const maxAnchorDepth = 24

// relocationDiff is the line diff relocation follows: anchored, then
// each run of changes slid where git diff would show it (slideEdits).
func relocationDiff(a, b []string) []edit {
	return slideEdits(a, b, diffLinesAnchored(a, b))
}

// diffLinesAnchored returns an edit script turning a into b, as
// diffLines does, but anchored first on lines that occur once in a and
// once in b (patience diff), in order, recursively between the anchors:
// a line repeated in many places (a closing brace, a duplicated block) is
// matched within the stretch its unique neighbours delimit.
func diffLinesAnchored(a, b []string) []edit {
	x, y := lineIDs(a, b)
	var out []edit
	anchored(x, y, 0, 0, 0, &out)
	return out
}

func anchored(x, y []int, xo, yo, depth int, out *[]edit) {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		*out = append(*out, edit{opEqual, xo + pre, yo + pre})
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	mxo, myo := xo+pre, yo+pre
	var anchors [][2]int
	if depth < maxAnchorDepth && len(mx) > 0 && len(my) > 0 {
		anchors = uniqueAnchors(mx, my)
	}
	if len(anchors) == 0 {
		for _, e := range diffIDs(mx, my) {
			e.a += mxo
			e.b += myo
			*out = append(*out, e)
		}
	} else {
		pi, pj := 0, 0
		for _, an := range anchors {
			anchored(mx[pi:an[0]], my[pj:an[1]], mxo+pi, myo+pj, depth+1, out)
			*out = append(*out, edit{opEqual, mxo + an[0], myo + an[1]})
			pi, pj = an[0]+1, an[1]+1
		}
		anchored(mx[pi:], my[pj:], mxo+pi, myo+pj, depth+1, out)
	}
	for i := 0; i < suf; i++ {
		*out = append(*out, edit{opEqual, xo + len(x) - suf + i, yo + len(y) - suf + i})
	}
}

// uniqueAnchors returns the pairs (i, j) of lines x[i] == y[j] that occur
// once in x and once in y, the longest run of them increasing in both.
func uniqueAnchors(x, y []int) [][2]int {
	type seen struct{ nx, ny, i, j int }
	count := map[int]*seen{}
	for i, v := range x {
		s := count[v]
		if s == nil {
			s = &seen{}
			count[v] = s
		}
		s.nx++
		s.i = i
	}
	for j, v := range y {
		if s := count[v]; s != nil {
			s.ny++
			s.j = j
		}
	}
	var pairs [][2]int
	for i, v := range x {
		if s := count[v]; s.nx == 1 && s.ny == 1 {
			pairs = append(pairs, [2]int{i, s.j})
		}
	}
	// Longest increasing subsequence of j (pairs are in order of i):
	// patience sorting.
	var tops []int // index into pairs of the top of each pile
	prev := make([]int, len(pairs))
	for k, p := range pairs {
		pile := sort.Search(len(tops), func(t int) bool { return pairs[tops[t]][1] > p[1] })
		if pile > 0 {
			prev[k] = tops[pile-1]
		} else {
			prev[k] = -1
		}
		if pile == len(tops) {
			tops = append(tops, k)
		} else {
			tops[pile] = k
		}
	}
	if len(tops) == 0 {
		return nil
	}
	out := make([][2]int, len(tops))
	for k, n := tops[len(tops)-1], len(tops)-1; k >= 0; k, n = prev[k], n-1 {
		out[n] = pairs[k]
	}
	return out
}

// lineIDs numbers the distinct lines of a and b.
func lineIDs(a, b []string) (x, y []int) {
	ids := map[string]int{}
	id := func(s string) int {
		if v, ok := ids[s]; ok {
			return v
		}
		ids[s] = len(ids)
		return len(ids) - 1
	}
	x = make([]int, len(a))
	for i, s := range a {
		x[i] = id(s)
	}
	y = make([]int, len(b))
	for i, s := range b {
		y[i] = id(s)
	}
	return x, y
}
