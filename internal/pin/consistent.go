package pin

import (
	"bytes"
	"fmt"
	"path"
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
//	                         range: it is rewritten to the new one
//
// Everything else in the title (sym=, region=, doc, lang=, dedent) stays as
// written. Only line ranges are followed: a char= range's caption and hl=
// are left as they are (the build warns about hl= lines a box lacks).

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
	was, ok1 := destLines(l.Dest)
	now, ok2 := destLines(c.NewDest)
	if !ok1 || !ok2 || was == now {
		return nil, nil
	}
	if e, ok := titleEdit(src, l, was, now, c.Class, &warnings); ok {
		edits = append(edits, e)
	}
	if e, ok := captionEdit(src, l, c.Target, was, now); ok {
		edits = append(edits, e)
	}
	return edits, warnings
}

// titleEdit rewrites the hl= words of the link's title. Only a title
// written as goldmark reads it (no escapes, no entities) is rewritten.
func titleEdit(src []byte, l mdlink.Link, was, now humanSpan, class Class, warnings *[]string) (Edit, bool) {
	if !strings.Contains(l.Title, "hl=") {
		return Edit{}, false
	}
	start, end, ok := titleSpan(src, l)
	if !ok || string(src[start:end]) != l.Title {
		*warnings = append(*warnings, fmt.Sprintf("the title %q is not rewritten (it is written with escapes): check its hl= lines, which quoted lines %d–%d and now %d–%d", l.Title, was.first, was.last, now.first, now.last))
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
		moved, dropped := moveLineList(list, was, now, class)
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
	return Edit{Start: start, End: end, Text: text}, true
}

// moveLineList moves an hl= list (human source lines, "12,15-17") from a
// quote of lines was to the same quote at lines now. A quote whose text
// is the same (moved, refreshed) moves every line by the offset; a changed
// quote of as many lines does too (its lines were edited in place); a
// changed quote of another length cannot tell which line went where, so
// its list is dropped. A line that would fall before line 1 is dropped.
// dropped says why lines were dropped ("" when none were).
func moveLineList(list string, was, now humanSpan, class Class) (moved, dropped string) {
	if class == Changed && now.last-now.first != was.last-was.first {
		return "", fmt.Sprintf("the quoted lines changed from %d to %d lines, so pin cannot tell which lines they became", was.last-was.first+1, now.last-now.first+1)
	}
	delta := now.first - was.first
	var parts []string
	lost := 0
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.ParseInt(hi, 10, 64)
		}
		if err1 != nil || err2 != nil {
			return list, "" // not a list the build takes: leave it for its error
		}
		a, b = a+delta, b+delta
		if b < 1 {
			lost++
			continue
		}
		a = max(a, 1)
		if a == b {
			parts = append(parts, strconv.FormatInt(a, 10))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", a, b))
		}
	}
	if lost > 0 {
		dropped = "its lines fall before the start of the file"
	}
	return strings.Join(parts, ","), dropped
}

// titleSpan finds the bytes of the title of an inline link, image or
// definition after its destination: src[start:end] is the title's text,
// between its delimiters.
func titleSpan(src []byte, l mdlink.Link) (start, end int, ok bool) {
	i := l.End
	if i < len(src) && src[i] == '>' {
		i++
	}
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
// and the range, "a.go lines 11–20".
func captionEdit(src []byte, l mdlink.Link, file string, was, now humanSpan) (Edit, bool) {
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
	want := path.Base(file) + " " + was.label()
	open := closeAt - len(want) - 1
	if open < 0 || src[open] != '[' || string(src[open+1:closeAt]) != want {
		return Edit{}, false
	}
	labelStart := closeAt - len(was.label())
	return Edit{Start: labelStart, End: closeAt, Text: now.label()}, true
}
