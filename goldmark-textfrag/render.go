package textfrag

import (
	"fmt"
	"html"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// htmlRenderer writes Box, Quote and Failure nodes as testdata/OUTPUT.md specifies.
type htmlRenderer struct{ cfg *config }

// RegisterFuncs implements renderer.NodeRenderer.
func (r *htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindBox, r.renderBox)
	reg.Register(KindQuote, r.renderQuote)
	reg.Register(KindFailure, r.renderFailure)
}

func (r *htmlRenderer) renderBox(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
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
	fmt.Fprintf(w, "<figure class=\"%s\" data-textfrag-fragment=\"%s\">\n", class, html.EscapeString(frag.String()))
	w.WriteString(`<figcaption class="textfrag-caption">`)
	if b.Title != "" {
		fmt.Fprintf(w, `<span class="textfrag-title">%s</span> `, html.EscapeString(b.Title))
	}
	fmt.Fprintf(w, `<a class="textfrag-source" href="%s">%s</a> `, escapeURL(b.Href), html.EscapeString(res.Path))
	fmt.Fprintf(w, "<span class=\"textfrag-range\">%s</span></figcaption>\n", html.EscapeString(res.Selection.Label()))
	if b.Body != "" {
		if err := writeHighlighted(w, b); err != nil {
			return ast.WalkStop, err
		}
		w.WriteByte('\n')
	}
	if b.Hidden > 0 {
		fmt.Fprintf(w, "<p class=\"textfrag-truncated\">%d more %s not shown</p>\n", b.Hidden, plural(b.Hidden, "line", "lines"))
	}
	w.WriteString("</figure>\n")
	return ast.WalkSkipChildren, nil
}

func (r *htmlRenderer) renderQuote(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		q := node.(*Quote)
		fmt.Fprintf(w, `<q class="textfrag-quote" cite="%s">%s</q>`, escapeURL(q.Href), html.EscapeString(displayText(q.Result.Selection.Text)))
	}
	return ast.WalkSkipChildren, nil
}

func (r *htmlRenderer) renderFailure(_ util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	return ast.WalkStop, node.(*Failure).Problem
}

// writeHighlighted writes the body as Hugo's transform.Highlight does with
// lineNos=inline and noClasses=false, so both front ends agree byte for byte:
// <div class="highlight"><pre tabindex="0" class="chroma"><code …>…</code></pre></div>.
func writeHighlighted(w util.BufWriter, b *Box) error {
	lexer := lexerFor(b.Lang)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	tokens, err := chroma.Coalesce(lexer).Tokenise(nil, b.Body)
	if err != nil {
		return err
	}
	opts := []chromahtml.Option{
		chromahtml.WithClasses(true),
		chromahtml.WithLineNumbers(true),
		chromahtml.LineNumbersInTable(false),
		chromahtml.BaseLineNumber(b.FirstLine),
		chromahtml.TabWidth(4),
		chromahtml.WithPreWrapper(preWrapper(b.Lang)),
	}
	if len(b.Highlighted) > 0 {
		opts = append(opts, chromahtml.HighlightLines(b.Highlighted))
	}
	w.WriteString(`<div class="highlight">`)
	if err := chromahtml.New(opts...).Format(w, styles.Fallback, tokens); err != nil {
		return err
	}
	w.WriteString(`</div>`)
	return nil
}

// preWrapper writes <pre tabindex="0" class="chroma"><code class="language-L" data-lang="L">.
type preWrapper string

func (p preWrapper) Start(code bool, styleAttr string) string {
	if !code {
		return fmt.Sprintf(`<pre tabindex="0"%s>`, styleAttr)
	}
	lang := html.EscapeString(string(p))
	return fmt.Sprintf(`<pre tabindex="0"%s><code class="language-%s" data-lang="%s">`, styleAttr, lang, lang)
}

func (p preWrapper) End(code bool) string {
	if !code {
		return "</pre>"
	}
	return "</code></pre>"
}

// escapeURL escapes a destination the way goldmark's HTML renderer does.
func escapeURL(dest string) string {
	return string(util.EscapeHTML(util.URLEscape([]byte(dest), true)))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
