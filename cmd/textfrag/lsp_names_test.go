package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/filetest"
)

// lspNamesProject writes a project whose page quotes src/server.go
// (namesSource) by name: exactly (line 0), by lines that are no longer the
// name's (2), by a name that is gone (4), and by a region (6).
func lspNamesProject(t *testing.T) (root, page string) {
	src := namesSource
	root = t.TempDir()
	page = namesLink("ok", "line=6,9", src, "sym=Server.Handle") + "\n\n" +
		namesLink("mismatch", "line=5,9", src, "sym=Server.Handle") + "\n\n" +
		namesLink("gone", "line=14,15", src, "sym=Removed") + "\n\n" +
		namesLink("region", "line=11,12", src, "region=setup") + "\n"
	e2eWrite(t, root, map[string]string{
		"textfrag.toml": "",
		"src/server.go": src,
		"src/.env":      "# textfrag:begin tok\nTOKEN=1\n# textfrag:end tok\n",
		"docs/page.md":  page,
	})
	return root, page
}

// A named link's problems reach the editor through the check the build
// runs: the same messages as check --format json, kind symbol, on the
// link's destination.
func TestLSPNamedDiagnostics(t *testing.T) {
	root, page := lspNamesProject(t)
	t.Chdir(root)
	checkOut, _, _ := runIn(t, "check", "--format", "json", "docs")
	var want []checkRecord
	if err := json.Unmarshal([]byte(checkOut), &want); err != nil || len(want) != 2 {
		t.Fatalf("check: %v %q, want two problems", err, checkOut)
	}
	c := startLSP(t, root, 0)
	c.initialize(true, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	diags := c.diagnostics(uri)
	if len(diags) != 2 {
		t.Fatalf("diagnostics %+v, want two", diags)
	}
	lines := strings.Split(page, "\n")
	for i, d := range diags {
		if d.Code != "symbol" || want[i].Kind != "symbol" || d.Message != want[i].Message || d.Severity != 1 {
			t.Errorf("diagnostic %+v,\nwant kind symbol, severity 1 and check's message %q", d, want[i].Message)
		}
		at := lines[d.Range.Start.Line][d.Range.Start.Character:d.Range.End.Character]
		if !strings.HasPrefix(at, "../src/server.go#") || strings.Contains(at, "\"") {
			t.Errorf("diagnostic on %q, want the destination", at)
		}
	}
	if diags[0].Range.Start.Line != 2 || !strings.Contains(diags[0].Message, "sym=Server.Handle spans lines 7–9") ||
		diags[1].Range.Start.Line != 4 || !strings.Contains(diags[1].Message, "sym=Removed is not in src/server.go") {
		t.Errorf("diagnostics %+v: want the mismatch on line 2 and the missing name on line 4", diags)
	}
	c.shutdown()
}

// Hover on a named link says what the name is and the lines it spans now
// (or why it cannot be found); definition goes to those lines, even when
// the link quotes others.
func TestLSPNamedHoverDefinition(t *testing.T) {
	root, _ := lspNamesProject(t)
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	c.diagnostics(uri)
	hover := func(line int) string {
		var h struct{ Contents struct{ Kind, Value string } }
		c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{line, 12}}, &h)
		return h.Contents.Value
	}
	for line, wants := range map[int][]string{
		0: {"`sym=Server.Handle`: method Server.Handle, lines 7–9 now (#line=6,9) · the link quotes exactly those", "```go\nfunc (s *Server) Handle() int {"},
		2: {"`sym=Server.Handle`: method Server.Handle, lines 7–9 now (#line=6,9) · the link quotes lines 6–9: `textfrag pin --write` re-pins it"},
		4: {"`sym=Removed`: sym=Removed is not in src/server.go (Go); fix the name"},
		6: {"`region=setup`: region, line 12 now (#line=11,12) · the link quotes exactly those"},
	} {
		got := hover(line)
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("hover on line %d lacks %q:\n%s", line, want, got)
			}
		}
	}
	srcURI := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, "src/server.go"))}).String()
	for line, want := range map[int]lspRange{
		0: {lspPos{6, 0}, lspPos{9, 0}},
		2: {lspPos{6, 0}, lspPos{9, 0}},   // the name's lines, not the link's 6–9
		4: {lspPos{14, 0}, lspPos{15, 0}}, // the name is gone: the link's lines
		6: {lspPos{11, 0}, lspPos{12, 0}},
	} {
		var locs []lspLocation
		c.result("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{line, 12}}, &locs)
		if len(locs) != 1 || locs[0] != (lspLocation{srcURI, want}) {
			t.Errorf("definition on line %d: %+v, want %+v", line, locs, want)
		}
	}
	c.shutdown()
}

// Completion in a link's title: after "sym=" the declarations of the
// file the link names (name, kind, lines), after "region=" its regions;
// nothing for a secret file or one outside the root, nor outside a title.
func TestLSPNamedCompletion(t *testing.T) {
	root, _ := lspNamesProject(t)
	outside := filepath.Join(filepath.Dir(root), "outside.go")
	if err := os.WriteFile(outside, []byte("package o\n\n// textfrag:begin out\nfunc Out() {}\n// textfrag:end out\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := "[a](../src/server.go#line=6,9 \"sym=\n" + // 0
		"[b](../src/server.go#line=6,9 'lang=go sym=Serv\n" + // 1
		"[c](../src/server.go#line=11,12 (region=\n" + // 2
		"[d](../src/.env#line=1,2 \"region=\n" + // 3
		"[e](../../outside.go#line=3,4 \"region=\n" + // 4
		"[f](../../outside.go#line=3,4 \"sym=\n" + // 5
		"[g](../src/server.go#line=6,9) sym=\n" + // 6: not in a title
		"[h]: ../src/server.go#line=6,9 \"doc sym=\n" // 7: a definition, with doc
	e2eWrite(t, root, map[string]string{"docs/page.md": page})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	lines := strings.Split(page, "\n")
	type item struct {
		Label, Detail string
		Kind          int
		TextEdit      struct {
			Range   lspRange
			NewText string
		}
	}
	complete := func(line int) []item {
		var list struct{ Items []item }
		c.result("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{line, utf16Len(lines[line])}}, &list)
		return list.Items
	}
	labels := func(items []item) string {
		var ls []string
		for _, it := range items {
			ls = append(ls, it.Label+" ("+it.Detail+")")
		}
		return strings.Join(ls, "; ")
	}

	items := complete(0)
	byName := map[string]item{}
	for _, it := range items {
		byName[it.Label] = it
	}
	for name, detail := range map[string]string{
		"Server":        "type, line 4 of src/server.go",
		"Server.Handle": "method, lines 7–9 of src/server.go",
		"helper":        "func, line 15 of src/server.go",
		"x":             "var, line 12 of src/server.go",
	} {
		it, ok := byName[name]
		if !ok || it.Detail != detail || it.TextEdit.NewText != name || it.TextEdit.Range != (lspRange{lspPos{0, len(lines[0])}, lspPos{0, len(lines[0])}}) {
			t.Errorf("sym=: %s: %+v, want detail %q inserted at the cursor; all: %s", name, it, detail, labels(items))
		}
	}
	if byName["Server.Handle"].Kind != 2 || byName["helper"].Kind != 3 {
		t.Errorf("kinds: method %d, func %d; want 2 and 3", byName["Server.Handle"].Kind, byName["helper"].Kind)
	}
	// What is typed after sym= is replaced.
	items = complete(1)
	if len(items) == 0 || items[0].TextEdit.Range.Start.Character != len(lines[1])-len("Serv") {
		t.Errorf("after sym=Serv: %+v", items)
	}
	if got := labels(complete(2)); got != "setup (region, line 12 of src/server.go)" {
		t.Errorf("region=: %s", got)
	}
	for _, line := range []int{3, 4, 5, 6} {
		if got := complete(line); len(got) != 0 {
			t.Errorf("line %d (%s): %s, want nothing", line, lines[line], labels(got))
		}
	}
	// With doc, spans start at the doc comment.
	items = complete(7)
	for _, it := range items {
		if it.Label == "Server.Handle" && it.Detail != "method, lines 6–9 of src/server.go" {
			t.Errorf("doc sym=: %+v", it)
		}
	}
	if len(items) == 0 {
		t.Error("doc sym=: nothing")
	}
	c.shutdown()
}

// The code action for a named link whose symbol moved re-pins it at the
// name's lines; applied, the diagnostic clears. One whose body changed, or
// whose lines were never the name's, is offered for review, not preferred.
func TestLSPNamedCodeActions(t *testing.T) {
	src := namesSource
	moved := "// Package server.\n\n" + src
	changed := strings.Replace(src, "\treturn s.n\n", "\ts.n++\n\treturn s.n\n", 1)
	for _, tc := range []struct {
		name, frag, now, title, wantDest string
		preferred                        bool
	}{
		{"moved", "line=6,9", moved, "Move to sym=Server.Handle's lines 9–11", "../src/server.go#line=8,11;md5=" + md5hex(moved), true},
		{"changed", "line=6,9", changed, "Re-pin at sym=Server.Handle's lines 7–10 (the quoted text changes: review it first)", "../src/server.go#line=6,10;md5=" + md5hex(changed), false},
		// The file as pinned, but the link's lines were never the name's.
		{"mismatch", "line=5,9", src, "Re-pin at sym=Server.Handle's lines 7–9 (the quoted text changes: review it first)", "../src/server.go#line=6,9;md5=" + md5hex(src), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := "日本 😀 " + namesLink("h", tc.frag, src, "sym=Server.Handle") + "\n"
			cl, uri, actions := lspQuickFix(t, map[string]string{"src/server.go": src, "docs/page.md": page}, map[string]string{"src/server.go": tc.now})
			if len(actions) < 1 || actions[0]["title"] != tc.title || actions[0]["kind"] != "quickfix" || (actions[0]["isPreferred"] == true) != tc.preferred {
				t.Fatalf("actions %v, want first %q (preferred %v)", actions, tc.title, tc.preferred)
			}
			cl.applyFix(t, page, uri, actions[0], "日本 😀 [h]("+tc.wantDest+" \"sym=Server.Handle\")\n")
		})
	}
}

// pythonSource is src/app.py: a class with two methods and a function,
// read by the tree-sitter parser the command carries.
const pythonSource = "import os\n" + // 1
	"\n" + // 2
	"\n" + // 3
	"class App:\n" + // 4: App is lines 4–11
	"    \"\"\"An app.\"\"\"\n" + // 5
	"\n" + // 6
	"    def run(self):\n" + // 7: App.run is lines 7–8
	"        return 1\n" + // 8
	"\n" + // 9
	"    def stop(self):\n" + // 10: App.stop is lines 10–11
	"        return 2\n" + // 11
	"\n" + // 12
	"\n" + // 13
	"def main():\n" + // 14: main is lines 14–15
	"    App().run()\n" // 15

// The language server has the command's parsers: completion after sym=
// lists a Python file's declarations, and a Python method's named link is
// checked, hovered and followed to its lines.
func TestLSPNamedPython(t *testing.T) {
	root := t.TempDir()
	link := "[run](../src/app.py#line=6,8;md5=" + md5hex(pythonSource) + " \"sym=App.run\")"
	page := link + "\n\n[x](../src/app.py#line=0,1 \"sym=\n"
	e2eWrite(t, root, map[string]string{"textfrag.toml": "", "src/app.py": pythonSource, "docs/page.md": page})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	if d := c.diagnostics(uri); len(d) != 0 {
		t.Fatalf("diagnostics %+v, want none", d)
	}
	var list struct {
		Items []struct{ Label, Detail string }
	}
	c.result("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{2, len("[x](../src/app.py#line=0,1 \"sym=")}}, &list)
	var got []string
	for _, it := range list.Items {
		got = append(got, it.Label+": "+it.Detail)
	}
	want := "App: class, lines 4–11 of src/app.py; App.run: method, lines 7–8 of src/app.py; App.stop: method, lines 10–11 of src/app.py; main: func, lines 14–15 of src/app.py"
	if strings.Join(got, "; ") != want {
		t.Errorf("completion:\n%s\nwant\n%s", strings.Join(got, "; "), want)
	}
	var h struct{ Contents struct{ Value string } }
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{0, 8}}, &h)
	if !strings.Contains(h.Contents.Value, "`sym=App.run`: method App.run, lines 7–8 now (#line=6,8) · the link quotes exactly those") {
		t.Errorf("hover:\n%s", h.Contents.Value)
	}
	// The method grows a line: the check says where it is now.
	grown := strings.Replace(pythonSource, "        return 1\n", "        os.sync()\n        return 1\n", 1)
	srcURI := c.open(filepath.Join(root, "src/app.py"), "python")
	if d := c.diagnostics(uri); len(d) != 0 { // the buffer is the file
		t.Fatalf("after opening the source: %+v", d)
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": srcURI, "version": 2},
		"contentChanges": []any{map[string]any{"text": grown}},
	})
	d := c.diagnostics(uri)
	if len(d) != 1 || d[0].Code != "integrity" {
		t.Fatalf("after the method grew: %+v, want the md5 mismatch first", d)
	}
	var locs []lspLocation
	c.result("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{0, 8}}, &locs)
	if len(locs) != 1 || locs[0].Range != (lspRange{lspPos{6, 0}, lspPos{9, 0}}) {
		t.Errorf("definition %+v, want the method's lines 7–9 now", locs)
	}
	c.shutdown()
}

// The server keeps a file's parsed names while its text is unchanged, and
// never serves them once it changed: the file rewritten on disk with the
// same size and modification time (no stat tells), opened in the editor
// with other text, edited there, and closed again. Hover and the
// diagnostics after a keystroke both follow the text as it is.
func TestLSPNamesFollowEdits(t *testing.T) {
	root := t.TempDir()
	page := "[h](../src/server.go#line=6,9 \"sym=Server.Handle\")\n"
	e2eWrite(t, root, map[string]string{"textfrag.toml": "", "src/server.go": namesSource, "docs/page.md": page})
	// The same bytes, Handle's three lines and their comment moved up above
	// Server's: Server.Handle is lines 4–6.
	lines := strings.SplitAfter(namesSource, "\n")
	moved := strings.Join(slices.Concat(lines[:2], lines[5:9], lines[2:5], lines[9:]), "")
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	// An event of the open source file publishes the page's diagnostics
	// (it quotes the file); a keystroke in the page does too.
	diagnosed := func(step, want string) {
		t.Helper()
		var msgs []string
		for _, d := range c.diagnostics(uri) {
			if d.Code == "symbol" {
				msgs = append(msgs, d.Message)
			}
		}
		if got := strings.Join(msgs, "\n"); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%s: symbol diagnostics %q, want %q", step, got, want)
		}
	}
	version := 1
	check := func(step, wantHover, wantDiag string) {
		t.Helper()
		var h struct{ Contents struct{ Kind, Value string } }
		c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{0, 12}}, &h)
		if !strings.Contains(h.Contents.Value, wantHover) {
			t.Errorf("%s: hover %q, want %q", step, h.Contents.Value, wantHover)
		}
		version++
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"range": lspRange{lspPos{0, 1}, lspPos{0, 1}}, "text": "h"}},
		})
		diagnosed(step+", after a keystroke", wantDiag)
	}
	diagnosed("the page opened", "")
	check("as written", "lines 7–9 now (#line=6,9) · the link quotes exactly those", "")
	check("again, names kept", "lines 7–9 now (#line=6,9) · the link quotes exactly those", "")

	filetest.RewriteSameStamp(t, filepath.Join(root, "src/server.go"), moved)
	check("rewritten, same size and time", "lines 4–6 now (#line=3,6) · the link quotes lines 7–9", "sym=Server.Handle spans lines 4–6")

	srcURI := c.open(filepath.Join(root, "src/server.go"), "go") // the disk's text: moved
	diagnosed("opened", "sym=Server.Handle spans lines 4–6")
	check("opened", "lines 4–6 now (#line=3,6)", "sym=Server.Handle spans lines 4–6")
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": srcURI, "version": 2},
		"contentChanges": []any{map[string]any{"text": namesSource}},
	})
	diagnosed("edited back in the buffer", "")
	check("edited back in the buffer", "lines 7–9 now (#line=6,9) · the link quotes exactly those", "")
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": srcURI, "version": 3},
		"contentChanges": []any{map[string]any{"range": lspRange{lspPos{0, 0}, lspPos{0, 0}}, "text": "// x\n"}},
	})
	diagnosed("a line inserted in the buffer", "sym=Server.Handle spans lines 8–10")
	check("a line inserted in the buffer", "lines 8–10 now (#line=7,10)", "sym=Server.Handle spans lines 8–10")
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": srcURI}})
	diagnosed("closed", "sym=Server.Handle spans lines 4–6")
	check("closed: the disk's text", "lines 4–6 now (#line=3,6)", "sym=Server.Handle spans lines 4–6")
	c.shutdown()
}
