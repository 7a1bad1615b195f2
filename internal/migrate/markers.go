package migrate

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// Dialect names a peer tool.
type Dialect string

// The peers whose includes and markers migrate converts.
const (
	MdBook           Dialect = "mdBook"
	Pymdownx         Dialect = "pymdownx.snippets"
	MarkdownSnippets Dialect = "MarkdownSnippets"
	Sphinx           Dialect = "Sphinx/MyST literalinclude"
	Embedme          Dialect = "embedme"
	Asciidoctor      Dialect = "Asciidoctor"
)

// The peers' marker lines, as each peer finds them: anywhere in a line.
var (
	// mdBook: "ANCHOR: name" and "ANCHOR_END: name" (its names are \w and -).
	mdbookMarkerRE = regexp.MustCompile(`ANCHOR(_END)?:[ \t]*([A-Za-z0-9_-]+)`)
	// Asciidoctor: "tag::name[]" and "end::name[]".
	adocMarkerRE = regexp.MustCompile(`\b(tag|end)::([^\s\[\]]+)\[\]`)
	// pymdownx.snippets: "--8<-- [start:name]" and "--8<-- [end:name]".
	pymdMarkerRE = regexp.MustCompile(`(?i)(;*)-+8<-+[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([a-z][-_0-9a-z]*)[ \t]*\]`)
	// MarkdownSnippets: "begin-snippet: name" and "end-snippet".
	msBeginRE = regexp.MustCompile(`begin-snippet:[ \t]*([^\s]+)`)
	msEndRE   = regexp.MustCompile(`\bend-snippet\b`)

	textfragMarkerRE = regexp.MustCompile(symbol.MarkerPattern)
	regionNameRE     = regexp.MustCompile(symbol.RegionNamePattern)
	// goCommentLeader is a line's text before the marker that makes the
	// whole line one comment, which Go files get as //textfrag:…
	goCommentLeader = regexp.MustCompile(`^[ \t]*(?://+|/\*+)[ \t]*$`)
	goCommentCloser = regexp.MustCompile(`^[ \t]*(?:\*+/)?[ \t]*$`)
)

// markerWords are the words one of which every peer marker holds: a file
// with none is not looked at line by line.
var markerWords = [][]byte{[]byte("ANCHOR"), []byte("::"), []byte("8<"), []byte("-snippet")}

// peerMarker is one marker line of a peer.
type peerMarker struct {
	dialect  Dialect
	line     int // line position
	begin    bool
	name     string // "" for MarkdownSnippets' end-snippet until paired
	from, to int    // the marker's bytes in the line's text
}

// Problem is an include or marker migrate leaves as it is, and why.
type Problem struct {
	// File is the project path of the page or source; Line is 1-based.
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Dialect Dialect `json:"tool"`
	// Written is the include or marker line as written, trimmed.
	Written string `json:"written"`
	// Reason says why it is not converted and what to do.
	Reason string `json:"reason"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s: %s", p.File, p.Line, p.Dialect, p.Written, p.Reason)
}

// Edit replaces the lines [Start, End) (line positions) of a file with
// Text (whole lines, with their line endings).
type Edit struct {
	Start, End int
	Text       []byte
}

// lines is a file cut into lines by the engine's rule (SEMANTICS.md §2).
type lines struct {
	src    []byte
	starts []int // rfc5147.LineStarts
}

func newLines(src []byte) lines { return lines{src: src, starts: rfc5147.LineStarts(src)} }

// lineReads counts the lines text has read, for the tests that hold a
// page's scan linear in its lines (counts, not time).
var lineReads atomic.Int64

// count is the number of lines (a last line without an ending counts).
func (l lines) count() int {
	n := len(l.starts)
	if l.starts[n-1] == len(l.src) {
		n--
	}
	return n
}

// full returns line k with its ending.
func (l lines) full(k int) []byte {
	end := len(l.src)
	if k+1 < len(l.starts) {
		end = l.starts[k+1]
	}
	return l.src[l.starts[k]:end]
}

// text returns line k without its ending, and its ending.
func (l lines) text(k int) (string, string) {
	lineReads.Add(1)
	f := l.full(k)
	for i := range f {
		if rfc5147.EndingAt(f, i) > 0 {
			return string(f[:i]), string(f[i:])
		}
	}
	return string(f), ""
}

// ending returns the line ending the file uses most at its first line
// break, LF when it has none.
func (l lines) ending() string {
	if l.count() > 0 {
		if _, e := l.text(0); e != "" {
			return e
		}
	}
	return "\n"
}

// hasPeerMarkers reports whether src may hold a peer's marker.
func hasPeerMarkers(src []byte) bool {
	for _, w := range markerWords {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}

// findPeerMarkers returns the peers' marker lines of a file, in order.
func findPeerMarkers(l lines) []peerMarker {
	var ms []peerMarker
	var open []int // MarkdownSnippets begins not yet ended, indexes in ms
	for k := 0; k < l.count(); k++ {
		t, _ := l.text(k)
		if !strings.Contains(t, "ANCHOR") && !strings.Contains(t, "::") && !strings.Contains(t, "8<") && !strings.Contains(t, "-snippet") {
			continue
		}
		switch {
		case mdbookMarkerRE.MatchString(t):
			m := mdbookMarkerRE.FindStringSubmatchIndex(t)
			ms = append(ms, peerMarker{MdBook, k, m[2] < 0, t[m[4]:m[5]], m[0], m[1]})
		case adocMarkerRE.MatchString(t):
			m := adocMarkerRE.FindStringSubmatchIndex(t)
			ms = append(ms, peerMarker{Asciidoctor, k, t[m[2]:m[3]] == "tag", t[m[4]:m[5]], m[0], m[1]})
		case pymdMarkerRE.MatchString(t):
			m := pymdMarkerRE.FindStringSubmatchIndex(t)
			if m[3] > m[2] {
				continue // ";--8<--" is escaped: pymdownx shows it as written
			}
			ms = append(ms, peerMarker{Pymdownx, k, strings.EqualFold(t[m[4]:m[5]], "start"), t[m[6]:m[7]], m[0], m[1]})
		case msBeginRE.MatchString(t):
			m := msBeginRE.FindStringSubmatchIndex(t)
			open = append(open, len(ms))
			ms = append(ms, peerMarker{MarkdownSnippets, k, true, t[m[2]:m[3]], m[0], m[1]})
		case msEndRE.MatchString(t):
			m := msEndRE.FindStringIndex(t)
			pm := peerMarker{dialect: MarkdownSnippets, line: k, from: m[0], to: m[1]}
			if n := len(open); n > 0 {
				// An end-snippet closes the snippet begun last.
				pm.name = ms[open[n-1]].name
				open = open[:n-1]
			}
			ms = append(ms, pm)
		}
	}
	return ms
}

// convertMarkers rewrites the peers' marker lines of the file at project
// path file as textfrag region markers, one line for one line: the
// marker's words are replaced and everything around them (indentation,
// comment leader and closer) kept, except that in a Go file a line that is
// one comment becomes the directive form //textfrag:begin NAME. A name is
// converted only when all its markers are: exactly one begin, then one
// end, a name textfrag can write, no textfrag region of that name already,
// and every rewritten line a textfrag marker line (a marker after code on
// its line is not one). Other markers are left as they are and listed.
// names are the regions converted, by name, with their dialect.
func convertMarkers(file string, src []byte) (edits []Edit, names map[string]Dialect, problems []Problem) {
	if !hasPeerMarkers(src) {
		return nil, nil, nil
	}
	l := newLines(src)
	ms := findPeerMarkers(l)
	if len(ms) == 0 {
		return nil, nil, nil
	}
	existing := map[string]bool{}
	for k := 0; k < l.count(); k++ {
		t, _ := l.text(k)
		if m := textfragMarkerRE.FindStringSubmatch(t); m != nil {
			existing[m[2]] = true
		}
	}
	byName := map[string][]peerMarker{}
	var order []string
	for _, m := range ms {
		if _, seen := byName[m.name]; !seen {
			order = append(order, m.name)
		}
		byName[m.name] = append(byName[m.name], m)
	}
	isGo := strings.EqualFold(path.Ext(file), ".go")
	names = map[string]Dialect{}
	for _, name := range order {
		group := byName[name]
		fail := func(m peerMarker, why string) {
			t, _ := l.text(m.line)
			problems = append(problems, Problem{File: file, Line: m.line + 1, Dialect: m.dialect, Written: strings.TrimSpace(t), Reason: why})
		}
		first := group[0]
		switch {
		case name == "":
			fail(first, "end-snippet closes no begin-snippet before it; remove it or add the begin-snippet it closes")
			continue
		case !regionNameRE.MatchString(name):
			fail(first, fmt.Sprintf("%q cannot be a textfrag region name (letters, digits, _ . and -, not starting with . or -); rename it in the markers and in the pages that include it", name))
			continue
		case existing[name]:
			fail(first, fmt.Sprintf("the file already has a textfrag region %q; rename one of them", name))
			continue
		}
		var begins, ends []peerMarker
		for _, m := range group {
			if m.begin {
				begins = append(begins, m)
			} else {
				ends = append(ends, m)
			}
		}
		if len(begins) != 1 || len(ends) != 1 || ends[0].line < begins[0].line || begins[0].dialect != ends[0].dialect {
			why := fmt.Sprintf("%q has %d begin and %d end markers here; a textfrag region is one stretch with one begin and one end marker: give each stretch its own name", name, len(begins), len(ends))
			if len(begins) == 1 && len(ends) == 1 && begins[0].dialect != ends[0].dialect {
				why = fmt.Sprintf("%q is begun by a %s marker and ended by a %s one; use one tool's markers for it", name, begins[0].dialect, ends[0].dialect)
			} else if len(begins) == 1 && len(ends) == 1 {
				why = fmt.Sprintf("%q ends (line %d) before it begins; swap the markers", name, ends[0].line+1)
			}
			fail(first, why)
			continue
		}
		var out []Edit
		ok := true
		for _, m := range []peerMarker{begins[0], ends[0]} {
			t, eol := l.text(m.line)
			word := "textfrag:end "
			if m.begin {
				word = "textfrag:begin "
			}
			before, after := t[:m.from], t[m.to:]
			var nt string
			if isGo && goCommentLeader.MatchString(before) && goCommentCloser.MatchString(after) {
				indent := before[:len(before)-len(strings.TrimLeft(before, " \t"))]
				nt = indent + "//" + word + name
			} else {
				nt = strings.TrimRight(before+word+name+after, " \t")
			}
			if !textfragMarkerRE.MatchString(nt) {
				fail(m, "the marker does not stand alone in a comment on its line, so it cannot become a textfrag marker line (a comment leader, then textfrag:begin NAME); move it to a comment line of its own")
				ok = false
				break
			}
			out = append(out, Edit{Start: m.line, End: m.line + 1, Text: []byte(nt + eol)})
		}
		if !ok {
			continue
		}
		edits = append(edits, out...)
		names[name] = first.dialect
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return edits, names, problems
}

// apply returns src with edits (sorted by Start, not overlapping) made.
func apply(src []byte, edits []Edit) []byte {
	l := newLines(src)
	var b bytes.Buffer
	next := 0
	for _, e := range edits {
		for k := next; k < e.Start; k++ {
			b.Write(l.full(k))
		}
		b.Write(e.Text)
		next = e.End
	}
	for k := next; k < l.count(); k++ {
		b.Write(l.full(k))
	}
	return b.Bytes()
}
