package textfrag

import (
	"errors"

	"github.com/yuin/goldmark/ast"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// warn records each warning, a pair of Problem kind and message, at the
// link n that at locates, or under WithWarningsAsErrors fails n with the
// first. It reports whether the link stands.
func (d *document) warn(n ast.Node, at *Problem, warnings ...[2]string) bool {
	for _, kw := range warnings {
		w := *at
		w.Severity, w.Kind, w.Message = Warning, kw[0], kw[1]
		if d.cfg.warningsFatal {
			w.Severity, w.Err = Error, errors.New(kw[1])
			d.fail(n, &w)
			return false
		}
		addProblem(d.pc, &w)
	}
	return true
}

// titleWarnings are o's warnings as warn takes them.
func titleWarnings(o linkOptions) [][2]string {
	ws := make([][2]string, len(o.warnings))
	for i, m := range o.warnings {
		ws[i] = [2]string{"title", m}
	}
	return ws
}

// placeBox warns about b (boxWarnings) and keeps where its link is, at, for
// errors found while rendering it. It reports whether the box stands.
func (d *document) placeBox(n ast.Node, at *Problem, b *Box, o linkOptions) bool {
	b.at = at
	return d.warn(n, at, d.boxWarnings(b, o)...)
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
