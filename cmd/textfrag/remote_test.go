package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// remoteSite is a project whose page quotes a file on a local test server.
type remoteSite struct {
	t     *testing.T
	dir   string // the project root
	cache string // --cache-dir
	srv   *httptest.Server
	host  string

	mu       sync.Mutex
	body     string
	requests int
}

func newRemoteSite(t *testing.T, body string) *remoteSite {
	s := &remoteSite{t: t, dir: t.TempDir(), cache: t.TempDir(), body: body}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests++
		b := s.body
		s.mu.Unlock()
		if r.URL.Path != "/a.go" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, b)
	}))
	t.Cleanup(s.srv.Close)
	s.host = strings.TrimPrefix(s.srv.URL, "http://")
	return s
}

func (s *remoteSite) setBody(b string) {
	s.mu.Lock()
	s.body = b
	s.mu.Unlock()
}

func (s *remoteSite) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// page writes docs/page.md holding md, and returns its path.
func (s *remoteSite) page(md string) string {
	s.t.Helper()
	e2eWrite(s.t, s.dir, map[string]string{"docs/page.md": md})
	return filepath.Join(s.dir, "docs", "page.md")
}

// run runs textfrag in process, with --root the site's directory.
func (s *remoteSite) run(args ...string) (stdout, stderr string, code int) {
	return pinRunIn(append(args, "--root", s.dir)...)
}

const remoteSource = "package a\n\nfunc A() {}\n"

func TestRemoteCommands(t *testing.T) {
	s := newRemoteSite(t, remoteSource)
	link := s.srv.URL + "/a.go#line=2,3"
	page := s.page("# Page\n\n[A](" + link + ")\n")
	allow := []string{"--allow-host", s.host, "--cache-dir", s.cache}

	// Off by default: the link stays a link, and nothing is fetched.
	out, stderr, code := s.run("render", page)
	if code != 0 || !strings.Contains(out, `<a href="`+link+`">A</a>`) {
		t.Errorf("render without --allow-host: exit %d\n%s\n%s", code, out, stderr)
	}
	if s.count() != 0 {
		t.Fatalf("%d requests without --allow-host", s.count())
	}

	// Allowed: a box captioned with the URL.
	out, stderr, code = s.run(append([]string{"render", page}, allow...)...)
	if code != 0 || !strings.Contains(out, `>`+s.srv.URL+`/a.go</a>`) || !strings.Contains(out, `<span class="kd">func</span>`) {
		t.Errorf("render --allow-host: exit %d\n%s\n%s", code, out, stderr)
	}
	// check and build too; each run fetches (a 200 each time: no validators).
	if _, stderr, code = s.run(append([]string{"check", page}, allow...)...); code != 0 {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}
	if stderr, code = buildIn(t, false, append([]string{filepath.Join(s.dir, "docs"), "-o", filepath.Join(s.dir, "out"), "--root", s.dir}, allow...)...); code != 0 {
		t.Errorf("build: exit %d\n%s", code, stderr)
	}
	html, err := os.ReadFile(filepath.Join(s.dir, "out", "page.html"))
	if err != nil || !strings.Contains(string(html), `>`+s.srv.URL+`/a.go</a>`) {
		t.Errorf("build output: %v\n%s", err, html)
	}
	if out, stderr, code = s.run(append([]string{"resolve", link}, allow...)...); code != 0 || out != "func A() {}\n" {
		t.Errorf("resolve: exit %d, %q\n%s", code, out, stderr)
	}
	fetched := s.count()
	if fetched != 4 {
		t.Errorf("%d requests for 4 runs", fetched)
	}

	// Offline, from the cache the runs above filled.
	offline := append([]string{"--offline"}, allow...)
	if _, stderr, code = s.run(append([]string{"check", page}, offline...)...); code != 0 {
		t.Errorf("check --offline: exit %d\n%s", code, stderr)
	}
	if s.count() != fetched {
		t.Errorf("check --offline made %d requests", s.count()-fetched)
	}

	// pin adds the md5 of the fetched bytes, and check then verifies it.
	if _, stderr, code = s.run(append([]string{"pin", "--write", page}, allow...)...); code != 0 || !strings.Contains(stderr, "pinned") {
		t.Fatalf("pin --write: exit %d\n%s", code, stderr)
	}
	pinned := link + ";md5=" + md5hex(remoteSource)
	if got, _ := os.ReadFile(page); !strings.Contains(string(got), "[A]("+pinned+")") {
		t.Fatalf("pin wrote:\n%s", got)
	}
	if _, stderr, code = s.run(append([]string{"check", page}, allow...)...); code != 0 {
		t.Errorf("check after pin: exit %d\n%s", code, stderr)
	}

	// The remote file changes: check fails naming the URL; pin has no
	// history to tell whether the quote moved: review, never re-pinned by
	// --accept-changed; the remedy (read it, remove md5=, pin) works.
	changed := "package a\n\nfunc B() {}\n"
	s.setBody(changed)
	_, stderr, code = s.run(append([]string{"check", page}, allow...)...)
	if code != 1 || !strings.Contains(stderr, "md5 mismatch") || !strings.Contains(stderr, pinned) {
		t.Errorf("check after a change: exit %d\n%s", code, stderr)
	}
	_, stderr, code = s.run(append([]string{"pin", "--write", page}, allow...)...)
	if code != 1 || !strings.Contains(stderr, "review: "+s.srv.URL+"/a.go") || !strings.Contains(stderr, "remove the link's md5=") {
		t.Errorf("pin after a change: exit %d\n%s", code, stderr)
	}
	before, _ := os.ReadFile(page)
	if _, stderr, code = s.run(append([]string{"pin", "--write", "--accept-changed", page}, allow...)...); code != 1 {
		t.Errorf("pin --accept-changed: exit %d\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(page); string(got) != string(before) {
		t.Errorf("pin --accept-changed re-pinned a review quote:\n%s", got)
	}
	if err := os.WriteFile(page, []byte(strings.Replace(string(before), ";md5="+md5hex(remoteSource), "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code = s.run(append([]string{"pin", "--write", page}, allow...)...); code != 0 {
		t.Errorf("pin after the fix by hand: exit %d\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(page); !strings.Contains(string(got), link+";md5="+md5hex(changed)) {
		t.Errorf("pin after the fix by hand wrote:\n%s", got)
	}

	// An allowed host that fails, fails the command.
	s.page("[A](" + s.srv.URL + "/gone.go#line=1)\n")
	_, stderr, code = s.run(append([]string{"check", page}, allow...)...)
	if code != 1 || !strings.Contains(stderr, "404 Not Found") {
		t.Errorf("check of a 404: exit %d\n%s", code, stderr)
	}
}

func TestRemoteFlagsUsage(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.md")
	e2eWrite(t, dir, map[string]string{"page.md": "# P\n"})
	for _, args := range [][]string{
		{"check", page, "--offline"},
		{"check", page, "--allow-host", "https://example.org"},
		{"check", page, "--allow-host", "example.org", "--remote-timeout", "-1s"},
		{"render", page, "--allow-host", "*"},
		{"pin", page, "--offline"},
	} {
		if _, stderr, code := pinRunIn(args...); code == 0 {
			t.Errorf("%q: exit 0\n%s", args, stderr)
		}
	}
	_, stderr, code := pinRunIn("check", "-h")
	for _, flag := range []string{"-allow-host HOST", "-offline", "-remote-timeout DURATION", "-remote-max-bytes N", "-cache-dir DIR"} {
		if code != 0 || !strings.Contains(stderr, flag) {
			t.Errorf("check -h lacks %s:\n%s", flag, stderr)
		}
	}
}

// Without --cache-dir the cache is textfrag/http in the user cache directory.
func TestRemoteDefaultCacheDir(t *testing.T) {
	cacheHome := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cacheHome)
	t.Setenv("HOME", cacheHome) // for systems whose user cache directory is under HOME
	s := newRemoteSite(t, remoteSource)
	page := s.page("[A](" + s.srv.URL + "/a.go#line=,1)\n")
	if _, stderr, code := s.run("check", page, "--allow-host", s.host); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache directory:", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "textfrag", "http", "*.body"))
	if len(files) != 1 {
		t.Errorf("cache files %q, want one body", files)
	}
	before := s.count()
	if _, stderr, code := s.run("check", page, "--allow-host", s.host, "--offline"); code != 0 || s.count() != before {
		t.Errorf("check --offline: exit %d, %d requests\n%s", code, s.count()-before, stderr)
	}
}
