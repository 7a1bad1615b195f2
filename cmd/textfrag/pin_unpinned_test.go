package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPinByHandUnpinnedFileChanged: by hand, pin --write used to pin an
// unpinned link (no md5) at whatever its file says now, as "the same text,
// nothing to review", though no check guarded that link: when the file
// changed since HEAD, the lines may be other text than its author quoted.
// Now, as the pre-commit hook does (unpinnedStale), such a link is a
// changed quote: pin prints the text it would pin, writes nothing, fails,
// and pins it only when accepted. A new link into an unchanged file is
// pinned as before; a new link into a changed file is shown too.
func TestPinByHandUnpinnedFileChanged(t *testing.T) {
	dir := t.TempDir()
	old := "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "",
		"src/a.go":      old,
		"src/b.go":      old,
		"docs/p.md":     "# P\n\n[A](../src/a.go#line=2,5)\n",
	})
	lspGit(t, dir, "init", "-q")
	lspGit(t, dir, "add", "-A")
	lspGit(t, dir, "commit", "-q", "-m", "start")
	// The function now starts a line lower: lines 3-5 show other text.
	if err := os.WriteFile(filepath.Join(dir, "src/a.go"), []byte("package a\n\n// A is one.\nfunc A() int {\n\treturn 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	out, code := runAs(t, false, "pin", "--write", "docs/p.md")
	if code != 1 || strings.Contains(read("docs/p.md"), "md5=") {
		t.Fatalf("pin --write pinned an unpinned link whose file changed since HEAD: exit %d\n%s\n%s", code, out, read("docs/p.md"))
	}
	for _, want := range []string{"docs/p.md:3:1: changed", "// A is one.", "--accept docs/p.md:3", "read the text below, then accept it"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q:\n%s", want, out)
		}
	}
	if testing.Verbose() {
		t.Log(out)
	}
	if strings.Contains(out, "unpinned (1): the same text, nothing to review") {
		t.Errorf("called nothing to review:\n%s", out)
	}
	// Accepted, it is pinned at the text shown.
	if out, code := runAs(t, false, "pin", "--write", "--accept", "docs/p.md:3", "docs/p.md"); code != 0 || !strings.Contains(read("docs/p.md"), "md5=") {
		t.Errorf("accepted: exit %d\n%s\n%s", code, out, read("docs/p.md"))
	}

	// New links (not in HEAD's page): into the unchanged b.go pinned as
	// before; into the changed a.go shown for review.
	e2eWrite(t, dir, map[string]string{"docs/n.md": "[B](../src/b.go#line=2,5)\n\n[A](../src/a.go#line=3,6)\n"})
	out, code = runAs(t, false, "pin", "--write", "docs/n.md")
	page := read("docs/n.md")
	if code != 1 || !strings.Contains(page, "b.go#line=2,5;md5=") || strings.Contains(page, "a.go#line=3,6;md5=") || !strings.Contains(out, "docs/n.md:3:1: changed") {
		t.Errorf("new links: exit %d\n%s\n%s", code, out, page)
	}
}
