package textfrag

import (
	"slices"
	"strings"

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

// dedent removes the margin the lines share, as Python's textwrap.dedent
// does: lines of spaces and tabs only do not count toward it and become
// empty (their line ending kept), and neither do omitted lines (human
// numbers, the first line being first), which the box does not show.
func dedent(lines []string, omit []int, first int) {
	prefix := ""
	found := false
	for i, l := range lines {
		if isBlankLine(l) || slices.Contains(omit, first+i) {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if !found {
			prefix, found = indent, true
			continue
		}
		for !strings.HasPrefix(indent, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
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
