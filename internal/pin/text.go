package pin

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// This file holds text as relocation sees it: decoded, cut into lines as
// RFC 5147 counts them, and how quoted text changed, for people.

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
	// sections are the text's outline in format sectionsOf, made once
	// (outline.go).
	sections   *[]symbol.Span
	sectionsOf outlineFormat
	regionOf   []int            // regionsOf the sections, made once
	sectionIx  *spanIndex       // enclosing over the sections, made once
	occurs     *byteOccurrences // occursTwice's, made once (occurs.go)
	// charsBefore[i]: the characters before line i (charPos), made once.
	charsBefore []int64
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
// offset off, which must be a boundary: the characters before off's line,
// counted once per text (every char= quote asks, and counting from the
// start each time would cost quotes × bytes), and those of its line
// before off. Lines start after a whole line ending, so the counts add up.
func (t *rfcText) charPos(off int) int64 {
	if t.charsBefore == nil {
		t.charsBefore = make([]int64, len(t.lines)+1)
		for i, l := range t.lines {
			t.charsBefore[i+1] = t.charsBefore[i] + countChars(t.data[l.start:l.end])
		}
	}
	l, _ := t.lineAt(off)
	if l >= len(t.lines) {
		return t.charsBefore[len(t.lines)] // the end
	}
	return t.charsBefore[l] + countChars(t.data[t.lines[l].start:off])
}

// countChars counts the characters of p, which splits no CR+LF or CR+NEL
// pair: code points, with each pair one character.
func countChars(p []byte) int64 {
	return int64(utf8.RuneCount(p) - bytes.Count(p, []byte("\r\n")) - bytes.Count(p, []byte("\r\u0085")))
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
		if !bytes.Equal(oldText, newText) {
			return []string{"(only line endings changed)"}
		}
		// The same text (a review hint: the same lines in another
		// declaration): every line unchanged, as the diff shows those.
		return quoteLines("  ", newText, maxLines)
	}
	var out []string
	edits := diffLines(ac, bc)
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
	a, b := newRFCText(old).contents(), newRFCText(cur).contents()
	for _, h := range hunksOf(relocationDiff(a, b)) {
		hunks = append(hunks, LineHunk{h.oldStart, h.oldEnd, h.newStart, h.newEnd})
	}
	return hunks, len(a), len(b)
}
