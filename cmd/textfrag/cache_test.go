package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cacheFiles lists the blocks a highlight cache directory holds.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(filepath.Join(dir, "highlight"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		// Blocks, not the lexer names highlight.LexerCached keeps beside them.
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), `<div class="highlight">`) {
			files = append(files, p)
		}
		return nil
	})
	return files
}

func TestE2EHighlightCache(t *testing.T) {
	dir := t.TempDir()
	e2eSite(t, dir)
	e2eWrite(t, dir, map[string]string{
		"docs/src/main.go": "package main\n\nfunc main() {\n\tprintln(1 < 2)\n}\n",
		"docs/code.md":     "# Code\n\n[main](src/main.go#line=2,5)\n\n```go\nvar x = \"<fenced>\"\n```\n",
	})
	cache := filepath.Join(dir, "cache")

	if r := e2eRun(t, dir, "build", "docs", "-o", "nocache", "--cache-dir", cache, "--highlight-cache=false"); r.code != 0 {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	if files := cacheFiles(t, cache); len(files) != 0 {
		t.Fatalf("--highlight-cache=false wrote %d blocks", len(files))
	}
	want := e2eTree(t, filepath.Join(dir, "nocache"))
	if !strings.Contains(want["code.html"], `<span class="kd">func</span>`) {
		t.Fatalf("the page should hold highlighted Go:\n%s", want["code.html"])
	}

	// Cold, then warm: the same pages as without a cache.
	for _, run := range []string{"cold", "warm"} {
		if r := e2eRun(t, dir, "build", "docs", "-o", run, "--cache-dir", cache); r.code != 0 {
			t.Fatalf("%s build: %d %s", run, r.code, r.stderr)
		}
		if got := e2eTree(t, filepath.Join(dir, run)); !equalTrees(got, want) {
			t.Errorf("%s build differs from the build without a cache", run)
		}
	}
	// Two boxes (hello.txt lines 2–3 in index.md, line 1 in sub/), one box
	// of main.go and one fenced block.
	files := cacheFiles(t, cache)
	if len(files) != 4 {
		t.Fatalf("want 4 cached blocks, got %d: %v", len(files), files)
	}

	// A damaged block is not used: it is written again.
	for _, f := range files {
		if err := os.WriteFile(f, []byte("<script>stale</script>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := e2eRun(t, dir, "build", "docs", "-o", "damaged", "--cache-dir", cache); r.code != 0 {
		t.Fatalf("build over a damaged cache: %d %s", r.code, r.stderr)
	}
	if got := e2eTree(t, filepath.Join(dir, "damaged")); !equalTrees(got, want) {
		t.Error("a build over a damaged cache differs from the build without a cache")
	}

	// Changed code is lexed again, not served from the cache.
	e2eWrite(t, dir, map[string]string{"docs/src/main.go": "package main\n\nfunc main() {\n\tprintln(3 > 4)\n}\n"})
	if r := e2eRun(t, dir, "build", "docs", "-o", "changed", "--cache-dir", cache); r.code != 0 {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	if got := e2eTree(t, filepath.Join(dir, "changed"))["code.html"]; !strings.Contains(got, `<span class="mi">3</span><span class="w"> </span><span class="p">&gt;</span>`) {
		t.Errorf("the changed line should be shown:\n%s", got)
	}
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
