package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// slowMarkdown checks a page as slowly as a page that quotes a huge file.
type slowMarkdown struct{ goldmark.Markdown }

func (m slowMarkdown) Parser() parser.Parser { return slowParser{m.Markdown.Parser()} }

type slowParser struct{ parser.Parser }

func (p slowParser) Parse(r text.Reader, opts ...parser.ParseOption) ast.Node {
	time.Sleep(50 * time.Millisecond)
	return p.Parser.Parse(r, opts...)
}

// Edits that arrive while a check runs are checked once, after the last
// of them, not once each: typing in a page whose check takes seconds does
// not leave its diagnostics a check a keystroke behind. The diagnostics
// published last are those of the last version.
func TestEditsCheckedOnce(t *testing.T) {
	root := t.TempDir()
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, "page.md"))}).String()
	var in bytes.Buffer
	id := 0
	send := func(method string, params any, request bool) {
		m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if request {
			id++
			m["id"] = id
		}
		b, _ := json.Marshal(m)
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	send("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, true)
	send("initialized", map[string]any{}, false)
	send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": "# Page\n"}}, false)
	const edits = 10
	for v := 2; v < 2+edits; v++ {
		send("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{"range": Range{Start: Position{Line: 1}, End: Position{Line: 1}}, "text": "x"}},
		}, false)
	}
	send("shutdown", nil, true)
	send("exit", nil, false)

	find := func(string) (Config, error) {
		return Config{
			Root:         root,
			Resolver:     target.Options{Root: root},
			Markdown:     func(*target.Resolver) goldmark.Markdown { return slowMarkdown{goldmark.New()} },
			PollInterval: -1,
		}, nil
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := Serve(ctx, find, &in, &out); err != nil {
		t.Fatal(err)
	}
	var versions []int
	c := newConn(&out, io.Discard)
	for {
		body, err := c.read()
		if err != nil {
			break
		}
		var m struct {
			Method string
			Params publishDiagnosticsParams
		}
		json.Unmarshal(body, &m)
		if m.Method == "textDocument/publishDiagnostics" && m.Params.URI == uri {
			versions = append(versions, *m.Params.Version)
		}
	}
	if len(versions) == 0 || versions[len(versions)-1] != 1+edits || len(versions) > 3 {
		t.Errorf("diagnostics published for versions %v; want those of the open and of the last version, %d, not of each edit", versions, 1+edits)
	}
	if strings.Contains(out.String(), `"error"`) {
		t.Errorf("an error answer: %s", out.String())
	}
}
