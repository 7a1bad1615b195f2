package main

import (
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
)

// While some pages fail, serve keeps serving the pages that build; each
// failing page shows its own errors (not the others'), with the list of
// the pages that fail; /_textfrag/failures.html lists them all with their
// errors; a fixed site lists none.
func TestServePerPageErrors(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml":     "",
		"src/a.txt":         "alpha\n",
		"docs/index.md":     "# Home\n\n[a](../src/a.txt#line=,1)\n",
		"docs/one.md":       "# One\n\n[gone](../src/missing.txt#line=,1)\n",
		"docs/sub/two.md":   "# Two\n\n[past](../../src/a.txt#line=5,9;length=99)\n",
		"docs/fine/ok.md":   "# Fine\n",
		"docs/_drafts/x.md": "# Draft\n",
	})
	lf := linkFlags{root: dir}
	s := newServer(filepath.Join(dir, "docs"), &lf, style.CSS(), io.Discard)
	s.watching = s.snapshot(nil)
	s.update(nil)
	ts := httptest.NewServer(s.handler())
	defer ts.Close()

	for _, ok := range []string{"/", "/index.html", "/fine/ok.html"} {
		if code, body := serveGet(t, ts.URL+ok); code != 200 || strings.Contains(body, "does not build") {
			t.Errorf("GET %s, a page that builds: %d\n%s", ok, code, body)
		}
	}
	code, body := serveGet(t, ts.URL+"/one.html")
	if code != 500 || !strings.Contains(body, "<h1>one.md does not build</h1>") || !strings.Contains(body, "one.md:3:1: error: ../src/missing.txt#line=,1:") {
		t.Fatalf("GET /one.html: %d\n%s", code, body)
	}
	if strings.Contains(body, "two.md:3:1") {
		t.Errorf("one.html shows another page's error:\n%s", body)
	}
	for _, want := range []string{`<a href="/one.html">one.md</a>`, `<a href="/sub/two.html">sub/two.md</a>`, `<a href="/_textfrag/failures.html">`, eventsPath + "?v="} {
		if !strings.Contains(body, want) {
			t.Errorf("GET /one.html lacks %q:\n%s", want, body)
		}
	}
	code, body = serveGet(t, ts.URL+"/sub/two.html")
	if code != 500 || !strings.Contains(body, "sub/two.md:3:1: error:") || strings.Contains(body, "one.md:3:1") {
		t.Errorf("GET /sub/two.html: %d\n%s", code, body)
	}
	code, body = serveGet(t, ts.URL+"/_textfrag/failures.html")
	if code != 200 || !strings.Contains(body, "one.md:3:1: error:") || !strings.Contains(body, "sub/two.md:3:1: error:") || strings.Contains(body, "index.md") {
		t.Errorf("the index of failures: %d\n%s", code, body)
	}
	// "_" names stay out of the site: the index is no door to them.
	if code, _ := serveGet(t, ts.URL+"/_drafts/x.html"); code != 404 {
		t.Errorf("GET /_drafts/x.html: %d", code)
	}

	// Fixed: every page builds, and the index says so.
	serveWrite(t, filepath.Join(dir, "docs/one.md"), "# One\n")
	serveWrite(t, filepath.Join(dir, "docs/sub/two.md"), "# Two\n")
	s.update(nil)
	if code, body := serveGet(t, ts.URL+"/one.html"); code != 200 || strings.Contains(body, "does not build") {
		t.Errorf("GET /one.html once fixed: %d\n%s", code, body)
	}
	if _, body := serveGet(t, ts.URL+"/_textfrag/failures.html"); !strings.Contains(body, "<h1>Every page builds</h1>") {
		t.Errorf("the index once fixed:\n%s", body)
	}
}
