package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
)

// fieldServer is a serve preview of dir/docs in the project dir, with a
// page that quotes src/a.go pinned to its text now; the files are dated an
// hour back, as files are that nobody has just edited.
func fieldServer(t *testing.T, dir string) (*server, *httptest.Server) {
	t.Helper()
	text := "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	sum := md5.Sum([]byte(text))
	e2eWrite(t, dir, map[string]string{
		"src/a.go":      text,
		"docs/guide.md": "# Guide\n\n[a](../src/a.go#line=2,5;md5=" + hex.EncodeToString(sum[:]) + ")\n",
		"textfrag.toml": "",
		"docs/other.md": "# Other\n",
	})
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"src/a.go", "docs/guide.md", "docs/other.md"} {
		if err := os.Chtimes(filepath.Join(dir, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	lf := linkFlags{root: dir}
	s := newServer(filepath.Join(dir, "docs"), &lf, style.CSS(), io.Discard)
	s.watching = s.snapshot(nil)
	s.update(nil)
	ts := httptest.NewServer(s.handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// fieldRound runs one round of polling and rebuilding, as serve's watch
// loop does, and returns the page's status and body.
func fieldRound(t *testing.T, s *server, ts *httptest.Server) (int, string) {
	t.Helper()
	if changed := s.poll(); len(changed) > 0 {
		s.update(changed)
	}
	return serveGet(t, ts.URL+"/guide.html")
}

// wantBox checks that the page shows the box and no error.
func wantBox(t *testing.T, code int, body string) {
	t.Helper()
	if code != 200 || !strings.Contains(body, `<figure class="textfrag`) {
		t.Fatalf("want the box: %d\n%s", code, body)
	}
}

// wantError checks that the page shows an error naming the link and the
// problem, and no box.
func wantError(t *testing.T, code int, body, problem string) {
	t.Helper()
	if code != 500 || strings.Contains(body, `<figure class="textfrag`) ||
		!strings.Contains(body, "guide.md:3:1: error: ../src/a.go#line=2,5;md5=") || !strings.Contains(body, problem) {
		t.Fatalf("want the error %q and no box: %d\n%s", problem, code, body)
	}
}

// A quoted file changed by a program that keeps its modification time and
// size (touch -r, cp -p, an archive's extract), or replaced by a symbolic
// link out of the root to a copy with the same times: the preview must not
// keep showing the box it verified before.
func TestServeSeesChangesThatKeepTimes(t *testing.T) {
	dir := t.TempDir()
	s, ts := fieldServer(t, dir)
	a := filepath.Join(dir, "src/a.go")
	code, body := fieldRound(t, s, ts)
	wantBox(t, code, body)
	info, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	mtime := info.ModTime()

	// Edited in place, same size, the modification time put back.
	f, err := os.OpenFile(a, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("2"), int64(strings.Index("package a\n\nfunc A() int {\n\treturn 1", "1"))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(a, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	code, body = fieldRound(t, s, ts)
	wantError(t, code, body, "md5 mismatch")

	// Put back the same way: the box returns.
	if err := os.WriteFile(a, []byte("package a\n\nfunc A() int {\n\treturn 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	code, body = fieldRound(t, s, ts)
	wantBox(t, code, body)

	// Replaced by a link out of the root, to the same text with the same
	// times: check refuses it, and so must the preview.
	outside := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(outside, []byte("package a\n\nfunc A() int {\n\treturn 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(outside, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(a, a+".saved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, a); err != nil {
		t.Fatal(err)
	}
	code, body = fieldRound(t, s, ts)
	wantError(t, code, body, "leads outside through a symlink")
}

// Two writes in one tick of a coarse clock can leave every stamp field
// alike; a file changed that recently is hashed, so its text tells.
func TestStampRacyFileIsHashed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	first := statStamp(p, now, stamp{})
	if !first.racy || !first.hashed {
		t.Fatalf("a file written just now is not racy and hashed: %+v", first)
	}
	if err := os.WriteFile(p, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second := statStamp(p, now, first)
	coarse := second
	coarse.path, coarse.target = first.path, first.target // as a coarse clock would leave them
	if first.same(coarse) {
		t.Errorf("different text, same times: taken for the same file")
	}
	// Once no longer racy, the round after a racy one still hashes, and
	// then hashing stops.
	later := now.Add(time.Hour)
	third := statStamp(p, later, second)
	if third.racy || !third.hashed || !second.same(third) {
		t.Errorf("the round after a racy one: %+v", third)
	}
	if fourth := statStamp(p, later, third); fourth.hashed || !third.same(fourth) {
		t.Errorf("a settled file: %+v", fourth)
	}
}

// A quoted file that changed just before a rebuild read it may have been
// read before the change: the next round rebuilds its pages again.
func TestServeRechecksTargetsChangedDuringRebuild(t *testing.T) {
	dir := t.TempDir()
	s, _ := fieldServer(t, dir)
	// The page quotes a file written just now, for the first time.
	serveWriteNow(t, filepath.Join(dir, "src/b.go"), "package a\n")
	serveWriteNow(t, filepath.Join(dir, "docs/other.md"), "# Other\n\n[b](../src/b.go#line=,1)\n")
	if changed := s.poll(); !changed[filepath.Join(dir, "docs/other.md")] {
		t.Fatalf("the page's change is not seen: %v", changed)
	} else {
		s.update(changed)
	}
	if changed := s.poll(); !changed[filepath.Join(dir, "src/b.go")] {
		t.Errorf("a quoted file changed just before the rebuild is not read again: %v", changed)
	} else {
		s.update(changed)
	}
	// And then the rounds settle: nothing changed, nothing is rebuilt.
	if changed := s.poll(); len(changed) > 0 {
		t.Errorf("nothing changed, yet: %v", changed)
	}
}

// serveWriteNow writes a file as an editor does, with the time now.
func serveWriteNow(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitABit sleeps for a few milliseconds.
func waitABit() { time.Sleep(10 * time.Millisecond) }

// Requests while rounds rebuild the site (run with -race): every answer is
// the page with its box or the error page, and once a round has seen the
// quoted file go stale, never the box again until it is fixed.
func TestServeConcurrentRequestsDuringRebuilds(t *testing.T) {
	dir := t.TempDir()
	s, ts := fieldServer(t, dir)
	a := filepath.Join(dir, "src/a.go")
	good := "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	stop := make(chan struct{})
	errs := make(chan string, 8)
	var wg sync.WaitGroup
	for _, p := range []string{"/guide.html", "/other.html", "/guide.md", "/_source/src/a.go", "/textfrag.css", "/"} {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Get(ts.URL + p)
				if err != nil {
					errs <- err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if p == "/guide.html" && !(resp.StatusCode == 200 && strings.Contains(string(b), "<figure") || resp.StatusCode == 500 && strings.Contains(string(b), "md5 mismatch")) {
					errs <- fmt.Sprintf("GET %s: %d\n%s", p, resp.StatusCode, b)
					return
				}
			}
		})
	}
	for i := range 20 {
		text := good
		if i%2 == 0 {
			text = strings.Replace(good, "1", fmt.Sprint(i%10), 1)
		}
		serveWriteNow(t, a, text)
		code, body := fieldRound(t, s, ts)
		if i%2 == 0 {
			wantError(t, code, body, "md5 mismatch")
		} else {
			wantBox(t, code, body)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// startServe runs the serve command in process, in the working directory
// dir, polling every 20ms, until the test ends; it returns the site's URL.
func startServe(t *testing.T, dir string, args ...string) string {
	t.Helper()
	t.Chdir(dir)
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan int, 1)
	e := &env{stdout: io.Discard, stderr: io.Discard}
	go func() {
		done <- e.serve(ctx, append([]string{"--addr", "127.0.0.1:0", "--poll", "20ms"}, args...), func(url string) { urls <- url })
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	select {
	case url := <-urls:
		return url
	case code := <-done:
		t.Fatalf("serve stopped: code %d", code)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	return ""
}

// eventually polls url until ok accepts the answer, for at most 5 s.
func eventually(t *testing.T, url, what string, ok func(code int, body string) bool) {
	t.Helper()
	var code int
	var body string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if code, body = serveGet(t, url); ok(code, body) {
			return
		}
	}
	t.Fatalf("%s: not within 5s; last answer %d\n%s", what, code, body)
}

// textfrag.toml is read again when it changes: a setting taken away
// (charsets) takes away the box it made, an invalid file shows its
// error in place of every page until it is fixed, even when pages change
// meanwhile, and a valid one brings the pages back.
func TestServeFollowsTextfragToml(t *testing.T) {
	dir := t.TempDir()
	const setting = "charsets = [\"*.latin1=ISO-8859-1\"]\n"
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml":   setting,
		"src/menu.latin1": "caf\xe9 cr\xe8me\n",
		"docs/index.md":   "# Home\n\n[menu](../src/menu.latin1#line=,1)\n",
		"docs/other.md":   "# Other\n",
	})
	url := startServe(t, dir, "docs")
	box := func(code int, body string) bool { return code == 200 && strings.Contains(body, "café crème") }
	eventually(t, url, "the Latin-1 file quoted", box)

	serveWriteNow(t, filepath.Join(dir, "textfrag.toml"), "")
	eventually(t, url, "the file refused once charsets is gone", func(code int, body string) bool {
		return code == 500 && !strings.Contains(body, "café") && strings.Contains(body, "docs/index.md:3:1: error: ../src/menu.latin1#line=,1:")
	})

	serveWriteNow(t, filepath.Join(dir, "textfrag.toml"), setting+"strikt = true\n")
	unknown := func(code int, body string) bool {
		return code == 500 && !strings.Contains(body, "café") && strings.Contains(body, "textfrag.toml:2:1: unknown key &#34;strikt&#34;")
	}
	eventually(t, url, "the invalid textfrag.toml shown", unknown)
	serveWriteNow(t, filepath.Join(dir, "docs/other.md"), "# Other, changed\n")
	time.Sleep(200 * time.Millisecond) // ten rounds
	eventually(t, url, "the invalid textfrag.toml still shown after a page changed", unknown)
	eventually(t, url+"other.html", "every page shows it", unknown)

	serveWriteNow(t, filepath.Join(dir, "textfrag.toml"), setting+"strict = true\n")
	eventually(t, url, "the pages back once it is fixed", box)
}

// A page may quote a file a browser runs script in (an HTML or SVG file of
// a pull request): the preview links it under _source/ as source to read,
// and must not run it in the preview's origin, which can read every page.
func TestServeSourceNeverRunsScript(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"src/evil.html": "<script>fetch('/guide.html')</script>\n",
		"src/pic.svg":   "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>\n",
		"src/a.txt":     "<script>alert(1)</script>\n",
		"docs/index.md": "# Home\n\n[e](../src/evil.html#line=,1)\n\n[s](../src/pic.svg#line=,1)\n\n[t](../src/a.txt#line=,1)\n",
	})
	lf := linkFlags{root: dir}
	s := newServer(filepath.Join(dir, "docs"), &lf, style.CSS(), io.Discard)
	s.watching = s.snapshot(nil)
	s.update(nil)
	ts := httptest.NewServer(s.handler())
	defer ts.Close()
	for _, p := range []string{"/_source/src/evil.html", "/_source/src/pic.svg"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("GET %s: %d; its copy is published with .txt added", p, resp.StatusCode)
		}
	}
	for _, p := range []string{"/_source/src/evil.html.txt", "/_source/src/pic.svg.txt", "/_source/src/a.txt"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/plain") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: %d, Content-Type %q, X-Content-Type-Options %q", p, resp.StatusCode, ct, resp.Header.Get("X-Content-Type-Options"))
		}
	}
}

// build publishes a quoted file a browser would run script in with .txt
// added to its name, so that no host serves it as a page of the site, and
// its box's caption links there.
func TestBuildSourceCopyNeverRunsScript(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "",
		"src/evil.html": "<script>fetch('/guide.html')</script>\n",
		"src/pic.SVG":   "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>\n",
		"docs/index.md": "# Home\n\n[e](../src/evil.html#line=,1)\n\n[s](../src/pic.SVG#line=,1)\n",
	})
	t.Chdir(dir)
	if out, code := runAs(t, false, "build", "docs", "-o", "out"); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, out)
	}
	for _, p := range []string{"out/_source/src/evil.html", "out/_source/src/pic.SVG"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s published under its own name", p)
		}
		b, err := os.ReadFile(filepath.Join(dir, p+".txt"))
		if err != nil || !strings.Contains(string(b), "<script>") {
			t.Errorf("%s.txt: %q, %v", p, b, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, "out/index.html"))
	for _, href := range []string{`href="_source/src/evil.html.txt#line=,1"`, `href="_source/src/pic.SVG.txt#line=,1"`} {
		if !strings.Contains(string(page), href) {
			t.Errorf("the page has no %s:\n%s", href, page)
		}
	}
}

// A source directory in the tree that leads out of the project root
// through a symbolic link (checked out as one, or made one while serve
// runs) is refused: a site publishes every file under its source.
func TestSiteSourceLinkOutOfRoot(t *testing.T) {
	dir, away := t.TempDir(), t.TempDir()
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "docs/index.md": "# Home\n", "inside/index.md": "# Inside\n"})
	e2eWrite(t, away, map[string]string{"index.md": "# Away\n", "id.txt": "PRIVATE\n"})
	if err := os.Symlink(away, filepath.Join(dir, "awaylink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inside", filepath.Join(dir, "insidelink")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	stderr, code := buildIn(t, false, "awaylink", "-o", "out")
	if code != exitError || !strings.Contains(stderr, "awaylink: the source directory leads out of the project root") {
		t.Errorf("build of a link out of the root: code %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("out written")
	}
	if stderr, code := buildIn(t, false, "insidelink", "-o", "out"); code != exitOK {
		t.Errorf("build of a link inside the root: code %d\n%s", code, stderr)
	}
	// Named where it is, it is built.
	if stderr, code := buildIn(t, false, away, "-o", "out2"); code != exitOK {
		t.Errorf("build of the directory named outside the root: code %d\n%s", code, stderr)
	}

	// While serve runs, docs/ is replaced by a link out of the root.
	url := startServe(t, dir, "docs")
	eventually(t, url, "the page", func(code int, body string) bool { return code == 200 && strings.Contains(body, "Home") })
	if err := os.Rename(filepath.Join(dir, "docs"), filepath.Join(dir, "docs.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(away, filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	eventually(t, url, "the error", func(code int, body string) bool {
		return code == 500 && strings.Contains(body, "the source directory leads out of the project root")
	})
	if code, body := serveGet(t, url+"id.txt"); code == 200 || strings.Contains(body, "PRIVATE") {
		t.Errorf("GET /id.txt: %d %q", code, body)
	}
}
