package textfrag

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"html"
	"net/url"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// transformer finds RFC 5147 links after parsing and resolves them.
type transformer struct{ ext *extender }

// Transform implements parser.ASTTransformer.
//
// Every RFC 5147 destination in the document is verified wherever it stands
// (a heading, a table cell, a footnote, an image's alt text, an autolink),
// and so is each link reference definition that no link uses, and each link
// that another transformer removed from the document; links that use a
// definition are verified where they stand. When any of them fails, a
// Failure at the start of the document makes rendering fail with the first
// error, whether or not the renderer writes the node the error is about
// (goldmark writes an image's alt text as plain text, and drops link
// reference definitions).
func (t *transformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	var links []ast.Node
	used := map[string]bool{} // labels that links use
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			links = append(links, n)
			if l.Reference != nil {
				used[util.ToLinkReference(l.Reference.Value)] = true
			}
		case *ast.Image:
			links = append(links, n)
			if l.Reference != nil {
				used[util.ToLinkReference(l.Reference.Value)] = true
			}
		case *ast.LinkReferenceDefinition, *ast.AutoLink:
			links = append(links, n)
		default:
			if _, ok := foreignDestination(n); ok {
				links = append(links, n) // another extension's link (foreign.go)
			}
		}
		return ast.WalkContinue, nil
	})
	// Links the parser made that are no longer in the document are
	// verified after the others (nothing renders them).
	if parsed, _ := pc.Get(parsedKey).([]ast.Node); len(parsed) > 0 {
		pc.Set(parsedKey, nil)
		attached := make(map[ast.Node]bool, len(links))
		for _, n := range links {
			attached[n] = true
		}
		for _, n := range parsed {
			if !attached[n] {
				links = append(links, n)
			}
		}
	}
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
	defer d.failFirst(doc)
	r, err := t.ext.resolver()
	if err != nil {
		d.fail(nil, &Problem{Severity: Error, Document: d.name, Line: 1, Column: 1, Kind: "config",
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
	defined := map[string]bool{}
	for _, n := range links {
		if def, ok := n.(*ast.LinkReferenceDefinition); ok {
			// The first definition of a label is the one links use
			// (CommonMark); those are verified at each use instead.
			label := util.ToLinkReference(def.Label)
			first := !defined[label]
			defined[label] = true
			if first && used[label] {
				continue
			}
		}
		d.link(n)
	}
}

// document is the state of one Transform call.
type document struct {
	cfg      *config
	pc       parser.Context
	source   []byte
	path     string // as given to SetDocument
	name     string // for problems: SetDocumentName's, else path
	project  string // project path of the document
	resolver *target.Resolver
	firstErr *Problem // the first error, which rendering returns

	// Problems are located lazily, in document order, so that links that
	// pass cost nothing and a line of many problems is counted once:
	// lineStarts are the offsets where lines start (built at the first
	// problem), and lastPos, lastLine, lastCol the last position located.
	lineStarts                 []int
	lastPos, lastLine, lastCol int
}

func (d *document) link(n ast.Node) {
	var dest, title []byte
	var isImage, isDefinition bool // a definition or autolink is only verified
	foreign := false               // another extension's link, which pin cannot rewrite
	switch l := n.(type) {
	case *ast.Link:
		dest, title = l.Destination, l.Title
	case *ast.Image:
		dest, title, isImage = l.Destination, l.Title, true
	case *ast.LinkReferenceDefinition:
		dest, title, isDefinition = l.Destination, l.Title, true
	case *ast.AutoLink: // <file:///…#line=1,2>, or GFM's linkify: verified, stays a link
		if l.AutoLinkType != ast.AutoLinkURL {
			return
		}
		dest, isDefinition = l.URL(d.source), true
	default:
		dest, _ = foreignDestination(n)
		isDefinition, foreign = true, true
	}
	if d.rewritten(n, dest) {
		return
	}
	res, err := d.resolver.Resolve(d.project, string(dest))
	if errors.Is(err, target.ErrNotOurs) {
		return
	}
	p := &Problem{Severity: Error, Document: d.name, Link: string(dest)}
	if err != nil {
		p.Kind, p.Message, p.Err = target.Kind(err), target.Explain(err, d.pinName()), err
		if foreign {
			// textfrag pin rewrites Markdown links only: Explain with no
			// document says what to write in the link instead.
			p.Message = target.Explain(err, "")
		}
		if d.cfg.lenient && target.Lenient(err) {
			p.Severity = Warning
			p.Message += "; left as a plain link (lenient mode)"
			d.warn(n, p)
			return
		}
		d.fail(n, p)
		return
	}
	opts, err := parseTitle(string(title))
	if err == nil && opts.name.Kind != 0 {
		err = d.resolver.CheckName(d.project, res, opts.lang, opts.name)
	}
	switch {
	case symbol.ErrorKind(err) != "":
		p.Kind, p.Reason, p.Message, p.Err = "symbol", symbol.ErrorKind(err), d.explainName(err, res, opts), err
		d.fail(n, p)
		return
	case err != nil:
		p.Kind, p.Message, p.Err = "title", err.Error(), err
		d.fail(n, p)
		return
	}
	var kinds map[string]string // by warning, when not "warning"
	warnings := target.Warnings(res)
	if d.cfg.unpinned && !hasMD5(res.Fragment) {
		w := fmt.Sprintf("unpinned: no md5= check, so the link quotes whatever the file holds now, right or not; pin it with `textfrag pin --write %s`", d.pinName())
		if foreign {
			w = fmt.Sprintf("unpinned: no md5= check, so the link quotes whatever the file holds now, right or not; pin it: add ;md5=%s to its fragment (textfrag pin rewrites Markdown links only)", res.Selection.Entity.MD5Hex())
		}
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
		d.warn(n, &wp)
	}
	if isDefinition {
		return // verified; nothing to render, or nothing to change
	}
	if !d.warnEach(n, p, d.titleWarnings(opts)...) {
		return
	}

	href := d.href(res, string(dest))
	para := n.Parent()
	if !aloneIn(para) {
		if !d.warnEach(n, p, inlineWarnings(opts)...) {
			return
		}
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
	if !d.placeBox(n, p, box, opts) {
		return
	}
	para.Parent().ReplaceChild(para.Parent(), para, box)
}

// explainName is the message of err, a sym= or region= name that does not
// hold for the link res with options o: target.Explain's, and for a
// language without a parser, the option that adds one.
func (d *document) explainName(err error, res *target.Result, o linkOptions) string {
	msg := target.Explain(err, d.pinName())
	var se *symbol.Error
	if errors.Is(err, symbol.ErrUnsupported) && errors.As(err, &se) && se.Detail == "" {
		if lang := symbol.LanguageOf(targetName(res), o.lang); lang != "" {
			msg += fmt.Sprintf("; to look names up in %s, add textfrag.WithSymbols(treesitter.Parsers()) (package github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter, which needs cgo)", symbol.DisplayName(lang))
		}
	}
	return msg
}

// aloneIn reports whether block, the parent of a link or image, is a
// paragraph that holds nothing else, at the top level or in block quotes
// and list items only: a Paragraph, or the text of a tight list item, which
// goldmark parses as a TextBlock. Paragraphs in other containers (footnotes,
// definition lists, other extensions' blocks) keep their links. This is the
// placement rule of testdata/OUTPUT.md, which the Hugo module can follow.
func aloneIn(block ast.Node) bool {
	switch block.Kind() {
	case ast.KindParagraph:
	case ast.KindTextBlock:
		if block.Parent() == nil || block.Parent().Kind() != ast.KindListItem {
			return false
		}
	default:
		return false
	}
	if block.ChildCount() != 1 {
		return false
	}
	for c := block.Parent(); c != nil; c = c.Parent() {
		switch c.Kind() {
		case ast.KindDocument:
			return true
		case ast.KindBlockquote, ast.KindList, ast.KindListItem:
		default:
			return false
		}
	}
	return false
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
	if hasOtherLeaf(n) {
		b.titleFrom = n // other extensions' nodes: the title is made while rendering
	}
	body := displayText(sel.Text)
	var markers []int // indexes of Body's lines that are region markers
	if res.Fragment.Scheme == rfc5147.Line {
		markers = markerLines(body)
	}
	if !opts.dedent && len(body) <= d.cfg.maxBytes && lineCount(body) <= d.cfg.maxLines {
		b.Body = body // within the limits, as it is: the common case
		b.Omitted = omitted(markers, b.FirstLine, lineCount(body))
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
	b.Omitted = omitted(markers, b.FirstLine, len(lines))
	if opts.dedent {
		dedent(lines, b.Omitted, b.FirstLine)
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
		"{path}", escapePath(res.Path),
		"{start}", strconv.FormatInt(sel.First.Line, 10),
		"{end}", strconv.FormatInt(sel.Last.Line, 10),
	).Replace(d.cfg.sourceURL)
}

// escapePath URL-escapes a project path one segment at a time, so that a
// name holding "#", "?", "%" or spaces stays one path in a source URL.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}

// pinName is the document name to put in a re-pin command.
func (d *document) pinName() string {
	if d.name == "" {
		return "FILE.md"
	}
	return d.name
}

// warn records a warning located at n.
func (d *document) warn(n ast.Node, p *Problem) {
	p.Line, p.Column = d.position(n)
	addProblem(d.pc, p)
}

// fail records an error located at n (unless it has a place already) and
// keeps the first one for failFirst.
func (d *document) fail(n ast.Node, p *Problem) {
	if n != nil {
		p.Line, p.Column = d.position(n)
	}
	addProblem(d.pc, p)
	if d.firstErr == nil {
		d.firstErr = p
	}
}

// failFirst puts a Failure holding the first error at the start of doc, so
// that rendering returns it before writing anything: wherever the link
// stands, even where no renderer writes it. failureFirst keeps it there.
func (d *document) failFirst(doc *ast.Document) {
	if d.firstErr == nil {
		return
	}
	f := &Failure{Problem: d.firstErr}
	d.pc.Set(failureKey, f) // for failureFirst
	if first := doc.FirstChild(); first != nil {
		doc.InsertBefore(doc, first, f)
	} else {
		doc.AppendChild(doc, f)
	}
}

// position returns the 1-based line and column of n's first character.
// Called in document order, its cost is linear in the document's size.
func (d *document) position(n ast.Node) (int, int) {
	pos := n.Pos()
	if l, ok := n.(*ast.AutoLink); ok && pos >= 0 && pos < len(d.source) && d.source[pos] != '<' {
		// GFM's linkify starts a bare URL's node at the character that
		// triggered it, the space or "(" before the URL: name the URL's
		// own first character.
		if label := l.Label(d.source); !bytes.HasPrefix(d.source[pos:], label) && bytes.HasPrefix(d.source[pos+1:], label) {
			pos++
		}
	}
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
		d.lastLine = -1
	}
	line := sort.SearchInts(d.lineStarts, pos+1) - 1
	from, col := d.lineStarts[line], 1
	if line == d.lastLine && pos >= d.lastPos {
		from, col = d.lastPos, d.lastCol // further along the same line
	}
	col += utf8.RuneCount(d.source[from:pos])
	d.lastPos, d.lastLine, d.lastCol = pos, line, col
	return line + 1, col
}

// PlainText returns the text of n's inline children as a reader sees it,
// as plain text: what goldmark's HTML renderer writes for it (backslash
// escapes and entity references resolved, the typographer's quotes and
// dashes) with the markup left out and character references decoded to
// characters, so that escaping the result once for HTML shows the same
// text. Raw HTML and images inside it are left out (a page shows an image,
// not its alt; n's own alt, when n is an image, is its text). Runs of ASCII
// white space, line breaks included, become one space; the result is
// trimmed. It is what a box's title shows of a link's text (the Hugo module
// computes the same from the link hook's .Text), and what a page title can
// take from a heading.
//
// An inline node of another extension's kind that has no children (an
// emoji of goldmark-emoji) has no text here; the box's title, made while
// rendering, takes what the renderer writes for it (htmlRenderer.title).
func PlainText(n ast.Node, source []byte) string { return plainText(n, source, nil) }

// plainText is PlainText, writing for each other leaf (see otherLeaf) the
// HTML that leaf returns for it, without its tags.
func plainText(n ast.Node, source []byte, leaf func(ast.Node) []byte) string {
	var b textBuffer
	w := &b
	hw := gmhtml.DefaultWriter
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if leaf != nil && otherLeaf(c) {
			writeWithoutTags(w, leaf(c))
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			if t.IsRaw() {
				hw.RawWrite(w, t.Value(source))
			} else {
				hw.Write(w, t.Value(source))
			}
			if t.SoftLineBreak() || t.HardLineBreak() {
				w.WriteByte(' ')
			}
		case *ast.String:
			switch {
			case t.IsCode(): // HTML as it is: the typographer's "&rsquo;"
				w.Write(t.Value)
			case t.IsRaw():
				hw.RawWrite(w, t.Value)
			default:
				hw.Write(w, t.Value)
			}
		case *ast.AutoLink:
			hw.RawWrite(w, t.Label(source))
		case *ast.Image:
			if c != n {
				return ast.WalkSkipChildren, nil
			}
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return collapseSpace(html.UnescapeString(b.String()))
}

// otherLeaf reports whether n is an inline node without children of a kind
// that PlainText does not know: another extension's, such as an emoji.
func otherLeaf(n ast.Node) bool {
	if n.Type() != ast.TypeInline || n.HasChildren() {
		return false
	}
	switch n.Kind() {
	case ast.KindText, ast.KindString, ast.KindAutoLink, ast.KindRawHTML, ast.KindImage,
		ast.KindLink, ast.KindEmphasis, ast.KindCodeSpan:
		return false
	}
	return true
}

// hasOtherLeaf reports whether n holds an otherLeaf, outside images.
func hasOtherLeaf(n ast.Node) bool {
	found := false
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		switch {
		case !entering:
		case c != n && c.Kind() == ast.KindImage:
			return ast.WalkSkipChildren, nil
		case otherLeaf(c):
			found = true
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

// writeWithoutTags writes html, which a goldmark renderer wrote, leaving out
// its tags (text there has "<" escaped, so each "<" starts a tag).
func writeWithoutTags(w *textBuffer, html []byte) {
	for len(html) > 0 {
		i := bytes.IndexByte(html, '<')
		if i < 0 {
			w.Write(html)
			return
		}
		w.Write(html[:i])
		j := bytes.IndexByte(html[i:], '>')
		if j < 0 {
			return
		}
		html = html[i+j+1:]
	}
}

// textBuffer is a bytes.Buffer that goldmark's HTML writer can write to
// (util.BufWriter), so that PlainText, called for every box's title, does
// not allocate a 4 KiB bufio.Writer each time.
type textBuffer struct{ bytes.Buffer }

// Buffered implements util.BufWriter.
func (b *textBuffer) Buffered() int { return b.Len() }

// Flush implements util.BufWriter: there is nothing to flush.
func (b *textBuffer) Flush() error { return nil }

// collapseSpace writes each run of ASCII white space (tab, LF, FF, CR,
// space) in s as one space, and trims the ends.
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t', '\n', '\f', '\r', ' ':
			space = true
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteByte(c)
		}
	}
	return b.String()
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
