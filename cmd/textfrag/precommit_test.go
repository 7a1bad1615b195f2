package main

import (
	"crypto/md5"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runAs runs the command in process, as a pre-commit hook when preCommit.
func runAs(t *testing.T, preCommit bool, args ...string) (stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, preCommit: preCommit}
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
		{[]string{"check", "--root", dir, fresh}, "pin it with `pre-commit run textfrag-pin`", "pin it with `textfrag pin --write --root " + dir + " " + fresh + "`", 0},
		{[]string{"pin", "--write", "--root", dir, guide}, "accept it with `pre-commit run --hook-stage manual textfrag-pin-accept`", "accept it with `textfrag pin --write --root " + dir + " --accept " + guide + ":3`", 1},
		{[]string{"pin", "--check", "--root", dir, fresh}, "not pinned up to date; run `pre-commit run textfrag-pin`", "not pinned up to date; run `textfrag pin --write --root", 1},
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

// TestHookRemedy: every pin command a message may advise becomes the hook
// that runs it; accepting (per quote, all, or -i) is the manual hook's.
func TestHookRemedy(t *testing.T) {
	for in, want := range map[string]string{
		"re-pin with `textfrag pin --write docs/a.md`: it follows":       "re-pin with `" + hookPin + "`: it follows",
		"accept it with `textfrag pin --write --accept docs/a.md:3`, or": "accept it with `" + hookPinAccept + "`, or",
		"all with `textfrag pin --write --accept-changed docs`":          "all with `" + hookPinAccept + "`",
		"one by one with `textfrag pin -i docs`.":                        "one by one with `" + hookPinAccept + "`.",
		"`textfrag link src/a.go:FIRST-LAST --from docs/a.md`":           "`textfrag link src/a.go:FIRST-LAST --from docs/a.md`",
	} {
		if got := hookRemedy(in); got != want {
			t.Errorf("%s:\n got %s\nwant %s", in, got, want)
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
		!strings.Contains(out, "accept it with `"+hookPinAccept+"`") {
		t.Fatalf("pin as a hook: exit %d\n%s", code, out)
	}
	if got := e2eRead(t, dir, "docs/old.md"); got != "[A](../src/a.go#line=2,5)\n" {
		t.Errorf("an unpinned link HEAD had was pinned unread: %s", got)
	}
	if got := e2eRead(t, dir, "docs/new.md"); got != "[A](../src/a.go#line=5,8;md5="+md5hex(now)+")\n" {
		t.Errorf("the new link was not pinned: %s", got)
	}
	// The remedy: the manual hook, pin --write --accept-changed.
	if out, code := runAs(t, true, "pin", "--write", "--accept-changed", "--root", dir, filepath.Join(dir, "docs")); code != 0 {
		t.Fatalf("the accept hook: exit %d\n%s", code, out)
	}
	if got := e2eRead(t, dir, "docs/old.md"); got != "[A](../src/a.go#line=2,5;md5="+md5hex(now)+")\n" {
		t.Errorf("accepted, the link reads %s", got)
	}
	// By hand (not a hook), pin pins what it is asked to, as ever.
	e2eWrite(t, dir, map[string]string{"docs/old.md": "[A](../src/a.go#line=2,5)\n"})
	if out, code := runAs(t, false, "pin", "--write", "--root", dir, filepath.Join(dir, "docs")); code != 0 {
		t.Errorf("pin by hand: exit %d\n%s", code, out)
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
