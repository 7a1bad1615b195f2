package rfc5147

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// refModel is the reference the engine is checked against: the text split
// into characters exactly as SEMANTICS.md §2 says, with every position
// computed naively from that list.
type refModel struct {
	text  string
	chars []refChar
	// endsBefore[p] is the number of line endings among the first p characters;
	// lineStart[p] is the character position where the line holding position p starts.
	endsBefore, lineStart []int64
	// afterEnding[k] is the character position after the (k+1)-th line ending.
	afterEnding []int64
}

type refChar struct {
	off, end int // bytes of the character in text
	ending   bool
}

// newRef splits text (valid UTF-8, no BOM) into characters: code points,
// except that CR+LF and CR+NEL are one character each.
func newRef(text string) *refModel {
	m := &refModel{text: text}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		c := refChar{off: i, end: i + size}
		switch r {
		case '\n', '\u0085':
			c.ending = true
		case '\r':
			c.ending = true
			if strings.HasPrefix(text[c.end:], "\n") {
				c.end++
			} else if strings.HasPrefix(text[c.end:], "\u0085") {
				c.end += 2
			}
		}
		m.chars = append(m.chars, c)
		i = c.end
	}
	m.endsBefore = make([]int64, len(m.chars)+1)
	m.lineStart = make([]int64, len(m.chars)+1)
	for p, c := range m.chars {
		m.endsBefore[p+1], m.lineStart[p+1] = m.endsBefore[p], m.lineStart[p]
		if c.ending {
			m.endsBefore[p+1]++
			m.lineStart[p+1] = int64(p + 1)
			m.afterEnding = append(m.afterEnding, int64(p+1))
		}
	}
	return m
}

func (m *refModel) n() int64 { return int64(len(m.chars)) }

// lines counts lines: one per line ending, plus the text after the last
// ending if it is not empty; a text without endings is one line.
func (m *refModel) lines() int64 {
	e := m.endsBefore[len(m.chars)]
	if e == 0 || !m.chars[len(m.chars)-1].ending {
		return e + 1
	}
	return e
}

// linePos is the character position of line position k (k <= lines()): the
// position after the k-th line ending, or the end of the text.
func (m *refModel) linePos(k int64) int64 {
	switch {
	case k == 0:
		return 0
	case k <= int64(len(m.afterEnding)):
		return m.afterEnding[k-1]
	}
	return m.n()
}

// point is the human position of character position p.
func (m *refModel) point(p int64) Point {
	return Point{m.endsBefore[p] + 1, p - m.lineStart[p] + 1}
}

func (m *refModel) byteOff(p int64) int64 {
	if p == m.n() {
		return int64(len(m.text))
	}
	return int64(m.chars[p].off)
}

// refSel is what the reference model expects of a selection.
type refSel struct {
	text                string
	chars, lines, bytes Span
	first, last         Point
	clamped, atEnd      bool
	totalLines, length  int64
	label               string
	statuses            []CheckStatus
}

// selection applies f to the model. sum is the md5 of the entity as stored.
func (m *refModel) selection(f Fragment, sum [16]byte) refSel {
	size := m.n()
	if f.Scheme == Line {
		size = m.lines()
	}
	start, end := f.Start, f.End
	if f.Form == ToEnd {
		end = size
	}
	clamped := start > size || end > size
	start, end = min(start, size), min(end, size)
	var r refSel
	cs, ce := start, end
	if f.Scheme == Line {
		cs, ce = m.linePos(start), m.linePos(end)
		r.lines = Span{start, end}
	}
	r.chars = Span{cs, ce}
	r.bytes = Span{m.byteOff(cs), m.byteOff(ce)}
	r.text = m.text[r.bytes.Start:r.bytes.End]
	r.first, r.last = m.point(cs), m.point(cs)
	if ce > cs {
		r.last = m.point(ce - 1)
	}
	if f.Scheme == Char {
		// The lines the selection touches.
		r.lines = Span{r.first.Line - 1, r.last.Line}
		if ce == cs {
			r.lines.End = r.lines.Start
		}
	}
	r.clamped, r.atEnd = clamped, ce == m.n()
	r.totalLines, r.length = m.lines(), m.n()
	r.label = refLabel(f.Scheme, r)
	for _, c := range f.Checks {
		st := Ignored
		switch c.Kind {
		case Length:
			st = Failed
			if c.Length == m.n() {
				st = Passed
			}
		case MD5:
			st = Failed
			if c.Sum == sum {
				st = Passed
			}
		}
		r.statuses = append(r.statuses, st)
	}
	return r
}

// refLabel is testdata/OUTPUT.md's caption range text.
func refLabel(scheme Scheme, r refSel) string {
	at := func(p Point) string { return fmt.Sprintf("line %d, col %d", p.Line, p.Column) }
	switch {
	case scheme == Line && r.lines.Len() == 1:
		return fmt.Sprintf("line %d", r.lines.End)
	case scheme == Line && r.lines.Len() > 1:
		return fmt.Sprintf("lines %d–%d", r.lines.Start+1, r.lines.End)
	case scheme == Char && r.chars.Len() > 0 && r.first == r.last:
		return at(r.first)
	case scheme == Char && r.chars.Len() > 0:
		return at(r.first) + " – " + at(r.last)
	case r.atEnd:
		return "end of file"
	case scheme == Line:
		return fmt.Sprintf("before line %d", r.first.Line)
	}
	return "before " + at(r.first)
}

// diffRef describes how s differs from the model's r, or "".
func diffRef(s *Selection, r refSel) string {
	var d []string
	add := func(name string, got, want any) {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			d = append(d, fmt.Sprintf("%s = %v, want %v", name, got, want))
		}
	}
	if string(s.Text) != r.text {
		d = append(d, fmt.Sprintf("Text = %q, want %q", abbrev(s.Text), abbrev([]byte(r.text))))
	}
	add("Chars", s.Chars, r.chars)
	add("Lines", s.Lines, r.lines)
	add("Bytes", s.Bytes, r.bytes)
	add("First", s.First, r.first)
	add("Last", s.Last, r.last)
	add("Clamped", s.Clamped, r.clamped)
	add("AtEnd", s.AtEnd, r.atEnd)
	add("TotalLines", s.TotalLines, r.totalLines)
	add("Entity.Length", s.Entity.Length, r.length)
	add("Label", s.Label(), r.label)
	var st []CheckStatus
	for _, c := range s.Checks {
		st = append(st, c.Status)
	}
	add("check statuses", st, r.statuses)
	if len(d) == 0 {
		return ""
	}
	return strings.Join(d, "; ")
}
