package textfrag

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// warnEach records each warning, a pair of Problem kind and message, as a
// copy of at located at the link n, or under WithWarningsAsErrors fails n
// with the first. It reports whether the link stands.
func (d *document) warnEach(n ast.Node, at *Problem, warnings ...[2]string) bool {
	for _, kw := range warnings {
		w := *at
		w.Severity, w.Kind, w.Message = Warning, kw[0], kw[1]
		if d.cfg.warningsFatal {
			w.Severity, w.Err = Error, errors.New(kw[1])
			d.fail(n, &w)
			return false
		}
		d.warn(n, &w)
	}
	return true
}

// titleWarnings are the mistakes of a link's title o that do not stop the
// link, as warn takes them: options given twice, and a lang= chroma has no
// lexer for.
func (d *document) titleWarnings(o linkOptions) [][2]string {
	var ws [][2]string
	for _, m := range o.warnings {
		ws = append(ws, [2]string{"title", m})
	}
	if o.lang != "" && highlight.LexerCached(o.lang, d.cfg.cache) == nil {
		ws = append(ws, [2]string{"title", fmt.Sprintf("link title: lang=%s names no language chroma knows (a box shows plain text); use a chroma lexer name or alias (go, python, sh, …)", o.lang)})
	}
	return ws
}

// inlineWarnings are the options of o that only a box uses, given to a
// link that stays a link (or becomes a quote) in running text: hl=,
// dedent and lang= there do nothing, which the writer would otherwise
// never learn. lang= with sym= is not warned about: it names the language
// the symbol is looked up in (testdata/SYMBOLS.md).
func inlineWarnings(o linkOptions) [][2]string {
	var ws [][2]string
	if len(o.highlighted) > 0 {
		ws = append(ws, [2]string{"title", fmt.Sprintf("link title: hl=%s emphasizes lines of a box, but this link is inside running text, where it stays a link and shows no lines; put the link alone in its paragraph to make it a box, or remove hl=", lineList(o.highlighted))})
	}
	if o.dedent {
		ws = append(ws, [2]string{"title", "link title: dedent removes the indentation a box's lines share, but this link is inside running text, where it makes no box; put the link alone in its paragraph to make it a box, or remove dedent"})
	}
	if o.lang != "" && o.name.Kind != symbol.Symbol {
		ws = append(ws, [2]string{"title", fmt.Sprintf("link title: lang=%s picks how a box's lines are highlighted, but this link is inside running text, where it makes no box; put the link alone in its paragraph to make it a box, or remove lang=", o.lang)})
	}
	return ws
}

// lineList writes ranges as hl= takes them: "12,15-17".
func lineList(ranges [][2]int) string {
	var b strings.Builder
	for i, r := range ranges {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r[0]))
		if r[1] != r[0] {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(r[1]))
		}
	}
	return b.String()
}

// placeBox warns about b (boxWarnings) and keeps where its link is, at, for
// errors found while rendering it. It reports whether the box stands.
func (d *document) placeBox(n ast.Node, at *Problem, b *Box, o linkOptions) bool {
	at.Line, at.Column = d.position(n) // for renderError
	b.at = at
	return d.warnEach(n, at, d.boxWarnings(b, o)...)
}

// renderError returns err, from writing b's body, as a Problem at b's link
// when it is the highlighting safety net's (highlight.ErrTooSlow).
func (b *Box) renderError(err error) error {
	if b.at == nil || !errors.Is(err, highlight.ErrTooSlow) {
		return err
	}
	p := *b.at
	p.Severity, p.Kind, p.Err = Error, "highlight", err
	p.Message = err.Error() + "; add lang=text to the link's title to show the quote as plain text, or quote fewer lines"
	return &p
}
