package refs

import (
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// Named returns the name a link's title gives its lines (sym=NAME, with
// doc, or region=NAME) and the title's lang= option. ok is false when the
// title names nothing, or names in a way the check refuses (both sym= and
// region=, an empty name, doc without sym=): the check reports those, and
// refs then treats the link as one by lines.
func Named(title string) (sel symbol.Selector, lang string, ok bool) {
	doc := false
	for _, word := range strings.Fields(title) {
		key, value, _ := strings.Cut(word, "=")
		switch {
		case word == "doc":
			doc = true
		case key == "lang":
			lang = strings.ToLower(value)
		case key == "sym" || key == "region":
			if sel.Kind != 0 || value == "" {
				return symbol.Selector{}, lang, false
			}
			sel = symbol.Selector{Kind: symbol.Symbol, Name: value}
			if key == "region" {
				sel.Kind = symbol.Region
			}
		}
	}
	if sel.Kind == 0 || doc && sel.Kind != symbol.Symbol {
		return symbol.Selector{}, lang, false
	}
	sel.Doc = doc
	return sel, lang, true
}

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
