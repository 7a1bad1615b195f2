package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// session runs a server in root on the messages send writes (initialize
// first, shutdown and exit last) and returns the diagnostics it published,
// by URI, the last of each. Pages are checked with the textfrag extension.
func session(t testing.TB, root string, send func(msg func(method string, params any))) map[string][]Diagnostic {
	t.Helper()
	var in bytes.Buffer
	id := 0
	msg := func(method string, params any) {
		m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if method == "initialize" || method == "shutdown" {
			id++
			m["id"] = id
		}
		b, _ := json.Marshal(m)
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	msg("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})
	msg("initialized", map[string]any{})
	send(msg)
	msg("shutdown", nil)
	msg("exit", nil)
	find := func(string) (Config, error) {
		return Config{
			Root:     root,
			Resolver: target.Options{Root: root},
			Markdown: func(r *target.Resolver) goldmark.Markdown {
				return goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithResolver(r))))
			},
			PollInterval: -1,
		}, nil
	}
	var out bytes.Buffer
	if err := Serve(context.Background(), find, &in, &out); err != nil {
		t.Fatal(err)
	}
	diags := map[string][]Diagnostic{}
	c := newConn(&out, io.Discard)
	for {
		body, err := c.read()
		if err != nil {
			break
		}
		var m struct {
			Method string
			Params publishDiagnosticsParams
			Error  *rpcError
		}
		json.Unmarshal(body, &m)
		if m.Error != nil {
			t.Errorf("an error answer: %s", body)
		}
		if m.Method == "textDocument/publishDiagnostics" {
			diags[m.Params.URI] = m.Params.Diagnostics
		}
	}
	return diags
}

func pageURI(root, name string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, name))}).String()
}

// A page of n links, each with a failed md5 check: the shape that made
// the diagnostics of 80,000 links take minutes (each problem looked for its
// link from the page's first). Twice the links are at most about twice
// the links looked at, and each diagnostic is on its own link's
// destination.
func TestDiagnosticsLinearInLinks(t *testing.T) {
	const dest = "a.txt#line=0,1;md5=00000000000000000000000000000000"
	visits := func(n int) int64 {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		for i := range n {
			fmt.Fprintf(&page, "See [quote %d](%s).\n", i, dest)
		}
		uri := pageURI(root, "page.md")
		before := locateVisits.Load()
		diags := session(t, root, func(msg func(string, any)) {
			msg("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": page.String()}})
		})[uri]
		if len(diags) != n {
			t.Fatalf("%d links: %d diagnostics", n, len(diags))
		}
		col := len(fmt.Sprintf("See [quote %d](", n-1))
		last := diags[n-1].Range
		if last.Start.Line != n-1 || last.Start.Character != col || last.End.Character != col+len(dest) {
			t.Errorf("%d links: the last diagnostic is at %+v, want line %d, characters %d–%d", n, last, n-1, col, col+len(dest))
		}
		for i, d := range diags {
			if d.Range.Start.Line != i {
				t.Fatalf("%d links: diagnostic %d is on line %d", n, i, d.Range.Start.Line)
			}
		}
		return locateVisits.Load() - before
	}
	small, large := visits(2000), visits(4000)
	if small <= 0 || float64(large) > 2.2*float64(small) {
		t.Errorf("2,000 links: %d links looked at; 4,000: %d (more than 2.2 times)", small, large)
	}
}

// Thousands of incremental changes to a large page, in many didChange
// messages, are applied at the cost of what they touch (lineWork, the same
// for a page twice as large), and the page checked after them is the text
// they make: the link the last change writes is reported where it is.
func TestDidChangeCostOfTheChange(t *testing.T) {
	run := func(lines int) int64 {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		page := strings.Repeat("Some words, 😀, and more words in a line.\n", lines)
		uri := pageURI(root, "page.md")
		const changes = 2000
		before := lineWork.Load()
		diags := session(t, root, func(msg func(string, any)) {
			msg("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": page}})
			// In didChange messages of 100 changes each.
			for m := range changes / 100 {
				var cs []any
				for i := m * 100; i < (m+1)*100; i++ {
					// Insert "x" after the emoji (UTF-16: 2 units) of a
					// line spread over the page, or break a line there.
					line := i * 7919 % lines
					text := "x"
					if i%10 == 0 {
						text = "\r\n"
					}
					cs = append(cs, map[string]any{"range": Range{Start: Position{Line: line, Character: 14}, End: Position{Line: line, Character: 14}}, "text": text})
				}
				msg("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": m + 2}, "contentChanges": cs})
			}
			msg("textDocument/didChange", map[string]any{
				"textDocument": map[string]any{"uri": uri, "version": changes + 2},
				"contentChanges": []any{map[string]any{"range": Range{Start: Position{Line: 100, Character: 3}, End: Position{Line: 100, Character: 5}},
					"text": "[q](a.txt#line=0,1;md5=00000000000000000000000000000000)"}},
			})
		})[uri]
		work := lineWork.Load() - before
		if len(diags) != 1 || diags[0].Range.Start != (Position{Line: 100, Character: 7}) {
			t.Fatalf("%d lines: diagnostics %+v, want one at line 100, character 7", lines, diags)
		}
		return work
	}
	small, large := run(12500), run(25000) // 0.5 and 1 MB
	if float64(large) > 1.3*float64(small) {
		t.Errorf("2,000 changes: %d nodes and bytes visited in a 0.5 MB page, %d in 1 MB (more than 1.3 times)", small, large)
	}
}
