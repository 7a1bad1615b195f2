package textfrag

import (
	"bytes"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

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
