package pin

import (
	"bytes"
	"fmt"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// This file is step 3 of relocation: carry one quote through the line
// map (linemap.go) of its pinned version onto the file as it is now. It
// says what the mapping shows, never more: a quote is intact only when
// every quoted line was carried unchanged, in order, with nothing between;
// an identical block elsewhere is a hint, not a place.

// quoteFate is what the mapping shows became of a quote.
type quoteFate uint8

const (
	// quoteUnknown: the mapping cannot tell (why says so).
	quoteUnknown quoteFate = iota
	// quoteIntact: every quoted line (or character) was carried unchanged
	// to [start, end), nothing inserted between.
	quoteIntact
	// quoteEdited: some quoted lines were kept or edited into [start,
	// end); others were deleted, edited, or lines were inserted between.
	quoteEdited
	// quoteDeleted: no quoted line that holds a letter or a digit
	// survives.
	quoteDeleted
)

// quoteMapping is where the mapping carries a quote.
type quoteMapping struct {
	fate quoteFate
	// start and end are the new positions, in the fragment's unit, for
	// quoteIntact and quoteEdited.
	start, end int64
	// oldLines and newLines are the lines the quote spans in the pinned
	// version and now ([start, end), 0-based), for the declaration check.
	oldLines, newLines [2]int
	// block: the quoted lines were deleted from their place and occur
	// verbatim once among lines inserted elsewhere (a move the line diff
	// shows as a deletion and an insertion). Such a place is taken only
	// when the declaration around it is the quote's (decide).
	block bool
	// elsewhere lists the new lines where the quoted text occurs verbatim
	// (at most a few): a hint for a deleted quote, never its new place.
	elsewhere [][2]int
	// why says what the mapping cannot tell, for quoteUnknown.
	why string
	// anchored: the lines that say something next to the quote (the
	// nearest within a few lines before and after it) were kept next to
	// its new place. Without a parser to name the declaration, a moved
	// quote needs it.
	anchored bool
	// kept and said count the quoted lines that hold a letter or a digit
	// and were kept or edited, and all of those.
	kept, said int
}

// maxHints bounds the places listed as holding the quoted text elsewhere.
const maxHints = 3

// mapQuote carries the quote sel of a link with fragment f, selected in
// the pinned version old, onto cur through m.
func mapQuote(f rfc5147.Fragment, sel *rfc5147.Selection, old, cur *rfcText, m *lineMap) quoteMapping {
	if f.Scheme == rfc5147.Line {
		return mapLineQuote(f, sel, old, cur, m)
	}
	return mapCharQuote(f, sel, old, cur, m)
}

func mapLineQuote(f rfc5147.Fragment, sel *rfc5147.Selection, old, cur *rfcText, m *lineMap) quoteMapping {
	s, e := int(sel.Lines.Start), int(sel.Lines.End)
	out := quoteMapping{oldLines: [2]int{s, e}}
	if f.IsZeroLength() || s >= e {
		p, ok := mapBoundary(s, m, len(old.lines), len(cur.lines))
		if !ok {
			out.why = fmt.Sprintf("the lines around line %d changed, so the position cannot be followed", s+1)
			return out
		}
		out.fate, out.start, out.end, out.newLines = quoteIntact, int64(p), int64(p), [2]int{p, p}
		return out
	}
	ns, ne := -1, -1
	allKept := true
	for i := s; i < e; i++ {
		said := substantive(old.content(i))
		if said {
			out.said++
		}
		switch m.fate[i] {
		case lineUnknown:
			out.why = fmt.Sprintf("line %d is in a rewrite too large to follow line by line", i+1)
			return out
		case lineKept, lineEdited:
			if m.fate[i] == lineEdited {
				allKept = false
			}
			if said {
				out.kept++
			}
			if ns < 0 {
				ns = m.toNew[i]
			}
			ne = m.toNew[i] + 1
		default:
			allKept = false
		}
	}
	if out.kept == 0 {
		return deletedLines(f, s, e, old, cur, m, out)
	}
	// A first (last) quoted line deleted in a run of changes that starts
	// (ends) with it was replaced by that run's new lines: they are part
	// of the quote now. Lines inserted before an edited first line (after
	// an edited last one) are not.
	if h := m.hunkOf[s]; h >= 0 && m.fate[s] == lineDeleted && m.hunks[h].oldStart == s {
		ns = min(ns, m.hunks[h].newStart)
	}
	if h := m.hunkOf[e-1]; h >= 0 && m.fate[e-1] == lineDeleted && m.hunks[h].oldEnd == e {
		ne = max(ne, m.hunks[h].newEnd)
	}
	switch f.Form {
	case rfc5147.FromStart:
		ns = 0
	case rfc5147.ToEnd:
		ne = len(cur.lines)
	}
	out.newLines = [2]int{ns, ne}
	out.start, out.end = int64(ns), int64(ne)
	if allKept && ne-ns == e-s && linesMatch(old, s, cur, ns, e-s) {
		out.fate = quoteIntact
		out.anchored = anchoredAt(s, e, ns, ne, 0, m)
		return out
	}
	if 2*out.kept < out.said {
		out.why = fmt.Sprintf("only %d of the %d quoted lines that say something are still in the file", out.kept, out.said)
		return out
	}
	// New lines the quote's lines became: counted over the quoted lines
	// (each new line carried from one is that line's toNew), not over the
	// new range, which lines inserted into the quote make as long as a
	// fork likes.
	carried := 0
	for i := s; i < e; i++ {
		if (m.fate[i] == lineKept || m.fate[i] == lineEdited) && m.toNew[i] >= ns && m.toNew[i] < ne {
			carried++
		}
	}
	if 2*carried < ne-ns {
		out.why = fmt.Sprintf("most of the %d lines the quote would span now (lines %d–%d) are new", ne-ns, ns+1, ne)
		return out
	}
	out.fate = quoteEdited
	// Without a parser, an edited quote is followed only when its
	// neighbours stayed and most of its new lines are its own.
	out.anchored = anchoredAt(s, e, ns, ne, neighbourhood, m) && ne-ns-carried <= max(2, (ne-ns)/4)
	return out
}

// deletedLines finishes the mapping of a line quote none of whose lines
// that say something survived: a block moved verbatim (deleted here,
// inserted elsewhere), or deleted.
//
// Where the quoted lines occur now is asked of an index of the new lines
// made once per line map (lineOccurrences), not by comparing them at
// every new line: every deleted quote of a page asks, and Q such quotes
// into a file of N lines would cost Q × N.
func deletedLines(f rfc5147.Fragment, s, e int, old, cur *rfcText, m *lineMap, out quoteMapping) quoteMapping {
	n := e - s
	hints, moved, ok := m.scanDeleted(f, s, n, old, cur)
	if !ok {
		if m.occurs == nil {
			m.occurs = newLineOccurrences(cur, m)
		}
		hints, moved = m.occurs.find(old, s, n, cur, m, f.Form == rfc5147.FromStart, f.Form == rfc5147.ToEnd)
	}
	out.elsewhere = append(out.elsewhere, hints...)
	if out.said == 0 {
		out.why = "the quoted lines hold no letter or digit to follow them by, and they changed"
		return out
	}
	if moved >= 0 {
		out.fate, out.block = quoteIntact, true
		out.start, out.end, out.newLines = int64(moved), int64(moved+n), [2]int{moved, moved + n}
		return out
	}
	out.fate = quoteDeleted
	return out
}

// deletedScanBudget is how many line comparisons the deletedLines
// questions of one line map may spend looking over the new lines before
// the index is built (lineOccurrences): a few scans of the file. The
// index costs O(N log N) time and about 48 bytes a line (a 16M-line
// version: 6 s and 768 MiB), which a page with one or two deleted quotes
// into a large file need not pay; past the budget, the index bounds the
// rest at O(n log N) a question.
func deletedScanBudget(newLines int) int64 { return 4*int64(newLines) + 1024 }

// scanDeleted answers deletedLines' question (where old lines [s, s+n)
// occur among the new lines, as linesMatch and formAllows take them: the
// first maxHints places, and the one all of whose lines were inserted,
// -1 none, -2 two or more) by a look at every new line, while the line
// map's budget lasts; ok is false when it ran out (the index answers).
func (m *lineMap) scanDeleted(f rfc5147.Fragment, s, n int, old, cur *rfcText) (hints [][2]int, moved int, ok bool) {
	if m.occurs != nil {
		return nil, -1, false
	}
	budget := deletedScanBudget(len(cur.lines))
	work := int64(0)
	defer func() { questionWork.Add(work); m.deletedScans += work }()
	moved = -1
	first := old.content(s)
	for k := 0; k+n <= len(cur.lines); k++ {
		if m.deletedScans+work > budget {
			return nil, -1, false
		}
		work++
		if cur.content(k) != first || !formAllows(f, k == 0, k+n == len(cur.lines)) {
			continue
		}
		work += int64(2 * n) // the lines compared, and looked at for insertion
		if !linesMatch(old, s, cur, k, n) {
			continue
		}
		if len(hints) < maxHints {
			hints = append(hints, [2]int{k, k + n})
		}
		inserted := true
		for j := k; j < k+n; j++ {
			inserted = inserted && m.fromNew[j] < 0
		}
		switch {
		case inserted && moved == -1:
			moved = k
		case inserted:
			moved = -2
		}
	}
	return hints, moved, true
}

// neighbourhood is how far from a quote the line that anchors it may be,
// and how far it may have moved away from it.
const neighbourhood = 8

// anchoredAt reports whether the quote's neighbours stayed its
// neighbours: on each side of old lines [s, e), the nearest distinctive
// line (one no other old line says) within neighbourhood lines, if there
// is one, was kept on the same side of new lines [ns, ne), at most slack
// lines further away; and at least one side has one.
func anchoredAt(s, e, ns, ne, slack int, m *lineMap) bool {
	seen := 0
	// Each side's lines are those of the file: a quote may end at the
	// end of the file (a zero-length char= there spans the line after
	// the last), and nothing lies beyond it.
	side := func(from, to, step int, ok func(i int) bool) bool {
		for i := from; (step > 0 && i < to) || (step < 0 && i > to); i += step {
			if m.distinct[i] {
				seen++
				return m.fate[i] == lineKept && ok(i)
			}
		}
		return true
	}
	before := side(min(s-1, len(m.distinct)-1), max(-1, s-1-neighbourhood), -1, func(i int) bool { return m.toNew[i] < ns && ns-m.toNew[i] <= s-i+slack })
	after := side(e, min(len(m.distinct), e+neighbourhood), 1, func(i int) bool { return m.toNew[i] >= ne && m.toNew[i]-ne <= i-e+slack })
	return before && after && seen > 0
}

// mapBoundary maps the position before old line s (s == nOld: the end)
// when the lines on both sides of it were kept next to each other.
func mapBoundary(s int, m *lineMap, nOld, nNew int) (int, bool) {
	kept := func(i int) bool { return i >= 0 && i < nOld && m.fate[i] == lineKept }
	switch {
	case nOld == 0:
		return 0, nNew == 0
	case s == 0:
		return 0, kept(0) && m.toNew[0] == 0
	case s >= nOld:
		return nNew, kept(nOld-1) && m.toNew[nOld-1] == nNew-1
	}
	return m.toNew[s], kept(s) && kept(s-1) && m.toNew[s-1]+1 == m.toNew[s]
}

func mapCharQuote(f rfc5147.Fragment, sel *rfc5147.Selection, old, cur *rfcText, m *lineMap) quoteMapping {
	sb, eb := int(sel.Bytes.Start), int(sel.Bytes.End)
	ls, le := int(sel.Lines.Start), max(int(sel.Lines.End), int(sel.Lines.Start)+1)
	out := quoteMapping{oldLines: [2]int{ls, le}}
	for i := ls; i < le && i < len(old.lines); i++ {
		if substantive(old.content(i)) {
			out.said++
			if m.fate[i] == lineKept || m.fate[i] == lineEdited {
				out.kept++
			}
		}
	}
	ns, okS := mapOffset(sb, true, old, cur, m)
	ne, okE := mapOffset(eb, false, old, cur, m)
	if f.IsZeroLength() {
		ne, okE = ns, okS
	}
	switch f.Form {
	case rfc5147.FromStart:
		ns, okS = 0, true
	case rfc5147.ToEnd:
		ne, okE = len(cur.data), true
	}
	if okS && okE && ns <= ne && cur.boundary(ns) && cur.boundary(ne) {
		l0, _ := cur.lineAt(ns)
		l1, _ := cur.lineAt(max(ne-1, ns))
		out.newLines = [2]int{l0, max(l1+1, l0+1)}
		out.start, out.end = cur.charPos(ns), cur.charPos(ne)
		if sameQuote(sel.Text, cur.data[ns:ne]) {
			out.fate = quoteIntact
			out.anchored = anchoredAt(ls, le, out.newLines[0], out.newLines[1], 0, m)
			return out
		}
		if out.kept > 0 && ne > ns {
			out.fate = quoteEdited
			return out
		}
	}
	if out.kept > 0 {
		out.why = "where the quoted characters start or end cannot be found in the edited lines"
		return out
	}
	// Deleted: where the same characters still are is a hint, or a move.
	quoted := sel.Text
	hints, moved := m.charsElsewhere(f, quoted, cur)
	out.elsewhere = append(out.elsewhere, hints...)
	if out.said == 0 {
		out.why = "the quoted characters hold no letter or digit to follow them by, and they changed"
		return out
	}
	if moved >= 0 {
		end := moved + len(quoted)
		l0, _ := cur.lineAt(moved)
		l1, _ := cur.lineAt(max(end-1, moved))
		out.fate, out.block = quoteIntact, true
		out.start, out.end, out.newLines = cur.charPos(moved), cur.charPos(end), [2]int{l0, l1 + 1}
		return out
	}
	out.fate = quoteDeleted
	return out
}

// charsElsewhere returns where the characters quoted occur verbatim in
// cur (the new text of m), as a deleted char= quote looks for them: the
// first maxHints places (their lines), and the offset of the one all of
// whose lines were inserted (moved), -1 for none, -2 for two or more.
//
// Each search looks at the whole file, so the answer is kept by text and
// form: the links of a page that quote the same characters (a hostile
// page may hold thousands) search once. Different texts still search
// once each: a suffix array of the bytes (as occursTwice has) would
// bound those too, but the hints need the first places in file order.
//
// One search is one pass over the file (bytes.Index between matches,
// Knuth–Morris–Pratt through overlapping ones), with the lines of each
// occurrence followed forward and whether all were inserted
// answered from an array made once per line map (insertedTo): a quote of
// L repeated lines occurs at every line of a file of such lines,
// overlapping, and searching again from the byte after each occurrence,
// or walking each one's lines, would cost the file's lines times L.
func (m *lineMap) charsElsewhere(f rfc5147.Fragment, quoted []byte, cur *rfcText) (hints [][2]int, moved int) {
	key := charsKey{string(quoted), f.Form}
	if r, ok := m.chars[key]; ok {
		return r.hints, r.moved
	}
	moved = -1
	work := int64(0)
	defer func() { questionWork.Add(work) }()
	if n := len(quoted); n > 0 && n <= len(cur.data) {
		inserted := m.insertedTo(cur)
		// fail[i]: the longest proper border of quoted[:i+1].
		fail := make([]int32, n)
		for i, k := 1, int32(0); i < n; i++ {
			for k > 0 && quoted[i] != quoted[k] {
				k = fail[k-1]
			}
			if quoted[i] == quoted[k] {
				k++
			}
			fail[i] = k
		}
		work += int64(n)
		l0, l1 := 0, 0 // the lines holding an occurrence's first and last byte
		// Between partial matches bytes.Index skips ahead (fast, and it
		// looks at each byte once more at most: the occurrence it
		// verifies); from an occurrence on, the failure table follows
		// the overlapping ones until no partial match is left.
		for i, k := 0, int32(0); i < len(cur.data); {
			if k == 0 {
				j := bytes.Index(cur.data[i:], quoted)
				if j < 0 {
					work += int64(len(cur.data) - i)
					break
				}
				work += int64(j + n)
				i, k = i+j+n, int32(n)
			} else {
				work++
				c := cur.data[i]
				for k > 0 && c != quoted[k] {
					k = fail[k-1]
				}
				if c == quoted[k] {
					k++
				}
				i++
			}
			if int(k) < n {
				continue
			}
			k = fail[n-1]
			off, end := i-n, i
			if !cur.boundary(off) || !cur.boundary(end) || !formAllows(f, off == 0, end == len(cur.data)) {
				continue
			}
			// Occurrences come in increasing order: their lines too.
			for l0 < len(cur.lines) && cur.lines[l0].end <= off {
				l0, work = l0+1, work+1
			}
			for l1 < len(cur.lines) && cur.lines[l1].end <= end-1 {
				l1, work = l1+1, work+1
			}
			if len(hints) < maxHints {
				hints = append(hints, [2]int{l0, l1 + 1})
			}
			if l0 >= len(cur.lines) || int(inserted[l0]) >= min(l1, len(cur.lines)-1) {
				if moved == -1 {
					moved = off
				} else {
					moved = -2
				}
			}
			if len(hints) == maxHints && moved == -2 {
				break // nothing further changes the answer
			}
		}
	}
	if m.chars == nil {
		m.chars = map[charsKey]charsFound{}
	}
	m.chars[key] = charsFound{hints, moved}
	return hints, moved
}

// insertedTo returns, for each new line of m (those of cur), the last new
// line of the run of inserted lines (fromNew < 0) that starts there:
// j-1 when line j was carried from an old line. Made once per line map.
func (m *lineMap) insertedTo(cur *rfcText) []int32 {
	if m.insertedRun == nil {
		n := len(cur.lines)
		m.insertedRun = make([]int32, n)
		last := int32(n - 1)
		for j := n - 1; j >= 0; j-- {
			if m.fromNew[j] >= 0 {
				last = int32(j - 1)
			}
			m.insertedRun[j] = last
		}
	}
	return m.insertedRun
}

// charsKey and charsFound are charsElsewhere's question and answer.
type charsKey struct {
	text string
	form rfc5147.Form
}

type charsFound struct {
	hints [][2]int
	moved int
}

// maxEditedBytes bounds each side of a run of changed lines that a
// character position is followed through (a word diff): larger runs are
// rewrites, and the position is not followed.
const maxEditedBytes = 64 << 10

// mapOffset maps byte offset off of the old text (a quote's start when
// isStart, else its end) onto cur: through the kept line that holds it, or
// through a word diff of the run of changed lines that holds it.
func mapOffset(off int, isStart bool, old, cur *rfcText, m *lineMap) (int, bool) {
	l, col := old.lineAt(off)
	nOld := len(old.lines)
	// The line whose characters decide: for an end at a line start, the
	// line before it.
	at := l
	if col == 0 && !isStart {
		at = l - 1
	}
	switch {
	case at < 0:
		return 0, true
	case at >= nOld:
		if nOld > 0 && m.fate[nOld-1] == lineKept {
			return cur.lines[m.toNew[nOld-1]].end, true
		}
		return 0, false
	case m.fate[at] == lineKept:
		nl := cur.lines[m.toNew[at]]
		if col == 0 && !isStart {
			return nl.end, true
		}
		return nl.start + col, true
	}
	h := m.hunks[m.hunkOf[at]]
	if h.newEnd == h.newStart {
		return 0, false
	}
	ob, oe := old.lines[h.oldStart].start, old.lines[h.oldEnd-1].end
	nb, ne := cur.lines[h.newStart].start, cur.lines[h.newEnd-1].end
	if oe-ob > maxEditedBytes || ne-nb > maxEditedBytes {
		return 0, false
	}
	if m.words == nil {
		m.words = map[int]*wordMap{}
	}
	w := m.words[m.hunkOf[at]]
	if w == nil {
		w = newWordMap(old.data[ob:oe], cur.data[nb:ne])
		m.words[m.hunkOf[at]] = w
	}
	p, ok := w.carry(off-ob, isStart)
	return nb + p, ok
}

// wordMap is the word diff of one run of changed lines (old text a, new
// text b), made once per run: every quote whose start or end lies in the
// run asks, and the diff costs up to the run's words times maxDiffD.
type wordMap struct {
	wa, wb [][2]int // the words of a and b (words)
	to     []int    // for each word of a: the word of b it was kept as, or -1
	n      int      // len(a)
}

func newWordMap(a, b []byte) *wordMap {
	w := &wordMap{wa: words(a), wb: words(b), n: len(a)}
	sa, sb := make([]string, len(w.wa)), make([]string, len(w.wb))
	for i, x := range w.wa {
		sa[i] = string(a[x[0]:x[1]])
	}
	for i, x := range w.wb {
		sb[i] = string(b[x[0]:x[1]])
	}
	w.to = make([]int, len(w.wa))
	for i := range w.to {
		w.to[i] = -1
	}
	for _, e := range diffLines(sa, sb) {
		if e.kind == opEqual {
			w.to[e.a] = e.b
		}
	}
	return w
}

// carry maps offset off of a onto b through the word diff: a start is
// carried by the word that begins there (or the one that ends there), an
// end by the word that ends there (or the one that begins there), only
// when that word is unchanged. The words tile a, so the word that holds
// off is found by binary search, and the one that ends there is the one
// before it: O(log words) a question.
func (w *wordMap) carry(off int, isStart bool) (int, bool) {
	if off >= w.n {
		// The end of the run: carried when its last word is kept.
		if n := len(w.wa); n > 0 && w.to[n-1] >= 0 {
			return w.wb[w.to[n-1]][1], true
		}
		return 0, false
	}
	i := sort.Search(len(w.wa), func(i int) bool { return w.wa[i][1] > off })
	if i == len(w.wa) || w.wa[i][0] > off {
		return 0, false // no word holds off (not met: words tile the text)
	}
	if x := w.wa[i]; x[0] < off {
		if w.to[i] >= 0 {
			return w.wb[w.to[i]][0] + off - x[0], true
		}
		return 0, false
	}
	// off starts word i and ends word i-1.
	begins, ends := i, i-1
	first, second := ends, begins // an end: the word that ends there first
	if isStart {
		first, second = begins, ends
	}
	for _, x := range []int{first, second} {
		if x >= 0 && w.to[x] >= 0 {
			return w.wb[w.to[x]][w2(x == begins)], true
		}
	}
	return 0, false
}

// w2 is the index of a word's start (0) when start, else its end (1).
func w2(start bool) int {
	if start {
		return 0
	}
	return 1
}

// words cuts text into words: runs of letters, digits and '_', runs of
// spaces, and single other characters, as [start, end) byte offsets.
func words(text []byte) [][2]int {
	var out [][2]int
	kind := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 1
		case r == ' ' || r == '\t':
			return 2
		}
		return 0
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		k, j := kind(r), i+n
		for k != 0 && j < len(text) {
			r2, n2 := utf8.DecodeRune(text[j:])
			if kind(r2) != k {
				break
			}
			j += n2
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}
