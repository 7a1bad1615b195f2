package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// A page the server does not check says so once, on its first link, as a
// warning, instead of every link failing with a false "outside the
// allowed roots" and a remedy (widen --root) that is wrong: a page of the
// second folder of a two-folder workspace (the server serves the first),
// and an untitled buffer, which has no directory for its links. An
// untitled buffer without links gets no diagnostic.
func TestLSPPagesNotChecked(t *testing.T) {
	base := t.TempDir()
	first, second := filepath.Join(base, "first"), filepath.Join(base, "second")
	e2eWrite(t, first, map[string]string{"textfrag.toml": "", "src/a.go": lspSource})
	e2eWrite(t, second, map[string]string{
		"textfrag.toml": "", "src/a.go": lspSource,
		"docs/page.md": "[a](../src/a.go#line=1,2;md5=" + e2eMD5(lspSource) + ")\n\n[b](/src/a.go#line=0,1)\n",
	})
	c := startLSP(t, base, -1)
	folder := func(dir string) map[string]any {
		return map[string]any{"uri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "name": filepath.Base(dir)}
	}
	var res map[string]any
	c.result("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{},
		"workspaceFolders": []any{folder(first), folder(second)}}, &res)
	c.notify("initialized", map[string]any{})
	uri := c.open(filepath.Join(second, "docs/page.md"), "markdown")
	d := c.diagnostics(uri)
	if len(d) != 1 || d[0].Code != "unchecked" || d[0].Severity != 2 || d[0].Range.Start != (lspPos{0, 4}) ||
		!strings.Contains(d[0].Message, "outside the project root "+first) || !strings.Contains(d[0].Message, "its 2 textfrag links are not verified") {
		t.Errorf("a page of the second folder: %+v, want one warning that its 2 links are not checked here", d)
	}
	if h := c.hoverText(uri, lspPos{2, 6}); strings.Contains(h, "allowed roots") || !strings.Contains(h, "not checked") {
		t.Errorf("hover on a page of the second folder: %q", h)
	}
	// Nor is it pinned, followed or completed against the first folder's
	// files: its /src/a.go is not that folder's.
	var actions []struct{ Title string }
	c.result("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": lspRange{lspPos{2, 6}, lspPos{2, 6}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) != 0 {
		t.Errorf("code actions on a page of the second folder: %+v, want none", actions)
	}
	if locs := c.definitionAt(uri, lspPos{2, 6}); len(locs) != 0 {
		t.Errorf("definition on a page of the second folder: %+v, want none", locs)
	}
	var links []any
	c.result("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": uri}}, &links)
	if len(links) != 0 {
		t.Errorf("document links on a page of the second folder: %+v, want none", links)
	}

	open := func(uri, text string) {
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
	}
	open("untitled:Untitled-1", "# Notes\n\nsee [a](src/a.go#line=0,1)\n")
	if d := c.diagnostics("untitled:Untitled-1"); len(d) != 1 || d[0].Code != "unchecked" || d[0].Range.Start != (lspPos{2, 8}) || !strings.Contains(d[0].Message, "not saved") {
		t.Errorf("an untitled page with a link: %+v, want one warning that it is not checked", d)
	}
	open("untitled:Untitled-2", "# Notes\n\nno links\n")
	if d := c.diagnostics("untitled:Untitled-2"); len(d) != 0 {
		t.Errorf("an untitled page without links: %+v, want none", d)
	}
	c.shutdown()
}

// A client that watches files watches the folder it opened; the project
// root may be wider (textfrag.toml above it: docs/ opened alone). A quoted
// file outside that folder changes on disk, and the client, as a real one,
// says nothing: the server still notices, by looking itself.
func TestLSPWatchedFolderNarrowerThanRoot(t *testing.T) {
	root := t.TempDir()
	e2eWrite(t, root, map[string]string{
		"textfrag.toml": "", "src/a.go": lspSource,
		"docs/page.md": "[a](../src/a.go#line=1,2;md5=" + e2eMD5(lspSource) + ")\n",
	})
	c := startLSP(t, root, 50*time.Millisecond)
	var res map[string]any
	c.result("initialize", map[string]any{"processId": nil,
		"rootUri":      (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, "docs"))}).String(),
		"capabilities": map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}},
	}, &res)
	c.notify("initialized", map[string]any{})
	reg := c.notification("client/registerCapability")
	c.send(map[string]any{"id": reg["id"], "result": nil})
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	if d := c.diagnostics(uri); len(d) != 0 {
		t.Fatalf("pinned link: %+v", d)
	}
	time.Sleep(100 * time.Millisecond) // a poll records the file's stamp
	e2eWrite(t, root, map[string]string{"src/a.go": lspSource + "// more\n"})
	if d := c.diagnostics(uri); len(d) != 1 || d[0].Code != "integrity" {
		t.Fatalf("after src/a.go changed on disk, outside the watched docs/: %+v, want an integrity error", d)
	}
	c.shutdown()
}

// The editor opened the project through a symbolic link and names pages by
// their real path, or the other way round (editors differ in which they
// resolve): the page is the project's page all the same, checked, its
// pinned link verified.
func TestLSPRootThroughSymlink(t *testing.T) {
	base := t.TempDir()
	real, link := filepath.Join(base, "real"), filepath.Join(base, "link")
	e2eWrite(t, real, map[string]string{
		"textfrag.toml": "", "src/a.go": lspSource,
		"docs/page.md": "[a](../src/a.go#line=1,2;md5=" + e2eMD5(lspSource) + ")\n",
	})
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	uriOf := func(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }
	for _, c := range []struct{ root, page string }{{link, real}, {real, link}} {
		cl := startLSP(t, base, -1)
		var res map[string]any
		cl.result("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}, "rootUri": uriOf(c.root)}, &res)
		cl.notify("initialized", map[string]any{})
		uri := cl.open(filepath.Join(c.page, "docs/page.md"), "markdown")
		if d := cl.diagnostics(uri); len(d) != 0 {
			t.Errorf("workspace %s, page under %s: %+v, want none", c.root, c.page, d)
		}
		if h := cl.hoverText(uri, lspPos{0, 6}); !strings.Contains(h, "md5 matches") {
			t.Errorf("workspace %s, page under %s: hover %q", c.root, c.page, h)
		}
		cl.shutdown()
	}
}

// A file name holding an escape sequence and a newline (a pull request can
// add one) reaches the editor written as Go escapes, as check writes it,
// in every text the editor shows: diagnostics, hover, completion labels
// and details, link tooltips and code action titles. The text inserted
// stays exact (percent-encoded).
func TestLSPControlCharactersInNames(t *testing.T) {
	root := t.TempDir()
	name := "e\x1b[31mx\ny.go"
	enc := "e%1B%5B31mx%0Ay.go"
	e2eWrite(t, root, map[string]string{
		"textfrag.toml": "", "src/" + name: "package a\n\nfunc A() {}\n",
		"docs/page.md": "[a](../src/" + enc + "#line=2,9)\n\n[b](../src/" + enc + "#line=2,3 \"sym=\n\n[c](../src/\n",
	})
	c := startLSP(t, root, -1)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	var shown []string
	diags := c.diagnostics(uri)
	for _, d := range diags {
		shown = append(shown, d.Message)
	}
	if len(diags) == 0 {
		t.Fatal("no diagnostics for a range past the end")
	}
	hover := c.hoverText(uri, lspPos{0, 6})
	if !strings.Contains(hover, `src/e\x1b[31mx\ny.go`) {
		t.Errorf("hover %q does not name the file escaped", hover)
	}
	shown = append(shown, hover)
	for _, at := range []lspPos{{2, len(`[b](../src/` + enc + `#line=2,3 "sym=`)}, {4, len("[c](../src/")}} {
		items := c.completeAt(uri, at)
		if len(items) == 0 {
			t.Errorf("no completion at %+v", at)
		}
		for _, it := range items {
			shown = append(shown, it.Label, it.Detail)
			if at.Line == 4 && it.TextEdit.NewText != enc {
				t.Errorf("path completion inserts %q, want %q", it.TextEdit.NewText, enc)
			}
		}
	}
	var links []struct{ Tooltip string }
	c.result("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": uri}}, &links)
	for _, l := range links {
		shown = append(shown, l.Tooltip)
	}
	var actions []struct{ Title string }
	c.result("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": lspRange{lspPos{0, 6}, lspPos{0, 6}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) == 0 {
		t.Error("no code action for an unpinned link")
	}
	for _, a := range actions {
		shown = append(shown, a.Title)
	}
	for _, s := range shown {
		if strings.ContainsRune(s, 0x1b) || strings.Contains(s, "x\ny.go") {
			t.Errorf("the editor is shown a raw control character: %q", s)
		}
	}
	c.shutdown()
}
