package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A build never replaces the directory that holds its source, whatever
// names the two are given: a symbolic link to the source given as SRC, or a
// symbolic link in OUT's path. The source here has its own textfrag.css (a
// documented choice), which makes it look like an earlier build's output.
func TestBuildRefusesSourceThroughSymlink(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src, out string
	}{
		{"SRC is a link to OUT", "srclink", "docs"},
		{"OUT's parent is a link", "docs", "here/docs"},
		{"OUT is a parent of SRC through a link", "docs/sub", "here/docs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			e2eWrite(t, dir, map[string]string{
				"textfrag.toml":     "",
				"docs/index.md":     "# Home\n",
				"docs/textfrag.css": "body{}\n",
				"docs/sub/page.md":  "# Sub\n",
			})
			if err := os.Symlink("docs", filepath.Join(dir, "srclink")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(".", filepath.Join(dir, "here")); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			stderr, code := buildIn(t, false, tc.src, "-o", tc.out)
			if code != exitError || !strings.Contains(stderr, "holds the source") {
				t.Errorf("code %d, stderr:\n%s", code, stderr)
			}
			for _, f := range []string{"docs/index.md", "docs/sub/page.md"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("the source %s is gone: %v", f, err)
				}
			}
		})
	}
}

// Ctrl-C during a build leaves the previous output exactly as it was, and
// no temporary directory beside it. The interrupted build highlights 400
// pages on one worker, which takes seconds; the signal comes after 300ms.
func TestBuildInterruptedLeavesOutput(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"textfrag.toml": ""}
	var code strings.Builder
	for i := range 300 {
		fmt.Fprintf(&code, "func F%d(x int) int { return x*%d + len(\"s%d\") }\n", i, i, i)
	}
	files["src/a.go"] = "package a\n\n" + code.String()
	for i := range 400 {
		files[fmt.Sprintf("docs/p%03d.md", i)] = fmt.Sprintf("# Page %d\n\n[a](../src/a.go#line=%d,%d)\n", i, i%100, i%100+200)
	}
	e2eWrite(t, dir, files)
	if r := e2eRun(t, dir, "build", "docs", "-o", "out", "--highlight=false"); r.code != 0 {
		t.Fatalf("first build: %d\n%s", r.code, r.stderr)
	}
	before := e2eTree(t, filepath.Join(dir, "out"))

	cmd := exec.Command(e2eBin(t), "build", "docs", "-o", "out", "-j", "1", "--highlight-cache=false")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitError || !strings.Contains(stderr.String(), "build interrupted; out left as it was") {
		t.Fatalf("interrupted build: %v\n%s", err, stderr.String())
	}
	if after := e2eTree(t, filepath.Join(dir, "out")); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the interrupted build changed the output")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".out.") {
			t.Errorf("left beside the output: %s", e.Name())
		}
	}
}
