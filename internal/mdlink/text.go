package mdlink

import (
	"html"
	"regexp"
	"strings"

	"github.com/textfrag/textfrag/internal/quotelink"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkText returns the text of an inline link or image (its alt text) as a
// reader reads it: backslash escapes and character references resolved,
// emphasis and inline HTML left out (their words kept), code spans kept as
// code spans (`Server.Handle`), each run of white space one space. It is
// what textfrag link's --title takes to write the same text again
// (quotelink.EscapeCaption), where the text is plain words and code spans.
func linkText(n ast.Node, src []byte) string {
	return textOf(n, src, CodeSpan)
}

// textShape is linkText with each code span marked apart from text that
// looks like one (a backtick escaped in the source): U+E000 before it and
// U+E001 after, in place of its backticks. Two texts read alike when their
// shapes are equal (ReadsAs).
func textShape(n ast.Node, src []byte) string {
	return textOf(n, src, func(code string) string { return "\ue000" + code + "\ue001" })
}

// textOf is linkText, each code span written by span.
func textOf(n ast.Node, src []byte, span func(code string) string) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				v := c.Segment.Value(src)
				if c.IsRaw() {
					b.Write(v)
				} else {
					b.WriteString(unescapeText(string(v)))
				}
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				if c.IsRaw() || c.IsCode() {
					b.Write(c.Value)
				} else {
					b.WriteString(unescapeText(string(c.Value)))
				}
			case *ast.CodeSpan:
				var code strings.Builder
				for t := c.FirstChild(); t != nil; t = t.NextSibling() {
					if t, ok := t.(*ast.Text); ok {
						code.Write(t.Segment.Value(src))
					}
				}
				b.WriteString(span(code.String()))
			case *ast.RawHTML:
				// a tag, not words
			case *ast.AutoLink:
				b.Write(c.Label(src))
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return quotelink.OneLine(b.String())
}

// charRef matches a character reference at the start of a string: a name
// or a decimal or hexadecimal number, then ';' (CommonMark 2.5).
var charRef = regexp.MustCompile(`^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});`)

// unescapeText resolves the backslash escapes and character references of
// Markdown text in one pass, as a renderer writes it: "\&amp;" is "&amp;".
func unescapeText(s string) string {
	if !strings.ContainsAny(s, `\&`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i++
		case c == '&':
			if m := charRef.FindString(s[i:]); m != "" {
				b.WriteString(html.UnescapeString(m))
				i += len(m) - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// CodeSpan writes code as a code span that reads back as code: fenced by
// one backtick more than its longest run, with a space inside each fence
// when code starts or ends with a backtick, or with a space at both ends
// (CommonMark strips one such pair).
func CodeSpan(code string) string {
	longest, run := 0, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if strings.HasPrefix(code, "`") || strings.HasSuffix(code, "`") ||
		len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
		pad = " "
	}
	return fence + pad + code + pad + fence
}

// ReadsAs reports whether the link text label, Markdown as written between
// a link's brackets, reads as l's text does: the same words and the same
// code spans (a code span and text in backticks written escaped read
// apart, though their Text is the same).
func (l Link) ReadsAs(label string) bool {
	src := []byte("[" + label + "](a)\n")
	doc := markdown.Parser().Parse(text.NewReader(src))
	var shape string
	found := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*ast.Link); ok && entering {
			found++
			shape = textShape(n, src)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return found == 1 && shape == l.shape
}
