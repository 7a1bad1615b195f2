// Package termsafe makes text from a repository safe to show in a terminal
// or CI log: links, file names and quoted text must not drive the terminal
// that shows a message, nor reorder the text around it.
package termsafe

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Escape writes the control characters in s (C0 but tab, DEL, C1) other
// than those in keep, the bidirectional controls (IsBidiControl), and bytes
// that are not UTF-8, as Go escapes (\x1b, \u202e, \xff).
func Escape(s, keep string) string {
	unsafe := func(r rune) bool { return isControl(r) && !strings.ContainsRune(keep, r) }
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

// IsBidiControl reports the characters RFC 3987 section 4.1 forbids in IRIs:
// LRM, RLM, LRE..RLO and LRI..PDI.
func IsBidiControl(r rune) bool {
	return r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069
}

func isControl(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t'
	case r == 0x7f, 0x80 <= r && r <= 0x9f:
		return true
	}
	return IsBidiControl(r)
}

// ShellWords joins words for a POSIX shell, quoting those that need it, so
// that a command a message advises runs as written when pasted. A word
// holding a character Escape escapes (a line break, ESC) is written $'…'
// with those escapes (bash, zsh, ksh and POSIX.1-2024 sh read them back),
// so that the command stays on one line.
func ShellWords(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@+-") == "" {
			quoted[i] = w
			continue
		}
		if esc := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(w); Escape(esc, "") != esc {
			quoted[i] = "$'" + Escape(esc, "") + "'"
			continue
		}
		quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}
