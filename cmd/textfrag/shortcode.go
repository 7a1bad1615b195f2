package main

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

// shortcodeLink is the path argument of one textfrag shortcode.
type shortcodeLink struct {
	// line and col locate the shortcode's "{{", 1-based, the column in
	// characters (Hugo's own messages count bytes).
	line, col int
	// dest is the path argument's value.
	dest string
	// start and end are dest's byte offsets in the page; start < 0 when the
	// value is not written as is (escapes in a quoted string), or the
	// shortcode names no path: err says which.
	start, end int
	err        string
}

// shortcodeName is the name the Hugo module gives the shortcode.
const shortcodeName = "textfrag"

// findShortcodeLinks returns the textfrag shortcodes of a page's body, in
// order.
func findShortcodeLinks(src []byte) []shortcodeLink {
	var links []shortcodeLink
	for i := 0; i < len(src); {
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
				line, col := pinSourcePosition(src, open)
				links = append(links, shortcodeLink{line: line, col: col, start: -1, end: -1,
					err: "this textfrag shortcode does not close: end it with >}} (or %}} after {{%), and quote values that hold spaces"})
			}
			return links
		}
		if l != nil {
			l.line, l.col = pinSourcePosition(src, open)
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
func shortcodeScan(src []byte, i int, delim byte) (_ *shortcodeLink, next int, name string, ok bool) {
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
			switch {
			case !has:
				return &shortcodeLink{start: -1, end: -1, err: "the textfrag shortcode names no path: write {{< textfrag \"../src/a.go#line=10,20\" >}}"}, end, name, true
			case arg.start < 0:
				return &shortcodeLink{dest: arg.value, start: -1, end: -1, err: "the path is written with escapes; write it without backslashes"}, end, name, true
			}
			return &shortcodeLink{dest: arg.value, start: arg.start, end: arg.start + len(arg.value)}, end, name, true
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
