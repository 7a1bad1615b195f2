package fieldtest

import (
	"errors"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"go.abhg.dev/goldmark/wikilink"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// A wikilink with an RFC 5147 fragment, [[../src/hello.go#line=4,7;md5=…]],
// renders as a link to the file with that fragment: textfrag verifies it as
// written, wherever it stands, and it stays the wikilink it is. The remedy
// names no `textfrag pin`, which rewrites Markdown links only.
func TestWikilinksVerified(t *testing.T) {
	root := project(t)
	var md goldmark.Markdown
	good, link := md5hex(helloGo), "../src/hello.go#line=4,7;md5="
	tests := []struct {
		name, doc string
		line, col int
	}{
		{"running text", "See [[LINK]] here.\n", 1, 5},
		{"alone", "Intro.\n\n[[LINK]]\n", 3, 1},
		{"with a label", "See [[LINK|the main function]].\n", 1, 5},
		{"embed", "![[LINK]]\n", 1, 1},
		{"table cell", "| a |\n|---|\n| [[LINK]] |\n", 3, 3},
		{"footnote no reference uses", "Text.\n\n[^1]: [[LINK]]\n", 3, 7},
		{"heading", "# Title [[LINK]]\n", 1, 9},
	}
	for _, o := range orders() {
		md = newMarkdown(combination{exts: with(&wikilink.Extender{})}, o.first, textfrag.WithRoot(root))
		for _, tt := range tests {
			t.Run(o.name+"/"+tt.name, func(t *testing.T) {
				out, problems, err := convert(md, strings.ReplaceAll(tt.doc, "LINK", link+good))
				if err != nil || len(problems) != 0 {
					t.Fatalf("good wikilink: err %v, problems %v", err, problems)
				}
				if strings.Contains(out, "<figure") {
					t.Errorf("good wikilink became a box:\n%s", out)
				}
				out, _, err = convert(md, strings.ReplaceAll(tt.doc, "LINK", link+stale))
				var p *textfrag.Problem
				if !errors.As(err, &p) {
					t.Fatalf("stale wikilink: Convert returned %v; output:\n%s", err, out)
				}
				if p.Kind != "integrity" || p.Line != tt.line || p.Column != tt.col || p.Link != link+stale {
					t.Errorf("stale wikilink: got %v (kind %s), want an integrity error at %d:%d", p, p.Kind, tt.line, tt.col)
				}
				if msg := p.Error(); strings.Contains(msg, "textfrag pin") || !strings.Contains(msg, "md5="+good) {
					t.Errorf("stale wikilink: the remedy should give the file's md5, not textfrag pin: %s", msg)
				}
			})
		}
	}
	// Unpinned, the warning gives the md5 to add.
	md = newMarkdown(combination{exts: with(&wikilink.Extender{})}, false, textfrag.WithRoot(root), textfrag.WithUnpinnedWarnings(true))
	if _, problems, err := convert(md, "See [[../src/hello.go#line=4,7]].\n"); err != nil || len(problems) != 1 ||
		!strings.Contains(problems[0].Message, "md5="+good) || strings.Contains(problems[0].Message, "pin --write") {
		t.Errorf("unpinned wikilink: err %v, problems %v", err, problems)
	}
	// A wikilink with another fragment, or none, is left alone.
	md = newMarkdown(combination{exts: with(&wikilink.Extender{})}, true, textfrag.WithRoot(root))
	if out, problems, err := convert(md, "[[Some Page#Intro]] and [[Other]] and [[../src/missing.go]]\n"); err != nil || len(problems) != 0 || !strings.Contains(out, `href="Some%20Page.html#Intro"`) {
		t.Errorf("other wikilinks: err %v, problems %v, out %s", err, problems, out)
	}
}
