package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Names in the tree are chosen by whoever writes it, and a line break in one
// must not start a line of its own in build's messages: in a CI log a line
// "::error::…" is a workflow command (a forged annotation, ::add-mask::,
// ::stop-commands::). Every message build prints about a file of the site
// names it escaped: files left out, the layout failing on a page, a page
// and an asset that would be one file.
func TestBuildEscapesNamesInMessages(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml":               "",
		"docs/_layout.html":           "{{.Params.x.y}}",
		"docs/c\n::error::page.md":    "# Page\n",
		"both/static/e\n::x.md":       "# E\n",
		"both/static/e\n::x.html":     "<p>e</p>\n",
		"docs/h\r::warning::cr.md":    "# CR\n",
		"docs/i\x1b]0;title\x07.md":   "# Title\n",
		"docs/ok/index.md":            "# OK\n",
		"docs/static/plain/index.txt": "x\n",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "docs/a\n::error title=x::fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent", filepath.Join(dir, "docs/b\n::warning::dangling.md")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	stderr, code := buildIn(t, false, "docs", "-o", "out")
	if code != exitError {
		t.Errorf("code %d", code)
	}
	more, code := buildIn(t, false, "both", "-o", "out")
	if code != exitError {
		t.Errorf("code %d", code)
	}
	stderr += more
	if r := rawControl(stderr); r >= 0 {
		t.Errorf("a raw control character %U in the messages:\n%q", r, stderr)
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("a line that is a workflow command: %q", line)
		}
	}
	for _, want := range []string{
		`docs/a\n::error title=x::fifo.md: left out: not a regular file`,
		`docs/b\n::warning::dangling.md: left out: a symbolic link`,
		`docs/c\n::error::page.md: layout: `,
		`docs/h\r::warning::cr.md: layout: `,
		`docs/i\x1b]0;title\a.md: layout: `,
		`static/e\n::x.html: both this file and the page static/e\n::x.md would be static/e\n::x.html`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q in:\n%s", want, stderr)
		}
	}
}
