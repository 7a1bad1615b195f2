package pin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// TestHistoryWorkTreeIsTheProjects: a repository whose own .git/config
// moves its work tree (core.worktree = "/", or another directory) must not
// redirect what history compares: git would then find none of the
// project's files in any commit, and a quote that moved would be reported
// as gone for the wrong reason (refs --diff: nothing affected). History is
// refused, naming the setting and how to unset it. A core.worktree naming
// the directory that holds .git (as submodules once wrote it) and a linked
// work tree (.git a file) keep their history.
func TestHistoryWorkTreeIsTheProjects(t *testing.T) {
	dir, write, git := testRepo(t)
	a := lines(1, 10)
	write("src/a.go", a)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "start")
	write("src/a.go", "new\n"+a) // the quoted lines move down by one
	elsewhere := t.TempDir()
	if err := os.MkdirAll(filepath.Join(elsewhere, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	page := "[m](../src/a.go#line=4,6;md5=" + md5hex(a) + ")\n"
	plan := func(root string) Change {
		t.Helper()
		r, err := target.New(target.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		p := &Planner{Resolver: r, History: NewHistory(root)}
		return p.Plan(filepath.Join(root, "docs", "p.md"), []byte(page))[0]
	}
	for _, wt := range []string{"/", elsewhere, filepath.Join(dir, "src")} {
		git("config", "core.worktree", wt)
		c := plan(dir)
		msg := strings.Join(append([]string{c.Message}, c.Detail...), "\n")
		if c.Class == Moved || !c.Failed || !strings.Contains(msg, "sets its work tree to "+wt+" (core.worktree), not the directory that holds it") ||
			!strings.Contains(msg, "config --unset core.worktree") {
			t.Errorf("core.worktree=%s: %s %v\n%s", wt, c.Class, c.Failed, msg)
		}
		if _, err := NewHistory(dir).Git(nil, "rev-parse", "HEAD"); err == nil {
			t.Errorf("core.worktree=%s: git ran on the repository", wt)
		}
	}
	// Following the remedy brings history back.
	git("config", "--unset", "core.worktree")
	if c := plan(dir); c.Class != Moved {
		t.Errorf("core.worktree unset: %s: %s", c.Class, c.Message)
	}
	git("config", "core.worktree", dir)
	if c := plan(dir); c.Class != Moved {
		t.Errorf("core.worktree naming the work tree itself: %s: %s", c.Class, c.Message)
	}
	git("config", "--unset", "core.worktree")

	linked := filepath.Join(t.TempDir(), "linked")
	git("worktree", "add", "-q", linked)
	if err := os.WriteFile(filepath.Join(linked, "src", "a.go"), []byte("new\n"+a), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := plan(linked); c.Class != Moved {
		t.Errorf("a linked work tree: %s: %s", c.Class, c.Message)
	}
}
