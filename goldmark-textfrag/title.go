package textfrag

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// linkOptions are the per-link options written in an RFC 5147 link's title:
//
//		[handler](server.go#line=10,20 "hl=12,15-17 dedent lang=go")
//
//	  - hl=LIST emphasizes source lines (human numbers): "12", "15-17", comma-separated;
//	  - dedent removes the indentation the shown lines have in common;
//	  - lang=NAME picks the chroma lexer instead of the file extension's;
//	  - quote renders a char range inside running text as an inline quotation;
//	  - sym=NAME keeps the quote on a declaration (Go by default, other
//	    languages with WithSymbols), region=NAME on the lines between two
//	    marker comments, and doc (with sym=) starts it at the doc comment:
//	    the build fails unless the name spans exactly the linked lines
//	    (testdata/SYMBOLS.md). Their misuse is an error of kind "symbol".
//
// Any other word is an error: the title of an RFC 5147 link is for options.
// An option given twice is a warning (hl= lists are joined, the last lang=
// is used), as are a lang= chroma does not know (titleWarnings), hl=
// lines a box does not show (boxWarnings) and hl=, dedent or lang= (but
// lang= with sym=) on a link that stays in running text (inlineWarnings).
type linkOptions struct {
	highlighted [][2]int
	dedent      bool
	lang        string
	quote       bool
	// name is the sym= or region= selector; Kind 0 when there is none.
	name symbol.Selector
	// warnings are the title's mistakes that do not stop the link.
	warnings []string
}

const titleSyntax = `options are hl=12,15-17, dedent, lang=NAME, quote, sym=NAME, region=NAME and doc`

// CheckTitle returns the error a build reports for the title of an RFC
// 5147 link (Problem kind "title", or "symbol" when the error wraps
// symbol.ErrOptions), or nil when builds accept it. Tools that read
// titles without building (pin, refs) call it so that they refuse what
// builds refuse, with the same message.
func CheckTitle(title string) error {
	_, err := parseTitle(title)
	return err
}

func parseTitle(title string) (linkOptions, error) {
	var o linkOptions
	var seen uint8 // a bit for each option
	again := func(bit uint8, word, advice string) {
		if seen&bit != 0 {
			o.warnings = append(o.warnings, fmt.Sprintf("link title: %q repeats an option given before; %s", word, advice))
		}
		seen |= bit
	}
	var names []string // the words of sym=, region= and doc
	for _, word := range strings.Fields(title) {
		key, value, hasValue := strings.Cut(word, "=")
		switch {
		case (key == "sym" || key == "region") && hasValue, word == "doc":
			names = append(names, word)
		case key == "dedent" && !hasValue:
			again(1, word, "write it once")
			o.dedent = true
		case key == "quote" && !hasValue:
			again(2, word, "write it once")
			o.quote = true
		case key == "lang" && value != "":
			again(4, word, "write one lang=; the last one is used")
			o.lang = strings.ToLower(value)
		case key == "hl" && value != "":
			ranges, err := parseLineList(value)
			if err != nil {
				return o, fmt.Errorf("link title: %v; %s", err, titleSyntax)
			}
			again(8, word, "write one list, as in hl=12,15-17")
			o.highlighted = append(o.highlighted, ranges...)
		default:
			return o, fmt.Errorf("link title: unknown option %q; %s", word, titleSyntax)
		}
	}
	if names != nil {
		if o.quote {
			names = append(names, "quote")
		}
		sel, _, err := symbol.ParseSelector(strings.Join(names, " "))
		if err != nil {
			return o, err // wraps symbol.ErrOptions
		}
		o.name = sel
	}
	return o, nil
}

// parseLineList parses "12,15-17" into inclusive ranges.
func parseLineList(s string) ([][2]int, error) {
	var out [][2]int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return nil, fmt.Errorf("bad line list %q in hl=", part)
		}
		out = append(out, [2]int{a, b})
	}
	return out, nil
}

// boxWarnings returns what is wrong, but not fatal, with a box b made with
// the options o: emphasized lines the box does not show, and code written
// as plain text because it is over the highlighting budget
// (highlight.OverBudget). Each is a pair of the
// Problem kind and the message.
func (d *document) boxWarnings(b *Box, o linkOptions) [][2]string {
	var ws [][2]string
	first, last := b.FirstLine, b.FirstLine+lineCount(b.Body)-1
	for _, r := range o.highlighted {
		if r[0] >= first && r[1] <= last {
			continue
		}
		written := strconv.Itoa(r[0])
		if r[1] != r[0] {
			written += "-" + strconv.Itoa(r[1])
		}
		shown := "no lines"
		switch {
		case last == first:
			shown = fmt.Sprintf("line %d only", first)
		case last > first:
			shown = fmt.Sprintf("lines %d to %d", first, last)
		}
		ws = append(ws, [2]string{"title", fmt.Sprintf("link title: hl=%s emphasizes lines the box does not show (it shows %s); number lines as the source file does", written, shown)})
	}
	if why := highlight.OverBudget(b.Body, b.Lang); why != "" {
		ws = append(ws, [2]string{"highlight", "highlighting: " + why + "; quote fewer or shorter lines, or add lang=text to the link's title to show them as plain text without this warning"})
	}
	return ws
}
