package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildIn runs the build command in process.
func buildIn(t *testing.T, tty bool, args ...string) (stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, stderrIsTTY: tty}
	code = e.build(context.Background(), args)
	return errOut.String(), code
}

func TestBuildProgressOnTerminalOnly(t *testing.T) {
	saved := progressInterval
	progressInterval = time.Microsecond
	defer func() { progressInterval = saved }()
	dir := t.TempDir()
	files := map[string]string{"docs/t.txt": "x\n"}
	for i := range progressPages + 10 {
		files[fmt.Sprintf("docs/p%d.md", i)] = fmt.Sprintf("# P%d\n\n[t](t.txt#line=,1)\n", i)
	}
	e2eWrite(t, dir, files)
	src, out := filepath.Join(dir, "docs"), filepath.Join(dir, "out")

	stderr, code := buildIn(t, false, src, "-o", out, "--root", dir)
	if code != 0 || strings.Contains(stderr, "\r") {
		t.Errorf("not a terminal: code %d, stderr %q", code, stderr)
	}
	stderr, code = buildIn(t, true, src, "-o", out, "-j", "1", "--root", dir)
	if code != 0 || !strings.Contains(stderr, "\r\033[Ktextfrag: building ") || !strings.Contains(stderr, "/61\r\033[K") {
		t.Errorf("terminal: code %d, stderr %q", code, stderr)
	}
	// The progress line is cleared before the summary.
	if i := strings.LastIndex(stderr, "\r\033[K"); !strings.HasPrefix(stderr[i:], "\r\033[Ktextfrag: built 60 pages") {
		t.Errorf("summary not on a clean line: %q", stderr[i:])
	}
}

func TestBuildLeavesOutFilesOutsideSource(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"secret.txt":     "secret\n",
		"docs/index.md":  "# Home\n",
		"docs/in.txt":    "inside\n",
		"docs/dir/x.txt": "x\n",
	})
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "docs/leak.txt")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("in.txt", filepath.Join(dir, "docs/alias.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("dir", filepath.Join(dir, "docs/also-dir")); err != nil {
		t.Fatal(err)
	}
	stderr, code := buildIn(t, false, filepath.Join(dir, "docs"), "-o", filepath.Join(dir, "out"))
	if code != 0 || !strings.Contains(stderr, "leak.txt: left out: a symbolic link that leads outside") || !strings.Contains(stderr, "also-dir: left out: a symbolic link to a directory") {
		t.Fatalf("code %d\n%s", code, stderr)
	}
	tree := e2eTree(t, filepath.Join(dir, "out"))
	if _, ok := tree["leak.txt"]; ok {
		t.Errorf("a file from outside the source was published")
	}
	if tree["alias.txt"] != "inside\n" || tree["dir/x.txt"] != "x\n" {
		t.Errorf("a symbolic link inside the source was not followed")
	}
}
