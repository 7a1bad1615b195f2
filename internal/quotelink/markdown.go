package quotelink

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Link is a Markdown inline link, its parts unescaped.
type Link struct {
	// Text is the link text: the caption of a box, the words of a link in
	// running text.
	Text string
	// Dest is the destination, a URI reference as Dest writes it.
	Dest string
	// Title is the link title: textfrag's per-link options
	// ("hl=12,15-17 dedent lang=go quote"); "" for none.
	Title string
	// CodeSpans writes Text's code spans as code spans (EscapeCaption):
	// set for a caption an author wrote. Default: Text is plain text,
	// backticks included (EscapeText).
	CodeSpans bool
}

// Markdown writes l as CommonMark: [Text](Dest "Title"). The text is
// escaped (see EscapeText); the destination is written bare (an empty one
// as <>), with what a bare one cannot hold percent-encoded; the title
// inside "…", or inside '…' when it holds a double quote but no single
// quote and no backslash (sym=operator""_km, a C++ literal operator), so
// that it needs no escape: builds read a title's options as written,
// escapes included. Other titles with
// '"' or '\' are written with those escaped. In text and title, white
// space runs, line endings included, become one space, so that the link
// stays on one line, and so in one paragraph.
func (l Link) Markdown() string {
	var b strings.Builder
	b.WriteString("[")
	if l.CodeSpans {
		b.WriteString(EscapeCaption(l.Text))
	} else {
		b.WriteString(EscapeText(l.Text))
	}
	b.WriteString("](")
	b.WriteString(writeDest(l.Dest))
	if t := OneLine(l.Title); t != "" {
		switch {
		case !strings.ContainsAny(t, `"\`):
			b.WriteString(` "` + t + `"`)
		case !strings.ContainsAny(t, `'\`):
			b.WriteString(` '` + t + `'`)
		default:
			b.WriteString(` "`)
			b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t))
			b.WriteString(`"`)
		}
	}
	b.WriteString(")")
	return b.String()
}

// EscapeText escapes s for Markdown link text, so that it reads as the
// plain text s: backslash escapes before the characters that would start
// markup there ([ ] \ ` * < | ~, '_' except between letters or digits,
// where it never emphasizes, '&' where it would start an entity
// reference), white space runs as one space, control characters left out.
func EscapeText(s string) string {
	s = OneLine(s)
	var b strings.Builder
	for i, r := range s {
		switch {
		case strings.ContainsRune("[]\\`*<|~", r),
			r == '_' && !(wordBefore(s[:i]) && wordAfter(s[i+1:])),
			r == '&' && startsEntity(s[i+1:]):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// OneLine turns each run of white space into one space, leaves out other
// control characters, and trims: a link's text or title as textfrag link
// writes it, on one line.
func OneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func wordBefore(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func wordAfter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// startsEntity reports whether s, which follows a '&', would make it an
// entity or numeric character reference: a name or #digits, then ';'.
func startsEntity(s string) bool {
	s = strings.TrimPrefix(s, "#")
	n := strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf || !(unicode.IsLetter(r) || unicode.IsDigit(r)) })
	return n > 0 && s[n] == ';'
}

// writeDest writes a destination so that CommonMark reads it back as it
// is: goldmark hands textfrag the destination as written, backslashes and
// entity references unresolved, so nothing is escaped with them; instead
// what a bare destination cannot hold, and <…> is not needed for, is
// percent-encoded: control characters, spaces, '<', '>', '\\', '(' and ')',
// and '&' where it would start an entity reference. A path means the same
// after that (target percent-decodes it); a fragment has none of these.
func writeDest(d string) string {
	if d == "" {
		return "<>" // before a title, an empty destination must be written so
	}
	var b strings.Builder
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte("<>\\()", c) >= 0 || c == '&' && startsEntity(d[i+1:]) {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
