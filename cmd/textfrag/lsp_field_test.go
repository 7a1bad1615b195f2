package main

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Field tests of the language server: what strangers' editors and
// hostile repositories send it.

// A link to one enormous line (minified code, a data file) shows a bounded
// hover: the start of the line, cut at a character, and says so; a link to
// many short lines shows their first 200.
func TestLSPHoverHugeQuote(t *testing.T) {
	root := t.TempDir()
	line := strings.Repeat("é", 2<<20) + "\n" // 4 MiB in one line, two bytes a character
	var many strings.Builder
	for i := range 300 {
		many.WriteString(strings.Repeat("x", i%7) + "\n")
	}
	e2eWrite(t, root, map[string]string{
		"textfrag.toml": "",
		"data/one.txt":  line,
		"data/many.txt": many.String(),
		"docs/page.md":  "[one](../data/one.txt#line=0,1)\n\n[many](../data/many.txt#line=0,300)\n",
	})
	c := startLSP(t, root, -1)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	c.diagnostics(uri)

	one := c.hoverText(uri, lspPos{0, 8})
	if len(one) > 100<<10 || !utf8.ValidString(one) || !strings.Contains(one, "(first 64 KiB shown)") || !strings.Contains(one, "ééé\n```\n") {
		t.Errorf("hover of a 4 MiB line: %d bytes, valid UTF-8 %v, ends %q; want at most 100 KiB, the start of the line and a note of the cut", len(one), utf8.ValidString(one), one[max(0, len(one)-60):])
	}
	manyHover := c.hoverText(uri, lspPos{2, 9})
	if n := strings.Count(manyHover, "\n"); n > 220 || !strings.Contains(manyHover, "(first 200 lines shown)") {
		t.Errorf("hover of 300 lines: %d lines, ends %q; want the first 200 and a note", n, manyHover[max(0, len(manyHover)-60):])
	}
	c.shutdown()
}
