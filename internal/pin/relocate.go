package pin

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// This file finds where the text a link quoted in an old version of its
// target went in the current version: verbatim (moved) or edited (changed).

// lineSpan is one line of a decoded text: bytes [start, end), of which
// [start, content) are its characters and [content, end) its line ending.
type lineSpan struct{ start, content, end int }

// rfcText is decoded UTF-8 text (no BOM) cut into lines as RFC 5147 counts
// them: CR+LF, CR+NEL, LF, CR and NEL each end a line; text after the last
// line ending is a line if it is not empty; a text with no line ending, the
// empty one included, is one line.
type rfcText struct {
	data  []byte
	lines []lineSpan
	keys  []string // each line's characters, without its line ending; made once
}

func newRFCText(data []byte) *rfcText {
	t := &rfcText{data: data}
	start := 0
	for i := 0; i < len(data); {
		n := rfc5147.EndingAt(data, i)
		if n == 0 {
			i++
			continue
		}
		t.lines = append(t.lines, lineSpan{start, i, i + n})
		i += n
		start = i
	}
	if start < len(data) || len(t.lines) == 0 {
		t.lines = append(t.lines, lineSpan{start, len(data), len(data)})
	}
	return t
}

// content returns line i's characters, without its line ending.
func (t *rfcText) content(i int) string { return t.contents()[i] }

// contents returns every line's characters, without line endings.
func (t *rfcText) contents() []string {
	if t.keys == nil {
		t.keys = make([]string, len(t.lines))
		for i, l := range t.lines {
			t.keys[i] = string(t.data[l.start:l.content])
		}
	}
	return t.keys
}

// lineAt returns the index of the line holding byte offset off, and off's
// offset in that line; off == len(data) is line len(lines), offset 0.
func (t *rfcText) lineAt(off int) (int, int) {
	if off >= len(t.data) {
		return len(t.lines), 0
	}
	i := sort.Search(len(t.lines), func(i int) bool { return t.lines[i].end > off })
	return i, off - t.lines[i].start
}

// boundary reports whether a character position may sit at byte offset off:
// not inside a CR+LF or CR+NEL pair.
func (t *rfcText) boundary(off int) bool {
	if off <= 0 || off >= len(t.data) || t.data[off-1] != '\r' {
		return true
	}
	return t.data[off] != '\n' && !(t.data[off] == 0xC2 && off+1 < len(t.data) && t.data[off+1] == 0x85)
}

// charPos returns the character position (RFC 5147 section 2.1) at byte
// offset off, which must be a boundary.
func (t *rfcText) charPos(off int) int64 { return countChars(t.data[:off]) }

// countChars counts the characters of p, which splits no CR+LF or CR+NEL
// pair: code points, with each pair one character.
func countChars(p []byte) int64 {
	return int64(utf8.RuneCount(p) - bytes.Count(p, []byte("\r\n")) - bytes.Count(p, []byte("\r\u0085")))
}

// lineMap maps the lines of an old text to a new one through a line diff
// that compares line contents (line endings aside).
type lineMap struct {
	toNew      []int // new index of each old line kept, or -1
	hunkOf     []int // for old lines not kept: their hunk
	hunks      []lineHunk
	nOld, nNew int
}

// lineHunk is a run of changed lines: old [oldStart, oldEnd) became new
// [newStart, newEnd).
type lineHunk struct{ oldStart, oldEnd, newStart, newEnd int }

func newLineMap(old, cur *rfcText) *lineMap {
	m := &lineMap{nOld: len(old.lines), nNew: len(cur.lines)}
	m.toNew = make([]int, m.nOld)
	m.hunkOf = make([]int, m.nOld)
	for i := range m.toNew {
		m.toNew[i], m.hunkOf[i] = -1, -1
	}
	edits := diffLines(old.contents(), cur.contents())
	oi, ni := 0, 0
	for i := 0; i < len(edits); {
		if edits[i].kind == opEqual {
			m.toNew[edits[i].a] = edits[i].b
			oi, ni = edits[i].a+1, edits[i].b+1
			i++
			continue
		}
		h := lineHunk{oldStart: oi, oldEnd: oi, newStart: ni, newEnd: ni}
		for ; i < len(edits) && edits[i].kind != opEqual; i++ {
			if edits[i].kind == opDelete {
				m.hunkOf[edits[i].a] = len(m.hunks)
				h.oldEnd = edits[i].a + 1
			} else {
				h.newEnd = edits[i].b + 1
			}
		}
		m.hunks = append(m.hunks, h)
		oi, ni = h.oldEnd, h.newEnd
	}
	return m
}

// start maps the line position before old line s to the new text: the
// start of a region whose first line is s.
func (m *lineMap) start(s int) (int, bool) {
	switch {
	case s >= m.nOld:
		return m.end(m.nOld)
	case m.toNew[s] >= 0:
		return m.toNew[s], true
	}
	if h := m.hunks[m.hunkOf[s]]; h.oldStart == s {
		return h.newStart, true
	}
	return 0, false
}

// end maps the line position after old line e-1 to the new text: the end
// of a region whose last line is e-1.
func (m *lineMap) end(e int) (int, bool) {
	switch {
	case e <= 0:
		return m.start(0)
	case m.toNew[e-1] >= 0:
		return m.toNew[e-1] + 1, true
	}
	if h := m.hunks[m.hunkOf[e-1]]; h.oldEnd == e {
		return h.newEnd, true
	}
	return 0, false
}

// relocation is where the quoted text went.
type relocation struct {
	// moved: the old text occurs verbatim at the new position.
	moved bool
	// located: for changed text, the region was found by the lines around
	// it; otherwise the same numbers are kept.
	located bool
	// start and end are the new positions in the fragment's unit.
	start, end int64
	// occurrences is how many verbatim occurrences there were; note says how
	// one was picked, or why none could be.
	occurrences int
	note        string
	// deleted: every quoted line was removed.
	deleted bool
	// ambiguous: the text occurs equally near the old place more than once.
	ambiguous bool
}

// relocateQuote finds the region that old selection sel (of text old) quotes in
// the current text cur. f is the link's fragment, whose form is kept.
func relocateQuote(f rfc5147.Fragment, sel *rfc5147.Selection, old, cur *rfcText) relocation {
	return relocateWith(f, sel, old, cur, newLineMap(old, cur))
}

// relocateWith is relocateQuote with the line map of old to cur made.
func relocateWith(f rfc5147.Fragment, sel *rfc5147.Selection, old, cur *rfcText, m *lineMap) relocation {
	if f.Scheme == rfc5147.Line {
		return relocateLines(f, sel, old, cur, m)
	}
	return relocateChars(f, sel, old, cur, m)
}

func relocateLines(f rfc5147.Fragment, sel *rfc5147.Selection, old, cur *rfcText, m *lineMap) relocation {
	s, e := int(sel.Lines.Start), int(sel.Lines.End)
	n := e - s
	if n > 0 && !f.IsZeroLength() {
		mapped, mappedOK := m.start(s)
		var cands []int
		for k := 0; k+n <= len(cur.lines); k++ {
			if linesMatch(old, s, cur, k, n) && formAllows(f, k == 0, k+n == len(cur.lines)) {
				cands = append(cands, k)
			}
		}
		if k, r, ok := pickOccurrence(cands, mapped, mappedOK, s); ok {
			r.start, r.end = int64(k), int64(k+n)
			return r
		} else if r.ambiguous {
			return r
		}
	}
	// Not found verbatim: locate the region by the lines around it.
	r := relocation{}
	ns, okS := m.start(s)
	ne, okE := m.end(e)
	switch {
	case f.Form == rfc5147.FromStart:
		ns, okS = 0, true
	case f.Form == rfc5147.ToEnd:
		ne, okE = len(cur.lines), true
	case f.IsZeroLength():
		ne, okE = ns, okS
	}
	if okS && okE && ns <= ne {
		r.located = true
		r.start, r.end = int64(ns), int64(ne)
		r.deleted = n > 0 && ns == ne
	}
	return r
}

func relocateChars(f rfc5147.Fragment, sel *rfc5147.Selection, old, cur *rfcText, m *lineMap) relocation {
	quoted := sel.Text
	mappedStart, mappedOK := mapCharPoint(int(sel.Bytes.Start), true, old, cur, m)
	if len(quoted) > 0 && !f.IsZeroLength() {
		var cands []int // byte offsets
		for from := 0; from <= len(cur.data); {
			i := bytes.Index(cur.data[from:], quoted)
			if i < 0 {
				break
			}
			off := from + i
			end := off + len(quoted)
			if cur.boundary(off) && cur.boundary(end) && formAllows(f, off == 0, end == len(cur.data)) {
				cands = append(cands, off)
			}
			from = off + 1
		}
		// Compare in characters, counted incrementally: candidates are in
		// order, and each sits at a boundary, so no pair is split.
		pos := make([]int, len(cands))
		at, chars := 0, 0
		for i, off := range cands {
			chars += int(countChars(cur.data[at:off]))
			pos[i], at = chars, off
		}
		mapped := 0
		if mappedOK {
			mapped = int(cur.charPos(mappedStart))
		}
		if k, r, ok := pickOccurrence(pos, mapped, mappedOK, int(sel.Chars.Start)); ok {
			r.start, r.end = int64(k), int64(k)+sel.Chars.Len()
			return r
		} else if r.ambiguous {
			return r
		}
	}
	r := relocation{}
	ns, okS := mappedStart, mappedOK
	ne, okE := mapCharPoint(int(sel.Bytes.End), false, old, cur, m)
	switch {
	case f.Form == rfc5147.FromStart:
		ns, okS = 0, true
	case f.Form == rfc5147.ToEnd:
		ne, okE = len(cur.data), true
	case f.IsZeroLength():
		ne, okE = ns, okS
	}
	if okS && okE && ns <= ne && cur.boundary(ns) && cur.boundary(ne) {
		r.located = true
		r.start, r.end = cur.charPos(ns), cur.charPos(ne)
		r.deleted = sel.Chars.Len() > 0 && ns == ne
	}
	return r
}

// mapCharPoint maps byte offset off of the old text to the current one. A
// point at a line start maps as a region boundary (start or end); a point
// inside a line needs that line kept.
func mapCharPoint(off int, isStart bool, old, cur *rfcText, m *lineMap) (int, bool) {
	l, in := old.lineAt(off)
	if in == 0 {
		var nl int
		var ok bool
		if isStart {
			nl, ok = m.start(l)
		} else {
			nl, ok = m.end(l)
		}
		if !ok {
			return 0, false
		}
		if nl >= len(cur.lines) {
			return len(cur.data), true
		}
		return cur.lines[nl].start, true
	}
	if nl := m.toNew[l]; nl >= 0 {
		return cur.lines[nl].start + in, true
	}
	return 0, false
}

// linesMatch reports whether old lines [s, s+n) equal current lines
// [k, k+n), line endings included, except that a last line may lack its
// line ending at the end of either text.
func linesMatch(old *rfcText, s int, cur *rfcText, k, n int) bool {
	for i := 0; i < n; i++ {
		a, b := old.lines[s+i], cur.lines[k+i]
		if old.content(s+i) != cur.content(k+i) {
			return false
		}
		ea, eb := old.data[a.content:a.end], cur.data[b.content:b.end]
		if string(ea) == string(eb) {
			continue
		}
		if i != n-1 || (len(ea) != 0 && len(eb) != 0) {
			return false
		}
	}
	return true
}

// formAllows reports whether a verbatim occurrence can be written in the
// fragment's form: ",N" must start at 0 and "N," must reach the end.
func formAllows(f rfc5147.Fragment, atStart, atEnd bool) bool {
	switch f.Form {
	case rfc5147.FromStart:
		return atStart
	case rfc5147.ToEnd:
		return atEnd
	}
	return true
}

// pickOccurrence chooses among verbatim occurrences (positions in the
// fragment's unit): the one the line diff maps the old region onto, else
// the one nearest the old position. A tie is ambiguous.
func pickOccurrence(cands []int, mapped int, mappedOK bool, oldPos int) (int, relocation, bool) {
	r := relocation{moved: true, occurrences: len(cands)}
	if len(cands) == 0 {
		return 0, relocation{}, false
	}
	if mappedOK {
		for _, c := range cands {
			if c == mapped {
				if len(cands) > 1 {
					r.note = fmt.Sprintf("the text occurs %d times; picked the one the surrounding lines lead to", len(cands))
				}
				return c, r, true
			}
		}
	}
	best, tie := cands[0], false
	for _, c := range cands[1:] {
		switch d, bd := absInt(c-oldPos), absInt(best-oldPos); {
		case d < bd:
			best, tie = c, false
		case d == bd:
			tie = true
		}
	}
	if tie {
		return 0, relocation{ambiguous: true, occurrences: len(cands),
			note: fmt.Sprintf("the quoted text occurs %d times, two of them equally near its old place", len(cands))}, false
	}
	if len(cands) > 1 {
		r.note = fmt.Sprintf("the text occurs %d times; picked the one nearest its old place", len(cands))
	}
	return best, r, true
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// quoteDiff shows how quoted text changed, one line per output line, as
// "- old" and "+ new" with unchanged lines indented, at most maxLines lines.
func quoteDiff(oldText, newText []byte, maxLines int) []string {
	var ac, bc []string
	if len(oldText) > 0 {
		ac = newRFCText(oldText).contents()
	}
	if len(newText) > 0 {
		bc = newRFCText(newText).contents()
	}
	if strings.Join(ac, "\n") == strings.Join(bc, "\n") {
		return []string{"(only line endings changed)"}
	}
	var out []string
	edits := normalizeRuns(diffLines(ac, bc))
	hs := groupHunks(edits, 2)
	for n, h := range hs {
		if n > 0 || h[0] > 0 {
			out = append(out, "  …")
		}
		for _, e := range edits[h[0]:h[1]] {
			switch e.kind {
			case opEqual:
				out = append(out, "  "+ac[e.a])
			case opDelete:
				out = append(out, "- "+ac[e.a])
			case opInsert:
				out = append(out, "+ "+bc[e.b])
			}
		}
		if n == len(hs)-1 && h[1] < len(edits) {
			out = append(out, "  …")
		}
	}
	if len(out) > maxLines {
		more := len(out) - maxLines
		out = append(out[:maxLines], fmt.Sprintf("… %d more lines", more))
	}
	return out
}

// LineHunk is a run of changed lines of a line diff: old lines
// [OldStart, OldEnd) became new lines [NewStart, NewEnd), counted from 0. An
// empty old side is an insertion before old line OldStart.
type LineHunk struct{ OldStart, OldEnd, NewStart, NewEnd int }

// LineHunks returns the changed lines between two versions of a text
// (decoded UTF-8, no BOM), with lines cut as RFC 5147 counts them (CR+LF,
// CR+NEL, LF, CR, NEL; SEMANTICS.md §2) and compared without their line
// endings, as relocation compares them. Also the number of lines of each.
func LineHunks(old, cur []byte) (hunks []LineHunk, oldLines, newLines int) {
	m := newLineMap(newRFCText(old), newRFCText(cur))
	hunks = make([]LineHunk, len(m.hunks))
	for i, h := range m.hunks {
		hunks[i] = LineHunk{h.oldStart, h.oldEnd, h.newStart, h.newEnd}
	}
	return hunks, m.nOld, m.nNew
}
