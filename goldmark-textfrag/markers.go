package textfrag

import (
	"strings"
	"sync/atomic"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// This file is what a box leaves out or changes in the lines it shows:
// region marker lines, and the margin dedent removes.

// markerLines returns the indexes of the lines of body (LF line endings)
// that are region marker lines (symbol.IsMarkerLine), of any name: a box
// leaves them out, as mdBook, Asciidoctor and pymdownx.snippets leave out
// their own markers, so that a function quoted around a region shows no
// textfrag:begin line (testdata/SYMBOLS.md section 3).
func markerLines(body string) []int {
	if !strings.Contains(body, "textfrag:") {
		return nil
	}
	var out []int
	i := 0
	for line := range strings.Lines(body) {
		if strings.Contains(line, "textfrag:") && symbol.IsMarkerLine([]byte(strings.TrimSuffix(line, "\n"))) {
			out = append(out, i)
		}
		i++
	}
	return out
}

// omitted returns the human numbers of the marker lines (indexes) among
// the first n lines of a body whose first line is number first; none
// when every line shown would be one (a box of nothing but markers shows
// them: what the link points at is never hidden whole).
func omitted(markers []int, first, n int) []int {
	var out []int
	for _, i := range markers {
		if i < n {
			out = append(out, first+i)
		}
	}
	if len(out) == n {
		return nil
	}
	return out
}

// dedentSteps counts the lines and omitted numbers dedent has looked at,
// for the test that holds it linear in them (counts, not time).
var dedentSteps atomic.Int64

// dedent removes the margin the lines share, as Python's textwrap.dedent
// does: lines of spaces and tabs only do not count toward it and become
// empty (their line ending kept), and neither do omitted lines (human
// numbers, the first line being first), which the box does not show.
func dedent(lines []string, omit []int, first int) {
	// One look at each omitted number and each line (dedentSteps), not one
	// search of omit a line: time linear in lines + omitted lines.
	skip := make([]bool, len(lines))
	for _, n := range omit {
		if i := n - first; i >= 0 && i < len(skip) {
			skip[i] = true
		}
	}
	dedentSteps.Add(int64(len(omit) + len(lines)))
	prefix := ""
	found := false
	for i, l := range lines {
		if skip[i] || isBlankLine(l) {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if !found {
			prefix, found = indent, true
			continue
		}
		// The margin shared so far, cut to what this line shares of it.
		n := 0
		for n < len(prefix) && n < len(indent) && prefix[n] == indent[n] {
			n++
		}
		prefix = prefix[:n]
	}
	for i, l := range lines {
		if isBlankLine(l) {
			lines[i] = ""
			if strings.HasSuffix(l, "\n") {
				lines[i] = "\n"
			}
			continue
		}
		lines[i] = strings.TrimPrefix(l, prefix)
	}
}

// isBlankLine reports whether l (perhaps ending in LF) holds only spaces
// and tabs: the lines textwrap.dedent empties.
func isBlankLine(l string) bool {
	return strings.Trim(strings.TrimSuffix(l, "\n"), " \t") == ""
}
