package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
