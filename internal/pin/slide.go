package pin

import "sync/atomic"

// This file places each run of inserted or deleted lines where a person
// would say the change is, as git diff does after its diff (its
// "compaction" and indent heuristic). A run whose last line equals the
// line above it can slide up by one, and one whose first line equals the
// line below it can slide down, without changing what the diff says: the
// same lines are kept, only which of two equal lines is "the kept one"
// differs. The line map follows kept lines, so that choice decides where
// a quote that starts or ends on a blank line goes: paired with a blank
// line inside a new block, a quote of a function grows upward over the
// block (requests' api.py at v2.34: a quote starting on the blank line
// above `def request` took in `if TYPE_CHECKING:`'s import).
//
// Each run is slid as far as it goes both ways, merged with the runs it
// meets (so runs split by equal lines become one), then put back at the
// position of least badness: where it lines up with a run of changes on
// the other side, else where its edges fall at blank lines and at the
// indentation of what surrounds them (scoreSplit).

// slideEdits returns edits (an edit script turning a into b, as
// diffLinesAnchored returns) with every run of inserted and of deleted
// lines slid as this file's comment says. The lines kept are equal in
// number and in text; each run of changes keeps its deletions before its
// insertions.
func slideEdits(a, b []string, edits []edit) []edit {
	delA, insB := make([]bool, len(a)), make([]bool, len(b))
	for _, e := range edits {
		switch e.kind {
		case opDelete:
			delA[e.a] = true
		case opInsert:
			insB[e.b] = true
		}
	}
	gatherBlanks(a, delA, insB)
	gatherBlanks(b, insB, delA)
	compact(a, delA, insB)
	compact(b, insB, delA)
	return editsOf(delA, insB)
}

// gatherBlanks moves the blank line kept just above a run of changes that
// replaces lines (the other side's facing run is not empty) down to the
// last equal blank line inside the run. A diff may keep a blank line of a
// new block in its place and leave the blank lines next to the replaced
// lines inserted (requests' api.py: new imports, then the blank lines
// and a rewritten `def request`, which the diff kept as one run); the
// move makes the new block a run of insertions of its own, which compact
// then places, and leaves the replaced lines where their blank lines are.
// Like a slide, it only changes which of two equal lines is kept.
func gatherBlanks(lines []string, changed, other []bool) {
	s, o := groups{lines, changed}, groups{nil, other}
	g, og := s.first(), o.first()
	for {
		if g.start > 0 && g.end > g.start && og.end > og.start && lineIndent(lines[g.start-1]) < 0 {
			for t := g.end - 1; t >= g.start; t-- {
				if lines[t] == lines[g.start-1] {
					changed[g.start-1], changed[t] = true, false
					g.start = t + 1
					break
				}
			}
		}
		var ok bool
		if g, ok = s.next(g); !ok {
			return
		}
		og, _ = o.next(og)
	}
}

// editsOf writes the edit script that deletes the lines of a marked in
// del and inserts those of b marked in ins, keeping the others in order.
func editsOf(del, ins []bool) []edit {
	out := make([]edit, 0, max(len(del), len(ins)))
	i, j := 0, 0
	for i < len(del) || j < len(ins) {
		for ; i < len(del) && del[i]; i++ {
			out = append(out, edit{opDelete, i, j})
		}
		for ; j < len(ins) && ins[j]; j++ {
			out = append(out, edit{opInsert, i, j})
		}
		if i < len(del) && j < len(ins) {
			out = append(out, edit{opEqual, i, j})
		}
		i, j = i+1, j+1
	}
	return out
}

// slideSteps counts the lines slideEdits steps over, for the test that
// holds its cost linear.
var slideSteps atomic.Int64

// maxSlide bounds how far back from its lowest place a run's positions are
// scored, so the cost stays linear in the file (git's bound, 100).
const maxSlide = 100

// lineGroup is a run of changed lines [start, end) of one side, possibly
// empty: the k-th group of one side (counting the runs between kept
// lines, empty ones too) faces the k-th of the other.
type lineGroup struct{ start, end int }

// groups walks the runs of changed lines of one side.
type groups struct {
	lines   []string
	changed []bool
}

// first returns the group before the first kept line.
func (s groups) first() lineGroup {
	g := lineGroup{}
	for g.end < len(s.changed) && s.changed[g.end] {
		g.end++
	}
	return g
}

// next returns the group after g, false when g is the last.
func (s groups) next(g lineGroup) (lineGroup, bool) {
	if g.end >= len(s.changed) {
		return g, false
	}
	n := lineGroup{start: g.end + 1, end: g.end + 1}
	for n.end < len(s.changed) && s.changed[n.end] {
		n.end++
	}
	slideSteps.Add(int64(n.end-n.start) + 1)
	return n, true
}

// previous returns the group before g, false when g is the first.
func (s groups) previous(g lineGroup) (lineGroup, bool) {
	if g.start == 0 {
		return g, false
	}
	p := lineGroup{start: g.start - 1, end: g.start - 1}
	for p.start > 0 && s.changed[p.start-1] {
		p.start--
	}
	slideSteps.Add(int64(p.end-p.start) + 1)
	return p, true
}

// up slides g up by one line when its last line equals the line above
// it, merging it with a group it then meets.
func (s groups) up(g *lineGroup) bool {
	if g.start == 0 || s.lines[g.start-1] != s.lines[g.end-1] {
		return false
	}
	g.start--
	g.end--
	s.changed[g.start], s.changed[g.end] = true, false
	n := g.start
	for g.start > 0 && s.changed[g.start-1] {
		g.start--
	}
	slideSteps.Add(int64(n-g.start) + 1)
	return true
}

// down slides g down by one line when its first line equals the line
// below it, merging it with a group it then meets.
func (s groups) down(g *lineGroup) bool {
	if g.end >= len(s.lines) || s.lines[g.start] != s.lines[g.end] {
		return false
	}
	s.changed[g.start], s.changed[g.end] = false, true
	g.start++
	g.end++
	n := g.end
	for g.end < len(s.changed) && s.changed[g.end] {
		g.end++
	}
	slideSteps.Add(int64(g.end-n) + 1)
	return true
}

// compact slides the changed lines of one side (lines, changed), whose
// kept lines face those of the other side (other: its changed lines), as
// this file's comment says. Both sides' marks change only by slides, so
// kept lines stay equal in number.
func compact(lines []string, changed, other []bool) {
	s, o := groups{lines, changed}, groups{nil, other}
	g, og := s.first(), o.first()
	for {
		if g.end > g.start {
			var earliestEnd, alignedEnd int
			for {
				size := g.end - g.start
				alignedEnd = -1
				for s.up(&g) {
					og, _ = o.previous(og)
				}
				earliestEnd = g.end
				if og.end > og.start {
					alignedEnd = g.end
				}
				for s.down(&g) {
					og, _ = o.next(og)
					if og.end > og.start {
						alignedEnd = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
				// It cannot slide.
			case alignedEnd >= 0:
				// Face the last run of the other side it can face: one
				// hunk, not a deletion and an insertion apart.
				for og.end == og.start && s.up(&g) {
					og, _ = o.previous(og)
				}
			default:
				best := bestShift(lines, g, earliestEnd)
				for g.end > best && s.up(&g) {
					og, _ = o.previous(og)
				}
			}
		}
		var ok bool
		if g, ok = s.next(g); !ok {
			return
		}
		og, _ = o.next(og)
	}
}

// bestShift returns the end, between earliest and g.end (g slid as low as
// it goes), at which the group g reads best: the least badness of the two
// splits it makes; on a tie, the lower place.
func bestShift(lines []string, g lineGroup, earliest int) int {
	size := g.end - g.start
	from := max(earliest, g.end-size-1, g.end-maxSlide)
	best, bestScore := -1, splitScore{}
	for end := from; end <= g.end; end++ {
		sc := scoreSplit(lines, end)
		sc.add(scoreSplit(lines, end-size))
		if best < 0 || sc.cmp(bestScore) <= 0 {
			best, bestScore = end, sc
		}
	}
	return best
}

// splitScore is the badness of cutting a text between two lines: the
// indentation of what follows the cut (lower is better: a cut before a
// line at the outer level reads as a unit ending) and penalties for the
// cut's surroundings.
type splitScore struct{ indent, penalty int }

func (s *splitScore) add(o splitScore) { s.indent += o.indent; s.penalty += o.penalty }

// cmp orders scores: the indentation weighs most, as a comparison, then
// the penalties.
func (s splitScore) cmp(o splitScore) int {
	c := 0
	switch {
	case s.indent > o.indent:
		c = 1
	case s.indent < o.indent:
		c = -1
	}
	return splitIndentWeight*c + s.penalty - o.penalty
}

// The weights of scoreSplit, as git's diff tuned them on real histories.
const (
	splitIndentWeight      = 60
	splitStartOfFile       = 1
	splitEndOfFile         = 21
	splitBlankWeight       = -30
	splitPostBlankWeight   = 6
	splitIndent            = -4
	splitIndentWithBlank   = 10
	splitOutdent           = 24
	splitOutdentWithBlank  = 17
	splitDedent            = 23
	splitDedentWithBlank   = 17
	splitMaxIndent         = 200
	splitMaxBlanksMeasured = 20
)

// lineIndent returns a line's indentation in columns (tabs to the next
// multiple of 8), or -1 for a blank line.
func lineIndent(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		case '\f', '\v', '\r', '\n':
		default:
			return n
		}
		if n >= splitMaxIndent {
			return splitMaxIndent
		}
	}
	return -1
}

// scoreSplit scores cutting lines before line at.
func scoreSplit(lines []string, at int) splitScore {
	var sc splitScore
	endOfFile := at >= len(lines)
	indent := -1 // of the line after the cut
	if !endOfFile {
		indent = lineIndent(lines[at])
	}
	preBlank, preIndent := 0, -1 // blank lines above; the indent of the first other
	for i := at - 1; i >= 0; i-- {
		if preIndent = lineIndent(lines[i]); preIndent >= 0 {
			break
		}
		if preBlank++; preBlank == splitMaxBlanksMeasured {
			preIndent = 0
			break
		}
	}
	postBlank, postIndent := 0, -1 // blank lines below the line after the cut; the indent of the first other
	for i := at + 1; i < len(lines); i++ {
		if postIndent = lineIndent(lines[i]); postIndent >= 0 {
			break
		}
		if postBlank++; postBlank == splitMaxBlanksMeasured {
			postIndent = 0
			break
		}
	}
	if preIndent < 0 && preBlank == 0 {
		sc.penalty += splitStartOfFile
	}
	if endOfFile {
		sc.penalty += splitEndOfFile
	}
	after := 0 // blank lines from the cut down
	if indent < 0 {
		after = 1 + postBlank
	}
	blanks := preBlank + after
	sc.penalty += splitBlankWeight*blanks + splitPostBlankWeight*after
	if indent < 0 {
		indent = postIndent
	}
	sc.indent += indent
	switch {
	case indent < 0 || preIndent < 0 || indent == preIndent:
	case indent > preIndent:
		sc.penalty += pick(blanks > 0, splitIndentWithBlank, splitIndent)
	case postIndent >= 0 && postIndent > indent:
		sc.penalty += pick(blanks > 0, splitOutdentWithBlank, splitOutdent)
	default:
		sc.penalty += pick(blanks > 0, splitDedentWithBlank, splitDedent)
	}
	return sc
}

func pick(cond bool, yes, no int) int {
	if cond {
		return yes
	}
	return no
}
