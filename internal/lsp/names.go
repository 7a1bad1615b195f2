package lsp

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// Links that quote by name (sym=NAME, region=NAME in the title): the
// check's diagnostics come from page.Check like every other problem; here
// are hover, definition and completion, which look the name up with the
// Resolver's FindName, as the build does.

// nameOf returns the name l's title gives its lines, if any. A title the
// build refuses (textfrag.CheckTitle, the build's own reader: an unknown
// word, doc without sym=, both sym= and region=…) names nothing here, as
// in pin and refs: hover says what is wrong (titleRefused), definition
// goes nowhere, and no code action moves the link to the name's lines.
func nameOf(l mdlink.Link) (sel symbol.Selector, lang string, ok bool) {
	if textfrag.CheckTitle(l.Title) != nil {
		return symbol.Selector{}, "", false
	}
	sel, lang, named, err := quotelink.TitleName(l.Title)
	return sel, lang, named && err == nil
}

// titleRefused returns the hover's lines about a title the build refuses:
// the build's error (the words of its diagnostic) unless the last check
// already reported it, and for a name the title gives, that it is not
// looked up. None when builds accept the title.
func titleRefused(title string, problems []*textfrag.Problem) []string {
	err := textfrag.CheckTitle(title)
	if err == nil {
		return nil
	}
	var lines []string
	msg := err.Error()
	if !slices.ContainsFunc(problems, func(p *textfrag.Problem) bool { return p.Message == msg }) {
		lines = append(lines, "error: "+msg)
	}
	if sel, named, err := symbol.ParseSelector(title); err == nil && named {
		lines = append(lines, fmt.Sprintf("`%s`: not looked up while the build refuses the title; fix the title first", sel))
	}
	return lines
}

// nameSpan looks up the name of a link that resolved to res: the span it
// has now, or the error.
func nameSpan(r *target.Resolver, res *target.Result, sel symbol.Selector, lang string) (symbol.Span, error) {
	if res == nil || res.Path == "" {
		return symbol.Span{}, errors.New("the file cannot be read")
	}
	return r.FindName(res.Path, lang, sel)
}

// nameHover is the hover's line about a named link: what the name is and
// the lines it spans now, whether the link quotes them, or why it cannot
// be looked up.
func nameHover(r *target.Resolver, res *target.Result, sel symbol.Selector, lang string) string {
	span, err := nameSpan(r, res, sel, lang)
	if err != nil {
		return fmt.Sprintf("`%s`: %s", sel, strings.ReplaceAll(oneLine(err.Error()), "`", "'"))
	}
	s := fmt.Sprintf("`%s`: %s %s, %s now (#%s)", sel, span.Kind, span.Name, span.Lines(), span.Fragment())
	if sel.Kind == symbol.Region {
		s = fmt.Sprintf("`%s`: region, %s now (#%s)", sel, span.Lines(), span.Fragment())
	}
	if res.Selection != nil && res.Fragment.Scheme == rfc5147.Line && !res.Selection.Clamped &&
		int64(span.Start) == res.Selection.Lines.Start && int64(span.End) == res.Selection.Lines.End {
		return s + " · the link quotes exactly those"
	}
	if res.Selection != nil {
		return s + " · the link quotes " + humanRange(res.Selection) + ": `textfrag pin --write` re-pins it"
	}
	return s
}

// titleTyped finds, in typed (what follows "](" or "]: " up to the
// cursor), a link title being written: the destination, and the title's
// text up to the cursor. ok is false when the cursor is not inside a
// title.
func titleTyped(typed string) (dest, title string, ok bool) {
	i := strings.IndexAny(typed, " \t")
	if i <= 0 {
		return "", "", false
	}
	dest = typed[:i]
	rest := strings.TrimLeft(typed[i:], " \t")
	if rest == "" {
		return "", "", false
	}
	closer := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[rest[0]]
	if closer == 0 || strings.IndexByte(rest[1:], closer) >= 0 {
		return "", "", false
	}
	if strings.HasPrefix(dest, "<") && strings.HasSuffix(dest, ">") {
		dest = dest[1 : len(dest)-1]
	}
	if !strings.Contains(dest, "#") {
		return "", "", false
	}
	return dest, rest[1:], true
}

// completeName proposes, inside a link's title after "sym=", the
// declarations of the file the link names (name, kind, lines), and after
// "region=" its regions. Files the build may not quote (secret, outside
// the root, remote) and files too large to look names up in get none.
func (s *Server) completeName(d *document, dest, title string, off int) completionList {
	list := completionList{Items: []CompletionItem{}}
	word := title[strings.LastIndexAny(title, " \t")+1:]
	key, typed, _ := strings.Cut(word, "=")
	if key != "sym" && key != "region" || !strings.Contains(word, "=") {
		return list
	}
	lang, doc := symbol.TitleLang(title), slices.Contains(strings.Fields(title), "doc")
	rawPath, _, _ := strings.Cut(dest, "#")
	r := s.resolver()
	res, err, ok := s.resolveLink(r, d, mdlink.Link{Dest: rawPath + "#line=0"})
	if !ok || err != nil || res == nil || res.Selection == nil {
		return list
	}
	// A file the Resolver streams has no names (ErrTooLarge).
	names, err := r.Names(res.Path, lang)
	if err != nil {
		return list
	}
	var spans []symbol.Span
	if key == "region" {
		spans, err = names.Regions()
	} else {
		spans, err = names.Symbols(doc)
	}
	if err != nil {
		s.logf("completion: %v", err)
	}
	count := map[string]int{}
	for _, sp := range spans {
		count[sp.Name]++
	}
	x := s.lines(d)
	replace := x.span(off-len(typed), off)
	for i, sp := range spans {
		detail := fmt.Sprintf("%s, %s of %s", sp.Kind, sp.Lines(), res.Path)
		if count[sp.Name] > 1 {
			detail += fmt.Sprintf(" (%d declarations have this name: ambiguous)", count[sp.Name])
		}
		list.Items = append(list.Items, CompletionItem{
			Label: shown(sp.Name), Kind: completionKind(sp.Kind), Detail: shown(detail),
			SortText: fmt.Sprintf("%06d", i),
			TextEdit: &TextEdit{Range: replace, NewText: sp.Name},
		})
	}
	return list
}

// completionKind maps a declaration's kind to the protocol's item kinds.
func completionKind(kind string) int {
	switch kind {
	case "func", "function", "macro":
		return 3 // Function
	case "method":
		return 2 // Method
	case "constructor":
		return 4 // Constructor
	case "field":
		return 5 // Field
	case "var", "variable", "static", "let":
		return 6 // Variable
	case "class", "record", "union", "impl", "type":
		return 7 // Class
	case "interface", "trait":
		return 8 // Interface
	case "namespace", "module", "mod":
		return 9 // Module
	case "enum":
		return 13 // Enum
	case "const", "constant":
		return 21 // Constant
	case "struct":
		return 22 // Struct
	case "region":
		return 18 // Reference
	}
	return completionText
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
