package main

import (
	"strings"
	"testing"
)

// TestLinkTitleKeepsBackticks: link --title writes the author's code spans
// as code spans, and the page with the link passes check --strict; the
// default caption of a name stays plain text.
func TestLinkTitleKeepsBackticks(t *testing.T) {
	root := t.TempDir()
	e2eWrite(t, root, map[string]string{
		"src/server.go": "package server\n\n// Handle answers.\nfunc Handle() {}\n",
	})
	t.Chdir(root)
	out, stderr, code := runIn(t, "link", "--root", root, "src/server.go:Handle", "--title", "the `Handle` function [1]", "--from", "docs/guide.md")
	if code != 0 || !strings.HasPrefix(out, "[the `Handle` function \\[1\\]](../src/server.go#line=3,4;md5=") {
		t.Fatalf("exit %d: %q\n%s", code, out, stderr)
	}
	e2eWrite(t, root, map[string]string{"docs/guide.md": "# Guide\n\n" + out})
	if _, stderr, code := runIn(t, "check", "--strict", "--root", root, "docs"); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	html, _, _ := runIn(t, "render", "--root", root, "docs/guide.md")
	if !strings.Contains(html, `<span class="textfrag-title">the Handle function [1]</span>`) {
		t.Errorf("the box's title is not the caption's text:\n%s", html)
	}
}
