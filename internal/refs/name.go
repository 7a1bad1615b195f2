package refs

import (
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// SameName reports whether a and b name the same thing: the same kind and
// the same name, "::" meaning ".". The doc flag does not matter: it moves
// where a span starts, not what it names.
func SameName(a, b symbol.Selector) bool {
	return a.Kind == b.Kind && a.Kind != 0 && canonical(a.Name) == canonical(b.Name)
}

func canonical(name string) string { return strings.ReplaceAll(name, "::", ".") }

// QuotesName reports whether l quotes the name sel of its file: it names
// it itself (sym= or region=), or its lines overlap span, the lines the
// name spans now (nil when it could not be found). A link whose lines are
// unknown may quote them, as for QuotesLines.
func (l *Link) QuotesName(sel symbol.Selector, span *symbol.Span) bool {
	if l.Selector != nil && SameName(*l.Selector, sel) {
		return true
	}
	if span == nil || span.End <= span.Start { // not found, or an empty region: no lines
		return false
	}
	return l.QuotesLines(int64(span.Start)+1, int64(span.End))
}
