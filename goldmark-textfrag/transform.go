package textfrag

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

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
	if err := CheckSourceURL(d.cfg.sourceURL); err != nil {
		d.fail(nil, &Problem{Severity: Error, Document: d.name, Line: 1, Column: 1, Kind: "config",
			Message: fmt.Sprintf("textfrag cannot start: WithSourceURL %v", err), Err: err})
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
		w := UnpinnedWarning(d.pinName())
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
