package textfrag

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// transformer finds RFC 5147 links after parsing and resolves them.
type transformer struct{ ext *extender }

// Transform implements parser.ASTTransformer.
func (t *transformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	var links []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && (n.Kind() == ast.KindLink || n.Kind() == ast.KindImage) {
			links = append(links, n)
		}
		return ast.WalkContinue, nil
	})
	if len(links) == 0 {
		return
	}
	d := &document{
		cfg:    t.ext.cfg,
		pc:     pc,
		source: reader.Source(),
		path:   Document(pc),
		name:   documentName(pc),
	}
	r, err := t.ext.resolverOnce()
	if err != nil {
		d.fail(doc.FirstChild(), &Problem{Severity: Error, Line: 1, Column: 1, Kind: "config",
			Message: fmt.Sprintf("textfrag cannot start: %v", err), Err: err})
		return
	}
	d.resolver = r
	d.project = "."
	switch {
	case filepath.IsAbs(d.path):
		d.project = r.DocPath(d.path)
	case d.path != "":
		d.project = path.Clean(filepath.ToSlash(d.path))
	}
	for _, n := range links {
		d.link(n)
	}
}

// document is the state of one Transform call.
type document struct {
	cfg        *config
	pc         parser.Context
	source     []byte
	path       string // as given to SetDocument
	name       string // for problems: SetDocumentName's, else path
	project    string // project path of the document
	resolver   *target.Resolver
	lineStarts []int
}

func (d *document) link(n ast.Node) {
	var dest, title []byte
	var isImage bool
	switch l := n.(type) {
	case *ast.Link:
		dest, title = l.Destination, l.Title
	case *ast.Image:
		dest, title, isImage = l.Destination, l.Title, true
	}
	res, err := d.resolver.Resolve(d.project, string(dest))
	if errors.Is(err, target.ErrNotOurs) {
		return
	}
	p := d.problem(n, string(dest))
	if err != nil {
		p.Kind, p.Message, p.Err = target.Kind(err), target.Explain(err, d.pinName()), err
		if d.cfg.lenient && target.Lenient(err) {
			p.Severity = Warning
			p.Message += "; left as a plain link (lenient mode)"
			addProblem(d.pc, p)
			return
		}
		d.fail(n, p)
		return
	}
	opts, err := parseTitle(string(title))
	if err != nil {
		p.Kind, p.Message, p.Err = "title", err.Error(), err
		d.fail(n, p)
		return
	}
	var kinds map[string]string // by warning, when not "warning"
	warnings := target.Warnings(res)
	if d.cfg.unpinned && !hasMD5(res.Fragment) {
		w := fmt.Sprintf("unpinned: no md5= check, so the link quotes whatever the file holds now, right or not; pin it with `textfrag pin --write %s`", d.pinName())
		warnings, kinds = append(warnings, w), map[string]string{w: "unpinned"}
	}
	for _, w := range warnings {
		wp := *p
		wp.Severity, wp.Kind, wp.Message = Warning, cmp.Or(kinds[w], "warning"), w
		if d.cfg.warningsFatal {
			wp.Severity, wp.Err = Error, errors.New(w)
			d.fail(n, &wp)
			return
		}
		addProblem(d.pc, &wp)
	}

	href := d.href(res, string(dest))
	para, alone := n.Parent().(*ast.Paragraph)
	if !alone || para.ChildCount() != 1 {
		if opts.quote && !isImage && res.Fragment.Scheme == rfc5147.Char {
			q := &Quote{Result: res, Href: href}
			n.Parent().ReplaceChild(n.Parent(), n, q)
		}
		return // inline: stays the link it is, now verified
	}
	box, err := d.box(n, res, opts, href)
	if err != nil {
		p.Kind, p.Message, p.Err = "limit", err.Error(), err
		d.fail(n, p)
		return
	}
	para.Parent().ReplaceChild(para.Parent(), para, box)
}

// box builds the Box for a lone link, applying the per-link options and limits.
func (d *document) box(n ast.Node, res *target.Result, opts linkOptions, href string) (*Box, error) {
	sel := res.Selection
	b := &Box{
		Result:      res,
		Title:       PlainText(n, d.source),
		Href:        href,
		Lang:        d.lang(targetName(res), opts.lang),
		FirstLine:   int(sel.First.Line),
		Highlighted: opts.highlighted,
	}
	body := displayText(sel.Text)
	if !opts.dedent && len(body) <= d.cfg.maxBytes && lineCount(body) <= d.cfg.maxLines {
		b.Body = body // within the limits, as it is: the common case
		return b, nil
	}
	lines := strings.SplitAfter(body, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	keep, size := 0, 0
	for keep < len(lines) && keep < d.cfg.maxLines && size+len(lines[keep]) <= d.cfg.maxBytes {
		size += len(lines[keep])
		keep++
	}
	if keep < len(lines) {
		if !d.cfg.truncate {
			return nil, fmt.Errorf("the box would show %d lines (%d bytes), more than the limit of %d lines or %d bytes: narrow the range, raise the limit, or turn on truncation",
				len(lines), len(body), d.cfg.maxLines, d.cfg.maxBytes)
		}
		b.Hidden = len(lines) - keep
		lines = lines[:keep]
	}
	if opts.dedent {
		dedent(lines)
	}
	b.Body = strings.Join(lines, "")
	return b, nil
}

// lineCount is the number of lines of s, in which each line ends with "\n"
// but perhaps the last.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// lang picks the chroma lexer name: the title's lang=, else the file
// extension; "text" when highlighting is off or chroma has no such lexer.
func (d *document) lang(p, override string) string {
	lang := override
	if lang == "" {
		lang = strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
	}
	if !d.cfg.highlight || lang == "" || highlight.LexerCached(lang, d.cfg.cache) == nil {
		return "text"
	}
	return lang
}

// targetName is the path whose extension names the target's language: the
// project path, or a remote target's URL path.
func targetName(res *target.Result) string {
	if res.Remote != nil {
		if u, err := url.Parse(res.Path); err == nil {
			return u.Path
		}
	}
	return res.Path
}

// hasMD5 reports whether f has an md5= check.
func hasMD5(f rfc5147.Fragment) bool {
	for _, c := range f.Checks {
		if c.Kind == rfc5147.MD5 {
			return true
		}
	}
	return false
}

func (d *document) href(res *target.Result, dest string) string {
	if d.cfg.sourceURL == "" || res.Remote != nil {
		return dest // a remote target is its own source
	}
	sel := res.Selection
	return strings.NewReplacer(
		"{path}", res.Path,
		"{start}", strconv.FormatInt(sel.First.Line, 10),
		"{end}", strconv.FormatInt(sel.Last.Line, 10),
	).Replace(d.cfg.sourceURL)
}

// pinName is the document name to put in a re-pin command.
func (d *document) pinName() string {
	if d.name == "" {
		return "FILE.md"
	}
	return d.name
}

// problem starts a Problem located at n.
func (d *document) problem(n ast.Node, dest string) *Problem {
	line, col := d.position(n)
	return &Problem{Severity: Error, Document: d.name, Line: line, Column: col, Link: dest}
}

// fail records an error and marks the spot so that rendering fails there.
func (d *document) fail(n ast.Node, p *Problem) {
	addProblem(d.pc, p)
	if n == nil {
		return
	}
	n.Parent().InsertBefore(n.Parent(), n, &Failure{Problem: p})
}

// position returns the 1-based line and column of n's first character.
func (d *document) position(n ast.Node) (int, int) {
	pos := n.Pos()
	for m := n; pos < 0 && m != nil; m = m.Parent() {
		if m.Type() == ast.TypeBlock && m.Lines().Len() > 0 {
			pos = m.Lines().At(0).Start
		}
	}
	if pos < 0 || pos > len(d.source) {
		return 1, 1
	}
	if d.lineStarts == nil {
		d.lineStarts = []int{0}
		for i, c := range d.source {
			if c == '\n' {
				d.lineStarts = append(d.lineStarts, i+1)
			}
		}
	}
	line := sort.SearchInts(d.lineStarts, pos+1) - 1
	col := utf8.RuneCount(d.source[d.lineStarts[line]:pos]) + 1
	return line + 1, col
}

// PlainText returns the text of n's inline children without markup or raw
// HTML, line breaks as spaces, trimmed: what a box's title shows of a link's
// text, and what a page title can take from a heading.
func PlainText(n ast.Node, source []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Value(source))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for cc := t.FirstChild(); cc != nil; cc = cc.NextSibling() {
				if s, ok := cc.(*ast.Text); ok {
					b.Write(s.Value(source))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// displayText writes each RFC 5147 line ending (CR+LF, CR+NEL, LF, CR, NEL)
// as LF, for display only.
func displayText(t []byte) string {
	if bytes.IndexByte(t, '\r') < 0 && !bytes.Contains(t, []byte("\u0085")) {
		return string(t)
	}
	return lineEndings.Replace(string(t))
}

var lineEndings = strings.NewReplacer("\r\n", "\n", "\r\u0085", "\n", "\r", "\n", "\u0085", "\n")

// dedent removes the leading spaces and tabs that all non-blank lines share.
func dedent(lines []string) {
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = indent, false
			continue
		}
		for !strings.HasPrefix(indent, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if prefix == "" {
		return
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
}
