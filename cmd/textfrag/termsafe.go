package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// escapeControls writes the control characters in s (C0, DEL, C1) other
// than tab and those in keep, the bidirectional controls of RFC 3987 section
// 4.1, and bytes that are not UTF-8 as Go escapes (\x1b, \u202e, \xff):
// links, file names and quoted text come from the repository, and must not
// drive the terminal or CI log that shows a message, nor reorder its text.
func escapeControls(s, keep string) string {
	unsafe := func(r rune) bool { return isTermControl(r) && !strings.ContainsRune(keep, r) }
	if strings.IndexFunc(s, unsafe) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isTermControl reports the characters escapeControls escapes.
func isTermControl(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t'
	case r == 0x7f, 0x80 <= r && r <= 0x9f:
		return true
	case r == 0x200e, r == 0x200f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}
