package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// TestRefsDiffUnpinnedFirst: one page, a pinned quote the change moved and
// an unpinned one whose lines it shifted. The moved quote's remedy, pin
// --write on the page, pins every link of it: run first, it pins the
// unpinned link at the lines it shows now, other text than its author
// quoted (shown here). So the moved quote's message and the summary say to
// fix the unpinned link first; followed in that order, both links quote
// their text.
func TestRefsDiffUnpinnedFirst(t *testing.T) {
	src := numberedSource(1, 9)
	page := "[a](../src/a.txt#line=1,3;md5=" + md5hex(src) + ")\n[b](../src/a.txt#line=5,6)\n"
	s := newPinSite(t, map[string]string{"src/a.txt": src, "docs/p.md": page})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	now := "// new top\n" + src
	s.write("src/a.txt", now)
	out, errOut, _ := s.shell(".", "textfrag refs --diff main", "")
	if !strings.Contains(out, "`textfrag pin --write docs/p.md` updates the link; but first fix the link without md5 on line 2 of the page") {
		t.Errorf("the moved quote's remedy does not say to fix the unpinned link first:\n%s", out)
	}
	if !strings.Contains(errOut, "refreshed, moved (1): the same text, nothing to review: `textfrag pin --write docs/p.md`, once the unpinned quotes above are fixed") {
		t.Errorf("summary:\n%s", errOut)
	}
	fix := "../src/a.txt#line=6,7"
	if !strings.Contains(out, "change the link to "+fix) {
		t.Fatalf("the unpinned quote's fix is not %s:\n%s", fix, out)
	}

	// Out of order: pin no longer pins b at lines 6, the old line 5
	// (other text): its file changed since HEAD, so pin shows the text
	// and waits for a person to accept it.
	if _, errOut, code := s.shell(".", "textfrag pin --write docs/p.md", ""); code != 1 || !strings.Contains(errOut, "docs/p.md:2:1: changed: ") {
		t.Fatalf("pin: exit %d\n%s", code, errOut)
	}
	if got := s.read("docs/p.md"); strings.Contains(got, "[b](../src/a.txt#line=5,6;md5=") {
		t.Fatalf("pin pinned the unpinned link unread: %s", got)
	}

	// In order: b as its message says, then pin, accepting b.
	s.write("docs/p.md", strings.Replace(page, "../src/a.txt#line=5,6", fix, 1))
	if _, errOut, code := s.shell(".", "textfrag pin --write --accept docs/p.md:2 docs/p.md", ""); code != 0 {
		t.Fatalf("pin: exit %d\n%s", code, errOut)
	}
	want := "[a](../src/a.txt#line=2,4;md5=" + md5hex(now) + ")\n[b](../src/a.txt#line=6,7;md5=" + md5hex(now) + ")\n"
	if got := s.read("docs/p.md"); got != want {
		t.Errorf("docs/p.md:\n%s\nwant\n%s", got, want)
	}
}

// TestRefsDiffAcceptSharedLine: two changed quotes on one line of a page.
// Each one's remedy accepts that quote alone: PAGE:LINE:COLUMN, as pin
// words it. With PAGE:LINE (as refs --diff wrote it) pin accepted both,
// the one whose message the reader had not read included.
func TestRefsDiffAcceptSharedLine(t *testing.T) {
	src := numberedSource(1, 20)
	sum := md5hex(src)
	page := "[a](../src/a.txt#line=2,4;md5=" + sum + ") and [b](../src/a.txt#line=10,12;md5=" + sum + ")\n"
	s := newPinSite(t, map[string]string{"textfrag.toml": "", "src/a.txt": src, "docs/p.md": page})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	now := replaceLine(replaceLine(src, 3, "// line three\n"), 11, "// line eleven\n")
	s.write("src/a.txt", now)
	out, errOut, _ := s.shell(".", "textfrag refs --diff main", "")
	accepts := regexp.MustCompile("accept the new text with `([^`]*)`").FindAllStringSubmatch(out, -1)
	if len(accepts) != 2 || accepts[0][1] != "textfrag pin --write --accept docs/p.md:1:1" || accepts[1][1] != "textfrag pin --write --accept docs/p.md:1:"+strconv.Itoa(strings.Index(page, "[b]")+1) {
		t.Fatalf("remedies %q:\n%s%s", accepts, out, errOut)
	}
	// The first remedy, as printed: a is re-pinned, b is not.
	if _, errOut, code := s.shell(".", accepts[0][1], ""); code != 1 {
		t.Fatalf("%s: exit %d (want 1: b still changed)\n%s", accepts[0][1], code, errOut)
	}
	want := "[a](../src/a.txt#line=2,4;md5=" + md5hex(now) + ") and [b](../src/a.txt#line=10,12;md5=" + sum + ")\n"
	if got := s.read("docs/p.md"); got != want {
		t.Errorf("docs/p.md:\n%s\nwant\n%s", got, want)
	}
}
