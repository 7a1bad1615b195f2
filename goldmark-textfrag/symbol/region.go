package symbol

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
)

// MarkerPattern is the RE2 pattern a marker line matches (the line's
// characters, without its line ending): a comment leader, then
// "textfrag:begin NAME" or "textfrag:end NAME", then perhaps the comment's
// closer. The Hugo templates apply the same pattern, so regions resolve
// alike in every front end. Group 1 is "begin" or "end", group 2 the name.
const MarkerPattern = `^[ \t]*(?://+|/\*+|#+|--+|;+|%+|<!--|\{\{-? ?/\*|\(\*|\{-)[ \t]*textfrag:(begin|end)[ \t]+([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*(?:\*+/|-->|\*/ ?-?\}\}|\*\)|-\})?[ \t]*$`

// RegionNamePattern is the RE2 pattern of a region's name.
const RegionNamePattern = `^[A-Za-z0-9_][A-Za-z0-9_.-]*$`

var (
	markerRE     = regexp.MustCompile(MarkerPattern)
	regionNameRE = regexp.MustCompile(RegionNamePattern)
	markerWord   = []byte("textfrag:")
)

// marker is one marker line.
type marker struct {
	line  int // line position
	begin bool
	name  string
	text  string // the line's characters, for the remedy of an unclosed region
}

// findMarkers returns the marker lines of src in source order. Only lines
// holding "textfrag:" are matched against the pattern, so the cost is one
// search through the text plus the marker lines.
func findMarkers(x *lineIndex) []marker {
	var ms []marker
	src := x.src
	for from := 0; ; {
		i := bytes.Index(src[from:], markerWord)
		if i < 0 {
			break
		}
		k := x.at(from + i)
		line := x.content(k)
		if m := markerRE.FindSubmatch(line); m != nil {
			ms = append(ms, marker{line: k, begin: string(m[1]) == "begin", name: string(m[2]), text: string(line)})
		}
		// Go on after this line: a line is one marker at most.
		next := len(src)
		if k+1 < len(x.starts) {
			next = x.starts[k+1]
		}
		if next <= from+i {
			next = from + i + len(markerWord)
		}
		from = next
	}
	return ms
}

// unclosedHow says which marker an unclosed region lacks.
type unclosedHow uint8

const (
	noEnd   unclosedHow = iota // a begin with no end after it
	noBegin                    // an end with no begin open before it
)

// resolveRegion applies the region rule to the markers of one name (in
// source order): exactly one begin, then exactly one end. Two begins are
// ambiguous (nested or repeated); a begin without an end after it, or an
// end that closes no begin, is unclosed. It looks at each marker a bounded
// number of times, so that a file of many begin markers of one name costs
// time linear in them (regionVisits counts the looks, for the tests).
func resolveRegion(path, name string, ms []marker) (Span, error) {
	regionVisits.Add(int64(len(ms)))
	fail := func(err error) *Error {
		return &Error{Selector: Selector{Kind: Region, Name: name}, Path: path, Err: err}
	}
	begins := 0
	for _, m := range ms {
		if m.begin {
			begins++
		}
	}
	if begins > 1 {
		e := fail(ErrAmbiguous)
		e.Candidates = regionSpans(name, ms, begins)
		return Span{}, e
	}
	open := -1 // index in ms of the open begin
	var span Span
	closed := false
	for i, m := range ms {
		switch {
		case m.begin:
			open = i
		case open < 0 || closed:
			// An end before the begin, or after the region's end.
			e := fail(ErrUnclosed)
			e.unclosed, e.Line = noBegin, m.line+1
			e.Detail = swapMarker(m.text, "textfrag:end", "textfrag:begin")
			return Span{}, e
		default:
			span, closed = Span{Start: ms[open].line + 1, End: m.line, Name: name, Kind: "region"}, true
		}
	}
	if !closed {
		if open < 0 {
			return Span{}, fail(ErrNotFound) // no markers (callers pass some)
		}
		b := ms[open]
		e := fail(ErrUnclosed)
		e.unclosed, e.Line = noEnd, b.line+1
		e.Detail = swapMarker(b.text, "textfrag:begin", "textfrag:end")
		return Span{}, e
	}
	return span, nil
}

// regionVisits counts the markers resolveRegion has looked at.
var regionVisits atomic.Int64

// regionSpans returns, for each of the begins begin markers in ms, the
// span of the region it opens: up to the first end after it (to the begin
// alone when there is none), for the candidates of an ambiguous name. One
// pass from the last marker back carries the nearest end.
func regionSpans(name string, ms []marker, begins int) []Span {
	regionVisits.Add(int64(len(ms)))
	spans := make([]Span, begins)
	end := -1 // the line of the first end after the marker at hand
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if !m.begin {
			end = m.line
			continue
		}
		begins--
		s := Span{Start: m.line + 1, End: m.line + 1, Name: name, Kind: "region"}
		if end >= 0 {
			s.End = end
		}
		spans[begins] = s
	}
	return spans
}

// swapMarker turns a marker line into the one that pairs with it, with the
// same comment leader and closer: "# textfrag:begin x" → "# textfrag:end x".
func swapMarker(line, from, to string) string {
	return strings.TrimSpace(strings.Replace(line, from, to, 1))
}

func (e *Error) unclosedMessage(label string) string {
	switch e.unclosed {
	case noBegin:
		return fmt.Sprintf("%s in %s ends at line %d, which closes no region (no begin marker before it, or the region ended already); add a line `%s` where the region starts, or remove that end marker",
			label, e.Path, e.Line, e.Detail)
	}
	return fmt.Sprintf("%s in %s begins at line %d and is never closed; add a line `%s`", label, e.Path, e.Line, e.Detail)
}

// markersByName groups markers by name, each group in source order.
func markersByName(ms []marker) map[string][]marker {
	by := make(map[string][]marker)
	for _, m := range ms {
		by[m.name] = append(by[m.name], m)
	}
	return by
}

// Regions returns every region in src, in the order of their begin markers.
// A name whose markers do not make one region (repeated, or unclosed) is
// left out, and the error about the first such name in the text is
// returned with the regions that are well formed.
func Regions(src []byte) ([]Span, error) {
	return regions("", findMarkers(newLineIndex(src)))
}

func regions(path string, ms []marker) ([]Span, error) {
	var spans []Span
	var first error
	firstLine := -1
	for name, group := range markersByName(ms) {
		s, err := resolveRegion(path, name, group)
		if err != nil {
			if l := group[0].line; first == nil || l < firstLine {
				first, firstLine = err, l
			}
			continue
		}
		spans = append(spans, s)
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	return spans, first
}
