package quotelink

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
)

// TestEscapeCaption: an author's caption keeps its code spans, everything
// else reads as the plain text it is; goldmark reads each back as one
// link whose text renders as intended.
func TestEscapeCaption(t *testing.T) {
	for _, c := range []struct{ in, md, html string }{
		{"the `Handle` method", "the `Handle` method", "the <code>Handle</code> method"},
		{"`Server.Handle`", "`Server.Handle`", "<code>Server.Handle</code>"},
		{"``a ` b``", "``a ` b``", "<code>a ` b</code>"},
		{"`[x](y)` and [z]", "`[x](y)` and \\[z\\]", "<code>[x](y)</code> and [z]"},
		{"*x* `y_z`", "\\*x\\* `y_z`", "*x* <code>y_z</code>"},
		{"a ` b", "a \\` b", "a ` b"},
		{"``a` b", "\\`\\`a\\` b", "``a` b"},
		{"tab\there  `c`", "tab here `c`", "tab here <code>c</code>"},
	} {
		got := EscapeCaption(c.in)
		if got != c.md {
			t.Errorf("EscapeCaption(%q) = %q, want %q", c.in, got, c.md)
		}
		link := Link{Text: c.in, Dest: "a.go#line=0,1", CodeSpans: true}.Markdown()
		var out bytes.Buffer
		if err := goldmark.Convert([]byte(link), &out); err != nil {
			t.Fatal(err)
		}
		want := `<p><a href="a.go#line=0,1">` + c.html + "</a></p>\n"
		if html := strings.ReplaceAll(out.String(), "&quot;", `"`); html != want {
			t.Errorf("%q: goldmark renders %q, want %q", link, html, want)
		}
	}
	// A caption textfrag makes is plain text: a name with a backtick stays one.
	l := Link{Text: "a`b.go lines 1–2", Dest: "a.go"}
	if got := l.Markdown(); !strings.HasPrefix(got, "[a\\`b.go") {
		t.Errorf("default caption: %q", got)
	}
}
