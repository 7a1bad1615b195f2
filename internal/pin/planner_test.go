package pin

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// testRepo makes an empty directory for a git repository, with a function
// that writes a file in it (slash path, parents made) and one that runs git
// there (failing the test on error).
func testRepo(t *testing.T) (dir string, write func(name, content string), git func(args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required")
	}
	dir = t.TempDir()
	write = func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@x", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir, write, git
}

// TestPlannerClasses: through the API the language server and refs use,
// one page's links are classed against a git history: pinned, moved,
// refreshed (changed elsewhere), changed, and gone, each with the new
// destination it would write.
func TestPlannerClasses(t *testing.T) {
	dir, write, git := testRepo(t)
	a, b := lines(1, 10), lines(1, 10)
	write("src/a.go", a)
	write("src/b.go", b)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "start")
	a2 := "new\n" + a // lines move down by one
	b2 := strings.Replace(b, "line 3\n", "line three\n", 1)
	write("src/a.go", a2)
	write("src/b.go", b2)
	page := "[u](../src/a.go#line=0,2)\n" +
		"[m](../src/a.go#line=4,6;md5=" + md5hex(a) + ")\n" +
		"[c](../src/b.go#line=1,4;md5=" + md5hex(b) + ")\n" +
		"[e](../src/b.go#line=6,8;md5=" + md5hex(b) + ")\n" +
		"[g](../src/gone.go#line=1)\n"
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir)}
	changes := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))
	var got []string
	for _, c := range changes {
		got = append(got, fmt.Sprintf("%d %s %s %v %v %s", c.Link.Line, c.Class, c.NewDest, c.Apply, c.Failed, c.Target))
	}
	want := []string{
		"1 pinned ../src/a.go#line=0,2;md5=" + md5hex(a2) + " true false src/a.go",
		"2 moved ../src/a.go#line=5,7;md5=" + md5hex(a2) + " true false src/a.go",
		"3 changed ../src/b.go#line=1,4;md5=" + md5hex(b2) + " false true src/b.go",
		"4 refreshed ../src/b.go#line=6,8;md5=" + md5hex(b2) + " true false src/b.go",
		"5 gone  false true ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(changes[2].Remedy, "textfrag pin --write --accept-changed "+filepath.Join(dir, "docs", "p.md")) {
		t.Errorf("changed: no default remedy: %s", changes[2].Remedy)
	}
	newPage := string(ApplyEdits([]byte(page), Edits(changes)))
	if !strings.Contains(newPage, "a.go#line=5,7;md5="+md5hex(a2)) || !strings.Contains(newPage, "b.go#line=1,4;md5="+md5hex(b)) {
		t.Errorf("edits applied:\n%s", newPage)
	}

	// Without a history, a stale md5 cannot be traced: review, not
	// guessed, and never applied, even when changes are accepted.
	p = &Planner{Resolver: r, AcceptChanged: true}
	if c := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))[1]; c.Class != Review || !c.Failed || c.Apply || c.NewDest != "" {
		t.Errorf("no history: %+v", c)
	}
}
