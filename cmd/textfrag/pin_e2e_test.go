package main

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// pinSite is a temporary project for one test.
type pinSite struct {
	t    *testing.T
	dir  string
	home string // HOME for git and the binary: no user or system git config
}

func newPinSite(t *testing.T, files map[string]string) *pinSite {
	t.Helper()
	s := &pinSite{t: t, dir: t.TempDir(), home: t.TempDir()}
	for name, content := range files {
		s.write(name, content)
	}
	return s
}

func (s *pinSite) path(name string) string { return filepath.Join(s.dir, filepath.FromSlash(name)) }

func (s *pinSite) write(name, content string) {
	s.t.Helper()
	p := s.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *pinSite) read(name string) string {
	s.t.Helper()
	b, err := os.ReadFile(s.path(name))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

func (s *pinSite) env() []string {
	return append(os.Environ(),
		"HOME="+s.home, "XDG_CONFIG_HOME="+s.home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Pin Test", "GIT_AUTHOR_EMAIL=pin@example.com",
		"GIT_COMMITTER_NAME=Pin Test", "GIT_COMMITTER_EMAIL=pin@example.com",
	)
}

// run runs the built textfrag in the site's directory.
func (s *pinSite) run(args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	return s.runWith(nil, "", args...)
}

// runWith runs the built textfrag in the site's directory with extra
// environment variables and stdin.
func (s *pinSite) runWith(extra []string, stdin string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	cmd := exec.Command(e2eBin(s.t), args...)
	cmd.Dir = s.dir
	cmd.Env = append(s.env(), extra...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		s.t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// git runs git in the site, with an identity given on the command line too.
func (s *pinSite) git(args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Pin Test", "-c", "user.email=pin@example.com", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Dir = s.dir
	cmd.Env = s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *pinSite) commit(msg string) {
	s.t.Helper()
	s.git("add", "-A")
	s.git("commit", "-q", "-m", msg)
}

// noTempFiles fails if pin left a temporary file anywhere in the site.
func (s *pinSite) noTempFiles() {
	s.t.Helper()
	filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".textfrag-pin-") {
			s.t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func latin1MD5(t *testing.T, s string) string {
	t.Helper()
	b, err := charmap.ISO8859_1.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return md5hex(b)
}

// numberedSource is a source file of n lines with non-ASCII text.
func numberedSource(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "// line %d é\n", i)
	}
	return b.String()
}

// pinDoc is a Markdown page with a BOM, CRLF line endings, trailing spaces,
// non-ASCII text, no final line ending, and links in code that are not links.
const pinDoc = "\uFEFF# Pïn tëst  \r\n" +
	"\r\n" +
	"Intro with trailing spaces   \r\n" +
	"\r\n" +
	"[handler](../src/a.go#line=10,20 \"dedent\")\r\n" +
	"\r\n" +
	"Inline `[not](../src/a.go#line=1,2)` stays.\r\n" +
	"\r\n" +
	"```\r\n" +
	"[not](../src/a.go#line=3)\r\n" +
	"```\r\n" +
	"\r\n" +
	"Ünïcödé tail: [x](../src/a.go#char=0,4)"

func TestPinE2ERoundTrip(t *testing.T) {
	src := numberedSource(1, 30)
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": pinDoc})
	if err := os.Chmod(s.path("docs/a.md"), 0o640); err != nil {
		t.Fatal(err)
	}
	sum := md5hex(src)
	want := strings.Replace(pinDoc, "#line=10,20 ", "#line=10,20;md5="+sum+" ", 1)
	want = strings.Replace(want, "#char=0,4)", "#char=0,4;md5="+sum+")", 1)

	// Without --write: the diff, exactly, and nothing written.
	stdout, stderr, code := s.run("pin", "docs")
	wantDiff := "--- a/docs/a.md\n+++ b/docs/a.md\n" +
		"@@ -2,7 +2,7 @@\n" +
		" \r\n" +
		" Intro with trailing spaces   \r\n" +
		" \r\n" +
		"-[handler](../src/a.go#line=10,20 \"dedent\")\r\n" +
		"+[handler](../src/a.go#line=10,20;md5=" + sum + " \"dedent\")\r\n" +
		" \r\n" +
		" Inline `[not](../src/a.go#line=1,2)` stays.\r\n" +
		" \r\n" +
		"@@ -10,4 +10,4 @@\n" +
		" [not](../src/a.go#line=3)\r\n" +
		" ```\r\n" +
		" \r\n" +
		"-Ünïcödé tail: [x](../src/a.go#char=0,4)\n" +
		"\\ No newline at end of file\n" +
		"+Ünïcödé tail: [x](../src/a.go#char=0,4;md5=" + sum + ")\n" +
		"\\ No newline at end of file\n"
	if code != 0 || stdout != wantDiff {
		t.Fatalf("pin: exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, wantDiff, stderr)
	}
	wantReport := "docs/a.md:5:1: pinned: src/a.go lines 11–20 md5=" + sum + "\n" +
		"docs/a.md:13:15: pinned: src/a.go line 1, col 1 – line 1, col 4 md5=" + sum + "\n" +
		"pin: 0 refreshed, 0 moved, 0 changed, 0 gone, 0 review, 2 unpinned\n" +
		"  refreshed, moved, unpinned (2): the same text, nothing to review: `textfrag pin --write docs`\n" +
		"textfrag: pin: 1 file would change; run with --write to apply: `textfrag pin --write docs`\n"
	if stderr != wantReport {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, wantReport)
	}
	if got := s.read("docs/a.md"); got != pinDoc {
		t.Fatal("pin without --write changed the file")
	}
	if _, _, code := s.run("pin", "--check", "docs"); code != 1 {
		t.Errorf("pin --check with pending changes: exit %d, want 1", code)
	}

	// With --write: the file is the original but for the two destinations.
	stdout, stderr, code = s.run("pin", "--write", "docs")
	if code != 0 || stdout != "" {
		t.Fatalf("pin --write: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if got := s.read("docs/a.md"); got != want {
		t.Fatalf("after pin --write:\n%q\nwant:\n%q", got, want)
	}
	if info, err := os.Stat(s.path("docs/a.md")); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode after rewrite: %v %v, want 0640", info.Mode(), err)
	}
	s.noTempFiles()

	// Pinned: nothing more to do, and the links verify.
	if stdout, stderr, code := s.run("pin", "--check", "-v", "docs"); code != 0 || stdout != "" ||
		!strings.Contains(stderr, "docs/a.md:5:1: ok: src/a.go lines 11–20\n") {
		t.Errorf("pin --check after --write: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if stdout, stderr, code := s.run("resolve", "src/a.go#line=10,20;md5="+sum); code != 0 || stdout != numberedSource(11, 20) {
		t.Errorf("resolve: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if stdout, stderr, code := s.run("check", "docs"); code != 0 {
		t.Errorf("check after pin: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestPinE2EChecks covers checks other than a missing md5: a wrong length
// next to a right md5, charset-qualified checks, unknown checks and leading
// zeros kept as written, and a stale length with no md5 to go by.
func TestPinE2EChecks(t *testing.T) {
	src := numberedSource(1, 5)
	sum := md5hex(src)
	l1 := latin1MD5(t, src)
	n := len([]rune(src))
	doc := fmt.Sprintf("[a](../src/a.go#line=01,2;md5=%s;length=7;sha256=abc)\n\n", strings.ToUpper(sum)) +
		fmt.Sprintf("[b](../src/a.go#line=1;length=%d,latin1)\n\n", n) +
		"[c](../src/a.go#line=2;length=3)\n\n" +
		"[d](../src/a.go#line=2;md5=" + l1 + ",ISO-8859-1;length=1,ISO-8859-1)\n"
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": doc})
	_, stderr, code := s.run("pin", "--write", "docs")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (link c changed without --accept-changed)\n%s", code, stderr)
	}
	want := fmt.Sprintf("[a](../src/a.go#line=01,2;md5=%s;length=%d;sha256=abc)\n\n", strings.ToUpper(sum), n) +
		fmt.Sprintf("[b](../src/a.go#line=1;length=%d,latin1;md5=%s)\n\n", n, sum) +
		"[c](../src/a.go#line=2;length=3)\n\n" +
		fmt.Sprintf("[d](../src/a.go#line=2;md5=%s,ISO-8859-1;length=%d,ISO-8859-1)\n", l1, n)
	if got := s.read("docs/a.md"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	for _, w := range []string{
		fmt.Sprintf("docs/a.md:1:1: refreshed: src/a.go line 2: length=7 → length=%d (the md5 matches", n),
		"docs/a.md:3:1: pinned: src/a.go before line 2 md5=" + sum,
		fmt.Sprintf("docs/a.md:5:1: review: src/a.go before line 3: length=3 → length=%d; without an md5", n),
		"docs/a.md:7:1: refreshed: src/a.go before line 3: length=1,ISO-8859-1 → length=" + fmt.Sprint(n) + ",ISO-8859-1",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	// Without an md5, pin cannot tell what link c quoted: review, which
	// --accept-changed never re-pins; the remedy is to read the text,
	// remove length= and pin.
	if _, stderr, code := s.run("pin", "--write", "--accept-changed", "docs"); code != 1 || !strings.Contains(stderr, "remove the link's length= and run `textfrag pin --write docs/a.md`") {
		t.Fatalf("--accept-changed: exit %d\n%s", code, stderr)
	}
	if got := s.read("docs/a.md"); !strings.Contains(got, "[c](../src/a.go#line=2;length=3)") {
		t.Errorf("link c re-pinned without review:\n%s", got)
	}
	s.write("docs/a.md", strings.Replace(s.read("docs/a.md"), "[c](../src/a.go#line=2;length=3)", "[c](../src/a.go#line=2)", 1))
	if _, stderr, code := s.run("pin", "--write", "docs/a.md"); code != 0 {
		t.Fatalf("the remedy: exit %d\n%s", code, stderr)
	}
	if got := s.read("docs/a.md"); !strings.Contains(got, fmt.Sprintf("[c](../src/a.go#line=2;md5=%s)", sum)) {
		t.Errorf("link c not re-pinned:\n%s", got)
	}
	if stdout, stderr, code := s.run("check", "docs"); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestPinE2ERelocation pins a link in a real git repository, then moves,
// edits and removes the text it quotes.
func TestPinE2ERelocation(t *testing.T) {
	src := numberedSource(1, 30)
	doc := "# Doc\n\n[handler](../src/a.go#line=10,20) and [word](../src/a.go#char=30,40)\n\n" +
		"[latin]: ../src/a.go#line=2,3;md5=" + latin1MD5(t, src) + ",latin1;sha256=keep\n"
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": doc})
	s.git("init", "-q")
	s.commit("start")
	if _, stderr, code := s.run("pin", "--write", "docs"); code != 0 {
		t.Fatalf("first pin: exit %d\n%s", code, stderr)
	}
	sum := md5hex(src)
	if got := s.read("docs/a.md"); !strings.Contains(got, "#line=10,20;md5="+sum+")") || !strings.Contains(got, "#char=30,40;md5="+sum+")") {
		t.Fatalf("not pinned:\n%s", got)
	}
	s.commit("pin")

	// moved: three lines inserted above the quoted text.
	moved := "// new 1\n// new 2\n// new 3\n" + src
	s.write("src/a.go", moved)
	s.commit("insert lines")
	stdout, stderr, code := s.run("pin", "docs")
	msum := md5hex(moved)
	wantDiff := "--- a/docs/a.md\n+++ b/docs/a.md\n@@ -1,5 +1,5 @@\n # Doc\n \n" +
		"-[handler](../src/a.go#line=10,20;md5=" + sum + ") and [word](../src/a.go#char=30,40;md5=" + sum + ")\n" +
		"+[handler](../src/a.go#line=13,23;md5=" + msum + ") and [word](../src/a.go#char=57,67;md5=" + msum + ")\n" +
		" \n" +
		"-[latin]: ../src/a.go#line=2,3;md5=" + latin1MD5(t, src) + ",latin1;sha256=keep\n" +
		"+[latin]: ../src/a.go#line=5,6;md5=" + latin1MD5(t, moved) + ",latin1;sha256=keep\n"
	if code != 0 || stdout != wantDiff {
		t.Fatalf("moved: exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, wantDiff, stderr)
	}
	wantReport := "docs/a.md:3:1: moved: src/a.go lines 11–20 → lines 14–23\n" +
		"docs/a.md:3:76: moved: src/a.go line 3, col 7 – line 4, col 4 → line 6, col 7 – line 7, col 4\n" +
		"docs/a.md:5:1: moved: src/a.go line 3 → line 6\n" +
		"pin: 0 refreshed, 3 moved, 0 changed, 0 gone, 0 review, 0 unpinned\n" +
		"  refreshed, moved, unpinned (3): the same text, nothing to review: `textfrag pin --write docs`\n" +
		"textfrag: pin: 1 file would change; run with --write to apply: `textfrag pin --write docs`\n"
	if stderr != wantReport {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, wantReport)
	}
	if _, stderr, code := s.run("pin", "--write", "docs"); code != 0 {
		t.Fatalf("pin --write after move: exit %d\n%s", code, stderr)
	}
	if stdout, stderr, code := s.run("check", "docs"); code != 0 {
		t.Fatalf("check after move: exit %d\n%s%s", code, stdout, stderr)
	}
	s.commit("re-pin")

	// changed: a quoted line edited (in the work tree only: the pinned
	// version is in HEAD).
	changed := strings.Replace(moved, "// line 15 é\n", "// line fifteen é\n", 1)
	s.write("src/a.go", changed)
	stdout, stderr, code = s.run("pin", "--write", "docs")
	if code != 1 || stdout != "" {
		t.Fatalf("changed without --accept-changed: exit %d (want 1), stdout %q\n%s", code, stdout, stderr)
	}
	for _, w := range []string{
		"docs/a.md:3:1: changed: src/a.go lines 14–23 → lines 14–23: the quoted text changed since it was pinned (the md5 is of commit ",
		"\n      // line 14 é\n    - // line 15 é\n    + // line fifteen é\n      // line 16 é\n",
		"; read the diff below, then accept it with `textfrag pin --write --accept docs/a.md:3:1` (quote ", // another link starts on line 3
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if !strings.Contains(s.read("docs/a.md"), "#line=13,23;md5="+md5hex(moved)+")") {
		t.Fatalf("a changed link was rewritten without --accept-changed:\n%s", s.read("docs/a.md"))
	}
	if _, stderr, code := s.run("pin", "--write", "--accept-changed", "docs"); code != 0 {
		t.Fatalf("--accept-changed: exit %d\n%s", code, stderr)
	}
	if got := s.read("docs/a.md"); !strings.Contains(got, "#line=13,23;md5="+md5hex(changed)+")") {
		t.Fatalf("changed link not re-pinned:\n%s", got)
	}
	if stdout, stderr, code := s.run("check", "docs"); code != 0 {
		t.Fatalf("check after --accept-changed: exit %d\n%s%s", code, stdout, stderr)
	}
	s.commit("accept")

	// moved across a rename: git log --follow finds the old name.
	s.git("mv", "src/a.go", "src/b.go")
	renamed := "// renamed\n" + changed
	s.write("src/b.go", renamed)
	s.commit("rename")
	s.write("docs/a.md", strings.ReplaceAll(s.read("docs/a.md"), "src/a.go", "src/b.go"))
	if _, stderr, code := s.run("pin", "--write", "docs"); code != 0 || !strings.Contains(stderr, "moved: src/b.go lines 14–23 → lines 15–24") {
		t.Fatalf("after rename: exit %d\n%s", code, stderr)
	}
	if stdout, stderr, code := s.run("check", "docs"); code != 0 {
		t.Fatalf("check after rename: exit %d\n%s%s", code, stdout, stderr)
	}

	// review: an md5 that no version ever had.
	s.write("docs/b.md", "[x](../src/b.go#line=1,2;md5=00000000000000000000000000000000)\n")
	stdout, stderr, code = s.run("pin", "--write", "docs/b.md")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "docs/b.md:1:1: review: src/b.go line 2: the file no longer has md5=00000000000000000000000000000000, and no version of the file git still has") {
		t.Errorf("unknown md5: exit %d, stdout %q\n%s", code, stdout, stderr)
	}

	// gone: the target deleted.
	s.git("rm", "-q", "src/b.go")
	s.commit("delete")
	stdout, stderr, code = s.run("pin", "docs/a.md")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "docs/a.md:3:1: gone: src/b.go: the target file no longer exists") {
		t.Errorf("deleted target: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
}

// TestPinE2EQuotedTextDeletedOrRewritten covers history that no longer holds
// the pinned version, and quoted lines that were removed.
func TestPinE2EQuotedTextDeletedOrRewritten(t *testing.T) {
	src := numberedSource(1, 30)
	sum := md5hex(src)
	doc := "[h](../src/a.go#line=10,20;md5=" + sum + ")\n"
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": doc})
	s.git("init", "-q")
	s.commit("start")

	// The quoted lines deleted: gone.
	s.write("src/a.go", numberedSource(1, 10)+numberedSource(21, 30))
	_, stderr, code := s.run("pin", "docs")
	if code != 1 || !strings.Contains(stderr, "docs/a.md:1:1: gone: src/a.go lines 11–20: the quoted text (lines 11–20 in commit ") ||
		!strings.Contains(stderr, ") was deleted") {
		t.Errorf("deleted text: exit %d\n%s", code, stderr)
	}

	// History rewritten so that no commit has the pinned version: review
	// (pin cannot tell whether the text moved or changed).
	s.write("src/a.go", "// other\n"+src)
	branch := strings.TrimSpace(s.git("rev-parse", "--abbrev-ref", "HEAD"))
	s.git("checkout", "-q", "--orphan", "fresh")
	s.commit("rewritten history")
	s.git("branch", "-q", "-D", branch)
	s.git("reflog", "expire", "--expire=now", "--all")
	s.git("gc", "-q", "--prune=now")
	_, stderr, code = s.run("pin", "docs")
	if code != 1 || !strings.Contains(stderr, "docs/a.md:1:1: review: src/a.go lines 11–20: the file no longer has md5="+sum+", and no version of the file git still has") {
		t.Errorf("rewritten history: exit %d\n%s", code, stderr)
	}
	if s.read("docs/a.md") != doc {
		t.Error("a review link was rewritten")
	}

	// No repository at all: review, saying why.
	s2 := newPinSite(t, map[string]string{"src/a.go": "// other\n" + src, "docs/a.md": doc})
	_, stderr, code = s2.run("pin", "docs")
	if code != 1 || !strings.Contains(stderr, "no history is available to find the version that had it (not in a git repository)") {
		t.Errorf("no repository: exit %d\n%s", code, stderr)
	}
}

// TestPinE2EHistoryWithGapsAndSpaces follows a file whose name has a space
// through a commit that deleted it, to the version a link was pinned to.
func TestPinE2EHistoryWithGapsAndSpaces(t *testing.T) {
	src := numberedSource(1, 10)
	doc := "[s](<../src/my file.go#line=2,4;md5=" + md5hex(src) + ">) and [p](../src/my%20file.go#line=6,7;md5=" + md5hex(src) + ")\n"
	s := newPinSite(t, map[string]string{"src/my file.go": src, "docs/a.md": doc})
	s.git("init", "-q")
	s.commit("start")
	s.git("rm", "-q", "src/my file.go")
	s.commit("delete")
	back := "// back\n" + src
	s.write("src/my file.go", back)
	s.commit("back again")
	stdout, stderr, code := s.run("pin", "--write", "docs")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	want := "[s](<../src/my file.go#line=3,5;md5=" + md5hex(back) + ">) and [p](../src/my%20file.go#line=7,8;md5=" + md5hex(back) + ")\n"
	if got := s.read("docs/a.md"); got != want {
		t.Errorf("got  %q\nwant %q\n%s", got, want, stderr)
	}
	if stdout, stderr, code := s.run("check", "docs"); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestPinE2EDocsQuotingDocs pins a page that quotes another page whose own
// links pin rewrites: one pin --write run settles both.
func TestPinE2EDocsQuotingDocs(t *testing.T) {
	s := newPinSite(t, map[string]string{
		"src/a.go":   numberedSource(1, 5),
		"docs/a.md":  "# A\n\n[quote of b](b.md#line=2,3)\n",
		"docs/b.md":  "# B\nplain line\nanother\n[code](../src/a.go#line=1,2)\n",
		"docs/zz.md": "[quote of a](a.md#line=0,1)\n",
	})
	_, stderr, code := s.run("pin", "--write", "docs")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if stdout, stderr, code := s.run("check", "docs"); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := s.run("pin", "--check", "docs"); code != 0 {
		t.Errorf("pin --check after pin --write: exit %d\n%s", code, stderr)
	}
}

// pinRunIn runs textfrag in this process, so that tests can use hooks.
func pinRunIn(args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = e.main(args)
	return out.String(), errOut.String(), code
}

// TestPinRefusesFileChangedDuringWrite changes the Markdown file between
// pin reading it and replacing it: pin must not overwrite the change.
func TestPinRefusesFileChangedDuringWrite(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/a.go": numberedSource(1, 5), "docs/a.md": "[a](../src/a.go#line=1,2)\n"})
	edited := "[a](../src/a.go#line=1,2)\nA line the author added meanwhile.\n"
	calls := 0
	beforeRename = func(path string) error {
		calls++
		return os.WriteFile(path, []byte(edited), 0o644)
	}
	defer func() { beforeRename = nil }()
	stdout, stderr, code := pinRunIn("pin", "--write", "--root", s.dir, s.path("docs"))
	if code != 1 || stdout != "" || calls != 1 || !strings.Contains(stderr, "the file changed while pin was working on it; it was left untouched") {
		t.Fatalf("exit %d, %d hook calls, stdout %q\nstderr:\n%s", code, calls, stdout, stderr)
	}
	if got := s.read("docs/a.md"); got != edited {
		t.Errorf("the change made meanwhile was lost:\n%s", got)
	}
	s.noTempFiles()
}

// TestPinWriteFailureLeavesOriginal makes the write fail just before the
// rename: the original stays as it was and no temporary file is left.
func TestPinWriteFailureLeavesOriginal(t *testing.T) {
	orig := "[a](../src/a.go#line=1,2)\r\n"
	s := newPinSite(t, map[string]string{"src/a.go": numberedSource(1, 5), "docs/a.md": orig, "docs/b.md": "[b](../src/a.go#line=3)\n"})
	beforeRename = func(path string) error {
		if filepath.Base(path) == "a.md" {
			return errors.New("injected failure")
		}
		return nil
	}
	defer func() { beforeRename = nil }()
	_, stderr, code := pinRunIn("pin", "--write", "--root", s.dir, s.path("docs"))
	if code != 1 || !strings.Contains(stderr, "a.md: not written: injected failure") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if got := s.read("docs/a.md"); got != orig {
		t.Errorf("original changed: %q", got)
	}
	if got := s.read("docs/b.md"); !strings.Contains(got, ";md5=") {
		t.Errorf("the other file was not written: %q", got)
	}
	s.noTempFiles()
}

// TestPinRefusesUnlocatableDestination: raw HTML in the link text hides a
// ']' from pin's scan, so the destination's bytes cannot be found where the
// link syntax puts them; pin reports the link instead of guessing.
func TestPinRefusesUnlocatableDestination(t *testing.T) {
	doc := "[html <span title=\"]\">x</span>](../src/a.go#line=1,2) and [fine](../src/a.go#line=2,3)\n"
	s := newPinSite(t, map[string]string{"src/a.go": numberedSource(1, 5), "docs/a.md": doc})
	_, stderr, code := pinRunIn("pin", "--write", "--root", s.dir, s.path("docs/a.md"))
	if code != 1 || !strings.Contains(stderr, "a.md:1:1: error: ../src/a.go#line=1,2: cannot find this destination in the file") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	want := strings.Replace(doc, "#line=2,3)", "#line=2,3;md5="+md5hex(numberedSource(1, 5))+")", 1)
	if got := s.read("docs/a.md"); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestPinUsage(t *testing.T) {
	if _, _, code := pinRunIn("pin", "--write", "--check"); code != exitUsage {
		t.Errorf("--write --check: exit %d, want %d", code, exitUsage)
	}
	if _, _, code := pinRunIn("pin", "--nope"); code != exitUsage {
		t.Errorf("unknown flag: exit %d, want %d", code, exitUsage)
	}
	if _, stderr, code := pinRunIn("pin", filepath.Join(t.TempDir(), "missing")); code != exitError || !strings.Contains(stderr, "missing") {
		t.Errorf("missing path: exit %d\n%s", code, stderr)
	}
}
