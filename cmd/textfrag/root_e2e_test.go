package main

// End-to-end tests of the project root and textfrag.toml: every command
// finds the same root the same way, from wherever it runs in the project.

import (
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rootRepo writes a repository whose docs quote the source beside them:
// docs/guide.md quotes ../src/hello.go, as in a real project.
func rootRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		"src/hello.go":      e2eHello,
		"docs/guide.md":     "# Guide\n\n[Hello](../src/hello.go#line=1,3;md5=" + e2eMD5(e2eHello) + ")\n\nSee [the first line](/src/hello.go#line=0,1;md5=" + e2eMD5(e2eHello) + ").\n",
		"docs/sub/deep.md":  "# Deep\n\n[Hello again](../../src/hello.go#line=0,1;md5=" + e2eMD5(e2eHello) + ")\n",
		"docs/local.md":     "# Local\n\n[Data](data/x.txt#line=0,1;md5=" + e2eMD5("x\n") + ")\n",
		"docs/data/x.txt":   "x\n",
		"docs/_draft/y.txt": "y\n",
	})
	return dir
}

// captionLinks returns, for every box caption in the built site under out,
// the page and the file its href leads to, as slash paths under out.
func captionLinks(t *testing.T, out string) map[string][]string {
	t.Helper()
	re := regexp.MustCompile(`class="textfrag-source" href="([^"#]*)`)
	links := map[string][]string{}
	for name, content := range e2eTree(t, out) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(content, -1) {
			p, err := url.PathUnescape(m[1])
			if err != nil {
				t.Fatalf("%s: href %q: %v", name, m[1], err)
			}
			links[name] = append(links[name], path.Join(path.Dir(name), p))
		}
	}
	return links
}

// assertCaptionLinksResolve fails unless every caption in the built site
// links to a file inside it, and there are wantLinks of them (-1: some).
func assertCaptionLinksResolve(t *testing.T, out string, wantLinks int) {
	t.Helper()
	n := 0
	for page, targets := range captionLinks(t, out) {
		for _, target := range targets {
			n++
			if !filepath.IsLocal(filepath.FromSlash(target)) {
				t.Errorf("%s: caption links outside the site, to %s", page, target)
				continue
			}
			if info, err := os.Stat(filepath.Join(out, filepath.FromSlash(target))); err != nil || !info.Mode().IsRegular() {
				t.Errorf("%s: caption links to %s, which the built site does not have", page, target)
			}
		}
	}
	if n != wantLinks && (wantLinks >= 0 || n == 0) {
		t.Errorf("%d caption links, want %d", n, wantLinks)
	}
}

// TestE2EOneRoot: in a repository whose docs quote ../src, check, render,
// resolve, pin and build all find the repository's top as the root,
// whether run at the top or inside docs (D12: check passed where build
// failed).
func TestE2EOneRoot(t *testing.T) {
	t.Parallel()
	dir := rootRepo(t)
	docs := filepath.Join(dir, "docs")
	for _, run := range []struct {
		cwd  string
		args []string
	}{
		{dir, []string{"check", "docs"}},
		{docs, []string{"check"}},
		{dir, []string{"render", "docs/guide.md"}},
		{docs, []string{"render", "sub/deep.md"}},
		{dir, []string{"pin", "--check", "docs"}},
		{docs, []string{"pin", "--check"}},
		{docs, []string{"resolve", "../src/hello.go#line=1,2"}},
		{dir, []string{"resolve", "/src/hello.go#line=1,2"}},
		{dir, []string{"build", "docs", "-o", "out"}},
		{docs, []string{"build", "-o", "../out-from-docs"}},
	} {
		r := e2eRun(t, run.cwd, run.args...)
		if r.code != 0 {
			t.Errorf("in %s: textfrag %s: code %d\n%s", run.cwd, strings.Join(run.args, " "), r.code, r.stderr)
		}
	}
	for _, out := range []string{"out", "out-from-docs"} {
		out = filepath.Join(dir, out)
		assertCaptionLinksResolve(t, out, 3)
		site := e2eTree(t, out)
		// The quoted file outside SRC is published under _source/; one
		// inside SRC stays where the site has it anyway.
		if site["_source/src/hello.go"] != e2eHello {
			t.Errorf("%s/_source/src/hello.go = %q", out, site["_source/src/hello.go"])
		}
		if !strings.Contains(site["guide.html"], `href="_source/src/hello.go#line=1,3;md5=`) ||
			!strings.Contains(site["sub/deep.html"], `href="../_source/src/hello.go#line=0,1;md5=`) ||
			!strings.Contains(site["local.html"], `href="data/x.txt#line=0,1;md5=`) {
			t.Errorf("caption links:\n%s\n%s\n%s", site["guide.html"], site["sub/deep.html"], site["local.html"])
		}
		// The caption names the file by its path in the project.
		if !strings.Contains(site["guide.html"], `>src/hello.go</a>`) {
			t.Errorf("guide.html does not name src/hello.go:\n%s", site["guide.html"])
		}
		if _, ok := site["_source/docs/data/x.txt"]; ok {
			t.Errorf("a file the site publishes anyway was copied to _source/ too")
		}
	}

	// With a root that leaves out src, every command fails alike, and the
	// error says how to widen the root.
	for _, args := range [][]string{
		{"check", "--root", "docs", "docs"},
		{"build", "--root", "docs", "docs", "-o", "out2"},
		{"render", "--root", "docs", "docs/guide.md"},
		{"pin", "--root", "docs", "docs/guide.md"},
	} {
		r := e2eRun(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "outside the allowed roots") ||
			!strings.Contains(r.stderr, "--root DIR") || !strings.Contains(r.stderr, `root = "DIR" in textfrag.toml`) ||
			!strings.Contains(r.stderr, "the project root is "+docs) {
			t.Errorf("textfrag %s: code %d, want 1 and advice on the root:\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	// A link starting with / names a file under the root: where that is.
	r := e2eRun(t, dir, "check", "--root", "docs", "docs/guide.md")
	if !strings.Contains(r.stderr, "/src/hello.go#line=0,1;md5="+e2eMD5(e2eHello)+": target file not found") ||
		!strings.Contains(r.stderr, "the project root is "+docs+" (given with --root)") {
		t.Errorf("a missing /-link does not name the root:\n%s", r.stderr)
	}
	r = e2eRun(t, docs, "resolve", "--root", ".", "../src/hello.go#line=0,1")
	if r.code != 1 || !strings.Contains(r.stderr, "--root DIR") {
		t.Errorf("resolve outside --root: code %d\n%s", r.code, r.stderr)
	}
}

// TestE2ERootWithoutRepository: outside any repository and without
// textfrag.toml, the root is the current directory for every command
// (build's used to be SRC).
func TestE2ERootWithoutRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"src/a.txt":   "a\n",
		"docs/doc.md": "[a](/src/a.txt#line=0,1)\n",
	})
	for _, args := range [][]string{{"check", "docs"}, {"build", "docs", "-o", "out"}} {
		if r := e2eRun(t, dir, args...); r.code != 0 {
			t.Errorf("textfrag %s: code %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	assertCaptionLinksResolve(t, filepath.Join(dir, "out"), 1)
}

// TestE2EConfig: textfrag.toml sets the root, the source and output
// directories and flags for every command; flags given override it; its
// paths resolve against its own directory; an unknown key is an error
// naming the file, line and key.
func TestE2EConfig(t *testing.T) {
	t.Parallel()
	dir := rootRepo(t)
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "# the project\nsource = \"docs\"\noutput = \"site\"\nstrict = true\n",
		// Clamped: a warning, an error under strict.
		"docs/clamped.md": "[past the end](../src/hello.go#line=2,99)\n",
	})
	docs := filepath.Join(dir, "docs")
	r := e2eRun(t, docs, "check")
	if r.code != 1 || !strings.Contains(r.stderr, "clamped.md") {
		t.Errorf("check with strict = true: code %d, want 1\n%s", r.code, r.stderr)
	}
	if r = e2eRun(t, docs, "check", "--strict=false"); r.code != 0 {
		t.Errorf("check --strict=false overrides the file: code %d\n%s", r.code, r.stderr)
	}
	// source = "docs" is the default SRC and PATHS, from anywhere in the
	// project; output = "site" is relative to textfrag.toml, not to docs.
	if r = e2eRun(t, docs, "build", "--strict=false"); r.code != 0 {
		t.Fatalf("build: code %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "site", "guide.html")); err != nil {
		t.Errorf("build did not write site/guide.html beside textfrag.toml: %v", err)
	}
	if r = e2eRun(t, dir, "check", "docs/guide.md", "docs/local.md"); r.code != 0 {
		t.Errorf("check of pages without warnings: code %d\n%s", r.code, r.stderr)
	}

	// root = "docs" leaves src out, for every command.
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "root = \"docs\"\n"})
	r = e2eRun(t, dir, "check", "docs/guide.md")
	if r.code != 1 || !strings.Contains(r.stderr, "found through textfrag.toml") {
		t.Errorf("check with root = \"docs\": code %d\n%s", r.code, r.stderr)
	}
	if r = e2eRun(t, dir, "check", "--root", ".", "docs/guide.md"); r.code != 0 {
		t.Errorf("--root overrides root =: code %d\n%s", r.code, r.stderr)
	}

	// A textfrag.toml inside SRC is settings, not a file of the site.
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "docs/textfrag.toml": "root = \"..\"\noutput = \"../site2\"\n"})
	if r = e2eRun(t, docs, "build"); r.code != 0 {
		t.Fatalf("build with docs/textfrag.toml: code %d\n%s", r.code, r.stderr)
	}
	if site := e2eTree(t, filepath.Join(dir, "site2")); site["textfrag.toml"] != "" || site["guide.html"] == "" || site["_source/src/hello.go"] == "" {
		t.Errorf("site2 = %v, want guide.html and _source/src/hello.go, and no textfrag.toml", slices.Collect(maps.Keys(site)))
	}
	os.Remove(filepath.Join(docs, "textfrag.toml"))

	e2eWrite(t, dir, map[string]string{"textfrag.toml": "source = \"docs\"\n\nStrict = true\n"})
	for _, cmd := range []string{"check", "build", "pin", "render", "resolve", "serve"} {
		r = e2eRun(t, docs, cmd, "guide.md")
		if r.code == 0 || !strings.Contains(r.stderr, filepath.Join(dir, "textfrag.toml")+`:3:1: unknown key "Strict"`) {
			t.Errorf("%s with an unknown key: code %d\n%s", cmd, r.code, r.stderr)
		}
	}
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "remoteTimeout = \"soon\"\n"})
	if r = e2eRun(t, dir, "check", "docs"); r.code == 0 || !strings.Contains(r.stderr, "remoteTimeout") {
		t.Errorf("a bad value: code %d\n%s", r.code, r.stderr)
	}
}

// TestE2EUnpinnedLinks: check warns about each link without md5= (an error
// with --strict), naming the command that pins it; build does not; and the
// advice works: after it, check is clean and pin --check passes (C10).
func TestE2EUnpinnedLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pinned := "../src/a.txt#line=0,1;md5=" + e2eMD5("a\nb\n")
	e2eWrite(t, dir, map[string]string{
		"src/a.txt": "a\nb\n",
		"docs/a.md": "# A\n\n[box](../src/a.txt#line=0,1)\n\nInline [pinned](" + pinned + ") and\n  [unpinned](../src/a.txt#char=0,1;length=4).\n",
	})
	r := e2eRun(t, dir, "check", "docs")
	want := []string{
		"docs/a.md:3:1: warning: ../src/a.txt#line=0,1: unpinned: no md5= check",
		"docs/a.md:6:3: warning: ../src/a.txt#char=0,1;length=4: unpinned: no md5= check",
		"pin it with `textfrag pin --write docs/a.md`",
		"checked 3 links in 1 file: 0 errors, 2 warnings",
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("check lacks %q:\n%s", w, r.stderr)
		}
	}
	if r.code != 0 || strings.Contains(r.stderr, "md5="+e2eMD5("a\nb\n")+": unpinned") {
		t.Errorf("check: code %d, want 0 and no warning for the pinned link\n%s", r.code, r.stderr)
	}
	if r = e2eRun(t, dir, "check", "docs", "--strict"); r.code != 1 || !strings.Contains(r.stderr, "error: ../src/a.txt#line=0,1: unpinned") {
		t.Errorf("check --strict: code %d, want 1\n%s", r.code, r.stderr)
	}
	r = e2eRun(t, dir, "check", "docs", "--format", "json")
	if !strings.Contains(r.stdout, `"kind": "unpinned"`) {
		t.Errorf("json has no kind unpinned:\n%s", r.stdout)
	}
	if r = e2eRun(t, dir, "build", "docs", "-o", "out"); r.code != 0 || strings.Contains(r.stderr, "unpinned") || !strings.Contains(r.stderr, "(0 warnings)") {
		t.Errorf("build: code %d, want 0 without warnings\n%s", r.code, r.stderr)
	}
	if r = e2eRun(t, dir, "pin", "--check", "docs"); r.code != 1 {
		t.Errorf("pin --check with unpinned links: code %d, want 1\n%s", r.code, r.stderr)
	}
	// The advice, followed.
	if r = e2eRun(t, dir, "pin", "--write", "docs/a.md"); r.code != 0 {
		t.Fatalf("pin --write: code %d\n%s", r.code, r.stderr)
	}
	if r = e2eRun(t, dir, "check", "docs", "--strict"); r.code != 0 || !strings.Contains(r.stderr, "0 errors, 0 warnings") {
		t.Errorf("check after pin --write: code %d\n%s", r.code, r.stderr)
	}
	if r = e2eRun(t, dir, "pin", "--check", "docs"); r.code != 0 {
		t.Errorf("pin --check after pin --write: code %d\n%s", r.code, r.stderr)
	}
}

// TestE2EConfigLists: list keys of textfrag.toml act as their repeatable
// flags, for every command that has them (charsets here, for check, build,
// resolve and pin alike); a flag given replaces the file's list.
func TestE2EConfigLists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "charsets = [\"*.l1=ISO-8859-1\", \"*.w=windows-1252\"]\n",
		"src/a.l1":      "caf\xe9\n",
		"src/b.w":       "\x93q\x94\n",
		"docs/a.md":     "[a](../src/a.l1#char=0,4;md5=" + e2eMD5("caf\xe9\n") + ")\n\n[b](../src/b.w#char=0,3;md5=" + e2eMD5("\x93q\x94\n") + ")\n",
	})
	for _, args := range [][]string{{"check", "docs"}, {"build", "docs", "-o", "out"}, {"pin", "--check", "docs"}, {"resolve", "src/a.l1#char=0,4"}} {
		if r := e2eRun(t, dir, args...); r.code != 0 {
			t.Errorf("textfrag %s: code %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	if r := e2eRun(t, dir, "resolve", "src/b.w#char=0,3"); r.stdout != "“q”" {
		t.Errorf("resolve through windows-1252: %q\n%s", r.stdout, r.stderr)
	}
	// --charset given replaces the file's rules: b.w is not UTF-8.
	if r := e2eRun(t, dir, "check", "docs", "--charset", "*.l1=ISO-8859-1"); r.code != 1 || !strings.Contains(r.stderr, "b.w") {
		t.Errorf("check --charset: code %d, want 1 for b.w\n%s", r.code, r.stderr)
	}
}
