package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPagesRead: pages inside the root are read through it, whichever
// way the root is spelled; a symbolic link leading out, on the page or on a
// directory of its path, is ErrPageOutsideRoot; a page outside the root,
// as a command line may name one, is read where it is.
func TestPagesRead(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "proj")
	for name, content := range map[string]string{"proj/docs/a.md": "inside\n", "elsewhere/b.md": "outside\n"} {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"proj/docs/out.md": "../../elsewhere/b.md",
		"proj/ext":         filepath.Join(base, "elsewhere"),
		"proj/docs/abs.md": filepath.Join(dir, "docs/a.md"),
		"rootlink":         dir,
	} {
		if err := os.Symlink(to, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, rootDir := range []string{dir, filepath.Join(base, "rootlink")} {
		pages, err := OpenPages(rootDir)
		if err != nil {
			t.Fatal(err)
		}
		for path, want := range map[string]string{
			filepath.Join(dir, "docs/a.md"):           "inside\n",
			filepath.Join(rootDir, "docs/abs.md"):     "inside\n",
			filepath.Join(base, "elsewhere/b.md"):     "outside\n",
			filepath.Join(base, "rootlink/docs/a.md"): "inside\n",
			filepath.Join(rootDir, "docs/out.md"):     "",
			filepath.Join(rootDir, "ext/b.md"):        "",
		} {
			b, err := pages.Read(path)
			switch {
			case want == "" && (!errors.Is(err, ErrPageOutsideRoot) || !strings.Contains(err.Error(), "leads outside the project root")):
				t.Errorf("root %s: %s: read %q, %v; want it refused", rootDir, path, b, err)
			case want != "" && (err != nil || string(b) != want):
				t.Errorf("root %s: %s: read %q, %v; want %q", rootDir, path, b, err, want)
			}
		}
		pages.Close()
	}
}
