package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckPinPageSymlinkOutsideRoot: a pull request can add a page that is
// a symbolic link leading outside the project (docs/notes.md ->
// /home/you/private.md). check and pin, like refs, read pages only through
// the project root: they name that page with the reason and a remedy, fail,
// and neither quote nor print anything from it; pages linked from inside
// the root (by a relative or an absolute link) are read as usual.
func TestCheckPinPageSymlinkOutsideRoot(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	e2eWrite(t, base, map[string]string{"private.md": "token=hunter2\n\n[p](project/src/a.go#line=0,1)\n"})
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "", "src/a.go": "a\nb\n",
		"docs/guide.md": "[g](../src/a.go#line=0,1)\n",
	})
	for link, to := range map[string]string{
		"docs/notes.md": filepath.Join(base, "private.md"),   // absolute, outside
		"docs/rel.md":   "../../private.md",                  // relative, outside
		"docs/alias.md": "guide.md",                          // relative, inside
		"docs/abs.md":   filepath.Join(dir, "docs/guide.md"), // absolute, inside
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, args := range [][]string{{"check", "docs"}, {"pin", "docs"}, {"pin", "--write", "docs"}} {
		out, code := runAs(t, false, args...)
		if code != 1 || strings.Contains(out, "hunter2") || strings.Contains(out, "notes.md:3") || strings.Contains(out, "rel.md:3") {
			t.Errorf("%v: exit %d, or the page outside was read:\n%s", args, code, out)
		}
		for _, page := range []string{"notes.md", "rel.md"} {
			want := page + ": not read: a symbolic link that leads outside the project root " + dir + " (it leads to " + filepath.Join(base, "private.md") + "); textfrag reads pages only inside it: replace the link by a copy of the page, or give a --root that holds what it leads to"
			if !strings.Contains(out, want) {
				t.Errorf("%v: want %q:\n%s", args, want, out)
			}
		}
		for _, page := range []string{"alias.md", "abs.md", "guide.md"} {
			if strings.Contains(out, page+": ") && !strings.Contains(out, page+":1:1: ") {
				t.Errorf("%v: a page linked inside the root was not read: %s\n%s", args, page, out)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(base, "private.md")); err != nil || strings.Contains(string(b), "md5=") {
		t.Errorf("pin --write wrote outside the root: %q %v", b, err)
	}
	// Following the remedy (a copy of the page inside) makes check read it.
	os.Remove(filepath.Join(dir, "docs/rel.md"))
	os.Remove(filepath.Join(dir, "docs/notes.md"))
	if err := os.WriteFile(filepath.Join(dir, "docs/notes.md"), []byte("[n](../src/a.go#line=1,2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runAs(t, false, "check", "docs"); code != 0 || !strings.Contains(out, "docs/notes.md:1:1: warning") || !strings.Contains(out, "in 4 files: 0 errors") {
		t.Errorf("check after the remedy: exit %d\n%s", code, out)
	}
}
