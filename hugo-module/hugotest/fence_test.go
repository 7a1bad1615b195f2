package hugotest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// The textfrag command reads Hugo's fence attributes with
// highlight.FenceOptions: each fenced block in a language chroma knows must
// come out as Hugo writes it (with CSS classes, line numbers inline).
func TestFencedCodeMatchesHugo(t *testing.T) {
	code := "package main\n\nfunc main() {\n\tprintln(1 < 2)\n}\n"
	infos := []string{
		"go",
		"go {linenos=inline}",
		"go {linenos=inline linenostart=11}",
		"go {linenos=inline, linenostart=11, hl_lines=\"2 4-5\"}",
		"go {linenostart=11 hl_lines=[1,\"3-4\"]}",
		"go {hl_lines=2}",
		"go {linenos=false}",
		"text {linenos=inline linenostart=7}",
		// Not here: a fence without a language, or with one chroma does not
		// know, which Hugo writes as a bare <pre><code> and textfrag, as it
		// writes boxes, through chroma's plain-text lexer.
	}
	var doc strings.Builder
	doc.WriteString("---\ntitle: fences\n---\n\n")
	for _, info := range infos {
		fmt.Fprintf(&doc, "```%s\n%s```\n\n", info, code)
	}
	got := site{Root: t.TempDir(), Docs: map[string]string{"page.md": doc.String()}, NoModule: true,
		Config: "[markup.highlight]\nnoClasses = false\n"}.build(t)
	if got.Err != nil {
		t.Fatalf("%v\n%s", got.Err, got.Log)
	}
	blocks := regexp.MustCompile(`(?s)<div class="highlight">.*?</div>`).FindAllString(got.Pages["page.md"], -1)
	if len(blocks) != len(infos) {
		t.Fatalf("Hugo wrote %d highlighted blocks, want %d:\n%s", len(blocks), len(infos), got.Pages["page.md"])
	}
	for i, info := range infos {
		var want strings.Builder
		if err := highlight.Write(&want, code, highlight.FenceOptions([]byte(info))); err != nil {
			t.Fatal(err)
		}
		if blocks[i] != want.String() {
			t.Errorf("```%s:\nHugo:     %s\ntextfrag: %s", info, blocks[i], want.String())
		}
	}
}
