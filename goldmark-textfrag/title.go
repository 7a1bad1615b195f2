package textfrag

import (
	"fmt"
	"strconv"
	"strings"
)

// linkOptions are the per-link options written in an RFC 5147 link's title:
//
//		[handler](server.go#line=10,20 "hl=12,15-17 dedent lang=go")
//
//	  - hl=LIST emphasizes source lines (human numbers): "12", "15-17", comma-separated;
//	  - dedent removes the indentation the shown lines have in common;
//	  - lang=NAME picks the chroma lexer instead of the file extension's;
//	  - quote renders a char range inside running text as an inline quotation.
//
// Any other word is an error: the title of an RFC 5147 link is for options.
type linkOptions struct {
	highlighted [][2]int
	dedent      bool
	lang        string
	quote       bool
}

const titleSyntax = `options are hl=12,15-17, dedent, lang=NAME and quote`

func parseTitle(title string) (linkOptions, error) {
	var o linkOptions
	for _, word := range strings.Fields(title) {
		key, value, hasValue := strings.Cut(word, "=")
		switch {
		case key == "dedent" && !hasValue:
			o.dedent = true
		case key == "quote" && !hasValue:
			o.quote = true
		case key == "lang" && value != "":
			o.lang = strings.ToLower(value)
		case key == "hl" && value != "":
			ranges, err := parseLineList(value)
			if err != nil {
				return o, fmt.Errorf("link title: %v; %s", err, titleSyntax)
			}
			o.highlighted = append(o.highlighted, ranges...)
		default:
			return o, fmt.Errorf("link title: unknown option %q; %s", word, titleSyntax)
		}
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
