package pin

import (
	"bytes"
	"index/suffixarray"
	"math/bits"
	"slices"
	"sort"
	"sync/atomic"
)

// This file answers "where else does this text occur?" for many quotes
// into one file from what is built once per version (or per line map),
// not by a look over the whole file per quote: a page of Q quotes into a
// file of N lines would otherwise cost Q × N, and both are a fork's to
// choose (SECURITY.md: cost linear in anything a fork controls).

// questionWork counts what the per-quote questions of this file, of
// spanIndex.overlapping and of rewrittenInQuote look at (bytes scanned,
// symbols compared, tree nodes, runs), for the test that holds it to
// O(log N) a quote: added once per question, not per step.
var questionWork atomic.Int64

// log2 is the number of steps a binary search over n things takes.
func log2(n int) int64 { return int64(bits.Len(uint(n))) }

// scanQuestions is how many occursTwice questions a version answers by
// scanning its bytes before it builds a suffix array. A scan is fast
// (bytes.Index), and building the array costs a few hundred scans, so a
// page of a few moved blocks never pays for it; past this many, one build
// and O(len(text) × log N) a question bound the total.
const scanQuestions = 32

// byteOccurrences counts a text's occurrences in one version's bytes.
type byteOccurrences struct {
	data  []byte
	asked int
	index *suffixarray.Index
}

// twice reports whether text occurs twice or more in o.data (occurrences
// may overlap), as occursTwice did with two scans per question.
func (o *byteOccurrences) twice(text []byte) bool {
	if len(text) == 0 {
		return false
	}
	if o.asked++; o.asked <= scanQuestions {
		questionWork.Add(int64(len(o.data)))
		i := bytes.Index(o.data, text)
		return i >= 0 && bytes.Contains(o.data[i+1:], text)
	}
	if o.index == nil {
		o.index = suffixarray.New(o.data)
	}
	questionWork.Add(int64(len(text)) * log2(len(o.data)))
	return len(o.index.Lookup(text, 2)) == 2
}

// occursTwice reports whether text occurs twice or more in the text's
// bytes: through scans at first, then a suffix array made once
// (byteOccurrences), so that every moved block of a page asking costs
// O(len(text) × log N), not N.
func (t *rfcText) occursTwice(text []byte) bool {
	if t.occurs == nil {
		t.occurs = &byteOccurrences{data: t.data}
	}
	return t.occurs.twice(text)
}

// lineOccurrences finds where a run of old lines occurs verbatim among the
// new lines of a line map (deletedLines): a suffix array over the new
// lines, each line a symbol (its characters and its line ending), with
// two trees over it made once per line map, so that a question costs
// O(n × log N) for n quoted lines, not N × n:
//
//   - first holds, for each range of the suffix array, the smallest new
//     line it starts at: the first few occurrences in file order are a few
//     tree questions away;
//   - inserted holds, for each range, the longest run of inserted lines
//     (fromNew < 0) that starts at one of its lines: an occurrence all of
//     whose n lines were inserted starts a run of n or more.
type lineOccurrences struct {
	ids      map[lineKey]int32 // each distinct new line's symbol
	endings  []string          // the distinct line endings of the new lines
	seq      []int32           // the new lines' symbols
	sa       []int32           // the suffixes of seq, in order
	first    minTree           // over sa: the smallest start
	inserted maxTree           // over sa: insRun at each start
}

// lineKey is a line as linesMatch compares it: characters and ending.
type lineKey struct{ content, ending string }

func keyOf(t *rfcText, i int) lineKey {
	l := t.lines[i]
	return lineKey{t.content(i), string(t.data[l.content:l.end])}
}

// newLineOccurrences indexes the new lines of m (those of cur).
func newLineOccurrences(cur *rfcText, m *lineMap) *lineOccurrences {
	n := len(cur.lines)
	x := &lineOccurrences{ids: map[lineKey]int32{}, seq: make([]int32, n)}
	for j := range n {
		k := keyOf(cur, j)
		id, ok := x.ids[k]
		if !ok {
			id = int32(len(x.ids))
			x.ids[k] = id
			if !slices.Contains(x.endings, k.ending) {
				x.endings = append(x.endings, k.ending) // six at most (rfcText)
			}
		}
		x.seq[j] = id
	}
	x.sa = suffixArray(x.seq, len(x.ids))
	run := make([]int32, n+1) // run[j]: inserted lines from j on
	for j := n - 1; j >= 0; j-- {
		if m.fromNew[j] < 0 {
			run[j] = run[j+1] + 1
		}
	}
	starts, runs := make([]int32, n), make([]int32, n)
	for i, p := range x.sa {
		starts[i], runs[i] = p, run[p]
	}
	x.first, x.inserted = newMinTree(starts), newMaxTree(runs)
	return x
}

// find returns where old lines [s, s+n) occur among the new lines as
// linesMatch and formAllows (for a fragment of form f) take them, the
// way deletedLines' scan over every new line did: the first maxHints
// places in file order (hints), and the place of the one occurrence whose
// lines were all inserted (moved), -1 for none, -2 for two or more.
//
// fromStart and toEnd say the fragment's form fixes the place (",N": at
// the start; "N,": at the end), which is then the one looked at.
func (x *lineOccurrences) find(old *rfcText, s, n int, cur *rfcText, m *lineMap, fromStart, toEnd bool) (hints [][2]int, moved int) {
	moved = -1
	total := len(x.seq)
	work := int64(0)
	defer func() { questionWork.Add(work) }()
	if n <= 0 || n > total {
		return nil, moved
	}
	if fromStart || toEnd {
		k := 0
		if toEnd {
			k = total - n
		}
		work += int64(n)
		if !linesMatch(old, s, cur, k, n) {
			return nil, moved
		}
		inserted := true
		for j := k; j < k+n; j++ {
			inserted = inserted && m.fromNew[j] < 0
		}
		if inserted {
			moved = k
		}
		return [][2]int{{k, k + n}}, moved
	}
	// Every line but the last must match characters and ending; the last
	// its characters, and its ending unless either has none (the end of a
	// text): one symbol for each ending it may have, each a range of the
	// suffix array.
	pat := make([]int32, n)
	for i := range n - 1 {
		work++
		id, ok := x.ids[keyOf(old, s+i)]
		if !ok {
			return nil, moved
		}
		pat[i] = id
	}
	last := keyOf(old, s+n-1)
	var ranges [][2]int
	for _, end := range x.endings {
		if last.ending != "" && end != "" && end != last.ending {
			continue
		}
		work++
		id, ok := x.ids[lineKey{last.content, end}]
		if !ok {
			continue
		}
		pat[n-1] = id
		lo, hi, steps := x.bounds(pat)
		work += steps
		if lo < hi {
			ranges = append(ranges, [2]int{lo, hi})
		}
	}
	// The first maxHints starts in file order: the smallest of each range,
	// the range then split around it.
	all := slices.Clone(ranges)
	for len(hints) < maxHints {
		best, at, from := -1, -1, -1
		for r, rg := range ranges {
			i, steps := x.first.argmin(rg[0], rg[1])
			work += steps
			if i >= 0 && (best < 0 || x.first.v[i] < int32(best)) {
				best, at, from = int(x.first.v[i]), i, r
			}
		}
		if best < 0 {
			break
		}
		hints = append(hints, [2]int{best, best + n})
		rg := ranges[from]
		ranges[from] = [2]int{rg[0], at}
		ranges = append(ranges, [2]int{at + 1, rg[1]})
	}
	// Occurrences all of whose lines were inserted: none, one, or more.
	found := 0
	for _, rg := range all {
		for i := rg[0]; found < 2; i++ {
			var steps int64
			i, steps = x.inserted.firstAtLeast(i, rg[1], int32(n))
			work += steps
			if i < 0 {
				break
			}
			if found++; found == 1 {
				moved = int(x.sa[i])
			} else {
				moved = -2
			}
		}
	}
	return hints, moved
}

// bounds returns the range [lo, hi) of suffixes that start with pat, and
// the symbols it compared.
func (x *lineOccurrences) bounds(pat []int32) (lo, hi int, steps int64) {
	cmp := func(i int) int { // the suffix sa[i]'s first len(pat) symbols against pat
		p := int(x.sa[i])
		for k, c := range pat {
			steps++
			switch {
			case p+k >= len(x.seq):
				return -1
			case x.seq[p+k] < c:
				return -1
			case x.seq[p+k] > c:
				return 1
			}
		}
		return 0
	}
	lo = sort.Search(len(x.sa), func(i int) bool { return cmp(i) >= 0 })
	hi = lo + sort.Search(len(x.sa)-lo, func(i int) bool { return cmp(lo+i) > 0 })
	return lo, hi, steps
}

// suffixArray returns the suffixes of seq (symbols 0..alphabet-1) in
// order, by prefix doubling with counting sorts: O(N log N) for N
// symbols, fewer rounds when few lines repeat.
func suffixArray(seq []int32, alphabet int) []int32 {
	n := len(seq)
	sa, rank, tmp := make([]int32, n), make([]int32, n), make([]int32, n)
	if n == 0 {
		return sa
	}
	copy(rank, seq)
	classes := max(alphabet, n) + 1
	count := make([]int32, classes)
	// By first symbol.
	for _, r := range rank {
		count[r]++
	}
	for c := 1; c < classes; c++ {
		count[c] += count[c-1]
	}
	for i := n - 1; i >= 0; i-- {
		count[rank[i]]--
		sa[count[rank[i]]] = int32(i)
	}
	// Ranks 1.. by first symbol; 0 stands for "past the end".
	r := int32(1)
	tmp[sa[0]] = 1
	for i := 1; i < n; i++ {
		if seq[sa[i]] != seq[sa[i-1]] {
			r++
		}
		tmp[sa[i]] = r
	}
	copy(rank, tmp)
	second := func(p int32, k int) int32 {
		if int(p)+k < n {
			return rank[int(p)+k]
		}
		return 0
	}
	for k := 1; int(r) < n; k *= 2 {
		// Order by the second key (rank k on), then stably by the first.
		j := 0
		for p := n - k; p < n; p++ {
			if p >= 0 {
				tmp[j] = int32(p)
				j++
			}
		}
		for _, p := range sa {
			if int(p) >= k {
				tmp[j] = p - int32(k)
				j++
			}
		}
		clear(count)
		for _, rr := range rank {
			count[rr]++
		}
		for c := 1; c < classes; c++ {
			count[c] += count[c-1]
		}
		for i := n - 1; i >= 0; i-- {
			p := tmp[i]
			count[rank[p]]--
			sa[count[rank[p]]] = p
		}
		r = 1
		tmp[sa[0]] = 1
		for i := 1; i < n; i++ {
			a, b := sa[i-1], sa[i]
			if rank[a] != rank[b] || second(a, k) != second(b, k) {
				r++
			}
			tmp[b] = r
		}
		copy(rank, tmp)
	}
	return sa
}

// minTree answers the index of the smallest value in a range of v.
type minTree struct {
	v    []int32
	size int
	node []int32 // index into v of the smallest under the node, -1 none
}

func newMinTree(v []int32) minTree {
	t := minTree{v: v, size: 1}
	for t.size < len(v) {
		t.size *= 2
	}
	t.node = make([]int32, 2*t.size)
	for i := range t.node {
		t.node[i] = -1
	}
	for i := range v {
		t.node[t.size+i] = int32(i)
	}
	for p := t.size - 1; p >= 1; p-- {
		t.node[p] = t.better(t.node[2*p], t.node[2*p+1])
	}
	return t
}

func (t *minTree) better(a, b int32) int32 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	case t.v[b] < t.v[a]:
		return b
	}
	return a
}

// argmin returns the index of the smallest value of v[lo:hi], or -1, and
// the nodes it looked at.
func (t *minTree) argmin(lo, hi int) (int, int64) {
	best, steps := int32(-1), int64(0)
	for l, r := lo+t.size, hi+t.size; l < r; l, r = l/2, r/2 {
		steps++
		if l&1 == 1 {
			best = t.better(best, t.node[l])
			l++
		}
		if r&1 == 1 {
			r--
			best = t.better(best, t.node[r])
		}
	}
	return int(best), steps
}

// maxTree finds the first index of a range whose value reaches a bound.
type maxTree struct {
	size int
	node []int32 // the largest value under the node
}

func newMaxTree(v []int32) maxTree {
	t := maxTree{size: 1}
	for t.size < len(v) {
		t.size *= 2
	}
	t.node = make([]int32, 2*t.size)
	copy(t.node[t.size:], v)
	for p := t.size - 1; p >= 1; p-- {
		t.node[p] = max(t.node[2*p], t.node[2*p+1])
	}
	return t
}

// firstAtLeast returns the first index in [lo, hi) whose value is at
// least bound, or -1, and the nodes it looked at: O(log N).
func (t *maxTree) firstAtLeast(lo, hi int, bound int32) (int, int64) {
	var steps int64
	var descend func(p, pl, pr int) int
	descend = func(p, pl, pr int) int {
		steps++
		if pr <= lo || hi <= pl || t.node[p] < bound {
			return -1
		}
		if pr-pl == 1 {
			return pl
		}
		mid := (pl + pr) / 2
		if i := descend(2*p, pl, mid); i >= 0 {
			return i
		}
		return descend(2*p+1, mid, pr)
	}
	return descend(1, 0, t.size), steps
}
