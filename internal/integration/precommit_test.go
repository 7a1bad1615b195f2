package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// needPreCommit finds the pre-commit executable. A test that needs it and
// cannot find it fails, naming the installer, unless the developer opted out.
func needPreCommit(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("pre-commit")
	if err == nil {
		return path
	}
	if os.Getenv("TEXTFRAG_SKIP_PRECOMMIT") == "1" {
		t.Skip("pre-commit is not installed and TEXTFRAG_SKIP_PRECOMMIT=1: the pre-commit hooks are not tested")
	}
	t.Fatal("pre-commit is not installed: run scripts/install-test-deps (as root it runs apt-get install pre-commit), " +
		"install it yourself (pipx install pre-commit), or set TEXTFRAG_SKIP_PRECOMMIT=1 to skip this test")
	return ""
}

// hookStatus is what pre-commit reported for the hook named name in out:
// Passed, Failed or Skipped, "" when the hook did not run.
func hookStatus(out, name string) string {
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\.+(?:\([^)]*\))?(Passed|Failed|Skipped)$`)
	if m := re.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

// hookOutput is what pre-commit printed under the status line of the hook
// named name: its "- hook id" lines and the hook's own output.
func hookOutput(out, name string) string {
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\.+(?:\([^)]*\))?(?:Passed|Failed|Skipped)$`)
	loc := re.FindStringIndex(out)
	if loc == nil {
		return ""
	}
	rest := out[loc[1]:]
	// The next hook's status line ends the block.
	if next := regexp.MustCompile(`(?m)^[^\n]*\.\.\.+(?:\([^)]*\))?(?:Passed|Failed|Skipped)$`).FindStringIndex(rest); next != nil {
		rest = rest[:next[0]]
	}
	return rest
}

// remedyIn returns the command out advises after lead, written between
// backquotes ("re-pin with `CMD`"), or "".
func remedyIn(out, lead string) string {
	_, rest, ok := strings.Cut(out, lead+"`")
	if !ok {
		return ""
	}
	cmd, _, _ := strings.Cut(rest, "`")
	return cmd
}

// followRemedy runs the command line remedy (words separated by spaces, as
// a user would paste it) in dir, with env's PATH without any directory that
// holds a textfrag, so that only what the hooks install can run it.
func followRemedy(t *testing.T, dir string, env []string, remedy string) result {
	t.Helper()
	var path []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(v) {
				if _, err := os.Stat(filepath.Join(d, "textfrag")); err != nil {
					path = append(path, d)
				}
			}
		}
	}
	words := strings.Fields(remedy)
	if len(words) == 0 {
		t.Fatal("no remedy to follow")
	}
	return run(t, dir, setEnv(env, "PATH="+strings.Join(path, string(filepath.ListSeparator))), words[0], words[1:]...)
}

const (
	// preCommitSource is quoted by docs/guide.md: lines 3 to 5.
	preCommitSource = "package a\n\n// A answers.\nfunc A() int {\n\treturn 1\n}\n"
	// preCommitQuote is docs/guide.md's link, before the md5.
	preCommitLink = "../src/a.go#line=2,5"
)

// TestPreCommitHooks runs the hooks of .pre-commit-hooks.yaml with the real
// pre-commit, as a project adopts them: its .pre-commit-config.yaml names
// this repository at a commit (a snapshot of the work tree), pre-commit
// builds textfrag with go install, and git commit runs the hooks.
func TestPreCommitHooks(t *testing.T) {
	needPreCommit(t)
	root := moduleRoot(t)
	tmp := t.TempDir()
	env := gitEnv(t)
	goModCache := strings.TrimSpace(mustRun(t, root, env, "go", "env", "GOMODCACHE"))
	env = setEnv(env,
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit-home"),
		// pre-commit sets GOPATH to its environment's directory and then
		// deletes GOPATH/pkg; with the module cache elsewhere, go install
		// reuses the modules already downloaded.
		"GOMODCACHE="+goModCache,
		"PRE_COMMIT_COLOR=never", "NO_COLOR=1",
		// A person's machine, even when the tests run in CI: there the
		// hooks name the command, not the runner's cache (hookSelf).
		"CI=")
	hookRepo := filepath.Join(tmp, "textfrag")
	rev := snapshotRepo(t, root, hookRepo, env)

	proj := filepath.Join(tmp, "project")
	guide := filepath.Join(proj, "docs", "guide.md")
	source := filepath.Join(proj, "src", "a.go")
	writeFile(t, source, preCommitSource)
	writeFile(t, guide, "# Guide\n\n["+"A]("+preCommitLink+";md5="+md5Hex(preCommitSource)+")\n")
	// The recommended configuration (README, "pre-commit"): check, then pin,
	// and pin --accept-changed on demand.
	writeFile(t, filepath.Join(proj, ".pre-commit-config.yaml"), `repos:
  - repo: `+hookRepo+`
    rev: `+rev+`
    hooks:
      - id: textfrag-check
      - id: textfrag-pin
      - id: textfrag-pin
        alias: textfrag-pin-accept
        name: textfrag pin --accept-changed
        args: [--accept-changed]
        stages: [manual]
`)
	git := func(args ...string) result { return run(t, proj, env, "git", args...) }
	mustGit := func(args ...string) string { return mustRun(t, proj, env, "git", args...) }
	head := func() string { return strings.TrimSpace(mustGit("rev-parse", "HEAD")) }
	mustGit("init", "-q")
	mustRun(t, proj, env, "pre-commit", "install")

	// A project whose quotes match commits.
	mustGit("add", "-A")
	r := git("commit", "-m", "docs quote src/a.go")
	if r.code != 0 || hookStatus(r.output(), "textfrag check") != "Passed" || hookStatus(r.output(), "textfrag pin") != "Passed" {
		t.Fatalf("first commit: exit status %d, want 0 with both hooks passed\n%s", r.code, r.output())
	}
	if hookStatus(r.output(), "textfrag pin --accept-changed") != "" {
		t.Fatalf("the manual hook ran on a commit:\n%s", r.output())
	}

	t.Run("moved text is refused, then pinned", func(t *testing.T) {
		// A line above the quote: the quoted text moves down one line. Only
		// src/a.go is staged, as a developer who never opened the docs would.
		moved := "// Package a.\n" + preCommitSource
		writeFile(t, source, moved)
		mustGit("add", "src/a.go")
		before := head()
		r := git("commit", "-m", "a comment above A")
		out := r.output()
		if r.code == 0 || head() != before {
			t.Fatalf("commit of a stale quote: exit status %d, HEAD moved %v; want it refused\n%s", r.code, head() != before, out)
		}
		if hookStatus(out, "textfrag check") != "Failed" {
			t.Fatalf("textfrag check did not fail:\n%s", out)
		}
		check := hookOutput(out, "textfrag check")
		if !strings.Contains(check, "docs/guide.md:3:1: error: "+preCommitLink+";md5=") || !strings.Contains(check, "md5 mismatch") {
			t.Fatalf("textfrag check's output does not name docs/guide.md:3:1 and the md5 mismatch:\n%s", check)
		}
		// The remedy names the hook, which works without a textfrag of the
		// user's own.
		remedy := remedyIn(check, "re-pin with ")
		if remedy != "pre-commit run textfrag-pin" {
			t.Fatalf("textfrag check advises %q, want the textfrag-pin hook:\n%s", remedy, check)
		}
		if hookStatus(out, "textfrag pin") != "Failed" || !strings.Contains(hookOutput(out, "textfrag pin"), "files were modified by this hook") {
			t.Fatalf("textfrag pin did not fail for rewriting a file:\n%s", out)
		}
		want := "[A](../src/a.go#line=3,6;md5=" + md5Hex(moved) + ")"
		if got := readFile(t, guide); !strings.Contains(got, want) {
			t.Fatalf("textfrag pin left docs/guide.md as\n%s\nwant the link %s", got, want)
		}
		// Follow textfrag check's remedy on the stale page, in a shell
		// where no textfrag is on PATH.
		mustGit("checkout", "--", "docs/guide.md")
		if r := followRemedy(t, proj, env, remedy); r.code == 0 || !strings.Contains(r.output(), "files were modified by this hook") {
			t.Fatalf("%s: exit status %d, want a failure for the file it rewrote\n%s", remedy, r.code, r.output())
		}
		if got := readFile(t, guide); !strings.Contains(got, want) {
			t.Fatalf("%s left docs/guide.md as\n%s\nwant the link %s", remedy, got, want)
		}
		mustGit("add", "docs/guide.md")
		if r := git("commit", "-m", "a comment above A"); r.code != 0 {
			t.Fatalf("commit after textfrag pin: exit status %d\n%s", r.code, r.output())
		}
	})

	t.Run("changed text is refused until accepted", func(t *testing.T) {
		pinned := readFile(t, guide)
		changed := strings.Replace(readFile(t, source), "return 1", "return 2", 1)
		writeFile(t, source, changed)
		mustGit("add", "src/a.go")
		before := head()
		r := git("commit", "-m", "A answers 2")
		out := r.output()
		if r.code == 0 || head() != before || hookStatus(out, "textfrag check") != "Failed" ||
			!strings.Contains(hookOutput(out, "textfrag check"), "docs/guide.md:3:1: error: ") {
			t.Fatalf("commit changing quoted text: exit status %d, want it refused by textfrag check naming docs/guide.md:3:1\n%s", r.code, out)
		}
		pin := hookOutput(out, "textfrag pin")
		if hookStatus(out, "textfrag pin") != "Failed" || !strings.Contains(pin, "docs/guide.md:3:1: changed: ") ||
			strings.Contains(pin, "files were modified") {
			t.Fatalf("textfrag pin should fail on changed text without writing:\n%s", out)
		}
		if got := readFile(t, guide); got != pinned {
			t.Fatalf("textfrag pin rewrote a changed quote without --accept-changed:\n%s", got)
		}

		// Follow the remedies textfrag pin prints, as printed: accepting
		// this one quote, or all whose new place is known, is the hook's
		// own textfrag in pre-commit's cache, with no textfrag on PATH (a
		// hook takes no arguments: the manual hook would accept quotes
		// nobody read). The manual hook still accepts all.
		want := "[A](../src/a.go#line=3,6;md5=" + md5Hex(changed) + ")"
		home := filepath.Join(tmp, "pre-commit-home") + string(filepath.Separator)
		for _, c := range []struct{ lead, tail string }{
			{"accept it with ", "/bin/textfrag pin --write --accept docs/guide.md:3"},
			{"or all whose new place is known with ", "/bin/textfrag pin --write --accept-changed ."},
		} {
			remedy := remedyIn(pin, c.lead)
			if !strings.HasPrefix(remedy, home) || !strings.HasSuffix(remedy, c.tail) {
				t.Fatalf("textfrag pin advises %q after %q, want pre-commit's textfrag (under %s) running …%s:\n%s", remedy, c.lead, home, c.tail, pin)
			}
			if r := followRemedy(t, proj, env, remedy); r.code != 0 {
				t.Fatalf("%s: exit status %d\n%s", remedy, r.code, r.output())
			}
			if got := readFile(t, guide); !strings.Contains(got, want) {
				t.Fatalf("%s left docs/guide.md as\n%s\nwant the link %s", remedy, got, want)
			}
			mustGit("checkout", "--", "docs/guide.md")
		}
		all := "pre-commit run --hook-stage manual textfrag-pin-accept"
		r = followRemedy(t, proj, env, all)
		if r.code == 0 || !strings.Contains(r.output(), "files were modified by this hook") {
			t.Fatalf("%s: exit status %d, want a failure for the file it rewrote\n%s", all, r.code, r.output())
		}
		if got := readFile(t, guide); !strings.Contains(got, want) {
			t.Fatalf("textfrag-pin-accept left docs/guide.md as\n%s\nwant the link %s", got, want)
		}
		mustGit("add", "docs/guide.md")
		if r := git("commit", "-m", "A answers 2"); r.code != 0 {
			t.Fatalf("commit after accepting the change: exit status %d\n%s", r.code, r.output())
		}
	})

	t.Run("a new link is pinned as it is committed", func(t *testing.T) {
		// An unpinned link quotes whatever its lines hold: the hook pins it
		// in the commit that adds it (SEMANTICS.md §4), and rewrites
		// nothing else.
		page := filepath.Join(proj, "docs", "new.md")
		writeFile(t, page, "# New\n\n[A]("+preCommitLink+")\n")
		guideBefore := readFile(t, guide)
		mustGit("add", "docs/new.md")
		before := head()
		r := git("commit", "-m", "a new page")
		out := r.output()
		if r.code == 0 || head() != before || hookStatus(out, "textfrag pin") != "Failed" || !strings.Contains(hookOutput(out, "textfrag pin"), "files were modified by this hook") {
			t.Fatalf("commit of an unpinned link: exit status %d; want textfrag pin to pin it and fail the commit\n%s", r.code, out)
		}
		want := "[A](" + preCommitLink + ";md5=" + md5Hex(readFile(t, source)) + ")"
		if got := readFile(t, page); !strings.Contains(got, want) {
			t.Fatalf("textfrag pin left docs/new.md as\n%s\nwant the link %s", got, want)
		}
		if readFile(t, guide) != guideBefore {
			t.Fatalf("textfrag pin rewrote docs/guide.md too")
		}
		mustGit("add", "docs/new.md")
		if r := git("commit", "-m", "a new page"); r.code != 0 {
			t.Fatalf("commit after textfrag pin: exit status %d\n%s", r.code, r.output())
		}
	})

	t.Run("a commit of unrelated files passes", func(t *testing.T) {
		writeFile(t, filepath.Join(proj, "NOTES.txt"), "notes\n")
		mustGit("add", "NOTES.txt")
		if r := git("commit", "-m", "notes"); r.code != 0 || hookStatus(r.output(), "textfrag check") != "Passed" {
			t.Fatalf("commit of NOTES.txt: exit status %d\n%s", r.code, r.output())
		}
	})

	t.Run("deleting the quoted file is refused", func(t *testing.T) {
		// The commit stages no file at all (pre-commit leaves deletions out
		// of its file list): only always_run makes the hooks run.
		mustGit("rm", "-q", "src/a.go")
		before := head()
		r := git("commit", "-m", "remove a.go")
		out := r.output()
		if r.code == 0 || head() != before || hookStatus(out, "textfrag check") != "Failed" ||
			!strings.Contains(hookOutput(out, "textfrag check"), "docs/guide.md:3:1: error: ") {
			t.Fatalf("commit deleting the quoted file: exit status %d, want it refused by textfrag check naming docs/guide.md:3:1\n%s", r.code, out)
		}
		mustGit("reset", "-q", "--hard")
	})
}
