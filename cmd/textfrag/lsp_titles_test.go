package main

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// hoverText returns the markdown of the hover at pos of uri.
func (c *lspClient) hoverText(uri string, pos lspPos) string {
	c.t.Helper()
	var h struct{ Contents struct{ Kind, Value string } }
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos}, &h)
	return h.Contents.Value
}

// definitionAt returns the locations of the definition at pos of uri.
func (c *lspClient) definitionAt(uri string, pos lspPos) []lspLocation {
	c.t.Helper()
	var locs []lspLocation
	c.result("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos}, &locs)
	return locs
}

// lspCompletionItem is the part of a completion item the tests read.
type lspCompletionItem struct {
	Label, Detail string
	TextEdit      struct {
		Range   lspRange
		NewText string
	}
}

// completeAt returns the completion items at pos of uri.
func (c *lspClient) completeAt(uri string, pos lspPos) []lspCompletionItem {
	c.t.Helper()
	var list struct{ Items []lspCompletionItem }
	c.result("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos}, &list)
	return list.Items
}

// A title the build refuses (a word it does not know, a bad hl= list,
// both sym= and region=, an option with a value it does not take) names
// nothing in the editor: hover shows the build's error, with the words of
// the diagnostic, and no lookup of the name; definition gives no location.
// The same link with a title the build accepts gets the name's lines from
// both. A refused title behind an error the build reports first (a failed
// md5) is still shown on hover.
func TestLSPRefusedTitleHoverDefinition(t *testing.T) {
	src := namesSource
	stale := strings.Replace(src, "package server\n", "package server // was\n", 1)
	refused := []struct {
		line  int
		title string
		named bool // the title reads a name the build would look up
	}{
		{2, "sym=Server.Handle bogus", true},
		{4, "hl=0 sym=Server.Handle", true},
		{6, "region=setup dedent=yes", true},
		{8, "sym=Server.Handle region=setup", false},
		{10, "dedant", false},
	}
	page := namesLink("ok", "line=5,9", src, "sym=Server.Handle") + "\n\n"
	for _, r := range refused {
		frag := "line=5,9"
		if strings.Contains(r.title, "region=setup") && !strings.Contains(r.title, "sym=") {
			frag = "line=11,12"
		}
		page += namesLink("r", frag, src, r.title) + "\n\n"
	}
	page += namesLink("stale", "line=5,9", stale, "sym=Server.Handle bogus") + "\n" // line 12
	root := t.TempDir()
	e2eWrite(t, root, map[string]string{"textfrag.toml": "", "src/server.go": src, "docs/page.md": page})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	diags := map[int]lspDiag{}
	for _, d := range c.diagnostics(uri) {
		diags[d.Range.Start.Line] = d
	}
	srcURI := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, "src/server.go"))}).String()
	at := func(line int) lspPos { return lspPos{line, len("[ok](../src")} }

	// The title the build accepts: the name's lines now (7–9), not the
	// link's (6–9).
	if d := diags[0]; d.Code != "symbol" || !strings.Contains(d.Message, "sym=Server.Handle spans lines 7–9") {
		t.Errorf("line 0: diagnostic %+v, want the name's mismatch", d)
	}
	if h := c.hoverText(uri, at(0)); !strings.Contains(h, "`sym=Server.Handle`: method Server.Handle, lines 7–9 now (#line=6,9)") {
		t.Errorf("line 0: hover lacks the name's lines:\n%s", h)
	}
	if locs := c.definitionAt(uri, at(0)); len(locs) != 1 || locs[0] != (lspLocation{srcURI, lspRange{lspPos{6, 0}, lspPos{9, 0}}}) {
		t.Errorf("line 0: definition %+v, want the name's lines 7–9", locs)
	}

	for _, r := range refused {
		d, ok := diags[r.line]
		if !ok || d.Severity != 1 || !strings.HasPrefix(d.Message, "link title: ") {
			t.Errorf("line %d (%q): diagnostic %+v, want the build's title error", r.line, r.title, d)
			continue
		}
		h := c.hoverText(uri, at(r.line))
		if !strings.Contains(h, "error: "+d.Message) || strings.Contains(h, " now (#line=") || strings.Contains(h, "quotes exactly") {
			t.Errorf("line %d (%q): hover, want the diagnostic's error %q and no lookup of the name:\n%s", r.line, r.title, d.Message, h)
		}
		if strings.Count(h, d.Message) != 1 {
			t.Errorf("line %d: hover repeats the error:\n%s", r.line, h)
		}
		if r.named && !strings.Contains(h, "not looked up while the build refuses the title") {
			t.Errorf("line %d (%q): hover does not say the name is not looked up:\n%s", r.line, r.title, h)
		}
		if locs := c.definitionAt(uri, at(r.line)); len(locs) != 0 {
			t.Errorf("line %d (%q): definition %+v, want none", r.line, r.title, locs)
		}
	}

	// The md5 fails first (the diagnostic says so); hover adds the title's
	// error, the words line 2's diagnostic uses for the same title.
	if d := diags[12]; d.Code != "integrity" {
		t.Errorf("line 12: diagnostic %+v, want the md5 mismatch", d)
	}
	h := c.hoverText(uri, at(12))
	if !strings.Contains(h, "error: "+diags[12].Message) || !strings.Contains(h, "error: "+diags[2].Message) || strings.Contains(h, " now (#line=") {
		t.Errorf("line 12: hover, want the md5 error and the title's error %q:\n%s", diags[2].Message, h)
	}
	if locs := c.definitionAt(uri, at(12)); len(locs) != 0 {
		t.Errorf("line 12: definition %+v, want none", locs)
	}
	c.shutdown()
}

// The code action that moves a named link to the name's lines (its
// symbol moved: a line was added above it since it was pinned) is offered
// for a title the build accepts and for none it refuses; what does not
// read the title (making the inline quote a box) stays.
func TestLSPRefusedTitleCodeActions(t *testing.T) {
	src := namesSource
	moved := "// Package server.\n\n" + src
	for _, tc := range []struct {
		title, want string
	}{
		{"sym=Server.Handle", "Move to sym=Server.Handle's lines 9–11"},
		{"sym=Server.Handle bogus", ""},
		{"dedent=yes sym=Server.Handle", ""},
		{"hl=9-7 sym=Server.Handle", ""},
	} {
		t.Run(tc.title, func(t *testing.T) {
			page := "日本 😀 " + namesLink("h", "line=6,9", src, tc.title) + "\n"
			cl, _, actions := lspQuickFix(t, map[string]string{"src/server.go": src, "docs/page.md": page}, map[string]string{"src/server.go": moved})
			var titles []string
			quickfixes := 0
			for _, a := range actions {
				titles = append(titles, a["title"].(string))
				if a["kind"] == "quickfix" {
					quickfixes++
				}
			}
			all := strings.Join(titles, "; ")
			if tc.want != "" {
				if len(actions) == 0 || actions[0]["title"] != tc.want || quickfixes != 1 {
					t.Errorf("actions %q, want first %q", all, tc.want)
				}
			} else if quickfixes != 0 || strings.Contains(all, "sym=") {
				t.Errorf("actions %q, want no quick fix and nothing about the name", all)
			}
			if !strings.Contains(all, "Make this quote a box") {
				t.Errorf("actions %q, want the box action still", all)
			}
			cl.shutdown()
		})
	}
}

// Completion in a title keeps working while the title is typed, though
// such a title is one the build refuses at almost every keystroke ("sym="
// names nothing; a word is half written): with the closing quote the
// editor added already there, in the middle of a closed title, after a
// misspelled word. Then a session: a title typed into a pinned link one
// keystroke at a time has the build's error on hover and no definition
// until the chosen completion makes it whole; then hover, definition and
// the diagnostics are the name's, until a bad word is typed after it.
func TestLSPCompletionWhileTyping(t *testing.T) {
	src := namesSource
	root := t.TempDir()
	lines := []string{
		`[a](../src/server.go#line=6,9 "sym=")`,              // 0: the editor closed the quote
		`[b](../src/server.go#line=6,9 "doc sym=Serv")`,      // 1: half a name, doc before it
		`[c](../src/server.go#line=6,9 "dedant sym=`,         // 2: a misspelled word before
		`[d](../src/server.go#line=11,12 'region= dedent')`,  // 3: typed into a closed title
		`[e](../src/server.go#line=6,9 (lang=go sym=Server.`, // 4: after a qualifier's dot
	}
	cursors := []string{`"sym=`, `sym=Serv`, `sym=`, `region=`, `sym=Server.`}
	e2eWrite(t, root, map[string]string{"textfrag.toml": "", "src/server.go": src, "docs/page.md": strings.Join(lines, "\n") + "\n"})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	c.diagnostics(uri)
	details := func(items []lspCompletionItem) map[string]string {
		m := map[string]string{}
		for _, it := range items {
			m[it.Label] = it.Detail
		}
		return m
	}
	for i, line := range lines {
		col := strings.Index(line, cursors[i]) + len(cursors[i])
		items := c.completeAt(uri, lspPos{i, col})
		got := details(items)
		wantName, wantDetail := "Server.Handle", "method, lines 7–9 of src/server.go"
		switch i {
		case 1:
			wantDetail = "method, lines 6–9 of src/server.go" // with doc
		case 3:
			wantName, wantDetail = "setup", "region, line 12 of src/server.go"
		}
		if got[wantName] != wantDetail {
			t.Errorf("line %d %s (cursor at %d): %s is %q, want %q; all: %v", i, line, col, wantName, got[wantName], wantDetail, got)
			continue
		}
		typed := line[strings.LastIndex(line[:col], "=")+1 : col]
		for _, it := range items {
			if it.TextEdit.Range != (lspRange{lspPos{i, col - len(typed)}, lspPos{i, col}}) || it.TextEdit.NewText != it.Label {
				t.Errorf("line %d: %s edits %+v, want %q to replace %q before the cursor", i, it.Label, it.TextEdit, it.Label, typed)
				break
			}
		}
	}

	// The session, on a page of its own.
	link := namesLink("h", "line=6,9", src, "")
	e2eWrite(t, root, map[string]string{"docs/typing.md": link + "\n"})
	tu := c.open(filepath.Join(root, "docs/typing.md"), "markdown")
	if d := c.diagnostics(tu); len(d) != 0 {
		t.Fatalf("before typing: %+v", d)
	}
	srcURI := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, "src/server.go"))}).String()
	version := 1
	text := link + "\n"
	insert := func(col int, s string) []lspDiag {
		t.Helper()
		version++
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": tu, "version": version},
			"contentChanges": []any{map[string]any{"range": lspRange{lspPos{0, col}, lspPos{0, col}}, "text": s}},
		})
		text = text[:col] + s + text[col:]
		return c.diagnostics(tu)
	}
	at := lspPos{0, len("[h](../src")}
	cur := len(link) - 1 // before ")"
	insert(cur, ` ""`)   // the editor closes the quote
	cur += 2
	for _, k := range "sym=" {
		diags := insert(cur, string(k))
		cur++
		if len(diags) != 1 || !strings.HasPrefix(diags[0].Message, "link title: ") {
			t.Fatalf("typed %q: diagnostics %+v, want the title's error", text, diags)
		}
		if h := c.hoverText(tu, at); !strings.Contains(h, "error: "+diags[0].Message) {
			t.Errorf("typed %q: hover lacks the title's error:\n%s", text, h)
		}
		if locs := c.definitionAt(tu, at); len(locs) != 0 {
			t.Errorf("typed %q: definition %+v, want none", text, locs)
		}
	}
	var chosen *lspCompletionItem
	items := c.completeAt(tu, lspPos{0, cur})
	for i := range items {
		if items[i].Label == "Server.Handle" {
			chosen = &items[i]
		}
	}
	if chosen == nil {
		t.Fatalf("typed %q: completion %v lacks Server.Handle", text, details(items))
	}
	if r := chosen.TextEdit.Range; r.Start != r.End || r.Start != (lspPos{0, cur}) {
		t.Fatalf("completion edit %+v, want an insertion at the cursor", chosen.TextEdit)
	}
	if diags := insert(cur, chosen.TextEdit.NewText); len(diags) != 0 {
		t.Fatalf("completed %q: diagnostics %+v, want none", text, diags)
	}
	cur += len(chosen.TextEdit.NewText)
	if want := namesLink("h", "line=6,9", src, "sym=Server.Handle") + "\n"; text != want {
		t.Fatalf("completed: %q, want %q", text, want)
	}
	if h := c.hoverText(tu, at); !strings.Contains(h, "`sym=Server.Handle`: method Server.Handle, lines 7–9 now (#line=6,9) · the link quotes exactly those") {
		t.Errorf("completed: hover lacks the name's lines:\n%s", h)
	}
	if locs := c.definitionAt(tu, at); len(locs) != 1 || locs[0] != (lspLocation{srcURI, lspRange{lspPos{6, 0}, lspPos{9, 0}}}) {
		t.Errorf("completed: definition %+v, want lines 7–9", locs)
	}
	// A word the build does not know, typed after the name.
	diags := insert(cur, " dednet")
	if len(diags) != 1 || !strings.Contains(diags[0].Message, `unknown option "dednet"`) {
		t.Fatalf("typed %q: diagnostics %+v, want the unknown option", text, diags)
	}
	if h := c.hoverText(tu, at); !strings.Contains(h, "error: "+diags[0].Message) || strings.Contains(h, " now (#line=") {
		t.Errorf("typed %q: hover, want the error and no lookup:\n%s", text, h)
	}
	if locs := c.definitionAt(tu, at); len(locs) != 0 {
		t.Errorf("typed %q: definition %+v, want none", text, locs)
	}
	c.shutdown()
}
