package pin

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
)

// This file keeps the rest of a link consistent with the range pin writes
// into its destination:
//
//	title  "hl=12,15-17 …"   the emphasized source lines move with the
//	                         quoted lines; one whose line no longer has a
//	                         place is dropped, with a warning
//	text   [a.go lines 11–20] the caption textfrag link writes states the
//	       [a.go line 3, col 5 – line 4, col 9]
//	                         range: it is rewritten to the new one
//
// Everything else in the title (sym=, region=, doc, lang=, dedent) stays as
// written. Where relocation followed the quote's lines (Change.Lines, for
// line= and char= ranges alike), hl= follows each line through the line
// map: a quote whose text changed keeps the emphasis on the lines its
// emphasized lines became, and drops, with a warning, those deleted.
// Otherwise (a named link's lines) the range's offset is all there is: a
// quote of as many lines moves its hl= by it; one of another length drops
// it, with a warning.

// humanSpan is a range of human line numbers, first to last.
type humanSpan struct{ first, last int64 }

// destLines returns the human lines a line= range destination quotes,
// read from its fragment alone; ok is false for char= and for forms whose
// end is the file's (line=5,).
func destLines(dest string) (humanSpan, bool) {
	// The positions alone: the checks say nothing of the lines.
	positions, _, _ := strings.Cut(target.SplitLink(dest).Fragment, ";")
	f, err := rfc5147.Parse(positions)
	if err != nil || f.Scheme != rfc5147.Line {
		return humanSpan{}, false
	}
	switch f.Form {
	case rfc5147.Range, rfc5147.FromStart:
		if f.End > f.Start {
			return humanSpan{f.Start + 1, f.End}, true
		}
	}
	return humanSpan{}, false
}

// label writes a span as a box's caption and textfrag link's text do
// (rfc5147.Selection.Label): "lines 11–20", "line 11".
func (s humanSpan) label() string {
	if s.last > s.first {
		return fmt.Sprintf("lines %d–%d", s.first, s.last)
	}
	return fmt.Sprintf("line %d", s.first)
}

// Consistency returns the edits that keep the link of c consistent with
// its new destination, for a change that is applied (src is the page's
// source): the title's hl= lines and a caption stating the range, as this
// file's comment says. warnings say what was dropped. Its edits never
// overlap the destination's.
func Consistency(src []byte, c Change) (edits []Edit, warnings []string) {
	l := c.Link
	if c.NewDest == "" || l.Start < 0 || l.End > len(src) || l.Kind == mdlink.Shortcode {
		return nil, nil
	}
	var move lineMover
	var was, now string // the range as captions state it
	if c.Lines != nil && len(c.Lines.To) > 0 {
		move = c.Lines.move
		was, now = c.Lines.Was, c.Lines.Now
	} else {
		w, ok1 := destLines(l.Dest)
		n, ok2 := destLines(c.NewDest)
		if !ok1 || !ok2 || w == n {
			return nil, nil
		}
		move = offsetMover(w, n, c.Class)
		was, now = w.label(), n.label()
	}
	if e, ok := titleEdit(src, l, move, &warnings); ok {
		edits = append(edits, e)
	}
	if e, ok := captionEdit(src, l, c.Target, was, now); ok {
		edits = append(edits, e)
	}
	return edits, warnings
}

// lineMover gives the human line an emphasized line a became, or 0 and
// why it has none.
type lineMover func(a int64) (int64, string)

// move follows one emphasized line through the quote's line map. A line
// the quote did not touch has no place in it unless the text is the same
// (then every line moved by one offset).
func (m *LineMove) move(a int64) (int64, string) {
	if m.Same {
		if n := a + m.To[0] - m.First; n >= 1 {
			return n, ""
		}
		return 0, "it falls before the start of the file"
	}
	i := a - m.First
	if i < 0 || i >= int64(len(m.To)) {
		return 0, fmt.Sprintf("line %d is not a line the quote showed", a)
	}
	if m.To[i] == 0 {
		return 0, fmt.Sprintf("line %d was deleted, or pin cannot tell which line it became", a)
	}
	return m.To[i], ""
}

// offsetMover moves lines by the offset from was to now, for a quote
// whose lines relocation did not follow: one whose text is the same
// (moved, refreshed), or changed in place (as many lines). A changed
// quote of another length cannot tell which line went where.
func offsetMover(was, now humanSpan, class Class) lineMover {
	if class == Changed && now.last-now.first != was.last-was.first {
		why := fmt.Sprintf("the quoted lines changed from %d to %d lines, so pin cannot tell which lines they became", was.last-was.first+1, now.last-now.first+1)
		return func(int64) (int64, string) { return 0, why }
	}
	return func(a int64) (int64, string) {
		if n := a + now.first - was.first; n >= 1 {
			return n, ""
		}
		return 0, "it falls before the start of the file"
	}
}

// titleEdit rewrites the hl= words of the link's title. Only a title
// written as goldmark reads it (no escapes, no entities) is rewritten.
func titleEdit(src []byte, l mdlink.Link, move lineMover, warnings *[]string) (Edit, bool) {
	if !strings.Contains(l.Title, "hl=") {
		return Edit{}, false
	}
	start, end, ok := titleSpan(src, l)
	if !ok || string(src[start:end]) != l.Title {
		*warnings = append(*warnings, fmt.Sprintf("the title %q is not rewritten (it is written with escapes): check its hl= lines against the quote's new lines", l.Title))
		return Edit{}, false
	}
	words := strings.Fields(l.Title)
	var out []string
	for _, w := range words {
		list, isHL := strings.CutPrefix(w, "hl=")
		if !isHL || list == "" {
			out = append(out, w)
			continue
		}
		moved, dropped := moveLineList(list, move)
		if dropped != "" {
			if moved == "" {
				*warnings = append(*warnings, fmt.Sprintf("hl=%s is dropped: %s; emphasize the lines again if you want them (hl=…)", list, dropped))
			} else {
				*warnings = append(*warnings, fmt.Sprintf("hl=%s became hl=%s: %s", list, moved, dropped))
			}
		}
		if moved != "" {
			out = append(out, "hl="+moved)
		}
	}
	// The words are joined by one space each: a title holding hl= is a
	// list of options, which the build reads by words.
	text := strings.Join(out, " ")
	if text == l.Title {
		return Edit{}, false
	}
	if text == "" {
		// Nothing left: the title goes whole, with its delimiters and
		// the space before it (an empty title, `… "")`, says nothing
		// and reads as a mistake).
		return Edit{Start: afterDest(src, l), End: end + 1, Text: ""}, true
	}
	return Edit{Start: start, End: end, Text: text}, true
}

// afterDest returns the offset just after the destination of l, its
// closing > included.
func afterDest(src []byte, l mdlink.Link) int {
	if l.End < len(src) && src[l.End] == '>' {
		return l.End + 1
	}
	return l.End
}

// moveLineList moves an hl= list (human source lines, "12,15-17") line by
// line through move, writing runs of consecutive lines as ranges again.
// dropped says why lines were dropped ("" when none were); a list the
// build does not take is left for its error.
func moveLineList(list string, move lineMover) (moved, dropped string) {
	var got []int64
	var why []string
	total := int64(0) // lines named, in all the parts
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.ParseInt(hi, 10, 64)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a || b-a > maxHLLines {
			return list, "" // not a list the build takes: leave it for its error
		}
		// Each part is bounded, so the parts together must be too: a
		// title of many "1-100000" would name lines without end.
		if total += b - a + 1; total > maxHLLines {
			return "", fmt.Sprintf("it names more than %d lines", maxHLLines)
		}
		for n := a; n <= b; n++ {
			to, reason := move(n)
			if to == 0 {
				if !slices.Contains(why, reason) {
					why = append(why, reason)
				}
				continue
			}
			got = append(got, to)
		}
	}
	return lineList(got), strings.Join(why, "; ")
}

// maxHLLines bounds the lines an hl= list names that pin follows.
const maxHLLines = 100000

// lineList writes human line numbers as hl= takes them, in the order
// given, consecutive runs as ranges: 3,4,5,9 → "3-5,9".
func lineList(ns []int64) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.FormatInt(ns[i], 10))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// titleSpan finds the bytes of the title of an inline link, image or
// definition after its destination: src[start:end] is the title's text,
// between its delimiters.
func titleSpan(src []byte, l mdlink.Link) (start, end int, ok bool) {
	i := afterDest(src, l)
	j := i
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j++
	}
	if j == i || j >= len(src) {
		return 0, 0, false
	}
	closer := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[src[j]]
	if closer == 0 {
		return 0, 0, false
	}
	k := bytes.IndexByte(src[j+1:], closer)
	if k < 0 {
		return 0, 0, false
	}
	return j + 1, j + 1 + k, true
}

// captionEdit rewrites the text of an inline link (or image) when it is
// the caption textfrag link writes for the old range: the file's base name
// and the range as stated, "a.go lines 11–20", "a.go line 3, col 5 – line
// 4, col 9".
func captionEdit(src []byte, l mdlink.Link, file string, was, now string) (Edit, bool) {
	if file == "" || l.Kind != mdlink.Inline && l.Kind != mdlink.Image {
		return Edit{}, false
	}
	closeAt := l.Start - len("](")
	if closeAt > 0 && src[l.Start-1] == '<' {
		closeAt-- // ](<dest>
	}
	if closeAt < 1 || string(src[closeAt:closeAt+2]) != "](" {
		return Edit{}, false
	}
	if was == now {
		return Edit{}, false
	}
	want := path.Base(file) + " " + was
	open := closeAt - len(want) - 1
	if open < 0 || src[open] != '[' || string(src[open+1:closeAt]) != want {
		return Edit{}, false
	}
	labelStart := closeAt - len(was)
	return Edit{Start: labelStart, End: closeAt, Text: now}, true
}
