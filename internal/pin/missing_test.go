package pin

import (
	"fmt"
	"strings"
	"testing"
)

// TestMissingFileGitBounded: what pin says of links to missing files asks
// git's history once per path, and of a bounded number of paths in all: a
// page of many links to one deleted file, or to thousands of files that
// never were, does not start a git process per link. The message stays
// true past the bound (it no longer names history).
func TestMissingFileGitBounded(t *testing.T) {
	dir, write, git := testRepo(t)
	write("gone.txt", "a\nb\n")
	write("kept.txt", "k\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	git("rm", "-q", "gone.txt")
	git("commit", "-qm", "v2")
	runs := func(page string) (int64, []Change) {
		before := gitCommands.Load()
		cs := planPage(t, dir, page, false)
		return gitCommands.Load() - before, cs
	}
	link := func(file string) string {
		return fmt.Sprintf("[q](../%s#line=0,1;md5=0123456789abcdef0123456789abcdef)\n", file)
	}
	// One path, linked 10 and 200 times: the same number of git runs.
	few, cs := runs(strings.Repeat(link("gone.txt"), 10))
	many, _ := runs(strings.Repeat(link("gone.txt"), 200))
	if many != few {
		t.Errorf("200 links to one deleted file ran git %d times, 10 links %d times", many, few)
	}
	if !strings.Contains(cs[0].Message, "no longer exists (commit") {
		t.Errorf("deleted file: %s", cs[0].Message)
	}
	// Distinct paths that never were: bounded, whatever their number.
	var p1, p2 strings.Builder
	for i := range 100 {
		p1.WriteString(link(fmt.Sprintf("never%d.txt", i)))
	}
	for i := range 1000 {
		p2.WriteString(link(fmt.Sprintf("never%d.txt", i)))
	}
	n1, _ := runs(p1.String())
	n2, cs2 := runs(p2.String())
	if n2 > n1 {
		t.Errorf("1000 links to distinct missing files ran git %d times, 100 links %d times", n2, n1)
	}
	last := cs2[len(cs2)-1].Message
	if !strings.Contains(last, "does not exist: no file never999.txt under the project root") {
		t.Errorf("past the bound: %s", last)
	}
}
