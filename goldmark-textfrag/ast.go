package textfrag

import (
	"fmt"

	"github.com/yuin/goldmark/ast"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// KindBox is the NodeKind of Box.
var KindBox = ast.NewNodeKind("TextfragBox")

// Box is a block that shows transcluded text: the paragraph that held a lone
// RFC 5147 link or image, replaced.
type Box struct {
	ast.BaseBlock
	// Result is the resolved link.
	Result *target.Result
	// Title is the link text or image alt, as plain text (PlainText). The
	// caption adds what the renderer writes for another extension's inline
	// nodes in it (an emoji), which have no text of their own.
	Title string
	// Href is where the caption links to, unescaped.
	Href string
	// Lang names the chroma lexer ("text" for none).
	Lang string
	// Body is the text shown: the selection with line endings as LF,
	// dedented if asked, cut if over the limits.
	Body string
	// FirstLine is the human number of Body's first line in the source.
	FirstLine int
	// Highlighted are source line ranges (inclusive, human numbers) to emphasize.
	Highlighted [][2]int
	// Hidden is the number of lines cut from Body by truncation.
	Hidden int
	// Omitted are the human numbers of Body's lines the box leaves out:
	// region marker lines (testdata/SYMBOLS.md section 3). The numbers of
	// the lines shown are their own, so the gap shows.
	Omitted []int

	at *Problem // where the link is, for errors found while rendering
	// titleFrom is the link, when its text holds another extension's
	// nodes, whose text only the renderer knows: the caption's title is
	// made from it while rendering.
	titleFrom ast.Node
}

// Kind implements ast.Node.
func (*Box) Kind() ast.NodeKind { return KindBox }

// Dump implements ast.Node.
func (b *Box) Dump(source []byte, level int) {
	ast.DumpHelper(b, source, level, map[string]string{
		"Path":  b.Result.Path,
		"Range": b.Result.Selection.Label(),
		"Title": b.Title,
	}, nil)
}

// KindQuote is the NodeKind of Quote.
var KindQuote = ast.NewNodeKind("TextfragQuote")

// Quote is an inline quotation of transcluded characters: a char range link
// inside running text whose title asks for "quote".
type Quote struct {
	ast.BaseInline
	Result *target.Result
	Href   string
}

// Kind implements ast.Node.
func (*Quote) Kind() ast.NodeKind { return KindQuote }

// Dump implements ast.Node.
func (q *Quote) Dump(source []byte, level int) {
	ast.DumpHelper(q, source, level, map[string]string{"Text": string(q.Result.Selection.Text)}, nil)
}

// KindFailure is the NodeKind of Failure.
var KindFailure = ast.NewNodeKind("TextfragFailure")

// Failure holds a document's first error. The transformer puts it first in
// the document, so rendering returns its Problem before writing anything,
// wherever the failed link stands (even where no renderer writes it, as in
// an image's alt text).
type Failure struct {
	ast.BaseInline
	Problem *Problem
}

// Kind implements ast.Node.
func (*Failure) Kind() ast.NodeKind { return KindFailure }

// Dump implements ast.Node.
func (f *Failure) Dump(source []byte, level int) {
	ast.DumpHelper(f, source, level, map[string]string{"Problem": fmt.Sprint(f.Problem)}, nil)
}
