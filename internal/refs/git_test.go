package refs

import (
	"crypto/md5"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
)

// gitProject is a project in a git repository of its own, for FromGit.
type gitProject struct {
	t   *testing.T
	dir string
}

func newGitProject(t *testing.T, files map[string]string) *gitProject {
	t.Helper()
	p := &gitProject{t: t, dir: t.TempDir()}
	for name, content := range files {
		p.write(name, content)
	}
	p.git("init", "-q", "-b", "main")
	p.git("add", "-A")
	p.git("commit", "-qm", "base")
	return p
}

func (p *gitProject) write(name, content string) {
	p.t.Helper()
	path := filepath.Join(p.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *gitProject) git(args ...string) {
	p.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@x", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+p.dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// affected runs what refs --diff BASE runs: the links of the pages (slash
// paths), the changes since base from git, and the quotes they affect, as
// "page:line class" lines.
func (p *gitProject) affected(base string, pages ...string) ([]string, error) {
	p.t.Helper()
	r, err := target.New(target.Options{Root: p.dir})
	if err != nil {
		p.t.Fatal(err)
	}
	var links []*Link
	for _, page := range pages {
		src, err := os.ReadFile(filepath.Join(p.dir, filepath.FromSlash(page)))
		if err != nil {
			p.t.Fatal(err)
		}
		for _, ml := range mdlink.Page(src) {
			if l := Resolve(r, page, ml); l != nil {
				links = append(links, l)
			}
		}
	}
	root, err := os.OpenRoot(p.dir)
	if err != nil {
		p.t.Fatal(err)
	}
	defer root.Close()
	h := pin.NewHistory(p.dir)
	ch, err := FromGit(h, p.dir, root, base, links)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range Affected(r, h, p.dir, ch, links, Commands{}) {
		out = append(out, f.Page+":"+strconv.Itoa(f.PageLine)+" "+f.Class)
	}
	return out, nil
}

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// TestFromGitWorkTreeMoved: a repository whose .git/config moves the work
// tree (core.worktree = "/" or another directory) made refs --diff compare
// paths that are in no commit, and report no quote affected. It must fail,
// naming the setting, and find the change once the setting is unset.
func TestFromGitWorkTreeMoved(t *testing.T) {
	src := numbered(10)
	p := newGitProject(t, map[string]string{"src/a.go": src, "docs/guide.md": "[q](../src/a.go#line=1,3)\n"})
	p.git("checkout", "-q", "-b", "work")
	p.write("src/a.go", strings.Replace(src, "line 2\n", "line two\n", 1)) // inside the quote
	want := "docs/guide.md:1 changed"
	for _, wt := range []string{"/", t.TempDir()} {
		p.git("config", "core.worktree", wt)
		got, err := p.affected("main", "docs/guide.md")
		if err == nil || !strings.Contains(err.Error(), "sets its work tree to "+wt+" (core.worktree)") {
			t.Errorf("core.worktree=%s: %q, %v; want an error naming core.worktree", wt, got, err)
		}
	}
	p.git("config", "--unset", "core.worktree")
	if got, err := p.affected("main", "docs/guide.md"); err != nil || strings.Join(got, "\n") != want {
		t.Errorf("core.worktree unset: %q, %v; want %q", got, err, want)
	}
}

// TestFromGitNewlineNames: git names files one a line for cat-file
// --batch, so a page or a quoted file whose name holds a line break was
// left out: its BASE version looked absent, and an unpinned link on such a
// page, or any link to such a file, was silently dropped from refs --diff.
func TestFromGitNewlineNames(t *testing.T) {
	src := numbered(10)
	p := newGitProject(t, map[string]string{
		"src/a.go":           src,
		"src/odd\nname.go":   src,
		"docs/two\nlines.md": "[u](../src/a.go#line=1,3)\n",
		"docs/guide.md":      "[o](../src/odd%0Aname.go#line=4,6)\n\n[p](../src/odd%0Aname.go#line=4,6;md5=" + md5hex(src) + ")\n",
	})
	p.git("checkout", "-q", "-b", "work")
	edited := strings.Replace(src, "line 2\n", "line two\n", 1)
	edited = strings.Replace(edited, "line 5\n", "line five\n", 1)
	p.write("src/a.go", edited)
	p.write("src/odd\nname.go", edited)
	got, err := p.affected("main", "docs/two\nlines.md", "docs/guide.md")
	want := []string{"docs/two\nlines.md:1 changed", "docs/guide.md:1 changed", "docs/guide.md:3 changed"}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}
