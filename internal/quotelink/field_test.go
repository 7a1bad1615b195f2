package quotelink

import (
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Builds read a title's options as goldmark keeps them, escapes included:
// a name with '"' (a C++ literal operator) is written in a title that
// needs no escape, and reads back as it was.
func TestMarkdownTitleAsBuildsReadIt(t *testing.T) {
	for title, want := range map[string]string{
		"sym=Server.Handle hl=3":      `"sym=Server.Handle hl=3"`,
		`sym=operator""_km`:           `'sym=operator""_km'`,
		`sym=Units.operator""_km doc`: `'sym=Units.operator""_km doc'`,
	} {
		l := Link{Text: "x", Dest: "../src/u.hpp#line=1,2", Title: title}
		md := l.Markdown()
		if wantMD := "[x](../src/u.hpp#line=1,2 " + want + ")"; md != wantMD {
			t.Errorf("%q: wrote %s, want %s", title, md, wantMD)
		}
		src := []byte(md)
		doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
		var raw string
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if l, ok := n.(*ast.Link); ok && entering {
				raw = string(l.Title)
			}
			return ast.WalkContinue, nil
		})
		if raw != title {
			t.Errorf("%s: the build reads the title %q, want %q", md, raw, title)
		}
	}
}
