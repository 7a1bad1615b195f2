package quotelink

import "strings"

// EscapeCaption escapes s for Markdown link text as EscapeText does, but
// keeps its code spans (`Server.Handle`, or a span fenced by two
// backticks that holds one) as code spans: a
// caption an author gives ("textfrag link --title") is Markdown, and a
// name in backticks is meant as code, in the link as on GitHub. A code
// span is a run of backticks closed by the next run of the same length
// (CommonMark 6.1); its content is written as it is, since backslash
// escapes do not work inside it. A backtick that opens no span is escaped.
func EscapeCaption(s string) string {
	s = OneLine(s)
	var b strings.Builder
	for s != "" {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			b.WriteString(escapeRun(s))
			break
		}
		b.WriteString(escapeRun(s[:i]))
		s = s[i:]
		n := len(s) - len(strings.TrimLeft(s, "`"))
		if end := closingRun(s[n:], n); end >= 0 {
			b.WriteString(s[:n+end+n])
			s = s[n+end+n:]
			continue
		}
		b.WriteString(strings.Repeat("\\`", n))
		s = s[n:]
	}
	return b.String()
}

// closingRun returns where in s a run of exactly n backticks starts, or -1.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// escapeRun is EscapeText of a piece of text with no backtick. Its edges
// are judged within the piece: an '_' next to a code span is escaped,
// which reads the same.
func escapeRun(s string) string {
	if s == "" {
		return ""
	}
	lead := len(s) - len(strings.TrimLeft(s, " "))
	trail := len(s) - len(strings.TrimRight(s, " "))
	if lead == len(s) {
		return s
	}
	return s[:lead] + EscapeText(s[lead:len(s)-trail]) + s[len(s)-trail:]
}
