package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
)

// serveGet fetches url and returns the status and body.
func serveGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// serveEvents opens the event stream and sends the name of each event.
func serveEvents(t *testing.T, ctx context.Context, url string) <-chan string {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: Content-Type %q", ct)
	}
	events := make(chan string, 16)
	go func() {
		defer resp.Body.Close()
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				events <- name
			}
		}
	}()
	return events
}

// waitEvent waits (boundedly) for the next event and checks its name.
func waitEvent(t *testing.T, events <-chan string, want string) {
	t.Helper()
	select {
	case got, ok := <-events:
		if !ok || got != want {
			t.Fatalf("event %q (stream open: %v), want %q", got, ok, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no %q event within 10s", want)
	}
}

// noEvent checks that no event arrives for a while.
func noEvent(t *testing.T, events <-chan string, d time.Duration) {
	t.Helper()
	select {
	case got := <-events:
		t.Fatalf("unexpected event %q", got)
	case <-time.After(d):
	}
}

// serveWrite replaces a file in one step (written aside, then renamed into
// place), with a modification time distinct from any before it, so that
// polling sees exactly one change, even on coarse clocks.
func serveWrite(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(t.TempDir(), "new")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	stampTime = stampTime.Add(time.Second)
	if err := os.Chtimes(tmp, stampTime, stampTime); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}

var stampTime = time.Now()

func TestServeRebuildsDependentPagesAndReloads(t *testing.T) {
	dir := t.TempDir()
	serveWrite(t, filepath.Join(dir, "index.md"), "# Home\n\n[quoted](src/a.txt#line=,1)\n")
	serveWrite(t, filepath.Join(dir, "other.md"), "# Other\n\nNo quotes here.\n")
	serveWrite(t, filepath.Join(dir, "src/a.txt"), "alpha\n")

	var lf linkFlags
	s := newServer(dir, &lf, style.CSS(), io.Discard)
	s.watching = s.snapshot(nil)
	s.update(nil)
	ts := httptest.NewServer(s.handler())
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	code, body := serveGet(t, ts.URL+"/")
	if code != 200 || !strings.Contains(body, "alpha") || !strings.Contains(body, eventsPath+"?v=1") {
		t.Fatalf("GET /: %d\n%s", code, body)
	}
	if code, css := serveGet(t, ts.URL+"/textfrag.css"); code != 200 || css != string(style.CSS()) {
		t.Errorf("GET /textfrag.css: %d", code)
	}
	if code, _ := serveGet(t, ts.URL+"/src/a.txt"); code != 200 {
		t.Errorf("GET /src/a.txt: %d", code)
	}
	for _, hidden := range []string{"/_layout.html", "/.git/config", "/nothing.html"} {
		if code, _ := serveGet(t, ts.URL+hidden); code != 404 {
			t.Errorf("GET %s: %d, want 404", hidden, code)
		}
	}

	// A page loaded at an older version reloads at once.
	stale := serveEvents(t, ctx, ts.URL+eventsPath+"?v=0")
	waitEvent(t, stale, "reload")

	events := serveEvents(t, ctx, ts.URL+eventsPath+"?v=1")
	go s.watch(ctx, 10*time.Millisecond)
	noEvent(t, events, 50*time.Millisecond) // nothing changed: no rebuild
	s.mu.RLock()
	other := s.pages["other.html"]
	s.mu.RUnlock()

	// The quoted file changes: its page is rebuilt, the other is not.
	serveWrite(t, filepath.Join(dir, "src/a.txt"), "omega\n")
	waitEvent(t, events, "reload")
	if _, body := serveGet(t, ts.URL+"/index.html"); !strings.Contains(body, "omega") || strings.Contains(body, "alpha") {
		t.Errorf("after the edit, index.html:\n%s", body)
	}
	s.mu.RLock()
	if s.pages["other.html"] != other {
		t.Errorf("other.html was rebuilt, though it quotes nothing that changed")
	}
	s.mu.RUnlock()

	// A broken link: that page shows its own error, escaped; the other
	// pages are served as they build; the server goes on.
	serveWrite(t, filepath.Join(dir, "index.md"), "# Home\n\n[quoted](src/a.txt#line=,1 \"<b>bold</b>\")\n")
	waitEvent(t, events, "reload")
	code, body = serveGet(t, ts.URL+"/index.html")
	if code != 500 || !strings.Contains(body, "index.md:3:1: error:") || !strings.Contains(body, "&lt;b&gt;bold&lt;/b&gt;") || strings.Contains(body, "<b>bold") {
		t.Errorf("error page: %d\n%s", code, body)
	}
	if code, other := serveGet(t, ts.URL+"/other.html"); code != 200 || strings.Contains(other, "error") {
		t.Errorf("other.html, which builds, while index.md fails: %d\n%s", code, other)
	}
	if !strings.Contains(body, eventsPath+"?v=") {
		t.Errorf("the error page does not reload")
	}

	// Fixed, and a new page: the site is back.
	serveWrite(t, filepath.Join(dir, "index.md"), "# Home\n\n[quoted](src/a.txt#line=,1)\n")
	serveWrite(t, filepath.Join(dir, "new.md"), "# New\n\n[q](src/a.txt#char=0,2 \"quote\") here.\n")
	waitEvent(t, events, "reload")
	for {
		// The two files may land in two polls; wait for both.
		if code, body = serveGet(t, ts.URL+"/new.html"); code == 200 {
			break
		}
		waitEvent(t, events, "reload")
	}
	if !strings.Contains(body, `<q class="textfrag-quote" cite="src/a.txt#char=0,2">om</q>`) {
		t.Errorf("new.html:\n%s", body)
	}
	if code, _ := serveGet(t, ts.URL+"/"); code != 200 {
		t.Errorf("GET / after the fix: %d", code)
	}
}

func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	serveWrite(t, filepath.Join(dir, "docs/index.md"), "# Home\n")
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:80", "192.168.1.1:8080", "nonsense"} {
		var stderr strings.Builder
		e := &env{stdout: io.Discard, stderr: &stderr}
		if code := e.serve(context.Background(), []string{"--addr", addr, dir}, nil); code != exitUsage {
			t.Errorf("serve --addr %s: code %d, want %d", addr, code, exitUsage)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan int, 1)
	e := &env{stdout: io.Discard, stderr: io.Discard}
	go func() {
		done <- e.serve(ctx, []string{filepath.Join(dir, "docs"), "--addr", "127.0.0.1:0"}, func(url string) { urls <- url })
	}()
	var url string
	select {
	case url = <-urls:
	case code := <-done:
		t.Fatalf("serve stopped: code %d", code)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	if code, body := serveGet(t, url); code != 200 || !strings.Contains(body, "<h1 id=\"home\">Home</h1>") {
		t.Errorf("GET %s: %d\n%s", url, code, body)
	}
	events := serveEvents(t, context.Background(), url+strings.TrimPrefix(eventsPath, "/"))
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("serve: code %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	for range events { // the stream ends with the server
	}
}

func TestCheckLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:8080": true, "127.0.0.2:1": true, "[::1]:8080": true, "localhost:0": true, "LOCALHOST:1": true,
		"0.0.0.0:8080": false, ":8080": false, "[::]:80": false, "10.0.0.1:80": false, "host:80": false, "127.0.0.1": false,
	} {
		if err := checkLoopback(addr); (err == nil) != ok {
			t.Errorf("checkLoopback(%q) = %v", addr, err)
		}
	}
}

// TestServeSourceLinks: a box quoting a file outside SRC links to
// _source/PATH, which serve answers with the file, as build copies it; a
// file no page quotes is not served there.
func TestServeSourceLinks(t *testing.T) {
	dir := t.TempDir()
	serveWrite(t, filepath.Join(dir, "docs", "index.md"), "# Home\n\n[quoted](../src/a.txt#line=,1)\n")
	serveWrite(t, filepath.Join(dir, "src", "a.txt"), "alpha\n")
	serveWrite(t, filepath.Join(dir, "src", "secret.txt"), "not quoted\n")

	lf := linkFlags{root: dir}
	s := newServer(filepath.Join(dir, "docs"), &lf, style.CSS(), io.Discard)
	s.watching = s.snapshot(nil)
	s.update(nil)
	ts := httptest.NewServer(s.handler())
	defer ts.Close()

	code, body := serveGet(t, ts.URL+"/")
	if code != 200 || !strings.Contains(body, `href="_source/src/a.txt#line=,1"`) {
		t.Fatalf("GET /: %d\n%s", code, body)
	}
	if code, body := serveGet(t, ts.URL+"/_source/src/a.txt"); code != 200 || body != "alpha\n" {
		t.Errorf("GET /_source/src/a.txt: %d %q", code, body)
	}
	for _, p := range []string{"/_source/src/secret.txt", "/_source/docs/index.md", "/_source/../src/a.txt", "/_source/"} {
		if code, _ := serveGet(t, ts.URL+p); code != 404 {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
}
