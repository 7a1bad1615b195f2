package main

import (
	"crypto/md5"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/termsafe"
)

// hookBinary stands for the hook's own textfrag in pre-commit's cache.
const hookBinary = "/home/u/.cache/pre-commit/repo1/golangenv-system/bin/textfrag"

// runAs runs the command in process, as a pre-commit hook when preCommit
// (its executable hookBinary).
func runAs(t *testing.T, preCommit bool, args ...string) (stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, preCommit: preCommit}
	if preCommit {
		e.hookSelf = hookBinary
	}
	code = e.main(args)
	return out.String() + errOut.String(), code
}

// TestPreCommitRemedies: run as a pre-commit hook, where the shell that
// reads the output may have no textfrag, check and pin advise the hooks
// (which internal/integration runs as advised) instead of the command;
// run by hand, they advise the command.
func TestPreCommitRemedies(t *testing.T) {
	dir := t.TempDir()
	old := "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	sum := md5.Sum([]byte(old))
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "",
		"src/a.go":      old,
		"docs/guide.md": "# Guide\n\n[A](../src/a.go#line=2,5;md5=" + hex.EncodeToString(sum[:]) + ")\n",
	})
	lspGit(t, dir, "init", "-q")
	lspGit(t, dir, "add", "-A")
	lspGit(t, dir, "commit", "-q", "-m", "start")
	e2eWrite(t, dir, map[string]string{
		"src/a.go":    strings.Replace(old, "return 1", "return 2", 1), // the quoted text changed
		"docs/new.md": "# New\n\n[A](../src/a.go#line=2,5)\n",          // a new link
	})
	guide, fresh := filepath.Join(dir, "docs/guide.md"), filepath.Join(dir, "docs/new.md")
	for _, c := range []struct {
		args         []string
		hook, byHand string
		wantCode     int
	}{
		{[]string{"check", "--root", dir, guide}, "re-pin with `pre-commit run textfrag-pin`: it follows", "re-pin with `textfrag pin --write --root " + dir + " " + guide + "`", 1},
		{[]string{"check", "--root", dir, fresh}, "pin it with `pre-commit run textfrag-pin`", "then pin it with `textfrag pin --write --root " + dir + " --accept " + fresh + ":3 " + fresh + "`", 0}, // by hand, a new link into a file changed since HEAD is pinned once accepted (TestCheckUnpinnedAdviceOneStep)
		{[]string{"pin", "--write", "--root", dir, guide}, "accept it with `" + hookBinary + " pin --write --root " + dir + " --accept " + guide + ":3`", "accept it with `textfrag pin --write --root " + dir + " --accept " + guide + ":3`", 1},
		{[]string{"pin", "--root", dir, guide}, "accept them one by one with `" + hookBinary + " pin -i --root " + dir + " " + guide + "`, or all whose new place is known with `" + hookBinary + " pin --write --accept-changed --root " + dir + " " + guide + "`", "accept them one by one with `textfrag pin -i --root " + dir + " " + guide + "`, or all whose new place is known with `textfrag pin --write --accept-changed --root " + dir + " " + guide + "`", 1},
		{[]string{"check", "--root", dir, guide}, "accept it or not with `" + hookBinary + " pin -i --root " + dir + " " + guide + "`", "accept it or not with `textfrag pin -i --root " + dir + " " + guide + "`", 1},
		{[]string{"pin", "--check", "--root", dir, fresh}, "not pinned up to date; run `pre-commit run textfrag-pin`", "accept it with `textfrag pin --write --root " + dir + " --accept " + fresh + ":3`", 1}, // by hand a new link into a file changed since HEAD is shown to be read (TestPinByHandUnpinnedFileChanged)
	} {
		out, code := runAs(t, true, c.args...)
		if code != c.wantCode || !strings.Contains(out, c.hook) || strings.Contains(out, "`textfrag pin") {
			t.Errorf("%v as a pre-commit hook: code %d (want %d), want %q and no `textfrag pin …` remedy:\n%s", c.args[0], code, c.wantCode, c.hook, out)
		}
		out, code = runAs(t, false, c.args...)
		if code != c.wantCode || !strings.Contains(out, c.byHand) || strings.Contains(out, "pre-commit run") {
			t.Errorf("%v by hand: code %d (want %d), want %q:\n%s", c.args[0], code, c.wantCode, c.byHand, out)
		}
	}
}

// TestHookRemedy: every pin command a message may advise becomes what
// runs it under pre-commit: pin --write the hook; accepting (one quote,
// quote by quote, all) the hook's own textfrag with the same arguments —
// not the manual hook, which accepts every changed quote (requests' docs:
// "accept it" for one quote of seven accepted all seven) and which a
// project with the two hooks does not have. Without the hook's path, the
// manual hook.
func TestHookRemedy(t *testing.T) {
	const self = "'/c/pre commit/bin/textfrag'"
	for in, want := range map[string]string{
		"re-pin with `textfrag pin --write docs/a.md`: it follows":                         "re-pin with `" + hookPin + "`: it follows",
		"accept it with `textfrag pin --write --accept docs/a.md:3`, or":                   "accept it with `" + self + " pin --write --accept docs/a.md:3`, or",
		"accept it with `textfrag pin --write --root /p --accept 'docs/a b.md:3'`, or":     "accept it with `" + self + " pin --write --root /p --accept 'docs/a b.md:3'`, or",
		"all with `textfrag pin --write --accept-changed docs`":                            "all with `" + self + " pin --write --accept-changed docs`",
		"all with `textfrag pin --write --root /p --accept-changed docs`":                  "all with `" + self + " pin --write --root /p --accept-changed docs`",
		"one by one with `textfrag pin -i docs`.":                                          "one by one with `" + self + " pin -i docs`.",
		"`textfrag link src/a.go:FIRST-LAST --from docs/a.md`":                             "`textfrag link src/a.go:FIRST-LAST --from docs/a.md`",
		"one by one with `textfrag pin -i docs`, or all with `textfrag pin --write docs`.": "one by one with `" + self + " pin -i docs`, or all with `" + hookPin + "`.",
	} {
		if got := hookRemedy(in, self); got != want {
			t.Errorf("%s:\n got %s\nwant %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"accept it with `textfrag pin --write --accept docs/a.md:3`, or": "accept it with `" + hookPinAccept + "`, or",
		"one by one with `textfrag pin -i docs`.":                        "one by one with `" + hookPinAccept + "`.",
		"all with `textfrag pin --write --accept-changed docs`":          "all with `" + hookPinAccept + "`",
	} {
		if got := hookRemedy(in, ""); got != want {
			t.Errorf("without the hook's path: %s:\n got %s\nwant %s", in, got, want)
		}
	}
	// In CI self is "textfrag": accepting stays the command, per quote;
	// it is not taken for pin --write and turned into the hook, which
	// does not accept.
	for in, want := range map[string]string{
		"accept it with `textfrag pin --write --accept docs/a.md:3`, or":                   "accept it with `textfrag pin --write --accept docs/a.md:3`, or",
		"one by one with `textfrag pin -i docs`, or all with `textfrag pin --write docs`.": "one by one with `textfrag pin -i docs`, or all with `" + hookPin + "`.",
		"all with `textfrag pin --write --root /p --accept-changed docs`":                  "all with `textfrag pin --write --root /p --accept-changed docs`",
	} {
		if got := hookRemedy(in, "textfrag"); got != want {
			t.Errorf("in CI: %s:\n got %s\nwant %s", in, got, want)
		}
	}
}

// TestHookSelfInCI: under pre-commit in CI, the hook's own path (the
// runner's cache: /home/runner/.cache/pre-commit/repo…/bin/textfrag) is
// not named, as whoever reads the log cannot run it: accepting is the
// command (textfrag), per quote; on a person's machine it is the path.
func TestHookSelfInCI(t *testing.T) {
	for ci, want := range map[string]string{"true": "textfrag", "1": "textfrag", "false": "", "": ""} {
		t.Setenv("CI", ci)
		got := hookSelf()
		if want == "" {
			exe, _ := os.Executable()
			want = termsafe.ShellWords(exe)
		}
		if got != want {
			t.Errorf("CI=%q: hookSelf() = %q, want %q", ci, got, want)
		}
	}
}

// TestPreCommitPinsNewLinksOnly: as a hook, pin pins a link new in the
// commit, but not one HEAD already had whose file the commit changes: its
// lines may show other text now, so it is a changed quote, which the
// manual hook's --accept-changed (the remedy it prints) pins.
func TestPreCommitPinsNewLinksOnly(t *testing.T) {
	dir := t.TempDir()
	src := "package a\n\nfunc A() int {\n\treturn 1\n}\n"
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "src/a.go": src, "docs/old.md": "[A](../src/a.go#line=2,5)\n"})
	lspGit(t, dir, "init", "-q")
	lspGit(t, dir, "add", "-A")
	lspGit(t, dir, "commit", "-q", "-m", "start")
	now := "package a\n\n// B is new.\nfunc B() {}\n\nfunc A() int {\n\treturn 1\n}\n"
	e2eWrite(t, dir, map[string]string{"src/a.go": now, "docs/new.md": "[A](../src/a.go#line=5,8)\n"})
	out, code := runAs(t, true, "pin", "--write", "--root", dir, filepath.Join(dir, "docs"))
	if code != 1 || !strings.Contains(out, "changed: src/a.go lines 3–5") || !strings.Contains(out, "its file changed since HEAD") ||
		!strings.Contains(out, "accept it with `"+hookBinary+" pin --write --root "+dir+" --accept "+filepath.Join(dir, "docs/old.md")+":1`") {
		t.Fatalf("pin as a hook: exit %d\n%s", code, out)
	}
	if got := e2eRead(t, dir, "docs/old.md"); got != "[A](../src/a.go#line=2,5)\n" {
		t.Errorf("an unpinned link HEAD had was pinned unread: %s", got)
	}
	if got := e2eRead(t, dir, "docs/new.md"); got != "[A](../src/a.go#line=5,8;md5="+md5hex(now)+")\n" {
		t.Errorf("the new link was not pinned: %s", got)
	}
	// The remedy, the hook's textfrag accepting this quote, is followed in
	// process; the manual hook (pin --write --accept-changed) does the same
	// here, where it is the only changed quote.
	if out, code := runAs(t, true, "pin", "--write", "--accept-changed", "--root", dir, filepath.Join(dir, "docs")); code != 0 {
		t.Fatalf("the accept hook: exit %d\n%s", code, out)
	}
	if got := e2eRead(t, dir, "docs/old.md"); got != "[A](../src/a.go#line=2,5;md5="+md5hex(now)+")\n" {
		t.Errorf("accepted, the link reads %s", got)
	}
	// By hand (not a hook) the same: the file changed since HEAD, so pin
	// shows the text and pins it only when accepted.
	e2eWrite(t, dir, map[string]string{"docs/old.md": "[A](../src/a.go#line=2,5)\n"})
	if out, code := runAs(t, false, "pin", "--write", "--root", dir, filepath.Join(dir, "docs")); code != 1 || !strings.Contains(out, "pin does not pin it unread") || e2eRead(t, dir, "docs/old.md") != "[A](../src/a.go#line=2,5)\n" {
		t.Errorf("pin by hand: exit %d\n%s", code, out)
	}
	if out, code := runAs(t, false, "pin", "--write", "--root", dir, "--accept", filepath.Join(dir, "docs/old.md")+":1", filepath.Join(dir, "docs")); code != 0 {
		t.Errorf("pin by hand, accepted: exit %d\n%s", code, out)
	}
}

func e2eRead(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
