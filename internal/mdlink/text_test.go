package mdlink

import (
	"strings"
	"testing"
	"unicode"
)

// TestFindText: a link's Text is its text as a reader reads it (escapes
// and character references resolved, emphasis and HTML left out, code
// spans kept as spans that read back as the same code), for inline links
// and images; definitions have none.
func TestFindText(t *testing.T) {
	for _, c := range []struct{ md, want string }{
		{"[the request handler](a.go#line=1,2)", "the request handler"},
		{"[the *request* handler](a.go#line=1,2)", "the request handler"},
		{"[`Server.Handle` serves](a.go#line=1,2)", "`Server.Handle` serves"},
		{"[``a`b``](a.go#line=1,2)", "``a`b``"},
		{"[`` `x` ``](a.go#line=1,2)", "`` `x` ``"},
		{`[a \*b\* \[c\] \\d](a.go#line=1,2)`, `a *b* [c] \d`},
		{"[Q&amp;A &#35;1 &copy; \\&amp;](a.go#line=1,2)", "Q&A #1 © &amp;"},
		{"[two\nlines](a.go#line=1,2)", "two lines"},
		{"[a <b>bold</b> word](a.go#line=1,2)", "a bold word"},
		{"[~~gone~~ kept](a.go#line=1,2)", "gone kept"},
		{"![alt *text*](a.go#line=1,2)", "alt text"},
		{"[x]\n\n[x]: a.go#line=1,2", ""},
		{"[\\`not code\\`](a.go#line=1,2)", "`not code`"},
	} {
		links := Find([]byte(c.md))
		if len(links) != 1 {
			t.Fatalf("%q: %d links", c.md, len(links))
		}
		if links[0].Text != c.want {
			t.Errorf("%q: text %q, want %q", c.md, links[0].Text, c.want)
		}
	}
}

// TestReadsAs: a label reads as a link's text when it has the same words
// and the same code spans; backticks written escaped are not a code span.
func TestReadsAs(t *testing.T) {
	for _, c := range []struct {
		md, label string
		want      bool
	}{
		{"[a `b` c](x#line=1)", "a `b` c", true},
		{"[a `b` c](x#line=1)", "a ``b`` c", true},
		{"[a *b* c](x#line=1)", "a b c", true},
		{"[a \\`b\\` c](x#line=1)", "a `b` c", false},
		{"[a \\`b\\` c](x#line=1)", "a \\`b\\` c", true},
		{"[\\`x` y`](x#line=1)", "`x` y\\`", false},
		{"[a](x#line=1)", "a]b[", false},
		{"[a](x#line=1)", "b", false},
	} {
		l := Find([]byte(c.md))[0]
		if got := l.ReadsAs(c.label); got != c.want {
			t.Errorf("%q reads as %q: %v, want %v", c.md, c.label, got, c.want)
		}
	}
}

// FuzzLinkText: any link text gives a Text of one line without control
// characters, and reads as itself (ReadsAs); nothing panics.
func FuzzLinkText(f *testing.F) {
	for _, s := range []string{"a `b` c", "\\`x\\` y", "*a* &amp; <b>", "``a`b``", "a\nb", "![i](j)", "&#0;\x00\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, label string) {
		links := Find([]byte("[" + label + "](a.go#line=1,2)\n"))
		for _, l := range links {
			if strings.ContainsFunc(l.Text, func(r rune) bool { return unicode.IsControl(r) }) {
				t.Errorf("%q: Text %q holds a control character", label, l.Text)
			}
			l.ReadsAs(label)
			l.ReadsAs(l.Text)
		}
		if len(links) == 1 && links[0].Kind == Inline && links[0].Line == 1 && links[0].Column == 1 && links[0].Start == len(label)+3 && !links[0].ReadsAs(label) {
			t.Errorf("%q does not read as itself", label)
		}
	})
}
