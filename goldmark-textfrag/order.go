package textfrag

import (
	"errors"
	"fmt"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// Transformer order. textfrag verifies links as written. Another
// transformer that runs before textfrag's (WithPriority) may rewrite a
// link's destination, as base-URL extensions make relative links absolute;
// "../src/a.go#line=1,2;md5=…" would then reach textfrag as
// "https://example.com/src/a.go#line=1,2;md5=…", a remote link on a host
// not allowed, which textfrag leaves alone: a quote left unverified. So
// linksAsWritten, which runs before every other transformer, notes the
// destination of each link with an RFC 5147 fragment, and textfrag's own
// transformer fails a link whose destination was one it reads and now is
// one it does not (document.rewritten). A link rewritten to another one
// textfrag reads is verified as it now is.

var writtenKey = parser.NewContextKey()

// linksAsWritten is the transformer that notes destinations as written,
// and every link and image the parser made (parsedKey), so that links
// another transformer drops (goldmark's footnote extension drops footnotes
// no reference uses) are verified too.
type linksAsWritten struct{}

var parsedKey = parser.NewContextKey()

// Transform implements parser.ASTTransformer.
func (linksAsWritten) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	var written map[ast.Node]string
	var parsed []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		switch l := n.(type) {
		case *ast.Link:
			dest = l.Destination
		case *ast.Image:
			dest = l.Destination
		case *ast.AutoLink:
			parsed = append(parsed, n)
			return ast.WalkContinue, nil
		default:
			var ok bool
			if dest, ok = foreignDestination(n); !ok {
				return ast.WalkContinue, nil
			}
		}
		if target.MayQuote(string(dest)) { // as written, or as Markdown reads it
			if written == nil {
				written = map[ast.Node]string{}
			}
			written[n] = string(dest)
		}
		parsed = append(parsed, n)
		return ast.WalkContinue, nil
	})
	pc.Set(writtenKey, written)
	pc.Set(parsedKey, parsed)
	pc.Set(failureKey, nil)
}

var failureKey = parser.NewContextKey()

// failureFirst is the transformer that runs after every other one. It puts
// the document's Failure, if any, back first in the document: transformers
// that run after textfrag's may put blocks before it (go.abhg.dev's toc
// inserts the table of contents, goldmark-meta its table) or move it, and
// the renderer would write those before it reached the Failure and
// returned its error.
type failureFirst struct{}

// Transform implements parser.ASTTransformer.
func (failureFirst) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	f, _ := pc.Get(failureKey).(*Failure)
	if f == nil || doc.FirstChild() == f {
		return
	}
	if p := f.Parent(); p != nil {
		p.RemoveChild(p, f)
	}
	if first := doc.FirstChild(); first != nil {
		doc.InsertBefore(doc, first, f)
	} else {
		doc.AppendChild(doc, f)
	}
}

// rewritten reports whether a transformer that ran before textfrag changed
// n's destination from one textfrag reads to dest, one it does not, and
// then fails n.
func (d *document) rewritten(n ast.Node, destination []byte) bool {
	all, _ := d.pc.Get(writtenKey).(map[ast.Node]string)
	written, ok := all[n]
	if !ok || written == string(destination) {
		return false
	}
	dest := string(destination)
	if _, err := d.resolver.Resolve(d.project, dest); !errors.Is(err, target.ErrNotOurs) {
		return false
	}
	if _, err := d.resolver.Resolve(d.project, written); errors.Is(err, target.ErrNotOurs) {
		return false
	}
	p := &Problem{Severity: Error, Document: d.name, Link: written, Kind: "order"}
	p.Message = fmt.Sprintf("another goldmark transformer changed this link to %q before textfrag verified it, which would leave the quote unverified; "+
		"register that transformer with a higher priority number than textfrag's %d (textfrag.WithPriority), so that textfrag sees links as written",
		dest, d.cfg.priority)
	p.Err = errors.New(p.Message)
	d.fail(n, p)
	return true
}
