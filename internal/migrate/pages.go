package migrate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// include is one include of a peer in a page.
type include struct {
	dialect Dialect
	// first and end are the page lines it takes, [first, end): the code
	// fence around it included, which the link replaces.
	first, end int
	indent     string // the first line's indentation, which the link keeps
	written    string // the include as written, trimmed, for messages
	file       string // the file as written
	from       fileBase
	sel        selection
	caption    string   // the link text, "" for textfrag's default
	options    []string // title options: hl=, dedent, lang=
	fenceLang  string   // the code fence's language, when it had one
	problem    string   // why it cannot be converted; "" when it can
	// example is set for an include shown in a code block among other
	// lines, or in a Markdown code block: most likely a page showing the
	// syntax, which Foreign does not warn about.
	example bool
}

// fileBase says what an include's file is relative to.
type fileBase uint8

const (
	fromPage       fileBase = iota // the page's directory (mdBook, embedme, Sphinx)
	fromBase                       // the snippets base paths (pymdownx)
	fromSearch                     // any source holding the snippet (MarkdownSnippets)
	fromSphinx                     // "/…" in Sphinx: the Sphinx source directory
	fromPageOrRoot                 // MarkdownSnippets' file snippets
)

// selection is what an include takes of its file.
type selection struct {
	// lines a–b, human and inclusive; b 0 is to the end of the file; both
	// 0 is the whole file.
	from, to int
	region   string // a peer's region (anchor, section, snippet), by name
	sym      string // a Python object (Sphinx :pyobject:)
	// Sphinx's text markers, applied before :lines:.
	startAfter, startAt, endBefore, endAt *string
	sphinxLines                           string
}

var (
	fenceRE = regexp.MustCompile("^([ \t]*)(`{3,}|~{3,}|:{3,})[ \t]*(.*)$")
	// mdBook: {{#include path}}, {{ #include path:spec }}; a backslash
	// before it keeps it as written.
	mdbookRE = regexp.MustCompile(`(\\?)\{\{[ \t]*#(include|rustdoc_include|playground)[ \t]+([^}]*?)[ \t]*\}\}`)
	// pymdownx.snippets, inline form: --8<-- "path:spec" alone on its line.
	pymdRE      = regexp.MustCompile(`^[ \t]*(;*)-+8<-+[ \t]+("(?:\\"|[^"])+?"|'(?:\\'|[^'])+?')[ \t]*$`)
	pymdBlockRE = regexp.MustCompile(`^[ \t]*(;*)-+8<-+[ \t]*$`)
	// MarkdownSnippets: "snippet: name" alone on its line, and the block it
	// writes in place: <!-- snippet: name --> … <!-- endSnippet -->.
	msLineRE  = regexp.MustCompile(`^[ \t]*snippet:[ \t]*([^\s]+)[ \t]*$`)
	msOpenRE  = regexp.MustCompile(`^[ \t]*<!--[ \t]*snippet:[ \t]*([^\s]+)[ \t]*-->[ \t]*$`)
	msCloseRE = regexp.MustCompile(`^[ \t]*<!--[ \t]*endSnippet[ \t]*-->[ \t]*$`)
	// embedme: <!-- embedme path#L1-L10 --> before a code fence.
	embedmeRE = regexp.MustCompile(`^[ \t]*<!--[ \t]*embedme[ \t]+([^\s#]+)(?:#L(\d+)(?:-L(\d+))?)?[ \t]*-->[ \t]*$`)
	// Sphinx in reStructuredText (an eval-rst block, or a page that is not
	// MyST): not converted.
	rstIncludeRE = regexp.MustCompile(`^[ \t]*\.\.[ \t]+literalinclude::`)
	optionRE     = regexp.MustCompile(`^[ \t]*:([A-Za-z-]+):(?:[ \t]+(.*?))?[ \t]*$`)
)

// scanWords are the words one of which every include holds.
var scanWords = []string{"{{", "8<", "snippet:", "literalinclude", "embedme"}

// mayInclude reports whether a page may hold an include.
func mayInclude(src string) bool {
	for _, w := range scanWords {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}

// scanPage returns the includes of a page, in order.
func scanPage(l lines) []include {
	var out []include
	n := l.count()
	noCloseFrom := n // no <!-- endSnippet --> from this line on (known once a search found none)
	for k := 0; k < n; k++ {
		t, _ := l.text(k)
		// Each pattern is tried only on lines holding its fixed words, so
		// that a page costs a few substring searches a line.
		comment := strings.Contains(t, "<!--")
		if m := matchIf(comment, msOpenRE, t); m != nil {
			end := k + 1
			if end >= noCloseFrom {
				end = n // searched before: an open without a close costs one search, not one each
			}
			for end < n {
				u, _ := l.text(end)
				if msCloseRE.MatchString(u) {
					break
				}
				end++
			}
			if end >= n {
				noCloseFrom = min(noCloseFrom, k+1)
			}
			inc := include{dialect: MarkdownSnippets, first: k, end: end + 1, indent: indentOf(t), written: strings.TrimSpace(t), file: m[1], from: fromSearch, sel: selection{region: m[1]}, options: msOptions}
			if end >= n {
				inc.end, inc.problem = k+1, "no <!-- endSnippet --> after it; add it where the snippet's text ends, or replace the block by a line `snippet: NAME`"
			}
			setSnippet(&inc)
			out = append(out, inc)
			k = inc.end - 1
			continue
		}
		if m := matchIf(comment, embedmeRE, t); m != nil {
			inc := include{dialect: Embedme, first: k, end: k + 1, indent: indentOf(t), written: strings.TrimSpace(t), file: m[1], from: fromPage}
			if m[2] != "" {
				inc.sel.from, _ = strconv.Atoi(m[2])
				inc.sel.to = inc.sel.from
				if m[3] != "" {
					inc.sel.to, _ = strconv.Atoi(m[3])
				}
			}
			if k+1 < n {
				u, _ := l.text(k + 1)
				if f := fenceRE.FindStringSubmatch(u); f != nil && f[2][0] != ':' {
					closeAt := closingFence(l, k+1, f[2])
					inc.end = closeAt + 1
					inc.fenceLang = fenceLang(f[3])
				} else {
					inc.problem = "no code fence follows it, which embedme fills; add one, or quote with `textfrag link`"
				}
			}
			out = append(out, inc)
			k = inc.end - 1
			continue
		}
		if f := fenceOf(t); f != nil {
			closeAt := closingFence(l, k, f[2])
			out = append(out, fencedIncludes(l, k, closeAt, f)...)
			k = closeAt
			continue
		}
		if strings.Contains(t, "literalinclude") && rstIncludeRE.MatchString(t) {
			out = append(out, include{dialect: Sphinx, first: k, end: k + 1, written: strings.TrimSpace(t), problem: "a reStructuredText directive; textfrag reads Markdown links: write the link with `textfrag link FILE:START-END` in a Markdown page"})
			continue
		}
		if m := matchIf(strings.Contains(t, "snippet:"), msLineRE, t); m != nil {
			inc := include{dialect: MarkdownSnippets, first: k, end: k + 1, indent: indentOf(t), written: strings.TrimSpace(t), file: m[1], from: fromSearch, sel: selection{region: m[1]}, options: msOptions}
			setSnippet(&inc)
			out = append(out, inc)
			continue
		}
		for _, inc := range lineIncludes(t, k) {
			if inc.problem == "" {
				inc.problem = "outside a code block it puts the file's text into the page as Markdown; a textfrag quote shows source in a box and does not splice Markdown: move the text into this page, or put the include in a code block of its own"
			}
			out = append(out, inc)
		}
	}
	return out
}

// msOptions are the title options of a MarkdownSnippets include:
// MarkdownSnippets removes the margin a snippet's lines share.
var msOptions = []string{"dedent"}

// setSnippet reads MarkdownSnippets' name: a file name ("a.cs") includes
// that file, anything else names a snippet.
func setSnippet(inc *include) {
	if strings.Contains(inc.file, "/") || strings.Contains(inc.file, ".") && !strings.HasSuffix(inc.file, ".") && looksLikeFile(inc.file) {
		inc.from, inc.sel = fromPageOrRoot, selection{}
		return
	}
	inc.file = ""
}

// looksLikeFile reports whether a MarkdownSnippets name ends in an
// extension of letters ("Program.cs"), as a file snippet does.
func looksLikeFile(name string) bool {
	i := strings.LastIndexByte(name, '.')
	ext := name[i+1:]
	if ext == "" || len(ext) > 6 {
		return false
	}
	for _, r := range ext {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}

// closingFence returns the line of the fence that closes the one opened
// at line open with marker, or the last line of the file.
func closingFence(l lines, open int, marker string) int {
	for k := open + 1; k < l.count(); k++ {
		t, _ := l.text(k)
		u := strings.TrimLeft(t, " \t")
		if strings.HasPrefix(u, marker[:1]) {
			run := len(u) - len(strings.TrimLeft(u, marker[:1]))
			if run >= len(marker) && strings.TrimSpace(u[run:]) == "" {
				return k
			}
		}
	}
	return l.count() - 1
}

// fenceLang is the language of a fence's info string: its first word
// ("rust" of "rust,ignore", "python" of "python title=…").
func fenceLang(info string) string {
	info = strings.TrimSpace(info)
	if i := strings.IndexAny(info, " \t,{"); i >= 0 {
		info = info[:i]
	}
	return info
}

// matchIf is re's submatches in t when ok, else nil.
func matchIf(ok bool, re *regexp.Regexp, t string) []string {
	if !ok {
		return nil
	}
	return re.FindStringSubmatch(t)
}

// fenceOf matches a code fence's opening line (fenceRE), trying the
// pattern only on lines that start with a fence character.
func fenceOf(t string) []string {
	u := strings.TrimLeft(t, " \t")
	if !strings.HasPrefix(u, "```") && !strings.HasPrefix(u, "~~~") && !strings.HasPrefix(u, ":::") {
		return nil
	}
	return fenceRE.FindStringSubmatch(t)
}

func indentOf(t string) string { return t[:len(t)-len(strings.TrimLeft(t, " \t"))] }

// fencedIncludes reads a code fence (lines open to closeAt): a MyST
// literalinclude directive, or a fence whose one line is an mdBook or
// pymdownx include, which the link replaces with the fence.
func fencedIncludes(l lines, open, closeAt int, f []string) []include {
	info := strings.TrimSpace(f[3])
	if rest, ok := strings.CutPrefix(info, "{literalinclude}"); ok {
		return []include{literalInclude(l, open, closeAt, f[1], strings.TrimSpace(rest))}
	}
	var found []include
	var other bool
	for k := open + 1; k < closeAt; k++ {
		t, _ := l.text(k)
		incs := lineIncludes(t, k)
		if len(incs) == 0 {
			if strings.TrimSpace(t) != "" {
				other = true
			}
			continue
		}
		found = append(found, incs...)
	}
	if len(found) == 0 {
		return nil
	}
	if len(found) > 1 || other {
		for i := range found {
			found[i].example = true
			if found[i].problem == "" {
				found[i].problem = "its code block holds other lines or includes too; a textfrag quote is a box of its own: split the block so that the include is alone in it, then run migrate again"
			}
		}
		return found
	}
	inc := found[0]
	inc.first, inc.end, inc.indent = open, closeAt+1, f[1]
	inc.fenceLang = fenceLang(info)
	if lang := strings.ToLower(inc.fenceLang); lang == "markdown" || lang == "md" {
		inc.example = true // converted, but check does not warn: likely the syntax shown
	}
	return []include{inc}
}

// lineIncludes returns the mdBook and pymdownx includes of one line.
func lineIncludes(t string, k int) []include {
	var out []include
	if strings.Contains(t, "{{") {
		for _, at := range mdbookRE.FindAllStringSubmatchIndex(t, -1) {
			m := []string{t[at[0]:at[1]], t[at[2]:at[3]], t[at[4]:at[5]], t[at[6]:at[7]]}
			if m[1] != "" {
				continue // \{{#include …}} is shown as written
			}
			inc := include{dialect: MdBook, first: k, end: k + 1, indent: indentOf(t), written: strings.TrimSpace(m[0]), from: fromPage}
			if strings.Count(t[:at[0]], "`")%2 == 1 {
				// In a code span of running text: most likely the syntax
				// shown, though mdBook would expand it.
				inc.example = true
				inc.problem = "inside a code span in running text (mdBook expands it there too); if it is an example of the syntax, escape it as \\{{#include …}}"
			}
			if m[2] != "include" {
				inc.problem = fmt.Sprintf("{{#%s}} runs or hides code (rustdoc's # lines); textfrag quotes lines as they are: use {{#include}} semantics by hand (`textfrag link FILE --region NAME`)", m[2])
				out = append(out, inc)
				continue
			}
			if inc.problem == "" {
				inc.file, inc.sel, inc.problem = mdbookSpec(m[3])
			}
			out = append(out, inc)
		}
	}
	if !strings.Contains(t, "8<") {
		return out
	}
	if m := pymdRE.FindStringSubmatch(t); m != nil && m[1] == "" {
		inc := include{dialect: Pymdownx, first: k, end: k + 1, indent: indentOf(t), written: strings.TrimSpace(t), from: fromBase}
		arg := m[2][1 : len(m[2])-1]
		inc.file, inc.sel, inc.problem = pymdSpec(arg)
		out = append(out, inc)
	} else if m := pymdBlockRE.FindStringSubmatch(t); m != nil && m[1] == "" {
		out = append(out, include{dialect: Pymdownx, first: k, end: k + 1, written: strings.TrimSpace(t), problem: "the block form (--8<-- on its own, then file names) includes several files into one block; write one `--8<-- \"file\"` line per code block, then run migrate again"})
	}
	return out
}

var (
	linesSpecRE = regexp.MustCompile(`^(\d*)(?::(\d*))?$`)
	nameSpecRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
)

// mdbookSpec reads mdBook's "path", "path:N" (line N), "path:A:B",
// "path::B", "path:A:" or "path:ANCHOR".
func mdbookSpec(arg string) (file string, sel selection, problem string) {
	file, spec, has := strings.Cut(arg, ":")
	if !has {
		return file, sel, ""
	}
	if nameSpecRE.MatchString(spec) {
		return file, selection{region: spec}, ""
	}
	m := linesSpecRE.FindStringSubmatch(spec)
	if m == nil {
		return file, sel, fmt.Sprintf("%q is not a line range or anchor mdBook reads", spec)
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	switch {
	case !strings.Contains(spec, ":"): // path:N is line N only
		if a == 0 {
			return file, sel, "line 0 does not exist; lines count from 1"
		}
		return file, selection{from: a, to: a}, ""
	case a == 0:
		a = 1
	}
	return file, selection{from: a, to: b}, ""
}

// pymdSpec reads pymdownx's "path", "path:A:B", "path:A" (to the end),
// "path::B" or "path:section".
func pymdSpec(arg string) (file string, sel selection, problem string) {
	if strings.Contains(arg, "://") {
		return arg, sel, "a URL; textfrag quotes files of the project: copy the file into the project and quote that"
	}
	i := strings.IndexByte(arg, ':')
	if i < 0 {
		return arg, sel, ""
	}
	file, spec := arg[:i], arg[i+1:]
	if nameSpecRE.MatchString(spec) {
		return file, selection{region: spec}, ""
	}
	if strings.Contains(spec, ",") {
		return file, sel, "several line ranges in one include; textfrag quotes one range a box: write one include a range"
	}
	m := linesSpecRE.FindStringSubmatch(spec)
	if m == nil {
		return file, sel, fmt.Sprintf("%q is not a line range or section pymdownx reads", spec)
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	if a == 0 {
		a = 1
	}
	return file, selection{from: a, to: b}, ""
}

// literalInclude reads a MyST literalinclude directive: its argument (the
// file) and options, each ":name: value" on a line of its own.
func literalInclude(l lines, open, closeAt int, indent, file string) include {
	t, _ := l.text(open)
	inc := include{dialect: Sphinx, first: open, end: closeAt + 1, indent: indent, written: strings.TrimSpace(t), file: file, from: fromPage}
	if strings.HasPrefix(file, "/") {
		inc.from, inc.file = fromSphinx, strings.TrimPrefix(file, "/")
	}
	if file == "" {
		inc.problem = "names no file"
		return inc
	}
	var hl, lineOpts []string
	for k := open + 1; k < closeAt; k++ {
		u, _ := l.text(k)
		if strings.TrimSpace(u) == "" {
			continue
		}
		m := optionRE.FindStringSubmatch(u)
		if m == nil {
			inc.problem = fmt.Sprintf("line %d is not an option (:name: value); options in a YAML block are not read: write them as :name: value", k+1)
			return inc
		}
		key, val := m[1], m[2]
		v := val
		switch key {
		case "lines":
			inc.sel.sphinxLines = val
		case "start-after":
			inc.sel.startAfter = &v
		case "start-at":
			inc.sel.startAt = &v
		case "end-before":
			inc.sel.endBefore = &v
		case "end-at":
			inc.sel.endAt = &v
		case "pyobject":
			inc.sel.sym = val
		case "caption":
			inc.caption = val
		case "emphasize-lines":
			hl = append(hl, val)
		case "dedent":
			if val != "" {
				inc.problem = fmt.Sprintf(":dedent: %s removes %s characters from every line; textfrag's dedent removes the margin the lines share: remove the value to get that, or quote without it", val, val)
				return inc
			}
			inc.options = append(inc.options, "dedent")
		case "language":
			inc.fenceLang = val
		case "linenos", "lineno-match", "name", "class", "force":
			// textfrag always numbers lines as the source does; names and
			// classes are Sphinx's cross-reference targets and styling.
		default:
			inc.problem = fmt.Sprintf(":%s: has no textfrag equivalent (textfrag quotes the file's lines as they are); remove the option or keep this include by hand", key)
			return inc
		}
	}
	if inc.sel.sym != "" && (inc.sel.sphinxLines != "" || inc.sel.startAfter != nil || inc.sel.startAt != nil || inc.sel.endBefore != nil || inc.sel.endAt != nil) {
		inc.problem = ":pyobject: with :lines: or text markers takes part of a declaration; quote the declaration (sym=) or its lines by hand"
		return inc
	}
	lineOpts = hl
	if len(lineOpts) > 0 {
		inc.options = append(inc.options, "emphasize-lines="+strings.Join(lineOpts, ","))
	}
	return inc
}
