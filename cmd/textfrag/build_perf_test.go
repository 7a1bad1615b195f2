package main

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// A build reads each quoted file once, however many pages quote it and
// however many pages render at a time.
func TestBuildReadsEachTargetOnce(t *testing.T) {
	const nFiles, nPages, nLinks = 8, 40, 10
	dir := t.TempDir()
	files := map[string]string{}
	var sums [nFiles]string
	for f := range nFiles {
		var b strings.Builder
		for i := range 200 + 50*f {
			fmt.Fprintf(&b, "\tx%d := compute(%d) // é ✓\n", i, i)
		}
		files[fmt.Sprintf("src/f%d.go", f)] = b.String()
		sum := md5.Sum([]byte(b.String()))
		sums[f] = hex.EncodeToString(sum[:])
	}
	for p := range nPages {
		var b strings.Builder
		fmt.Fprintf(&b, "# Page %d\n\n", p)
		for k := range nLinks {
			f := (p*nLinks + k) % nFiles
			fmt.Fprintf(&b, "Some prose.\n\n[quote %d](../src/f%d.go#line=%d,%d;md5=%s)\n\n", k, f, k*7, k*7+12, sums[f])
		}
		files[fmt.Sprintf("docs/p%02d.md", p)] = b.String()
	}
	e2eWrite(t, dir, files)

	var r *target.Resolver
	buildSiteHook = func(s *site) { r = s.resolver }
	defer func() { buildSiteHook = nil }()
	stderr, code := buildIn(t, false, filepath.Join(dir, "docs"), "--root", dir, "-o", filepath.Join(dir, "out"), "-j", "4")
	if code != 0 {
		t.Fatalf("code %d\n%s", code, stderr)
	}
	if r == nil {
		t.Fatal("the build did not report its site")
	}
	for f := range nFiles {
		if n := r.ReadsOf(fmt.Sprintf("src/f%d.go", f)); n != 1 {
			t.Errorf("src/f%d.go read %d times, want 1", f, n)
		}
	}
	if n := r.Reads(); n != nFiles {
		t.Errorf("%d reads in all, want %d", n, nFiles)
	}
	tree := e2eTree(t, filepath.Join(dir, "out"))
	if n := strings.Count(tree["p00.html"], `<figure class="textfrag`); n != nLinks {
		t.Errorf("p00.html has %d boxes, want %d", n, nLinks)
	}
}

// --highlight=false writes boxes and fenced code with the plain-text lexer
// (bench/run compares textfrag with its pasted twin that way too).
func TestBuildHighlightOff(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"docs/a.go":    "package a\n\nfunc A() int { return 1 }\n",
		"docs/page.md": "# P\n\n[A](a.go#line=2,3)\n\n```go\nfunc B() {}\n```\n",
	})
	for _, tc := range []struct {
		flag, want, not string
	}{
		{"--highlight=true", `data-lang="go"><span class="line"><span class="ln">3</span><span class="cl"><span class="kd">func</span>`, `data-lang="text"`},
		{"--highlight=false", `data-lang="text"><span class="line"><span class="cl">func B() {}`, `class="kd"`},
	} {
		out := filepath.Join(dir, "out"+tc.flag)
		stderr, code := buildIn(t, false, filepath.Join(dir, "docs"), "-o", out, "--root", dir, tc.flag)
		if code != 0 {
			t.Fatalf("%s: code %d\n%s", tc.flag, code, stderr)
		}
		html := e2eTree(t, out)["page.html"]
		if !strings.Contains(html, tc.want) || strings.Contains(html, tc.not) {
			t.Errorf("%s: want %s and no %s in\n%s", tc.flag, tc.want, tc.not, html)
		}
	}
}
