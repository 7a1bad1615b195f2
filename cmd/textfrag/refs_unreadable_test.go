package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestRefsDiffUnreadable: a hostile work tree against refs --diff's review
// of links whose file cannot be read. Pinned quotes of files that BASE had
// and that are now a FIFO, a directory or a symbolic link out of the root
// block (deleted), and say the file cannot be read, not that it was
// deleted (it used to say "src/fifo.txt was deleted"). A link to a missing
// file is review. Links refs --diff has no business with stay silent: a
// remote URL, a secret (.env), a plain link without a
// fragment, a GitHub-style #L10 and a fragment that is not RFC 5147's.
func TestRefsDiffUnreadable(t *testing.T) {
	src := numberedSource(1, 9)
	pinned := "#line=2,4;md5=" + md5hex(src) + ")\n"
	s := newPinSite(t, map[string]string{
		"src/fifo.txt": src, "src/dir.txt": src, "src/out.txt": src, ".env": "TOKEN=1\n",
		"docs/p.md": "[fifo](../src/fifo.txt" + pinned + // 1
			"[dir](../src/dir.txt" + pinned + // 2
			"[out](../src/out.txt" + pinned + // 3
			"[missing](../src/nothing.txt#line=1,2)\n" + // 4
			"[remote](https://example.com/nothing.go#line=1,2)\n" + // 5
			"[secret](../.env#line=1,2)\n" + // 6
			"[plain](../src/nothing.go)\n" + // 7
			"[github](../src/nothing.go#L10)\n" + // 8
			"[syntax](../src/nothing.go#line=x)\n", // 9
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	outside := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(outside, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, make := range map[string]func(p string) error{
		"src/fifo.txt": func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"src/dir.txt":  func(p string) error { return os.Mkdir(p, 0o755) },
		"src/out.txt":  func(p string) error { return os.Symlink(outside, p) },
	} {
		if err := os.Remove(s.path(name)); err != nil {
			t.Fatal(err)
		}
		if err := make(s.path(name)); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := s.shell(".", "textfrag refs --diff main", "")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s%s", code, out, errOut)
	}
	for line, want := range map[int]string{
		1: `deleted: quoted in docs/p\.md:1 \(src/fifo\.txt lines 3–4\): src/fifo\.txt cannot be read now \([^)]*not a regular file`,
		2: `deleted: quoted in docs/p\.md:2 \(src/dir\.txt lines 3–4\): src/dir\.txt cannot be read now \(`,
		3: `deleted: quoted in docs/p\.md:3 \(src/out\.txt lines 3–4\): src/out\.txt cannot be read now \(`,
		4: `review: quoted in docs/p\.md:4: the quoted file cannot be read`,
	} {
		if !regexp.MustCompile(`(?m)^[^ ]+: ` + want).MatchString(out) {
			t.Errorf("link %d: no line matching %s:\n%s", line, want, out)
		}
	}
	if strings.Contains(out, "was deleted") {
		t.Errorf("a file that exists is said deleted:\n%s", out)
	}
	for line := 5; line <= 9; line++ {
		if strings.Contains(out, "docs/p.md:"+string(rune('0'+line))) {
			t.Errorf("link %d, which refs --diff does not follow, is a finding:\n%s", line, out)
		}
	}
	if !strings.Contains(errOut, "4 quotes affected") {
		t.Errorf("summary:\n%s", errOut)
	}
}
