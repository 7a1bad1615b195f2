package mdlink

import "bytes"

// This file finds the Hugo module's textfrag shortcode in a page, so that
// pin and check treat it as they treat links:
//
//	{{< textfrag "../src/a.go#line=10,20;md5=…" "Title" "hl=12" >}}
//	{{< textfrag src="../src/a.go#line=10,20" title="Title" >}}
//	{{% textfrag "../src/a.go#line=10,20" %}}
//
// It follows Hugo's shortcode lexer: shortcodes are found anywhere in the
// page after its front matter, inside Markdown code blocks and code spans
// too (Hugo expands them there: a stale md5 in a fenced block fails a Hugo
// build), except escaped ones, {{</* … */>}} and {{%/* … */%}}, which Hugo
// writes out as text. Arguments are positional (the first is the path) or
// named (src=); values are "quoted", `raw` or bare words.

// shortcodeName is the name the Hugo module gives the shortcode.
const shortcodeName = "textfrag"

// FindShortcodes returns the textfrag shortcodes of src, in order, as links
// of Kind Shortcode: Line and Column locate the shortcode's "{{" (Hugo's
// own messages count bytes; these count characters). A shortcode that names
// no path has Dest "" and Err set; one whose path is written with escapes
// has Start -1 and Err set. A shortcode that does not close ends the scan
// with a link whose Err says so. Front matter is not skipped (Page does).
func FindShortcodes(src []byte) []Link {
	return findShortcodes(src, 0, newPositions(src))
}

// findShortcodes scans src from offset from.
func findShortcodes(src []byte, from int, ps *positions) []Link {
	var links []Link
	for i := from; i < len(src); {
		j := bytes.Index(src[i:], []byte("{{"))
		if j < 0 {
			break
		}
		open := i + j
		if open+2 >= len(src) || (src[open+2] != '<' && src[open+2] != '%') {
			i = open + 2
			continue
		}
		// The closing delimiter's first byte: ">}}" closes "{{<", "%}}" "{{%".
		delim := byte('>')
		if src[open+2] == '%' {
			delim = '%'
		}
		k := open + 3
		// An escaped shortcode is text, up to "*/>}}" or "*/%}}".
		if s := shortcodeSkipSpace(src, k); bytes.HasPrefix(src[s:], []byte("/*")) {
			end := bytes.Index(src[s:], []byte("*/"+string(delim)+"}}"))
			if end < 0 {
				break
			}
			i = s + end + 5
			continue
		}
		l, next, name, ok := shortcodeScan(src, k, delim)
		switch {
		case !ok && name == "":
			i = open + 3 // no name: not a shortcode, as for Hugo
			continue
		case !ok:
			// A shortcode that does not close: Hugo fails the page, and
			// nothing after it is read as a shortcode (which also keeps
			// this scan linear).
			if name == shortcodeName {
				line, col := ps.at(open)
				links = append(links, Link{Kind: Shortcode, Line: line, Column: col, Start: -1, End: -1,
					Err: "this textfrag shortcode does not close: end it with >}} (or %}} after {{%), and quote values that hold spaces"})
			}
			return links
		}
		if l != nil {
			l.Line, l.Column = ps.at(open)
			if l.Start >= 0 {
				l.DestLine, l.DestColumn = ps.at(l.Start)
			}
			links = append(links, *l)
		}
		i = next
	}
	return links
}

// shortcodeScan reads a shortcode from its name at i to its closing
// delimiter. It returns the textfrag shortcode's path (nil for other
// shortcodes and closing tags), the offset after the shortcode, the
// shortcode's name ("" when there is none: no shortcode), and false when
// there is no name or the shortcode does not close.
func shortcodeScan(src []byte, i int, delim byte) (_ *Link, next int, name string, ok bool) {
	i = shortcodeSkipSpace(src, i)
	nameStart := i
	for i < len(src) && shortcodeNameByte(src[i]) {
		i++
	}
	if i == nameStart {
		return nil, 0, "", false
	}
	name = string(src[nameStart:i])
	var positional []shortcodeArg
	named := map[string]shortcodeArg{}
	for {
		i = shortcodeSkipSpace(src, i)
		if i >= len(src) {
			return nil, 0, name, false
		}
		if end, ok := shortcodeClose(src, i, delim); ok {
			if name != shortcodeName {
				return nil, end, name, true
			}
			arg, has := named["src"]
			if !has && len(positional) > 0 {
				arg, has = positional[0], true
			}
			options := named["options"].value
			if len(named) == 0 && len(positional) > 2 {
				options = positional[2].value
			}
			switch {
			case !has:
				return &Link{Kind: Shortcode, Start: -1, End: -1, Err: "the textfrag shortcode names no path: write {{< textfrag \"../src/a.go#line=10,20\" >}}"}, end, name, true
			case arg.start < 0:
				return &Link{Kind: Shortcode, Dest: arg.value, Start: -1, End: -1, Err: "the path is written with escapes; write it without backslashes"}, end, name, true
			}
			return &Link{Kind: Shortcode, Dest: arg.value, Start: arg.start, End: arg.start + len(arg.value), Title: options}, end, name, true
		}
		// key=value or a value.
		keyStart := i
		for i < len(src) && shortcodeNameByte(src[i]) && src[i] != '/' {
			i++
		}
		key := ""
		if i > keyStart && i < len(src) && src[i] == '=' {
			key = string(src[keyStart:i])
			i++
		} else {
			i = keyStart
		}
		arg, next, ok := shortcodeValue(src, i, delim)
		if !ok {
			return nil, 0, name, false
		}
		i = next
		if key != "" {
			named[key] = arg
		} else {
			positional = append(positional, arg)
		}
	}
}

// shortcodeArg is one argument's value; start < 0 when the value is not
// written as is in the page.
type shortcodeArg struct {
	value string
	start int
}

// shortcodeValue reads a "quoted", `raw` or bare value at i.
func shortcodeValue(src []byte, i int, delim byte) (shortcodeArg, int, bool) {
	if i >= len(src) {
		return shortcodeArg{}, 0, false
	}
	switch q := src[i]; q {
	case '"':
		var b []byte
		escaped := false
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				if j+1 < len(src) {
					escaped = true
					j++
					b = append(b, src[j])
				}
			case '"':
				arg := shortcodeArg{value: string(src[i+1 : j]), start: i + 1}
				if escaped {
					arg = shortcodeArg{value: string(b), start: -1}
				}
				return arg, j + 1, true
			case '\n':
				return shortcodeArg{}, 0, false
			default:
				b = append(b, src[j])
			}
		}
		return shortcodeArg{}, 0, false
	case '`':
		end := bytes.IndexByte(src[i+1:], '`')
		if end < 0 {
			return shortcodeArg{}, 0, false
		}
		return shortcodeArg{value: string(src[i+1 : i+1+end]), start: i + 1}, i + 2 + end, true
	}
	j := i
	for j < len(src) && !shortcodeSpace(src[j]) {
		if _, ok := shortcodeClose(src, j, delim); ok {
			break
		}
		j++
	}
	if j == i {
		return shortcodeArg{}, 0, false
	}
	return shortcodeArg{value: string(src[i:j]), start: i}, j, true
}

// shortcodeClose reports whether the closing delimiter (">}}" or "%}}",
// optionally self-closing "/>}}") is at i, and the offset after it.
func shortcodeClose(src []byte, i int, delim byte) (int, bool) {
	closing := string(delim) + "}}"
	if bytes.HasPrefix(src[i:], []byte("/"+closing)) {
		return i + 4, true
	}
	if bytes.HasPrefix(src[i:], []byte(closing)) {
		return i + 3, true
	}
	return 0, false
}

func shortcodeNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == '/' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func shortcodeSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func shortcodeSkipSpace(src []byte, i int) int {
	for i < len(src) && shortcodeSpace(src[i]) {
		i++
	}
	return i
}
