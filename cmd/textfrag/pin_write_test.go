package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPinWriteStaysInsideRoot: pin --write replaces only regular files of
// their own inside the project root. A Markdown file that is a symlink
// leading outside (which pin does not even read), a read-only file and a file with a second hard link are
// reported by name with a remedy and left as they are; the other files are
// written, and a symlink to a file inside the root writes that file.
func TestPinWriteStaysInsideRoot(t *testing.T) {
	src := numberedSource(1, 5)
	link := "[a](../src/a.go#line=1,2)\n"
	pinned := "[a](../src/a.go#line=1,2;md5=" + md5hex(src) + ")\n"
	s := newPinSite(t, map[string]string{"src/a.go": src,
		"docs/readonly.md": link, "docs/hard.md": link, "docs/fine.md": link, "docs/target.md": link})
	outside := t.TempDir()
	// The outside file quotes ../src/a.go too, so that the link resolves
	// when read through the symlink (relative to the symlink's directory).
	if err := os.WriteFile(filepath.Join(outside, "victim.md"), []byte(link), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "victim.md"), s.path("docs/escape.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.md", s.path("docs/inside.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.path("docs/readonly.md"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(s.path("docs/hard.md"), s.path("other-name.md")); err != nil {
		t.Fatal(err)
	}

	_, stderr, code := pinRunIn("pin", "--write", "--root", s.dir, s.path("docs/escape.md"), s.path("docs/readonly.md"),
		s.path("docs/hard.md"), s.path("docs/fine.md"), s.path("docs/inside.md"))
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	for _, want := range []string{
		// Not even read: pages are read through the root (pinWriteAtomic
		// still judges the file it replaces, should it change meanwhile).
		s.path("docs/escape.md") + ": not read: a symbolic link that leads outside the project root " + s.dir + " (it leads to " + filepath.Join(outside, "victim.md") + ")",
		s.path("docs/readonly.md") + ": not written: it is read-only (mode 0444), and pin does not replace read-only files: make it writable (chmod u+w " + s.path("docs/readonly.md") + ")",
		s.path("docs/hard.md") + ": not written: it has 2 hard links",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "victim.md")); string(b) != link {
		t.Errorf("the file outside the root was written: %q", b)
	}
	if lt, err := os.Lstat(s.path("docs/escape.md")); err != nil || lt.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", lt, err)
	}
	for _, name := range []string{"docs/readonly.md", "docs/hard.md", "other-name.md"} {
		if got := s.read(name); got != link {
			t.Errorf("%s was written: %q", name, got)
		}
	}
	if info, _ := os.Stat(s.path("docs/hard.md")); pinLinkCount(info) != 2 {
		t.Errorf("the hard link was split")
	}
	if got := s.read("docs/fine.md"); got != pinned {
		t.Errorf("fine.md: %q", got)
	}
	if got := s.read("docs/target.md"); got != pinned {
		t.Errorf("a symlink inside the root: its target was not written: %q", got)
	}
	if lt, err := os.Lstat(s.path("docs/inside.md")); err != nil || lt.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink inside the root was replaced by a file: %v %v", lt, err)
	}
	s.noTempFiles()

	// The remedies work as given.
	if err := os.Chmod(s.path("docs/readonly.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	copyName := s.path("docs/hard.md") + ".copy"
	if b, err := os.ReadFile(s.path("docs/hard.md")); err != nil || os.WriteFile(copyName, b, 0o644) != nil || os.Rename(copyName, s.path("docs/hard.md")) != nil {
		t.Fatal("cp && mv failed")
	}
	if _, stderr, code := pinRunIn("pin", "--write", "--root", s.dir, s.path("docs/readonly.md"), s.path("docs/hard.md")); code != 0 {
		t.Fatalf("after the remedies: exit %d\n%s", code, stderr)
	}
	if s.read("docs/readonly.md") != pinned || s.read("docs/hard.md") != pinned || s.read("other-name.md") != link {
		t.Errorf("after the remedies the files are not as expected")
	}
}
