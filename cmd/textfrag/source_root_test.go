package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceSymlinkOutsideRootRefused: a hostile textfrag.toml names as
// its source a directory of the tree that is a symbolic link leading out of
// the project root (docs -> ../outside, inside the same git repository, so
// the setting itself passes). build and serve refused it; check, pin and
// refs searched it. Now each refuses it with a message naming the setting
// and a remedy, and reads nothing there.
func TestSourceSymlinkOutsideRootRefused(t *testing.T) {
	base := t.TempDir()
	lspGit(t, base, "init", "-q")
	dir := filepath.Join(base, "project")
	e2eWrite(t, base, map[string]string{
		"outside/stale.md": "token=hunter2\n\n[s](../project/src/a.go#line=0,1;md5=00000000000000000000000000000000)\n",
	})
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "source = \"docs\"\n",
		"src/a.go":      "a\nb\n",
	})
	if err := os.Symlink("../outside", filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, args := range [][]string{{"check"}, {"pin"}, {"pin", "--write"}, {"refs", "src/a.go"}} {
		out, code := runAs(t, false, args...)
		if code == 0 || strings.Contains(out, "hunter2") || strings.Contains(out, "stale.md") {
			t.Errorf("%v: exit %d, or the directory outside was read:\n%s", args, code, out)
		}
		for _, want := range []string{"textfrag.toml: source: ", "leads out of the project root", "replace the link"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: want %q:\n%s", args, want, out)
			}
			if testing.Verbose() && want == "replace the link" {
				t.Log(out)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(base, "outside/stale.md")); err != nil || !strings.Contains(string(b), "md5=0000") {
		t.Errorf("pin --write wrote outside the root: %q %v", b, err)
	}
	// Following the remedy (a copy of the directory) makes check read it.
	os.Remove(filepath.Join(dir, "docs"))
	e2eWrite(t, dir, map[string]string{"docs/stale.md": "[s](../src/a.go#line=0,1;md5=00000000000000000000000000000000)\n"})
	if out, code := runAs(t, false, "check"); code != 1 || !strings.Contains(out, "docs/stale.md:1:1: ") || strings.Contains(out, "source:") {
		t.Errorf("check after the remedy: exit %d\n%s", code, out)
	}
}
