package quotelink

import (
	"strings"
	"testing"
)

// FuzzMarkdown: whatever the parts, Markdown writes one line that
// CommonMark (with GitHub's extensions, as builds parse pages) reads back
// as one link alone in its paragraph, with the same text, title and
// destination (percent-encoded where a bare destination cannot hold it).
func FuzzMarkdown(f *testing.F) {
	f.Add("a.go lines 11–20", "../src/a.go#line=10,20;md5=00", "hl=12 dedent")
	f.Add("[x] *y* _z_ `c` <d> &amp; | ~", "a b(c)<d>\\e&amp;.go#line=0,1", `"q" \ t`)
	f.Add("two\nlines", "", "")
	f.Add("www.example.com http://x.y", "é\u00a0.go", "")
	f.Fuzz(func(t *testing.T, text, dest, title string) {
		l := Link{Text: text, Dest: dest, Title: title}
		md := l.Markdown()
		if strings.ContainsAny(md, "\n\r") {
			t.Fatalf("%q spans lines", md)
		}
		got, ok := parseLink(t, md)
		want := Link{Text: OneLine(text), Dest: strings.TrimPrefix(writeDest(dest), "<>"), Title: OneLine(title)}
		if !ok || got != want {
			t.Fatalf("%q reads back as %+v (ok %v); want %+v", md, got, ok, want)
		}
	})
}
