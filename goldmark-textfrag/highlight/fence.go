package highlight

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// FenceOptions reads a fenced block's info string: the language (its first
// word, up to a space or "{"), then, as Hugo reads them, attributes in
// braces, separated by spaces or commas, names in any case:
//
//	linenos      true, inline or table: number the lines (always written
//	             inline, as boxes are); false: do not
//	linenostart  the first line's number (default 1)
//	hl_lines     lines to emphasize, counted from the block's first line
//	             whatever linenostart says: "2 4-5", or [2, "4-5"]
//
// Other attributes, and values that are not of these forms, are ignored, as
// goldmark-highlighting ignores them. Written with Options, a block comes
// out as Hugo writes it with markup.highlight.noClasses = false (inline line
// numbers; Hugo writes linenos=true and table in a table).
func FenceOptions(info []byte) Options {
	lang, rest := info, []byte(nil)
	if i := bytes.IndexAny(info, " \t{"); i >= 0 {
		lang, rest = info[:i], info[i:]
	}
	o := Options{Lang: string(lang)}
	i := bytes.IndexByte(rest, '{')
	if i < 0 {
		return o
	}
	attrs, ok := parser.ParseAttributes(text.NewReader(rest[i:]))
	if !ok {
		return o
	}
	var hl []string
	for _, a := range attrs {
		switch strings.ToLower(string(a.Name)) {
		case "linenos":
			switch v := attrString(a.Value); v {
			case "true", "inline", "table":
				o.LineNumbers = true
			case "false":
				o.LineNumbers = false
			}
		case "linenostart":
			if n, err := strconv.Atoi(attrString(a.Value)); err == nil && n > 0 {
				o.FirstLine = n
			}
		case "hl_lines":
			if list, ok := a.Value.([]any); ok {
				for _, v := range list {
					hl = append(hl, attrString(v))
				}
			} else {
				hl = strings.Fields(attrString(a.Value))
			}
		}
	}
	shift := max(o.FirstLine, 1) - 1
	for _, field := range hl {
		lo, hi, isRange := strings.Cut(field, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 == nil && err2 == nil && a > 0 && b >= a {
			o.Highlighted = append(o.Highlighted, [2]int{a + shift, b + shift})
		}
	}
	return o
}

// attrString returns an attribute value (a string, number or boolean, as
// goldmark's attribute parser gives it) as text.
func attrString(v any) string {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}
