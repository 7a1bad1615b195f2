package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// Options say what to convert and how to read it. Paths are project paths:
// slash-separated, relative to the project root.
type Options struct {
	// Pages are the Markdown pages whose includes become links.
	Pages []string
	// Sources are the files whose peer markers become textfrag regions
	// (a page may be one too). A file a page includes is converted too,
	// listed here or not.
	Sources []string
	// Read returns the bytes of a file. Required.
	Read func(path string) ([]byte, error)
	// SnippetsBase are pymdownx.snippets' base_path directories, tried in
	// order. Default: the project root.
	SnippetsBase []string
	// SphinxSource is the directory a Sphinx include's "/…" file is
	// relative to. Default: the nearest directory at or above the page
	// that holds conf.py, else the project root.
	SphinxSource string
	// Symbols look up :pyobject: names (sym=). Default: none, so such an
	// include is listed as not converted.
	Symbols symbol.Set
}

// Plan is what migrate would change.
type Plan struct {
	// Files are the files that change, in path order.
	Files []File
	// Links are the includes converted, in page and line order.
	Links []Converted
	// Regions counts the peer regions converted to textfrag regions.
	Regions int
	// Problems are the includes and markers left as they are, in file and
	// line order.
	Problems []Problem
}

// File is one file that changes.
type File struct {
	Path     string
	Old, New []byte
	// Edits are the line edits from Old to New, in order.
	Edits []Edit
}

// Converted is one include converted into a link.
type Converted struct {
	Page    string  `json:"page"`
	Line    int     `json:"line"` // 1-based, in the page as it was
	Dialect Dialect `json:"tool"`
	Written string  `json:"written"`
	// Link is the Markdown link that replaces it.
	Link string `json:"link"`
}

// source is one file, with its markers converted once it is a source.
type source struct {
	old, new  []byte
	edits     []Edit
	regions   map[string]Dialect
	err       error
	converted bool
}

type planner struct {
	o        Options
	sources  map[string]*source
	snippets map[string][]string // MarkdownSnippets name → files defining it
	plan     Plan
}

// Make plans the migration of the pages and sources o names.
func Make(o Options) (*Plan, error) {
	if o.Read == nil {
		return nil, errors.New("migrate: Options.Read is nil")
	}
	if len(o.SnippetsBase) == 0 {
		o.SnippetsBase = []string{"."}
	}
	p := &planner{o: o, sources: map[string]*source{}, snippets: map[string][]string{}}
	for _, s := range o.Sources {
		p.source(s, true)
	}
	pageEdits := map[string][]Edit{}
	for _, pg := range o.Pages {
		src := p.source(pg, false)
		if src.err != nil {
			p.problem(Problem{File: pg, Line: 1, Written: pg, Reason: "cannot read it: " + src.err.Error()})
			continue
		}
		if !mayInclude(string(src.new)) {
			continue
		}
		l := newLines(src.new)
		for _, inc := range scanPage(l) {
			e, ok := p.convert(pg, l, inc)
			if ok {
				pageEdits[pg] = append(pageEdits[pg], e)
			}
		}
	}
	// Every file whose markers or includes changed, in path order.
	var paths []string
	for f, s := range p.sources {
		if len(s.edits) > 0 || len(pageEdits[f]) > 0 {
			paths = append(paths, f)
		}
	}
	sort.Strings(paths)
	for _, f := range paths {
		s := p.sources[f]
		edits := merge(s.edits, pageEdits[f])
		p.plan.Files = append(p.plan.Files, File{Path: f, Old: s.old, New: apply(s.old, edits), Edits: edits})
	}
	sort.SliceStable(p.plan.Problems, func(i, j int) bool {
		a, b := p.plan.Problems[i], p.plan.Problems[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return &p.plan, nil
}

func (p *planner) problem(pr Problem) { p.plan.Problems = append(p.plan.Problems, pr) }

// source reads a file once, and converts its markers when convert is set
// (the first time it is): a page's own markers are left alone unless it is
// a source too, or a page includes it, since a page that shows a marker in
// an example must keep it.
func (p *planner) source(f string, convert bool) *source {
	s, ok := p.sources[f]
	if !ok {
		s = &source{}
		p.sources[f] = s
		s.old, s.err = p.o.Read(f)
		s.new = s.old
	}
	if s.err != nil || !convert || s.converted {
		return s
	}
	s.converted = true
	edits, names, problems := convertMarkers(f, s.old)
	s.edits, s.regions = edits, names
	s.new = apply(s.old, edits)
	p.plan.Regions += len(names)
	p.plan.Problems = append(p.plan.Problems, problems...)
	for name, d := range names {
		if d == MarkdownSnippets {
			p.snippets[name] = append(p.snippets[name], f)
		}
	}
	return s
}

// merge joins a file's marker edits with its include edits; an include's
// lines replace any marker edit inside them.
func merge(markers, includes []Edit) []Edit {
	var out []Edit
	for _, m := range markers {
		inside := false
		for _, e := range includes {
			if m.Start < e.End && e.Start < m.End {
				inside = true
			}
		}
		if !inside {
			out = append(out, m)
		}
	}
	out = append(out, includes...)
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// convert turns one include into the edit that replaces its lines with
// the link, or lists it.
func (p *planner) convert(page string, l lines, inc include) (Edit, bool) {
	fail := func(why string) (Edit, bool) {
		p.problem(Problem{File: page, Line: inc.first + 1, Dialect: inc.dialect, Written: inc.written, Reason: why})
		return Edit{}, false
	}
	if inc.problem != "" {
		return fail(inc.problem)
	}
	file, why := p.locate(page, inc)
	if why != "" {
		return fail(why)
	}
	src := p.source(file, true)
	if src.err != nil {
		return fail(fmt.Sprintf("cannot read %s: %v", file, src.err))
	}
	text, err := rfc5147.NewText(src.new, rfc5147.Charset{})
	if err != nil {
		return fail(fmt.Sprintf("%s is not text textfrag can quote: %v", file, err))
	}
	o := quotelink.Options{Page: page, Caption: inc.caption}
	var title []string
	if lang := inc.fenceLang; lang != "" && !sameLexer(lang, path.Ext(file)) && !strings.ContainsAny(lang, "\"'\\") {
		title = append(title, "lang="+lang)
	}
	var link quotelink.Link
	switch {
	case inc.sel.region != "" || inc.sel.sym != "":
		sel := symbol.Selector{Kind: symbol.Region, Name: inc.sel.region}
		if inc.sel.sym != "" {
			sel = symbol.Selector{Kind: symbol.Symbol, Name: inc.sel.sym}
		}
		span, err := p.o.Symbols.Find(file, symbol.TitleLang(strings.Join(title, " ")), text.Bytes(), sel)
		if err != nil {
			msg := quotelink.ExplainName(file, err, p.o.Symbols.Languages())
			if sel.Kind == symbol.Region && errors.Is(err, symbol.ErrNotFound) {
				msg = fmt.Sprintf("%s has no region %q (its markers were not converted, or are not there)", file, sel.Name)
			}
			return fail(msg)
		}
		hl, why := emphasized(inc.options, span.Start+1)
		if why != "" {
			return fail(why)
		}
		o.Title = strings.Join(append(title, hl...), " ")
		link, _, err = quotelink.ComposeName(file, sel, span, text, o)
		if err != nil {
			return fail(err.Error())
		}
	default:
		from, to, why := p.lineRange(newLines(text.Bytes()), inc.sel)
		if why != "" {
			return fail(why)
		}
		hl, why := emphasized(inc.options, from)
		if why != "" {
			return fail(why)
		}
		o.Title = strings.Join(append(title, hl...), " ")
		link, _, err = quotelink.Compose(file, quotelink.Range{Unit: quotelink.Lines, Start: int64(from), End: int64(to)}, text, o)
		if err != nil {
			return fail(err.Error())
		}
	}
	md := link.Markdown()
	p.plan.Links = append(p.plan.Links, Converted{Page: page, Line: inc.first + 1, Dialect: inc.dialect, Written: inc.written, Link: md})
	eol := l.ending()
	out := inc.indent + md + eol
	// Alone in its paragraph, so that it becomes a box.
	if inc.first > 0 {
		if t, _ := l.text(inc.first - 1); strings.TrimSpace(t) != "" {
			out = eol + out
		}
	}
	if inc.end < l.count() {
		if t, _ := l.text(inc.end); strings.TrimSpace(t) != "" {
			out += eol
		}
	} else if _, e := l.text(inc.end - 1); e == "" {
		out = strings.TrimSuffix(out, eol) // the page ended without a line ending
	}
	return Edit{Start: inc.first, End: inc.end, Text: []byte(out)}, true
}

// locate returns the project path of an include's file, or why there is
// none.
func (p *planner) locate(page string, inc include) (string, string) {
	dir := path.Dir(page)
	var candidates []string
	switch inc.from {
	case fromPage:
		candidates = []string{path.Join(dir, inc.file)}
	case fromBase:
		for _, b := range p.o.SnippetsBase {
			candidates = append(candidates, path.Join(b, inc.file))
		}
	case fromSphinx:
		base := p.o.SphinxSource
		if base == "" {
			base = p.sphinxDir(dir)
		}
		candidates = []string{path.Join(base, inc.file)}
	case fromPageOrRoot:
		candidates = []string{path.Join(dir, inc.file), path.Clean(inc.file)}
	case fromSearch:
		files := p.snippets[inc.sel.region]
		switch len(files) {
		case 0:
			return "", fmt.Sprintf("no file given to migrate defines the snippet %q (begin-snippet: %s), or its markers were not converted", inc.sel.region, inc.sel.region)
		case 1:
			return files[0], ""
		}
		return "", fmt.Sprintf("the snippet %q is defined in %d files (%s); a textfrag link quotes one: rename all but one", inc.sel.region, len(files), strings.Join(files, ", "))
	}
	var tried []string
	for _, c := range candidates {
		if c == ".." || strings.HasPrefix(c, "../") || path.IsAbs(c) {
			tried = append(tried, c)
			continue
		}
		s := p.source(c, true)
		if s.err == nil {
			return c, ""
		}
		if !errors.Is(s.err, fs.ErrNotExist) {
			return "", fmt.Sprintf("%s (%s) is not read: %v", inc.file, c, s.err) // a secret, a link out, not a regular file
		}
		tried = append(tried, c)
	}
	if len(tried) > 0 && (tried[0] == ".." || strings.HasPrefix(tried[0], "../")) {
		return "", fmt.Sprintf("%s is outside the project; textfrag quotes files inside it", inc.file)
	}
	return "", fmt.Sprintf("%s not found (looked for %s)", inc.file, strings.Join(tried, ", "))
}

// sphinxDir is the nearest directory at or above dir holding conf.py.
func (p *planner) sphinxDir(dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if _, err := p.o.Read(path.Join(d, "conf.py")); err == nil {
			return d
		}
		if d == "." || d == "/" {
			return "."
		}
	}
}

// lineRange is the human lines [from, to] an include by lines takes.
func (p *planner) lineRange(l lines, sel selection) (from, to int, why string) {
	n := l.count()
	if n == 0 {
		return 0, 0, "the file is empty; there are no lines to quote"
	}
	start, end := 0, n // line positions, [start, end)
	find := func(s string, from int) int {
		for k := from; k < end; k++ {
			if t, _ := l.text(k); strings.Contains(t, s) {
				return k
			}
		}
		return -1
	}
	if s := sel.startAfter; s != nil {
		k := find(*s, start)
		if k < 0 {
			return 0, 0, fmt.Sprintf(":start-after: %q is in no line of the file", *s)
		}
		start = k + 1
	}
	if s := sel.startAt; s != nil {
		k := find(*s, start)
		if k < 0 {
			return 0, 0, fmt.Sprintf(":start-at: %q is in no line of the file", *s)
		}
		start = k
	}
	if s := sel.endBefore; s != nil {
		if k := find(*s, start); k >= 0 {
			end = k
		} else {
			return 0, 0, fmt.Sprintf(":end-before: %q is in no line after the start", *s)
		}
	}
	if s := sel.endAt; s != nil {
		if k := find(*s, start); k >= 0 {
			end = k + 1
		} else {
			return 0, 0, fmt.Sprintf(":end-at: %q is in no line after the start", *s)
		}
	}
	if sel.sphinxLines != "" {
		a, b, ok := oneRange(sel.sphinxLines, end-start)
		if !ok {
			return 0, 0, fmt.Sprintf(":lines: %s is not one range (A, A-B, A- or -B) within the %d lines; textfrag quotes one range a box: write one include a range", sel.sphinxLines, end-start)
		}
		start, end = start+a-1, start+b
	}
	switch {
	case sel.from == 0 && sel.to == 0:
		from, to = start+1, end
	case sel.from > n:
		return 0, 0, fmt.Sprintf("line %d is past the end of the file (%d lines)", sel.from, n)
	default:
		from, to = sel.from, sel.to
		if to == 0 || to > n {
			to = n // the peer took the lines up to the end of the file
		}
	}
	if to < from {
		return 0, 0, fmt.Sprintf("the range %d–%d selects no line", from, to)
	}
	return from, to, ""
}

// oneRange reads a Sphinx line list that is one range, within n lines.
func oneRange(s string, n int) (a, b int, ok bool) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, ",") {
		return 0, 0, false
	}
	lo, hi, dash := strings.Cut(s, "-")
	var err error
	a, b = 1, n
	if lo != "" {
		if a, err = strconv.Atoi(strings.TrimSpace(lo)); err != nil {
			return 0, 0, false
		}
	}
	switch {
	case !dash:
		b = a
	case hi != "":
		if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
			return 0, 0, false
		}
	}
	return a, b, a >= 1 && a <= b && b <= n
}

// emphasized turns Sphinx's emphasize-lines (numbered from the first line
// included, which is the human line first) into hl= in the file's numbers.
func emphasized(options []string, first int) ([]string, string) {
	var out []string
	for _, o := range options {
		v, ok := strings.CutPrefix(o, "emphasize-lines=")
		if !ok {
			out = append(out, o)
			continue
		}
		var parts []string
		for _, r := range strings.Split(v, ",") {
			lo, hi, dash := strings.Cut(strings.TrimSpace(r), "-")
			a, err1 := strconv.Atoi(lo)
			b, err2 := a, error(nil)
			if dash {
				b, err2 = strconv.Atoi(hi)
			}
			if err1 != nil || err2 != nil || a < 1 || b < a {
				return nil, fmt.Sprintf(":emphasize-lines: %s is not a list of lines and ranges", v)
			}
			if a == b {
				parts = append(parts, strconv.Itoa(first+a-1))
			} else {
				parts = append(parts, fmt.Sprintf("%d-%d", first+a-1, first+b-1))
			}
		}
		out = append(out, "hl="+strings.Join(parts, ","))
	}
	return out, ""
}

// sameLexer reports whether a fence's language highlights as the file's
// extension does, so that the link needs no lang=.
func sameLexer(lang, ext string) bool {
	a, b := highlight.Lexer(lang), highlight.Lexer(strings.TrimPrefix(ext, "."))
	if a == nil {
		return true // chroma does not know it: lang= would change nothing
	}
	return b != nil && a.Config().Name == b.Config().Name
}
