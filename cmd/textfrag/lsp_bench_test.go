package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// lspBenchProject writes issue 13's project: 1,000 pages of 10 links each
// into 200 source files of 100 lines.
func lspBenchProject(b *testing.B) string {
	root := b.TempDir()
	files := map[string]string{"textfrag.toml": ""}
	var src strings.Builder
	for i := range 100 {
		fmt.Fprintf(&src, "// line %d of a source file, with some text on it\n", i+1)
	}
	for f := range 200 {
		files[fmt.Sprintf("src/f%03d.go", f)] = src.String()
	}
	sum := e2eMD5(src.String())
	for p := range 1000 {
		var page strings.Builder
		fmt.Fprintf(&page, "# Page %d\n\n", p)
		for l := range 10 {
			f := (p*10 + l) % 200
			fmt.Fprintf(&page, "Some prose about it, then [f%d](../src/f%03d.go#line=%d,%d;md5=%s).\n\n", f, f, l*5, l*5+5, sum)
		}
		files[fmt.Sprintf("docs/p%04d.md", p)] = page.String()
	}
	e2eWrite(b, root, files)
	return root
}

// BenchmarkLSP measures issue 13's figures on that project: diagnostics of
// an opened page (close and open), after a keystroke, hover, and references
// from a source line (the first call scans every page; later ones only
// stat pages unchanged since).
func BenchmarkLSP(b *testing.B) {
	root := lspBenchProject(b)
	c := startLSP(b, root, -1)
	c.initialize(false, true)
	page := filepath.Join(root, "docs/p0500.md")
	text, _ := os.ReadFile(page)
	uri := c.open(page, "markdown")
	if d := c.diagnostics(uri); len(d) != 0 {
		b.Fatalf("diagnostics %+v", d)
	}
	b.Run("open", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
			c.diagnostics(uri)
			c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": string(text)}})
			c.diagnostics(uri)
		}
	})
	b.Run("keystroke", func(b *testing.B) { benchKeystroke(b, c, uri) })
	b.Run("hover", func(b *testing.B) {
		for b.Loop() {
			c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{2, 40}})
		}
	})
	src := c.open(filepath.Join(root, "src/f000.go"), "go")
	b.Run("references", func(b *testing.B) {
		for b.Loop() {
			var locs []lspLocation
			c.result("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": src}, "position": lspPos{2, 0}}, &locs)
			if len(locs) == 0 {
				b.Fatal("no references")
			}
		}
		// The heap of the test process, server and client, after all of it:
		// an upper bound of the server's.
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
	})
}

// benchKeystroke types a character into the first line of the page at uri
// and waits for its diagnostics, b.N times.
func benchKeystroke(b *testing.B, c *lspClient, uri string) {
	for i := 0; b.Loop(); i++ {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []any{map[string]any{"range": lspRange{lspPos{0, 2}, lspPos{0, 2}}, "text": "x"}},
		})
		c.diagnostics(uri)
	}
}

// lspNamesSource is a Go file of n functions of 5 lines each, with a doc
// comment: 5n lines.
func lspNamesSource(n int) string {
	var b strings.Builder
	b.WriteString("package big\n")
	for i := range n {
		fmt.Fprintf(&b, "\n// F%d does its part.\nfunc F%d(x int) int {\n\treturn x + %d\n}\n", i, i, i)
	}
	return b.String()
}

// lspNamesPython is lspNamesSource in Python, read by the tree-sitter
// parser: n functions of 5 lines each (a blank line, a comment, the def
// and two lines of body), 5n+1 lines.
func lspNamesPython(n int) string {
	var b strings.Builder
	b.WriteString("import os\n")
	for i := range n {
		fmt.Fprintf(&b, "\n# F%d does its part.\ndef F%d(x):\n    y = x + %d\n    return y\n", i, i, i)
	}
	return b.String()
}

// BenchmarkLSPNames: a page of 10 links that quote functions of a
// 5,000-line file by name (sym=), in Go (go/parser) and in Python
// (tree-sitter): diagnostics after a keystroke (the check looks every name
// up), hover on a named link, and completion after "sym=" (all 1,000
// declarations). The names of an unchanged file are parsed once for the
// server's life (the keystroke and hover figures); completion lists
// every declaration afresh.
func BenchmarkLSPNames(b *testing.B) {
	for _, lang := range []struct{ name, file, src string }{
		{"go", "src/big.go", lspNamesSource(1000)},
		{"python", "src/big.py", lspNamesPython(1000)},
	} {
		b.Run(lang.name, func(b *testing.B) { benchLSPNames(b, lang.file, lang.src) })
	}
}

func benchLSPNames(b *testing.B, file, src string) {
	root := b.TempDir()
	sum := e2eMD5(src)
	var page strings.Builder
	page.WriteString("# Names\n\n")
	for l := range 10 {
		f := l * 97
		start := 1 + 5*f + 2 // the func line, after the first line, a blank line and the doc comment
		fmt.Fprintf(&page, "[F%d](../%s#line=%d,%d;md5=%s \"sym=F%d\")\n\n", f, file, start, start+3, sum, f)
	}
	opening := "[complete](../" + file + "#line=0,1 \"sym="
	page.WriteString(opening + "\n")
	e2eWrite(b, root, map[string]string{"textfrag.toml": "", file: src, "docs/names.md": page.String()})
	c := startLSP(b, root, -1)
	c.initialize(false, true)
	uri := c.open(filepath.Join(root, "docs/names.md"), "markdown")
	if d := c.diagnostics(uri); len(d) != 0 { // every name spans its link's lines; the last line is no link yet
		b.Fatalf("diagnostics %+v", d)
	}
	b.Run("keystroke", func(b *testing.B) { benchKeystroke(b, c, uri) })
	hover := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{2, 10}}
	if h := fmt.Sprint(c.call("textDocument/hover", hover)); !strings.Contains(h, "sym=F0`: function F0") && !strings.Contains(h, "sym=F0`: func F0") {
		b.Fatalf("hover %s, want sym=F0's", h)
	}
	b.Run("hover", func(b *testing.B) {
		for b.Loop() {
			c.call("textDocument/hover", hover)
		}
	})
	last := strings.Count(page.String(), "\n") - 1
	b.Run("completion", func(b *testing.B) {
		for b.Loop() {
			var list struct{ Items []struct{ Label string } }
			c.result("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{last, len(opening)}}, &list)
			if len(list.Items) != 1000 {
				b.Fatalf("%d items, want 1000", len(list.Items))
			}
		}
	})
}
