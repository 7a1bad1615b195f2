package textfrag

import (
	"fmt"

	"github.com/textfrag/textfrag/internal/termsafe"
	"github.com/yuin/goldmark/parser"
)

var (
	documentKey = parser.NewContextKey()
	nameKey     = parser.NewContextKey()
	problemsKey = parser.NewContextKey()
)

// SetDocument records the path of the Markdown document about to be
// converted with pc: links resolve against its directory, and problems name
// it. The path is relative to the project root (or to WithFS's file system),
// or absolute. Without it, links resolve against the root itself.
//
//	pc := parser.NewContext()
//	textfrag.SetDocument(pc, "docs/guide.md")
//	err := md.Convert(src, &buf, parser.WithContext(pc))
func SetDocument(pc parser.Context, path string) { pc.Set(documentKey, path) }

// SetDocumentName sets how problems name the document, and the file the
// re-pin advice names, when that differs from the path given to SetDocument:
// a command may resolve with an absolute path but report the path as the
// user typed it. Default: the SetDocument path.
func SetDocumentName(pc parser.Context, name string) { pc.Set(nameKey, name) }

// documentName is the name problems use.
func documentName(pc parser.Context) string {
	if n, ok := pc.Get(nameKey).(string); ok {
		return n
	}
	return Document(pc)
}

// Document returns the path SetDocument recorded, or "".
func Document(pc parser.Context) string {
	p, _ := pc.Get(documentKey).(string)
	return p
}

// Problems returns every error and warning found while parsing with pc, in
// document order.
func Problems(pc parser.Context) []*Problem {
	ps, _ := pc.Get(problemsKey).([]*Problem)
	return ps
}

func addProblem(pc parser.Context, p *Problem) {
	pc.Set(problemsKey, append(Problems(pc), p))
}

// Severity tells errors from warnings.
type Severity uint8

const (
	// Error fails the conversion.
	Error Severity = iota + 1
	// Warning is reported but does not fail.
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Problem is an error or warning about one link. As an error it reads
// "docs/a.md:12:5: error: ../src/a.go#line=1,2;md5=…: md5 mismatch: …; fix".
type Problem struct {
	Severity Severity
	// Document names the document: SetDocumentName's name, else the
	// SetDocument path.
	Document string
	// Line and Column locate the link's first character in the document,
	// 1-based; Column counts characters.
	Line, Column int
	// Link is the destination as written.
	Link string
	// Kind classifies errors as target.Kind does ("integrity", "missing", …),
	// plus this package's own: "limit" (box limits), "title" (link title
	// options), "highlight" (highlighting budget and safety net) and
	// "order" (a link another transformer rewrote first, see WithPriority);
	// "symbol" for a sym= or region= name that does not hold.
	Kind string
	// Reason refines Kind "symbol" (symbol.ErrorKind): "mismatch",
	// "not-found", "ambiguous", "parse", "unclosed", "unsupported",
	// "options" or "empty"; "" for other kinds.
	Reason string
	// Message says what is wrong and how to fix it.
	Message string
	// Err is the underlying error, for errors.Is; nil for warnings.
	Err error
}

func (p *Problem) Error() string {
	doc := p.Document
	if doc == "" {
		doc = "(document)"
	}
	return termsafe.Escape(fmt.Sprintf("%s:%d:%d: %s: %s: %s", doc, p.Line, p.Column, p.Severity, p.Link, p.Message), "")
}

// Unwrap returns the underlying error.
func (p *Problem) Unwrap() error { return p.Err }
