package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rawControl returns the first control character of s that a terminal would
// act on (C0 but tab and newline, DEL, C1 in UTF-8, and ESC), or -1.
func rawControl(s string) rune {
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || 0x80 <= r && r <= 0x9f {
			return r
		}
	}
	return -1
}

// TestPinTerminalEscapes: a page whose name and lines hold terminal control
// sequences (clear the screen, set the window title, a bare carriage return
// that hides what precedes it, a line break in the name) must not reach the
// terminal raw, neither in the diff pin prints nor in its reports, with or
// without --write; the diff keeps its lines, tabs and changes readable.
func TestPinTerminalEscapes(t *testing.T) {
	dir := t.TempDir()
	name := "evil\x1b[2J\nname.md"
	page := "# Title\x1b]0;pwned\x07\n" +
		"fake\rreal\tcol\n\n" +
		"[q](src/a.go#line=0,1)\n"
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "src/a.go": "a\nb\n"})
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runAs(t, false, "pin", "--root", dir, path)
	if r := rawControl(out); r >= 0 || code != 0 {
		t.Fatalf("pin (a diff): exit %d, a raw control character %U reached the terminal:\n%q", code, r, out)
	}
	for _, want := range []string{
		`evil\x1b[2J\nname.md`,                                   // the name, escaped, in headers and reports
		"\n # Title\\x1b]0;pwned\\a\n",                           // a context line, escaped
		"\n fake\\rreal\tcol\n",                                  // a bare CR escaped, the tab kept
		"\n-[q](src/a.go#line=0,1)\n+[q](src/a.go#line=0,1;md5=", // the change itself
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pin's diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "\n+++ b/") != 1 || !strings.Contains(out, "--- a/"+strings.TrimPrefix(filepath.ToSlash(dir), "/")+`/evil\x1b[2J\nname.md`+"\n") {
		t.Errorf("the diff's headers are not one line each:\n%s", out)
	}
	// The remedy pin prints names the page so that a shell finds it.
	i := strings.Index(out, "`textfrag pin --write")
	if i < 0 {
		t.Fatalf("no remedy:\n%s", out)
	}
	remedy := strings.TrimSuffix(out[i+1:i+strings.Index(out[i:], "`\n")], "`")
	if bash, err := exec.LookPath("bash"); err == nil {
		words := strings.TrimPrefix(remedy, "textfrag pin --write --root "+pinShellWords([]string{dir})+" ")
		got, err := exec.Command(bash, "-c", "printf %s "+words).Output()
		if err != nil || string(got) != path { // printf %s prints the word as the shell read it
			t.Errorf("the remedy's path %s reads back as %q (%v), want %q", words, got, err, path)
		}
	}

	out, code = runAs(t, false, "pin", "--write", "--root", dir, path)
	if r := rawControl(out); r >= 0 || code != 0 || strings.Contains(out, "evil\x1b") || !strings.Contains(out, `evil\x1b[2J\nname.md:4:1: pinned`) {
		t.Errorf("pin --write: exit %d, a raw control character %U, or the page not named escaped:\n%q", code, r, out)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "fake\rreal\tcol\n") || !strings.Contains(string(b), ";md5=") {
		t.Errorf("pin --write changed more than the link, or not it:\n%q", b)
	}
}

// TestPinMissingFileEscapes: what pin says of links to files that are
// missing — deleted by a commit (missing.go names the commit), never
// there, or rooted at / (rootedAdvice names the root and the remedy) —
// names the file as the link spells it, percent-decoded into control
// characters, escaped.
func TestPinMissingFileEscapes(t *testing.T) {
	dir := t.TempDir()
	evil := "gone\x1b[2J\x07.txt"
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", evil: "a\nb\n", "keep.txt": "k\n"})
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@x", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	git("rm", "-q", evil)
	git("commit", "-qm", "v2")
	page := "[a](gone%1B%5B2J%07.txt#line=0,1;md5=0123456789abcdef0123456789abcdef)\n" +
		"[b](never%1B%5D0%3Bx%07.txt#line=0,1;md5=0123456789abcdef0123456789abcdef)\n" +
		"[c](/rooted%1B%5B2J.txt#line=0,1;md5=0123456789abcdef0123456789abcdef)\n"
	path := filepath.Join(dir, "p.md")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := runAs(t, false, "pin", "--root", dir, path)
	if r := rawControl(out); r >= 0 {
		t.Fatalf("a raw control character %U reached the terminal:\n%q", r, out)
	}
	for _, want := range []string{"no longer exists (commit", `never\x1b]0;x\a.txt`, `rooted\x1b[2J.txt`} {
		if !strings.Contains(out, want) {
			t.Errorf("pin's report lacks %q:\n%s", want, out)
		}
	}
}
