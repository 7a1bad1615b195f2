package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/refs"
)

// refsSource is src/a.go at BASE: "line N" on each of 30 lines.
func refsSource() string {
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		b.WriteString("line " + itoa(i) + "\n")
	}
	return b.String()
}

// refsGuide quotes lines 10–12 and 20–21 pinned, and 25–26 unpinned.
func refsGuide(src string) string {
	return "[in](../src/a.go#line=9,12;md5=" + md5hex(src) + ")\n\n" +
		"[out](../src/a.go#line=19,21;md5=" + md5hex(src) + ")\n\n" +
		"[unpinned](../src/a.go#line=24,26)\n"
}

// newRefsRepo is a repository whose main branch holds src/a.go and the
// guide, committed, with a branch "work" checked out on top.
func newRefsRepo(t *testing.T) *pinSite {
	t.Helper()
	src := refsSource()
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/guide.md": refsGuide(src), "src/other.go": "other\n"})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.git("checkout", "-q", "-b", "work")
	return s
}

// runStdin runs textfrag in the site with stdin.
func (s *pinSite) runStdin(stdin string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	return s.runWith(nil, stdin, args...)
}

// replaceLine replaces human line n of text.
func replaceLine(text string, n int, with string) string {
	lines := strings.SplitAfter(text, "\n")
	lines[n-1] = with
	return strings.Join(lines, "")
}

func TestRefsDiffClasses(t *testing.T) {
	base := refsSource()
	tests := []struct {
		name   string
		change func(s *pinSite)
		want   []string // stdout lines, each a prefix
		code   int
	}{
		{"edit inside a quote, edit outside", func(s *pinSite) {
			s.write("src/a.go", replaceLine(replaceLine(base, 11, "line eleven\n"), 29, "line 29 edited\n"))
		}, []string{
			"src/a.go:11: changed: quoted in docs/guide.md:1 (src/a.go lines 10–12): the quoted text changed: review the page, then accept the new text with `textfrag pin --write --accept docs/guide.md:1`",
			"src/a.go:20: refresh: quoted in docs/guide.md:3 (src/a.go lines 20–21): the quoted text is unchanged in place, the file changed elsewhere: `textfrag pin --write docs/guide.md` refreshes the link's md5",
		}, 1},
		{"an edit next to a quote is not inside it", func(s *pinSite) {
			// Lines 9 and 13 border lines 10–12; 24 and 27 border 25–26.
			s.write("src/a.go", replaceLine(replaceLine(replaceLine(replaceLine(base, 9, "x\n"), 13, "x\n"), 24, "x\n"), 27, "x\n"))
		}, []string{
			"src/a.go:10: refresh: quoted in docs/guide.md:1 (src/a.go lines 10–12)",
			"src/a.go:20: refresh: quoted in docs/guide.md:3 (src/a.go lines 20–21)",
		}, 0},
		{"lines inserted inside a quote", func(s *pinSite) {
			s.write("src/a.go", strings.Replace(base, "line 11\n", "line 11\ninserted\n", 1))
		}, []string{
			"src/a.go:12: changed: quoted in docs/guide.md:1 (src/a.go lines 10–12)",
			"src/a.go:21: moved: quoted in docs/guide.md:3 (src/a.go lines 20–21): the quoted text is intact at lines 21–22: `textfrag pin --write docs/guide.md` updates the link",
			// An unpinned quote whose lines shift shows other text: changed.
			"src/a.go:26: changed: quoted in docs/guide.md:5 (src/a.go lines 25–26): the link has no md5 and the change shifted its lines: it shows other lines now; the quoted text moved to lines 26–27: change the link to ../src/a.go#line=25,27, then pin it with `textfrag pin --write --accept docs/guide.md:5`\n",
		}, 1},
		{"quoted lines deleted", func(s *pinSite) {
			s.write("src/a.go", strings.Replace(base, "line 20\nline 21\n", "", 1))
		}, []string{
			"src/a.go:10: refresh: quoted in docs/guide.md:1",
			"src/a.go:20: changed: quoted in docs/guide.md:3 (src/a.go lines 20–21): the quoted lines were deleted: review the page, then read the file, run `textfrag link src/a.go:FIRST-LAST --title out --from docs/guide.md` with the lines to quote now, and put the link it prints in this one's place (or delete the quote)",
			"src/a.go:23: changed: quoted in docs/guide.md:5 (src/a.go lines 25–26): the link has no md5 and the change shifted its lines: it shows other lines now; the quoted text moved to lines 23–24",
		}, 1},
		{"text cut and pasted elsewhere", func(s *pinSite) {
			s.write("src/a.go", strings.Replace(base, "line 10\nline 11\nline 12\n", "", 1)+"line 10\nline 11\nline 12\n")
		}, []string{
			"src/a.go:28: moved: quoted in docs/guide.md:1 (src/a.go lines 10–12): the quoted text is intact at lines 28–30",
			"src/a.go:17: moved: quoted in docs/guide.md:3",
			"src/a.go:22: changed: quoted in docs/guide.md:5",
		}, 1},
		{"file deleted", func(s *pinSite) { s.git("rm", "-q", "src/a.go") }, []string{
			"docs/guide.md:1: deleted: quoted in docs/guide.md:1 (src/a.go lines 10–12): src/a.go was deleted: the page needs review",
			"docs/guide.md:3: deleted: ",
			"docs/guide.md:5: deleted: ",
		}, 1},
		{"file renamed", func(s *pinSite) { s.git("mv", "src/a.go", "src/b.go") }, []string{
			"src/b.go:10: renamed: quoted in docs/guide.md:1 (src/a.go lines 10–12): src/a.go was renamed to src/b.go with the quoted text intact: change the link to ../src/b.go#line=9,12;md5=" + md5hex(base),
			"src/b.go:20: renamed: ",
			"src/b.go:25: renamed: quoted in docs/guide.md:5 (src/a.go lines 25–26): src/a.go was renamed to src/b.go with the quoted text intact: change the link to ../src/b.go#line=24,26",
		}, 0},
		{"file renamed and edited", func(s *pinSite) {
			s.git("mv", "src/a.go", "src/b.go")
			s.write("src/b.go", "// a header\n"+replaceLine(base, 21, "line twenty-one\n"))
			s.git("add", "src/b.go")
		}, []string{
			"src/b.go:11: renamed: quoted in docs/guide.md:1 (src/a.go lines 10–12): src/a.go was renamed to src/b.go with the quoted text intact: change the link to ../src/b.go#line=10,13;md5=",
			"src/b.go:22: changed: quoted in docs/guide.md:3 (src/a.go lines 20–21): src/a.go was renamed to src/b.go and the quoted text changed: review the page and change the link",
			"src/b.go:26: changed: quoted in docs/guide.md:5 (src/a.go lines 25–26): the link has no md5 and the change shifted its lines",
		}, 1},
		{"the page follows a rename, not yet re-pinned", func(s *pinSite) {
			s.git("mv", "src/a.go", "src/b.go")
			s.write("src/b.go", "// a header\n"+base)
			s.write("docs/guide.md", strings.ReplaceAll(refsGuide(base), "a.go", "b.go"))
		}, []string{
			"src/b.go:11: moved: quoted in docs/guide.md:1 (src/a.go lines 10–12): the quoted text is intact at lines 11–13: `textfrag pin --write docs/guide.md` updates the link\n",
			"src/b.go:21: moved: quoted in docs/guide.md:3 (src/a.go lines 20–21)",
			// The unpinned link to b.go is new in the change: written for the work tree.
		}, 0},
		{"re-pinned in the same change", func(s *pinSite) {
			edited := replaceLine(base, 11, "line eleven\n")
			s.write("src/a.go", edited)
			guide := strings.ReplaceAll(refsGuide(base), md5hex(base), md5hex(edited))
			s.write("docs/guide.md", guide+"\n[new](../src/a.go#line=0,2)\n")
		}, nil, 0},
		{"an unrelated file changed", func(s *pinSite) { s.write("src/other.go", "changed\n") }, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newRefsRepo(t)
			tc.change(s)
			out, errOut, code := s.run("refs", "--diff", "main")
			checkLines(t, out, tc.want)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\n%s", code, tc.code, errOut)
			}
			// The same changes as a diff on stdin.
			s.git("add", "-A")
			diff := s.git("diff", "--cached", "-M", "main")
			out2, errOut2, code2 := s.runStdin(diff, "refs", "--diff", "-")
			if out2 != out || code2 != code {
				t.Errorf("from stdin: exit status %d\n%s%s\nwant what git gave:\n%s", code2, out2, errOut2, out)
			}
		})
	}
}

func checkLines(t *testing.T, out string, want []string) {
	t.Helper()
	var got []string
	if out != "" {
		got = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	}
	if len(got) != len(want) {
		t.Fatalf("got\n%s\nwant\n%s", out, strings.Join(want, "\n"))
	}
	for i := range got {
		// A want ending in a line break is the whole line, others a prefix.
		if w, whole := strings.CutSuffix(want[i], "\n"); whole && got[i] != w || !whole && !strings.HasPrefix(got[i], w) {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

func TestRefsDiffDefaultBase(t *testing.T) {
	s := newRefsRepo(t)
	s.write("src/a.go", replaceLine(refsSource(), 11, "line eleven\n"))
	s.commit("edit on the work branch")
	// main moves on after the fork: only the work branch's change counts.
	s.git("checkout", "-q", "main")
	s.write("src/a.go", replaceLine(refsSource(), 20, "line twenty on main\n"))
	s.commit("main moved on")
	fork := strings.TrimSpace(s.git("merge-base", "main", "work"))
	s.git("checkout", "-q", "work")
	out, errOut, code := s.run("refs", "--diff")
	checkLines(t, out, []string{
		"src/a.go:11: changed: quoted in docs/guide.md:1",
		"src/a.go:20: refresh: quoted in docs/guide.md:3",
	})
	if code != 1 || !strings.Contains(errOut, "2 quotes affected (changes since the merge base "+fork[:12]+" of HEAD and main): 1 refreshed, 0 moved, 1 changed, 0 gone, 0 review, 0 unpinned\n") {
		t.Errorf("exit status %d\n%s", code, errOut)
	}
	// origin/HEAD, when there is one, names the default branch.
	s.git("update-ref", "refs/remotes/origin/trunk", "HEAD")
	s.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	if _, errOut, code := s.run("refs", "--diff"); code != 0 || !strings.Contains(errOut, "no quote affected (changes since the merge base") || !strings.Contains(errOut, "of HEAD and origin/trunk)") {
		t.Errorf("with origin/HEAD: exit status %d\n%s", code, errOut)
	}
}

func TestRefsDiffFailOn(t *testing.T) {
	s := newRefsRepo(t)
	s.write("src/a.go", "inserted\n"+refsSource()) // every quote moved
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, 1}, // the unpinned quote shows other lines now: changed
		{[]string{"--fail-on", "moved"}, 1},
		{[]string{"--fail-on", "deleted,refresh,review"}, 0},
		{[]string{"--fail-on", "none"}, 0},
		{[]string{"--fail-on", "bogus"}, 2},
		{[]string{"--fail-on", ""}, 2},
	} {
		_, errOut, code := s.run(append([]string{"refs", "--diff", "main"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%v: exit status %d, want %d\n%s", tc.args, code, tc.code, errOut)
		}
	}
	out, _, _ := s.run("refs", "--diff", "main", "--format", "github", "--fail-on", "moved")
	if !strings.HasPrefix(out, "::error file=src/a.go,line=11,endLine=13,title=quoted text moved::quoted in docs/guide.md:1 ") {
		t.Errorf("a class in --fail-on is an error annotation:\n%s", out)
	}
	for _, args := range [][]string{
		{"refs", "--diff", "main", "extra"},
		{"refs", "--diff", "--format", "yaml"},
	} {
		if _, errOut, code := s.run(args...); code != 2 {
			t.Errorf("%v: exit status %d, want 2\n%s", args, code, errOut)
		}
	}
	for _, base := range []string{"no-such-commit", "--output=x"} {
		if _, errOut, code := s.run("refs", "--diff", "--", base); code != 1 || !strings.Contains(errOut, base) {
			t.Errorf("BASE %s: exit status %d, want 1\n%s", base, code, errOut)
		}
	}
}

func TestRefsDiffGitHubAnnotations(t *testing.T) {
	src := refsSource()
	s := newPinSite(t, map[string]string{
		"src/x,y:z.go":       src,
		"docs/a,b:c% d.md":   "[q](../src/x,y:z.go#line=9,12;md5=" + md5hex(src) + ")\n\n[r](../src/x,y:z.go#line=19,21;md5=" + md5hex(src) + ")\n",
		"docs/unchanged.md":  "[s](../src/x,y:z.go#line=0,1)\n",
		"docs/other-page.md": "nothing here\n",
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.write("src/x,y:z.go", replaceLine(replaceLine(src, 12, "line twelve\n"), 30, "end\n"))
	out, _, code := s.run("refs", "--diff", "main", "--format", "github")
	want := "::error file=src/x%2Cy%3Az.go,line=12,title=quoted text changed::quoted in docs/a,b:c% d.md:1 (src/x,y:z.go lines 10–12): the quoted text changed: review the page, then accept the new text with `textfrag pin --write --accept 'docs/a,b:c% d.md:1'`\n" +
		"::warning file=src/x%2Cy%3Az.go,line=20,endLine=21,title=file changed elsewhere::quoted in docs/a,b:c% d.md:3 (src/x,y:z.go lines 20–21): the quoted text is unchanged in place, the file changed elsewhere: `textfrag pin --write 'docs/a,b:c% d.md'` refreshes the link's md5\n"
	// The page is quoted for the shell, so that the command runs as
	// written; % is escaped for the workflow command.
	want = strings.ReplaceAll(want, "c% d", "c%25 d")
	if out != want || code != 1 {
		t.Errorf("exit status %d, annotations\n%s\nwant\n%s", code, out, want)
	}
}

func TestRefsDiffLineEndings(t *testing.T) {
	// Lines end in NEL, CR and CR+LF: git's diff sees one or two lines,
	// builds count 8.
	src := "one\u0085two\u0085three\rfour\rfive\r\nsix\r\nseven\neight\n"
	s := newPinSite(t, map[string]string{
		"src/a.txt":     src,
		"docs/guide.md": "[q](../src/a.txt#line=2,4;md5=" + md5hex(src) + ")\n\n[r](../src/a.txt#line=6,7;md5=" + md5hex(src) + ")\n",
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.write("src/a.txt", strings.Replace(src, "four", "FOUR", 1))
	out, _, code := s.run("refs", "--diff", "main")
	checkLines(t, out, []string{
		"src/a.txt:4: changed: quoted in docs/guide.md:1 (src/a.txt lines 3–4)",
		"src/a.txt:7: refresh: quoted in docs/guide.md:3 (src/a.txt line 7)",
	})
	if code != 1 {
		t.Errorf("exit status %d", code)
	}
	s.git("add", "-A")
	diff := s.git("diff", "--cached", "main")
	if out2, errOut, _ := s.runStdin(diff, "refs", "--diff", "-"); out2 != out {
		t.Errorf("from stdin:\n%s%s\nwant\n%s", out2, errOut, out)
	}
	// An edit next to the quote, on the same line as git counts lines.
	s.write("src/a.txt", strings.Replace(src, "five", "FIVE", 1))
	out, _, code = s.run("refs", "--diff", "main")
	checkLines(t, out, []string{
		"src/a.txt:3: refresh: quoted in docs/guide.md:1",
		"src/a.txt:7: refresh: quoted in docs/guide.md:3",
	})
	if code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestRefsDiffStdin(t *testing.T) {
	s := newRefsRepo(t)
	base := refsSource()
	s.write("src/a.go", replaceLine(base, 20, "line twenty\n"))
	// diff -u's form: no a/ b/, timestamps after a tab, no git headers.
	diff := "--- src/a.go\t2026-01-01 00:00:00\n+++ src/a.go\t2026-01-02 00:00:00\n@@ -19,3 +19,3 @@\n line 19\n-line 20\n+line twenty\n line 21\n"
	out, errOut, code := s.runStdin(diff, "refs", "--diff", "-", "--format", "json")
	var got []refs.Finding
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 {
		t.Fatalf("exit status %d, %v\n%s%s", code, err, out, errOut)
	}
	if len(got) != 2 || got[1].Class != "changed" || got[1].File != "src/a.go" || got[1].Line != 20 || !got[1].Blocking ||
		got[1].Page != "docs/guide.md" || got[1].PageLine != 3 || got[1].Quoted != "lines 20–21" || got[0].Class != "refresh" || got[0].Blocking {
		t.Errorf("findings %+v", got)
	}
	// A diff whose new side is not the work tree is refused, not guessed at.
	bad := strings.Replace(diff, "+line twenty", "+line 20 something else", 1)
	if _, errOut, code := s.runStdin(bad, "refs", "--diff", "-"); code != 1 || !strings.Contains(errOut, "src/a.go:20: the diff on stdin does not match the work tree there") {
		t.Errorf("a diff that does not apply: exit status %d\n%s", code, errOut)
	}
	if _, errOut, code := s.runStdin("@@ -1 +1 @@\n", "refs", "--diff", "-"); code != 1 || !strings.Contains(errOut, "textfrag cannot tell which file it names") {
		t.Errorf("a malformed diff: exit status %d\n%s", code, errOut)
	}
}

// TestRefsDiffRunsNoFilter: the tree's .gitattributes names a filter and a
// diff driver that the repository's configuration defines as programs;
// refs --diff compares only commits and the index, so none runs, and the
// user's fsmonitor and external diff do not either.
func TestRefsDiffRunsNoFilter(t *testing.T) {
	s := newRefsRepo(t)
	markers := t.TempDir()
	s.write(".gitattributes", "*.go filter=evil diff=evil\n")
	s.commit("attributes")
	touch := func(name string) string { return "\"touch " + filepath.Join(markers, name) + "\"" }
	cfg := "\n[filter \"evil\"]\n\tclean = " + touch("clean") + "\n\tsmudge = " + touch("smudge") + "\n\tprocess = " + touch("process") +
		"\n[diff \"evil\"]\n\ttextconv = " + touch("textconv") + "\n\tcommand = " + touch("command") + "\n"
	f, err := os.OpenFile(s.path(".git/config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(cfg)
	f.Close()
	userCfg := "[core]\n\tfsmonitor = " + touch("fsmonitor") + "\n[diff]\n\texternal = " + touch("external") + "\n"
	if err := os.WriteFile(filepath.Join(s.home, ".gitconfig"), []byte(userCfg), 0o644); err != nil {
		t.Fatal(err)
	}
	s.write("src/a.go", replaceLine(refsSource(), 11, "line eleven\n")) // unstaged
	out, errOut, code := s.run("refs", "--diff", "main")
	if entries, _ := os.ReadDir(markers); len(entries) > 0 {
		t.Fatalf("refs --diff ran a program from git configuration: %s\n%s", entries[0].Name(), errOut)
	}
	if code != 1 || !strings.HasPrefix(out, "src/a.go:11: changed: ") {
		t.Errorf("exit status %d\n%s%s", code, out, errOut)
	}
}

// TestRefsDiffProjectInSubdirectory: the project root (textfrag.toml) is a
// directory of the repository; git names files from the repository's top.
func TestRefsDiffProjectInSubdirectory(t *testing.T) {
	src := refsSource()
	s := newPinSite(t, map[string]string{
		"site/textfrag.toml":  "",
		"site/src/a.go":       src,
		"site/docs/guide.md":  refsGuide(src),
		"other/docs/guide.md": refsGuide(src), // outside the project: not read
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.git("mv", "site/src/a.go", "site/src/b.go")
	cmd := exec.Command(e2eBin(t), "refs", "--diff", "main")
	cmd.Dir = s.path("site/docs")
	cmd.Env = s.env()
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 0) {
		t.Fatalf("%v\n%s", err, out)
	}
	checkLines(t, string(out), []string{
		// named from site/docs, where refs ran; src/a.go named where it was
		"../src/b.go:10: renamed: quoted in guide.md:1 (../src/a.go lines 10–12): ../src/a.go was renamed to ../src/b.go",
		"../src/b.go:20: renamed: ",
		"../src/b.go:25: renamed: ",
	})
}

func TestRefsDiffWithoutRepository(t *testing.T) {
	s := newPinSite(t, map[string]string{"textfrag.toml": "", "src/a.go": refsSource(), "docs/guide.md": refsGuide(refsSource())})
	_, errOut, code := s.run("refs", "--diff")
	if code != 1 || !strings.Contains(errOut, "not in a git repository; without a repository, give the changes as a unified diff on stdin: --diff -") {
		t.Errorf("exit status %d\n%s", code, errOut)
	}
	diff := "--- a/src/a.go\n+++ b/src/a.go\n@@ -11 +11 @@\n-line 11\n+line eleven\n"
	s.write("src/a.go", replaceLine(refsSource(), 11, "line eleven\n"))
	out, errOut, code := s.runStdin(diff, "refs", "--diff", "-")
	checkLines(t, out, []string{"src/a.go:11: changed: quoted in docs/guide.md:1 (src/a.go lines 10–12)", "src/a.go:20: refresh: "})
	if code != 1 {
		t.Errorf("exit status %d\n%s", code, errOut)
	}
}

// TestRefsDiffRemediesWork follows what refs --diff prints: an unpinned
// quote whose lines a change shifted blocks (SEMANTICS.md §4) until its
// link is changed as the message says and pinned; a changed pinned quote
// until it is accepted with the command given. Then nothing blocks.
func TestRefsDiffRemediesWork(t *testing.T) {
	s := newRefsRepo(t)
	s.write("src/a.go", strings.Replace(replaceLine(refsSource(), 11, "line eleven\n"), "line 15\n", "line 15\ninserted\n", 1))
	out, errOut, code := s.run("refs", "--diff", "main")
	if code != 1 || !strings.Contains(errOut, "0 refreshed, 1 moved, 1 changed, 0 gone, 0 review, 1 unpinned") {
		t.Fatalf("refs --diff: exit %d\n%s%s", code, out, errOut)
	}
	fix := regexp.MustCompile(`quoted in docs/guide.md:5 [^\n]*change the link to (\S+), then pin it with ` + "`(textfrag pin --write --accept docs/guide.md:5)`").FindStringSubmatch(out)
	accept := regexp.MustCompile("quoted in docs/guide.md:1 [^\n]*`(textfrag pin --write --accept docs/guide.md:1)`").FindStringSubmatch(out)
	if fix == nil || accept == nil {
		t.Fatalf("no remedy for the unpinned or the changed quote:\n%s", out)
	}
	s.write("docs/guide.md", strings.Replace(s.read("docs/guide.md"), "../src/a.go#line=24,26", fix[1], 1))
	// Each accepts its own quote (the unpinned one's file changed since
	// HEAD, so pin pins it only when accepted): the first fails on the
	// other, pending; the second settles the page.
	for i, advice := range []string{accept[1], fix[2]} {
		if _, stderr, code := s.runAdvice(advice); code != map[bool]int{true: 1, false: 0}[i == 0] {
			t.Fatalf("%s: exit %d\n%s", advice, code, stderr)
		}
	}
	if out, errOut, code := s.run("refs", "--diff", "main"); code != 0 || out != "" {
		t.Errorf("after the remedies: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(s.read("docs/guide.md"), "[unpinned](../src/a.go#line=25,27;md5=") {
		t.Errorf("the unpinned link does not quote its text's new place:\n%s", s.read("docs/guide.md"))
	}
}
