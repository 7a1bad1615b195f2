package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/textfrag/textfrag/internal/corpus"
	"github.com/textfrag/textfrag/internal/lsp"
)

// lspClient drives a language server in process with raw JSON-RPC
// messages, as an editor writes them.
type lspClient struct {
	t      testing.TB
	w      io.Writer
	msgs   chan map[string]any
	queue  []map[string]any // notifications and server requests read while waiting
	nextID int
	done   chan error
}

// startLSP runs textfrag lsp in dir (the project) with args, as an editor
// starts it, and returns a client for it. poll, if not zero, replaces the
// polling interval.
func startLSP(t testing.TB, dir string, poll time.Duration, args ...string) *lspClient {
	t.Helper()
	t.Chdir(dir)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &lspClient{t: t, w: inW, msgs: make(chan map[string]any, 100), done: make(chan error, 1)}
	e := &env{stdin: inR, stdout: outW, stderr: io.Discard}
	fset := flag.NewFlagSet("lsp", flag.ContinueOnError)
	lf := linkFlags{unpinned: true}
	lf.register(fset)
	if _, ok := e.parseFlags(fset, args); !ok {
		t.Fatal("lsp flags")
	}
	find := lspFinder(e, fset, &lf)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		c.done <- lsp.Serve(ctx, func(dir string) (lsp.Config, error) {
			cfg, err := find(dir)
			if poll != 0 {
				cfg.PollInterval = poll
			}
			return cfg, err
		}, inR, outW)
		outW.Close()
	}()
	go func() {
		r := bufio.NewReader(outR)
		for {
			var n int
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					close(c.msgs)
					return
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				close(c.msgs)
				return
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("server wrote a message that is not JSON: %q", body)
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { cancel(); inW.Close() })
	return c
}

// send writes one message.
func (c *lspClient) send(m map[string]any) {
	c.t.Helper()
	m["jsonrpc"] = "2.0"
	body, _ := json.Marshal(m)
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

func (c *lspClient) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"method": method, "params": params})
}

// next returns the next message, failing after a timeout.
func (c *lspClient) next() map[string]any {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		return m
	case <-time.After(10 * time.Second):
		c.t.Fatal("no message from the server within 10s")
	}
	return nil
}

// call sends a request and returns its response.
func (c *lspClient) call(method string, params any) map[string]any {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		m := c.next()
		if _, isResp := m["method"]; !isResp && m["id"] == float64(id) {
			return m
		}
		c.queue = append(c.queue, m)
	}
}

// result calls and returns the result, failing on an error response.
func (c *lspClient) result(method string, params any, v any) {
	c.t.Helper()
	m := c.call(method, params)
	if m["error"] != nil {
		c.t.Fatalf("%s: %v", method, m["error"])
	}
	b, _ := json.Marshal(m["result"])
	if err := json.Unmarshal(b, v); err != nil {
		c.t.Fatalf("%s: %v in %s", method, err, b)
	}
}

// notification returns the next notification (or server request) of method.
func (c *lspClient) notification(method string) map[string]any {
	c.t.Helper()
	for i, m := range c.queue {
		if m["method"] == method {
			c.queue = append(c.queue[:i], c.queue[i+1:]...)
			return m
		}
	}
	for {
		m := c.next()
		if m["method"] == method {
			return m
		}
		c.queue = append(c.queue, m)
	}
}

// diagnostics returns the next diagnostics published for uri.
func (c *lspClient) diagnostics(uri string) []lspDiag {
	c.t.Helper()
	for {
		m := c.notification("textDocument/publishDiagnostics")
		b, _ := json.Marshal(m["params"])
		var p struct {
			URI         string    `json:"uri"`
			Diagnostics []lspDiag `json:"diagnostics"`
		}
		json.Unmarshal(b, &p)
		if p.URI == uri {
			return p.Diagnostics
		}
	}
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}
type lspRange struct {
	Start lspPos `json:"start"`
	End   lspPos `json:"end"`
}
type lspDiag struct {
	Range    lspRange `json:"range"`
	Severity int      `json:"severity"`
	Code     string   `json:"code"`
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}
type lspLocation struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

// initialize runs the handshake; utf8 offers the UTF-8 position encoding,
// watch dynamic registration of file watching.
func (c *lspClient) initialize(utf8, watch bool) map[string]any {
	c.t.Helper()
	general := map[string]any{}
	if utf8 {
		general["positionEncodings"] = []string{"utf-8", "utf-16"}
	}
	var res map[string]any
	c.result("initialize", map[string]any{
		"processId": nil, "rootUri": nil,
		"capabilities": map[string]any{
			"general":   general,
			"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": watch}},
		},
	}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

func (c *lspClient) open(path, lang string) string {
	c.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": string(b)}})
	return uri
}

func (c *lspClient) shutdown() {
	c.t.Helper()
	c.result("shutdown", nil, new(any))
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("after shutdown and exit, Serve returned %v", err)
		}
	case <-time.After(5 * time.Second):
		c.t.Error("the server did not stop after exit")
	}
}

// utf16Len counts s in UTF-16 code units, as an editor does.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

const lspSource = "package a\n// 日本語 😀 emoji\nfunc A() {}\n"

// lspProject writes a project: src/a.go, and docs/page.md whose one link
// (after CJK and an emoji on its line) has a stale md5.
func lspProject(t *testing.T) (root, prefix, dest string) {
	root = t.TempDir()
	prefix = "日本語 😀 see [a](" // what stands before the destination on its line
	dest = "../src/a.go#line=1,2;md5=00000000000000000000000000000000"
	e2eWrite(t, root, map[string]string{
		"textfrag.toml": "",
		"src/a.go":      lspSource,
		"src/.env":      "TOKEN=1\n",
		"docs/page.md":  "# Page\n\n" + prefix + dest + ") and more\n",
	})
	return root, prefix, dest
}

// Diagnostics are check's problems, with the range of the link destination
// in UTF-16 code units (emoji and CJK before it on its line), unless the
// client offers UTF-8.
func TestLSPDiagnostics(t *testing.T) {
	for _, utf8 := range []bool{false, true} {
		t.Run(fmt.Sprintf("utf8=%v", utf8), func(t *testing.T) {
			root, prefix, dest := lspProject(t)
			t.Chdir(root)
			checkOut, _, _ := runIn(t, "check", "--format", "json", "docs")
			var want []checkRecord
			if err := json.Unmarshal([]byte(checkOut), &want); err != nil || len(want) != 1 {
				t.Fatalf("check: %v %q", err, checkOut)
			}

			c := startLSP(t, root, 0)
			res := c.initialize(utf8, false)
			wantEnc := "utf-16"
			if utf8 {
				wantEnc = "utf-8"
			}
			if enc := res["capabilities"].(map[string]any)["positionEncoding"]; enc != wantEnc {
				t.Errorf("positionEncoding %v, want %s", enc, wantEnc)
			}
			uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
			diags := c.diagnostics(uri)
			if len(diags) != 1 {
				t.Fatalf("diagnostics %+v, want one", diags)
			}
			d := diags[0]
			start := utf16Len(prefix)
			end := start + utf16Len(dest)
			if utf8 {
				start, end = len(prefix), len(prefix)+len(dest)
			}
			wantRange := lspRange{lspPos{2, start}, lspPos{2, end}}
			if d.Range != wantRange || d.Severity != 1 || d.Source != "textfrag" || d.Code != "integrity" || d.Message != want[0].Message {
				t.Errorf("diagnostic %+v,\nwant range %+v, severity 1, source textfrag, code integrity, message %q", d, wantRange, want[0].Message)
			}
			c.shutdown()
		})
	}
}

// As you type: an incremental edit with UTF-16 columns fixes the md5,
// and the warning that the link is unpinned goes when md5= is back.
func TestLSPDidChange(t *testing.T) {
	root, prefix, dest := lspProject(t)
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	c.diagnostics(uri)

	md5At := utf16Len(prefix) + utf16Len(strings.TrimSuffix(dest, "00000000000000000000000000000000"))
	edit := func(version int, from, to int, text string) {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"range": lspRange{lspPos{2, from}, lspPos{2, to}}, "text": text}},
		})
	}
	// Remove ";md5=…": unpinned, a warning.
	edit(2, md5At-len(";md5="), md5At+32, "")
	diags := c.diagnostics(uri)
	if len(diags) != 1 || diags[0].Severity != 2 || diags[0].Code != "unpinned" {
		t.Fatalf("after removing md5: %+v, want one unpinned warning", diags)
	}
	// Put the right one back.
	edit(3, md5At-len(";md5="), md5At-len(";md5="), ";md5="+e2eMD5(lspSource))
	if diags := c.diagnostics(uri); len(diags) != 0 {
		t.Fatalf("after pinning: %+v, want none", diags)
	}
	// A whole-document change.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 4},
		"contentChanges": []any{map[string]any{"text": "[x](../src/gone.go#line=1,2)\n"}},
	})
	if diags := c.diagnostics(uri); len(diags) != 1 || diags[0].Code != "missing" || diags[0].Range != (lspRange{lspPos{0, 4}, lspPos{0, 27}}) {
		t.Fatalf("after replacing the text: %+v, want one missing file at 0:4-0:27", diags)
	}
	c.shutdown()
}

// A quoted file changed in an open editor buffer, or on disk, refreshes
// the diagnostics of the pages that quote it: through the client's file
// watching when it offers it, else by polling.
func TestLSPQuotedFileChanges(t *testing.T) {
	for _, mode := range []string{"watch", "poll", "refused"} {
		t.Run(mode, func(t *testing.T) {
			watch := mode == "watch"
			root, _, _ := lspProject(t)
			page := filepath.Join(root, "docs/page.md")
			src := filepath.Join(root, "src/a.go")
			e2eWrite(t, root, map[string]string{"docs/page.md": "[a](../src/a.go#line=1,2;md5=" + e2eMD5(lspSource) + ")\n"})
			c := startLSP(t, root, 50*time.Millisecond)
			c.initialize(false, mode != "poll")
			if mode != "poll" {
				reg := c.notification("client/registerCapability")
				if !strings.Contains(fmt.Sprint(reg["params"]), "workspace/didChangeWatchedFiles") {
					t.Errorf("registration %v", reg)
				}
				if mode == "refused" {
					c.send(map[string]any{"id": reg["id"], "error": map[string]any{"code": -32601, "message": "no"}})
				}
			}
			uri := c.open(page, "markdown")
			if diags := c.diagnostics(uri); len(diags) != 0 {
				t.Fatalf("pinned link: %+v", diags)
			}
			// In the editor, unsaved.
			srcURI := c.open(src, "go")
			if diags := c.diagnostics(uri); len(diags) != 0 { // the buffer is the file
				t.Fatalf("after opening the quoted file: %+v", diags)
			}
			c.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": srcURI, "version": 2},
				"contentChanges": []any{map[string]any{"range": lspRange{lspPos{0, 0}, lspPos{0, 0}}, "text": "// new\n"}},
			})
			if diags := c.diagnostics(uri); len(diags) != 1 || diags[0].Code != "integrity" {
				t.Fatalf("after editing the quoted file: %+v, want an integrity error", diags)
			}
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": srcURI}})
			if diags := c.diagnostics(uri); len(diags) != 0 {
				t.Fatalf("after closing it unsaved: %+v, want none", diags)
			}
			// On disk.
			time.Sleep(20 * time.Millisecond)
			e2eWrite(t, root, map[string]string{"src/a.go": lspSource + "// more\n"})
			if watch {
				c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": srcURI, "type": 2}}})
			}
			if diags := c.diagnostics(uri); len(diags) != 1 || diags[0].Code != "integrity" {
				t.Fatalf("after changing the quoted file on disk: %+v, want an integrity error", diags)
			}
			c.shutdown()
		})
	}
}

// Hover shows the quoted lines in a fence with the human range and the
// integrity status; definition goes to the exact range, in UTF-16.
func TestLSPHoverDefinitionLinks(t *testing.T) {
	root, prefix, _ := lspProject(t)
	pinned := "../src/a.go#line=1,2;md5=" + e2eMD5(lspSource)
	chars := "../src/a.go#char=19,24" // "emoji" on line 2, after CJK and an emoji
	e2eWrite(t, root, map[string]string{"docs/page.md": prefix + pinned + ")\n\n[c](" + chars + ")\n"})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	c.diagnostics(uri)
	at := lspPos{0, utf16Len(prefix) + 3}

	var hover struct {
		Contents struct{ Kind, Value string }
		Range    lspRange
	}
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": at}, &hover)
	for _, want := range []string{"src/a.go", "line 2 of 3", "md5 matches", "```go\n// 日本語 😀 emoji\n```"} {
		if !strings.Contains(hover.Contents.Value, want) {
			t.Errorf("hover %q lacks %q", hover.Contents.Value, want)
		}
	}
	if hover.Contents.Kind != "markdown" || hover.Range.Start.Character != utf16Len(prefix) {
		t.Errorf("hover kind %q range %+v", hover.Contents.Kind, hover.Range)
	}

	srcURI := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, "src/a.go"))}).String()
	var locs []lspLocation
	c.result("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": at}, &locs)
	if want := (lspLocation{srcURI, lspRange{lspPos{1, 0}, lspPos{2, 0}}}); len(locs) != 1 || locs[0] != want {
		t.Errorf("definition %+v, want %+v", locs, want)
	}
	// "emoji": code points 20 to 24 of the file; on its line after
	// "// 日本語 😀 " (UTF-16: 3 + 3 + 1 + 2 + 1 units).
	c.result("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{2, 5}}, &locs)
	col := utf16Len("// 日本語 😀 ")
	if want := (lspLocation{srcURI, lspRange{lspPos{1, col}, lspPos{1, col + 5}}}); len(locs) != 1 || locs[0] != want {
		t.Errorf("char definition %+v, want %+v", locs, want)
	}

	var links []struct {
		Range  lspRange
		Target string
	}
	c.result("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": uri}}, &links)
	if len(links) != 2 || links[0].Target != srcURI || links[0].Range != (lspRange{lspPos{0, utf16Len(prefix)}, lspPos{0, utf16Len(prefix + pinned)}}) {
		t.Errorf("document links %+v", links)
	}
	// A secret is never shown, whatever the link says.
	secret := "[s](../src/.env#line=0,1)\n"
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": secret}},
	})
	if d := c.diagnostics(uri); len(d) != 1 || d[0].Code != "outside" {
		t.Errorf("secret: diagnostics %+v", d)
	}
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{0, 6}}, &hover)
	if strings.Contains(hover.Contents.Value, "TOKEN") || !strings.Contains(hover.Contents.Value, "secret") {
		t.Errorf("secret: hover %q", hover.Contents.Value)
	}
	locs = nil
	c.result("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{0, 6}}, &locs)
	if len(locs) != 0 {
		t.Errorf("secret: definition %+v", locs)
	}
	c.shutdown()
}

// References from a source line find the page links that quote it.
func TestLSPReferences(t *testing.T) {
	root, _, _ := lspProject(t)
	e2eWrite(t, root, map[string]string{
		"docs/page.md":  "[a](../src/a.go#line=1,2)\n[b](../src/a.go#line=2,3)\n",
		"docs/other.md": "x [c](/src/a.go#line=0,3)\n",
	})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	srcURI := c.open(filepath.Join(root, "src/a.go"), "go")
	var locs []lspLocation
	c.result("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": srcURI}, "position": lspPos{1, 3}, "context": map[string]any{"includeDeclaration": false}}, &locs)
	var got []string
	for _, l := range locs {
		got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(l.URI), l.Range.Start.Line, l.Range.Start.Character))
	}
	if want := "other.md:0:6 page.md:0:4"; strings.Join(got, " ") != want {
		t.Errorf("references %v, want %s", got, want)
	}
	c.shutdown()
}

// Completion: paths after "](" relative to the page, never secrets nor
// outside the root; after "#line=", the whole file from its line count.
func TestLSPCompletion(t *testing.T) {
	root, _, _ := lspProject(t)
	e2eWrite(t, root, map[string]string{"docs/page.md": "[a](../src/\n[b](../src/a.go#line=\n[c](../../\n[d]: ../src/a.go#line=0,\n"})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	complete := func(line, char int) []string {
		var list struct {
			Items []struct {
				Label    string
				TextEdit struct {
					Range   lspRange
					NewText string
				}
			}
		}
		c.result("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{line, char}}, &list)
		var labels []string
		for _, it := range list.Items {
			labels = append(labels, it.Label+"="+it.TextEdit.NewText)
		}
		return labels
	}
	if got := complete(0, len("[a](../src/")); strings.Join(got, " ") != "a.go=a.go" {
		t.Errorf("paths: %v, want a.go only (no .env)", got)
	}
	e2eWrite(t, root, map[string]string{".git/config": "[core]\n", "a b.txt": "x\n"})
	if got := strings.Join(complete(0, len("[a](../")), " "); got != "a b.txt=a%20b.txt docs/=docs/ src/=src/ textfrag.toml=textfrag.toml" {
		t.Errorf("the root: %v, want its files and directories but .git, escaped", got)
	}
	if got := complete(1, len("[b](../src/a.go#line=")); strings.Join(got, " ") != "0,3=0,3" {
		t.Errorf("line=: %v, want 0,3", got)
	}
	if got := complete(2, len("[c](../../")); len(got) != 0 {
		t.Errorf("outside the root: %v, want nothing", got)
	}
	if got := complete(3, len("[d]: ../src/a.go#line=0,")); strings.Join(got, " ") != "0,3=0,3 3=3" {
		t.Errorf("in a definition, after line=0,: %v, want 0,3 and 3", got)
	}
	c.shutdown()
}

// Malformed input never stops the server: a body that is not JSON is
// answered with a parse error, an unknown method with MethodNotFound.
func TestLSPBadInput(t *testing.T) {
	root, _, _ := lspProject(t)
	c := startLSP(t, root, 0)
	fmt.Fprintf(c.w, "Content-Length: 5\r\n\r\n{oops")
	if m := c.next(); m["error"] == nil || m["error"].(map[string]any)["code"] != float64(-32700) {
		t.Errorf("not JSON: %v", m)
	}
	if m := c.call("textDocument/hover", map[string]any{}); m["error"].(map[string]any)["code"] != float64(-32002) {
		t.Errorf("before initialize: %v", m)
	}
	c.initialize(false, false)
	if m := c.call("textfrag/nothing", nil); m["error"].(map[string]any)["code"] != float64(-32601) {
		t.Errorf("unknown method: %v", m)
	}
	if m := c.call("textDocument/hover", "not an object"); m["error"].(map[string]any)["code"] != float64(-32602) {
		t.Errorf("bad params: %v", m)
	}
	c.shutdown()
}

// lspGit runs git in dir with a throwaway identity and configuration.
func lspGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=LSP Test", "-c", "user.email=lsp@example.com", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// applyEdits applies a code action's edits of uri to text (UTF-16
// positions, as an editor does).
func applyEdits(t *testing.T, text, uri string, action map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(action["edit"])
	var edit struct {
		Changes map[string][]struct {
			Range   lspRange
			NewText string
		}
	}
	json.Unmarshal(b, &edit)
	edits := edit.Changes[uri]
	if len(edits) == 0 {
		t.Fatalf("action %v has no edit of %s", action, uri)
	}
	lines := strings.SplitAfter(text, "\n")
	offset := func(p lspPos) int {
		n := 0
		for _, l := range lines[:p.Line] {
			n += len(l)
		}
		u := utf16.Encode([]rune(lines[p.Line]))
		return n + len(string(utf16.Decode(u[:p.Character])))
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		text = text[:offset(e.Range.Start)] + e.NewText + text[offset(e.Range.End):]
	}
	return text
}

// lspQuickFix commits files in a new repository, writes changed over
// them, and opens docs/page.md in a server started there: the page must
// have one diagnostic, whose code actions it returns.
func lspQuickFix(t *testing.T, files, changed map[string]string) (cl *lspClient, uri string, actions []map[string]any) {
	t.Helper()
	root := t.TempDir()
	e2eWrite(t, root, files)
	lspGit(t, root, "init", "-q")
	lspGit(t, root, "add", "-A")
	lspGit(t, root, "commit", "-q", "-m", "first")
	if changed != nil {
		e2eWrite(t, root, changed)
	}
	cl = startLSP(t, root, 0)
	cl.initialize(false, false)
	uri = cl.open(filepath.Join(root, "docs/page.md"), "markdown")
	diags := cl.diagnostics(uri)
	if len(diags) != 1 {
		t.Fatalf("diagnostics %+v, want one", diags)
	}
	cl.result("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri}, "range": diags[0].Range,
		"context": map[string]any{"diagnostics": diags},
	}, &actions)
	return cl, uri, actions
}

// applyFix applies action to page (the text of uri), wants the result,
// sends it to the server and wants no diagnostics then; it shuts the
// server down.
func (c *lspClient) applyFix(t *testing.T, page, uri string, action map[string]any, want string) {
	t.Helper()
	got := applyEdits(t, page, uri, action)
	if got != want {
		t.Fatalf("applied: %q, want %q", got, want)
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": got}},
	})
	if diags := c.diagnostics(uri); len(diags) != 0 {
		t.Errorf("after the action: %+v", diags)
	}
	c.shutdown()
}

// Code actions are pin's: add the md5 of an unpinned link, move a range
// whose text moved (through git history), re-pin a changed quote after
// review. Applied, each leaves the page without diagnostics.
func TestLSPCodeActions(t *testing.T) {
	src := "package a\n\nfunc A() {}\n\nfunc B() {}\n"
	for _, c := range []struct {
		name, dest, changed, title, wantDest string
	}{
		{"pin", "../src/a.go#line=2,3", "", "Pin: add md5=", "../src/a.go#line=2,3;md5=" + e2eMD5(src)},
		{"relocate", "../src/a.go#line=2,3;md5=" + e2eMD5(src), "// one\n// two\n" + src, "Relocate the moved text", "../src/a.go#line=4,5;md5=" + e2eMD5("// one\n// two\n"+src)},
		{"re-pin", "../src/a.go#line=2,3;md5=" + e2eMD5(src), strings.Replace(src, "func A() {}", "func A() { return }", 1), "Re-pin the changed quote (review the change first)", "../src/a.go#line=2,3;md5=" + e2eMD5(strings.Replace(src, "func A() {}", "func A() { return }", 1))},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := "日本 😀 [a](" + c.dest + ")\n"
			var changed map[string]string
			if c.changed != "" {
				changed = map[string]string{"src/a.go": c.changed}
			}
			cl, uri, actions := lspQuickFix(t, map[string]string{"src/a.go": src, "docs/page.md": page}, changed)
			if len(actions) != 2 || actions[1]["kind"] != "refactor.rewrite" || actions[1]["diagnostics"] != nil {
				t.Errorf("actions %v, want a quick fix and the box action (without diagnostics)", actions)
			}
			if len(actions) < 1 || !strings.HasPrefix(actions[0]["title"].(string), c.title) || actions[0]["kind"] != "quickfix" {
				t.Fatalf("actions %v, want one titled %q", actions, c.title)
			}
			if c.name == "pin" && actions[0]["isPreferred"] == true {
				t.Errorf("pinning the lines as they read now is a preferred fix (a \"fix all\" would apply it unread): %v", actions[0])
			}
			cl.applyFix(t, page, uri, actions[0], "日本 😀 [a]("+c.wantDest+")\n")
		})
	}
}

// The language server is a front end: every case of the shared corpus,
// written into its page, gives the diagnostics check gives (severity and
// message, in order), each on the link's destination as written.
func TestLSPConformance(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, cs := range cases {
		t.Run(cs.Name, func(t *testing.T) {
			root := t.TempDir()
			if err := cs.Materialize(root); err != nil {
				t.Fatal(err)
			}
			doc := cs.Document()
			if cs.Markdown == "" {
				doc = conformanceDoc(cs) // the link alone, with the case's title (sym=, region=)
			}
			e2eWrite(t, root, map[string]string{cs.Doc: doc})
			flags := []string{"--root", root}
			globs := make([]string, 0, len(cs.Charsets))
			for g := range cs.Charsets {
				globs = append(globs, g)
			}
			sort.Strings(globs)
			for _, g := range globs {
				flags = append(flags, "--charset", g+"="+cs.Charsets[g])
			}
			t.Chdir(root)
			out, _, _ := runIn(t, append([]string{"check", "--format", "json", cs.Doc}, flags...)...)
			var want []checkRecord
			if err := json.Unmarshal([]byte(out), &want); err != nil {
				t.Fatalf("check: %v: %q", err, out)
			}

			c := startLSP(t, root, 0, flags...)
			c.initialize(false, false)
			uri := c.open(filepath.Join(root, filepath.FromSlash(cs.Doc)), "markdown")
			got := c.diagnostics(uri)
			if len(got) != len(want) {
				t.Fatalf("diagnostics %+v,\ncheck says %+v", got, want)
			}
			lines := strings.Split(doc, "\n")
			for i, d := range got {
				sev := map[int]string{1: "error", 2: "warning"}[d.Severity]
				if sev != want[i].Severity || d.Message != want[i].Message || d.Source != "textfrag" {
					t.Errorf("diagnostic %d: %s %q, check says %s %q", i, sev, d.Message, want[i].Severity, want[i].Message)
				}
				u := utf16.Encode([]rune(lines[d.Range.Start.Line]))
				if d.Range.End.Line != d.Range.Start.Line || d.Range.End.Character > len(u) {
					t.Errorf("diagnostic %d: range %+v in %q", i, d.Range, doc)
					continue
				}
				if on := string(utf16.Decode(u[d.Range.Start.Character:d.Range.End.Character])); on != want[i].Link {
					t.Errorf("diagnostic %d is on %q, not on the link %q", i, on, want[i].Link)
				}
			}
			c.shutdown()
		})
	}
}

// A Hugo page's textfrag shortcode is checked as check checks it, with the
// diagnostic on its path argument, and hover shows what it quotes.
func TestLSPShortcode(t *testing.T) {
	root, _, _ := lspProject(t)
	arg := "../src/a.go#line=1,2;md5=00000000000000000000000000000000"
	e2eWrite(t, root, map[string]string{"docs/page.md": "---\ntitle: T\n---\n\n{{< textfrag \"" + arg + "\" >}}\n"})
	t.Chdir(root)
	out, _, _ := runIn(t, "check", "--format", "json", "docs/page.md")
	var want []checkRecord
	if err := json.Unmarshal([]byte(out), &want); err != nil || len(want) != 1 {
		t.Fatalf("check: %v %q", err, out)
	}
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	uri := c.open(filepath.Join(root, "docs/page.md"), "markdown")
	start := len(`{{< textfrag "`)
	d := c.diagnostics(uri)
	if len(d) != 1 || d[0].Message != want[0].Message || d[0].Range != (lspRange{lspPos{4, start}, lspPos{4, start + len(arg)}}) {
		t.Fatalf("diagnostics %+v, want check's %+v on the argument", d, want)
	}
	var hover struct{ Contents struct{ Value string } }
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{4, start + 2}}, &hover)
	if !strings.Contains(hover.Contents.Value, "```go\n// 日本語 😀 emoji\n```") {
		t.Errorf("hover %q", hover.Contents.Value)
	}
	c.shutdown()
}

// Clients that are told to use standard input and output add --stdio to the
// command (vscode-languageclient does): the server accepts it.
func TestLSPAcceptsStdioFlag(t *testing.T) {
	r := e2eRun(t, t.TempDir(), "lsp", "--stdio", "-h")
	if r.code != exitOK || !strings.Contains(r.stderr, "-stdio") {
		t.Fatalf("lsp --stdio -h: code %d\n%s", r.code, r.stderr)
	}
}

// The server looks for the project in the folder the editor opened, not
// in its working directory: the first workspace folder, else rootUri, else
// rootPath, else the working directory. A root that is not a local
// directory is refused at initialize, and nothing is served.
func TestLSPClientRoot(t *testing.T) {
	base := t.TempDir()
	project := filepath.Join(base, "project")
	other := filepath.Join(base, "other")
	// The page quotes /src/a.go from the project's root: only a server
	// rooted there finds it. other is a project of its own without it.
	e2eWrite(t, project, map[string]string{
		"textfrag.toml": "", "src/a.go": lspSource,
		"docs/page.md": "[a](/src/a.go#line=1,2;md5=" + e2eMD5(lspSource) + ")\n",
	})
	e2eWrite(t, other, map[string]string{"textfrag.toml": ""})
	cwd := filepath.Join(base, "elsewhere")
	e2eWrite(t, cwd, map[string]string{"textfrag.toml": ""})
	uriOf := func(dir string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String() }
	folders := func(dirs ...string) []any {
		var fs []any
		for _, d := range dirs {
			fs = append(fs, map[string]any{"uri": uriOf(d), "name": filepath.Base(d)})
		}
		return fs
	}
	notDir := filepath.Join(project, "src/a.go")
	for _, c := range []struct {
		name   string
		params map[string]any
		served bool   // the page's link resolves at the project's root
		refuse string // else the initialize error says this
	}{
		{"first workspace folder", map[string]any{"workspaceFolders": folders(project, other), "rootUri": uriOf(other), "rootPath": other}, true, ""},
		{"rootUri", map[string]any{"workspaceFolders": nil, "rootUri": uriOf(project), "rootPath": other}, true, ""},
		{"rootUri when folders are empty", map[string]any{"workspaceFolders": []any{}, "rootUri": uriOf(project)}, true, ""},
		{"rootPath", map[string]any{"rootUri": nil, "rootPath": project}, true, ""},
		{"a folder below the project", map[string]any{"rootUri": uriOf(filepath.Join(project, "docs"))}, true, ""},
		{"the working directory", map[string]any{"rootUri": nil}, false, ""},
		{"another scheme", map[string]any{"rootUri": "vscode-remote://ssh-remote+host" + filepath.ToSlash(project)}, false, "is not a local directory"},
		{"another host", map[string]any{"rootUri": "file://example.com" + filepath.ToSlash(project)}, false, "is not a local directory"},
		{"a relative rootPath", map[string]any{"rootPath": "project"}, false, "is not a local directory"},
		{"a missing folder", map[string]any{"workspaceFolders": folders(filepath.Join(base, "gone"))}, false, "is not a directory on this machine"},
		{"a file", map[string]any{"rootUri": uriOf(notDir)}, false, "is not a directory on this machine"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := startLSP(t, cwd, -1)
			params := map[string]any{"processId": nil, "capabilities": map[string]any{}}
			maps.Copy(params, c.params)
			resp := cl.call("initialize", params)
			if c.refuse != "" {
				msg, _ := resp["error"].(map[string]any)["message"].(string)
				if resp["result"] != nil || !strings.Contains(msg, c.refuse) {
					t.Fatalf("initialize: %v, want an error saying %q", resp, c.refuse)
				}
				// Nothing is served until an initialize succeeds.
				if r := cl.call("textDocument/hover", map[string]any{}); r["error"] == nil {
					t.Errorf("hover after a refused initialize: %v, want an error", r)
				}
				return
			}
			if resp["error"] != nil {
				t.Fatalf("initialize: %v", resp["error"])
			}
			cl.notify("initialized", map[string]any{})
			uri := cl.open(filepath.Join(project, "docs/page.md"), "markdown")
			diags := cl.diagnostics(uri)
			if c.served && len(diags) != 0 {
				t.Errorf("diagnostics %+v, want none: the link resolves at the project's root", diags)
			}
			if !c.served && len(diags) == 0 {
				t.Errorf("no diagnostics: the server looked in %s, want the working directory %s (where /src/a.go is not)", project, cwd)
			}
			cl.shutdown()
		})
	}
}

// References look for pages in the project the client opened, not in the
// directory the editor started the server in (Neovim starts it in its own
// working directory): from an unrelated directory that holds a page of
// its own, the project's pages on disk are found, and that page is not.
func TestLSPReferencesFromElsewhere(t *testing.T) {
	base := t.TempDir()
	project, elsewhere := filepath.Join(base, "project"), filepath.Join(base, "elsewhere")
	e2eWrite(t, project, map[string]string{
		"textfrag.toml": "", "src/a.go": lspSource,
		"docs/guide.md": "# Guide\n\n[a](../src/a.go#line=1,2)\n",
	})
	e2eWrite(t, elsewhere, map[string]string{"notes.md": "[x](/src/a.go#line=0,3)\n"})
	c := startLSP(t, elsewhere, -1)
	var res map[string]any
	c.result("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{},
		"rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(project)}).String()}, &res)
	c.notify("initialized", map[string]any{})
	srcURI := c.open(filepath.Join(project, "src/a.go"), "go")
	var locs []lspLocation
	c.result("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": srcURI}, "position": lspPos{1, 0}}, &locs)
	var got []string
	for _, l := range locs {
		got = append(got, fmt.Sprintf("%s:%d", strings.TrimPrefix(l.URI, "file://"+filepath.ToSlash(base)+"/"), l.Range.Start.Line))
	}
	if want := "project/docs/guide.md:2"; strings.Join(got, " ") != want {
		t.Errorf("references %v, want %s", got, want)
	}
	c.shutdown()
}

// A quote pin cannot re-pin (gone: no version has its md5) gets no pin
// action, only the box action; a moved one's action also moves its hl=
// and the caption textfrag link wrote.
func TestLSPCodeActionsNeverPinGone(t *testing.T) {
	src := "package a\n\nfunc A() {}\n\nfunc B() {}\n"
	page := "[a](../src/a.go#line=2,3;md5=00000000000000000000000000000000)\n"
	cl, _, actions := lspQuickFix(t, map[string]string{"src/a.go": src, "docs/page.md": page}, nil)
	for _, a := range actions {
		if a["kind"] == "quickfix" {
			t.Errorf("a gone quote is offered %v", a["title"])
		}
	}
	cl.shutdown()

	page = "[a.go line 3](../src/a.go#line=2,3;md5=" + e2eMD5(src) + " \"hl=3\")\n"
	moved := "// one\n// two\n" + src
	cl, uri, actions := lspQuickFix(t, map[string]string{"src/a.go": src, "docs/page.md": page}, map[string]string{"src/a.go": moved})
	if len(actions) < 1 || !strings.HasPrefix(actions[0]["title"].(string), "Relocate the moved text") {
		t.Fatalf("actions %v", actions)
	}
	cl.applyFix(t, page, uri, actions[0], "[a.go line 5](../src/a.go#line=4,5;md5="+e2eMD5(moved)+" \"hl=5\")\n")
}
