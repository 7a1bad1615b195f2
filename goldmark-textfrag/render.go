package textfrag

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// htmlRenderer writes Box, Quote and Failure nodes as testdata/OUTPUT.md
// specifies. md is the Markdown it renders for, whose renderer writes other
// extensions' nodes in a box's title.
type htmlRenderer struct {
	cfg *config
	md  goldmark.Markdown
}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindBox, r.renderBox)
	reg.Register(KindQuote, r.renderQuote)
	reg.Register(KindFailure, r.renderFailure)
}

func (r *htmlRenderer) renderBox(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := node.(*Box)
	res := b.Result
	frag := res.Fragment
	class := "textfrag textfrag-" + frag.Scheme.String()
	if b.Body == "" {
		class += " textfrag-position"
	}
	fmt.Fprintf(w, "<figure class=\"%s\" data-textfrag-fragment=\"%s\">\n", class, escapeText(frag.String()))
	w.WriteString(`<figcaption class="textfrag-caption">`)
	if title := r.title(b, source); title != "" {
		fmt.Fprintf(w, `<span class="textfrag-title">%s</span> `, escapeText(title))
	}
	fmt.Fprintf(w, `<a class="textfrag-source" href="%s">%s</a> `, escapeURL(b.Href), html.EscapeString(res.Path))
	fmt.Fprintf(w, "<span class=\"textfrag-range\">%s</span></figcaption>\n", html.EscapeString(res.Selection.Label()))
	if b.Body != "" {
		// As Hugo's transform.Highlight writes it with lineNos=inline and
		// noClasses=false, so both front ends agree byte for byte.
		err := highlight.WriteCached(w, b.Body, highlight.Options{
			Lang: b.Lang, LineNumbers: true, FirstLine: b.FirstLine, Highlighted: b.Highlighted,
			Omit: b.Omitted,
		}, r.cfg.cache)
		if err != nil {
			return ast.WalkStop, b.renderError(err)
		}
		w.WriteByte('\n')
	}
	if b.Hidden > 0 {
		fmt.Fprintf(w, "<p class=\"textfrag-truncated\">%d more %s not shown</p>\n", b.Hidden, plural(b.Hidden, "line", "lines"))
	}
	w.WriteString("</figure>\n")
	return ast.WalkSkipChildren, nil
}

// title is b's title: Title, or when the link's text holds other
// extensions' nodes, its plain text with what the renderer writes for them
// (an emoji's character reference), as OUTPUT.md defines TITLE. It is made
// here, not in the transformer, as those nodes may be completed by
// transformers that run after textfrag's.
func (r *htmlRenderer) title(b *Box, source []byte) string {
	if b.titleFrom == nil || r.md == nil {
		return b.Title
	}
	rd := r.md.Renderer()
	return plainText(b.titleFrom, source, func(n ast.Node) []byte {
		var buf textBuffer
		if err := rd.Render(&buf, source, n); err != nil {
			return nil // as PlainText: no text
		}
		return buf.Bytes()
	})
}

func (r *htmlRenderer) renderQuote(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		q := node.(*Quote)
		href := escapeURL(q.Href)
		// The citation names source and range visibly (SEMANTICS.md §5), as a box's caption does.
		fmt.Fprintf(w, `<q class="textfrag-quote" cite="%s">%s</q> <cite class="textfrag-cite">(<a class="textfrag-source" href="%s">%s</a>, <span class="textfrag-range">%s</span>)</cite>`,
			href, html.EscapeString(displayText(q.Result.Selection.Text)), href, html.EscapeString(q.Result.Path), html.EscapeString(q.Result.Selection.Label()))
	}
	return ast.WalkSkipChildren, nil
}

func (r *htmlRenderer) renderFailure(_ util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	return ast.WalkStop, node.(*Failure).Problem
}

// escapeURL escapes a destination the way goldmark's HTML renderer does,
// but percent-encodes bytes that are not UTF-8, which goldmark passes on.
func escapeURL(dest string) string {
	if !utf8.ValidString(dest) {
		var b strings.Builder
		for i := 0; i < len(dest); {
			r, size := utf8.DecodeRuneInString(dest[i:])
			if r == utf8.RuneError && size == 1 {
				fmt.Fprintf(&b, "%%%02X", dest[i])
			} else {
				b.WriteString(dest[i : i+size])
			}
			i += size
		}
		dest = b.String()
	}
	return string(util.EscapeHTML(util.URLEscape([]byte(dest), true)))
}

// escapeText escapes text from the Markdown (link text, a fragment as
// written) for HTML, replacing bytes that are not UTF-8 with U+FFFD, so that
// textfrag's own markup is valid UTF-8 whatever the Markdown holds.
func escapeText(s string) string {
	return html.EscapeString(strings.ToValidUTF8(s, "\uFFFD"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
