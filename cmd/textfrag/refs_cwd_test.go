package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// refsLatin1 is src/a.l1 at BASE: "línea N" on each of 30 lines, in
// ISO-8859-1, so that a command that forgets --charset fails on it.
func refsLatin1() string {
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		b.WriteString("l\xednea " + itoa(i) + "\n")
	}
	return b.String()
}

// refsCwdFlags are the flags given to refs that choose what links mean:
// the pages' links start with / (the root decides where they lead) and
// the quoted file is not UTF-8.
var refsCwdFlags = []string{"--root", "..", "--charset", "*.l1=ISO-8859-1"}

// newRefsCwdRepo is a repository whose project (site/, found only by
// --root: no textfrag.toml) has a page in a directory whose name holds a
// space and one in another directory, with a branch "work" on top of main.
func newRefsCwdRepo(t *testing.T) *pinSite {
	t.Helper()
	src := refsLatin1()
	pinned := func(lines string) string { return "(/src/a.l1#line=" + lines + ";md5=" + md5hex(src) + ")" }
	s := newPinSite(t, map[string]string{
		"site/src/a.l1":        src,
		"site/my docs/g.md":    "[in]" + pinned("9,12") + "\n\n[out]" + pinned("19,21") + "\n\n[unpinned](/src/a.l1#line=24,26)\n",
		"site/other/o.md":      "[o]" + pinned("19,21") + "\n",
		"site/src/b.txt":       numberedSource(1, 9),
		"site/other/gone.md":   "[gone](/src/b.txt#line=4,6;md5=" + md5hex(numberedSource(1, 9)) + ")\n",
		"src/a.l1":             "a file of the repository, outside the project\n",
		"my docs/g.md":         "a page of the repository, outside the project\n",
		"site/my docs/note.md": "no links\n",
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.git("checkout", "-q", "-b", "work")
	return s
}

// shell runs a command line as a person pastes it, with sh, in the
// directory dir of the site, with textfrag on PATH.
func (s *pinSite) shell(dir, line, stdin string) (stdout, stderr string, code int) {
	s.t.Helper()
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = s.path(dir)
	cmd.Env = append(s.env(), "PATH="+filepath.Dir(e2eBin(s.t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		s.t.Fatalf("sh -c %q: %v", line, err)
	}
	return out.String(), errOut.String(), code
}

// refsCwdRun runs refs --diff main with refsCwdFlags in site/my docs.
func (s *pinSite) refsCwdRun() (out string, code int) {
	s.t.Helper()
	cmd := exec.Command(e2eBin(s.t), append([]string{"refs", "--diff", "main"}, refsCwdFlags...)...)
	cmd.Dir = s.path("site/my docs")
	cmd.Env = s.env()
	var all bytes.Buffer
	cmd.Stdout, cmd.Stderr = &all, &all
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return all.String(), code
}

// refsCwdEdit changes newRefsCwdRepo's files: a.l1's line 11 edited
// (quote 10–12 changed), a line inserted after 15 (20–21 moved, unpinned
// 25–26 shifted); b.txt's lines 5–6 deleted (the quote of gone.md: its
// lines gone).
func refsCwdEdit(s *pinSite) {
	s.write("site/src/a.l1", strings.Replace(replaceLine(refsLatin1(), 11, "l\xednea eleven\n"), "l\xednea 15\n", "l\xednea 15\ninserted\n", 1))
	s.write("site/src/b.txt", strings.Replace(numberedSource(1, 9), numberedSource(5, 6), "", 1))
}

// refsRemedies are the commands in backquotes in refs' output.
var refsRemedies = regexp.MustCompile("`(textfrag [^`]+)`")

// TestRefsDiffRemediesFromSubdirectory runs refs --diff from a
// subdirectory of the project, with the flags that choose what links mean,
// and runs each command it prints with sh in that directory, as a person
// pastes it: each names the pages and files as that directory names them
// (quoted for the shell) and repeats the flags, so each works; following
// them settles every quote.
func TestRefsDiffRemediesFromSubdirectory(t *testing.T) {
	edit := refsCwdEdit
	commands := func(t *testing.T, out string) []string {
		var cmds []string
		for _, m := range refsRemedies.FindAllStringSubmatch(out, -1) {
			cmds = append(cmds, m[1])
		}
		if len(cmds) == 0 {
			t.Fatalf("no command printed:\n%s", out)
		}
		return cmds
	}
	// find returns the one command of out that matches re.
	find := func(t *testing.T, out, re string) string {
		t.Helper()
		var found []string
		for _, c := range commands(t, out) {
			if regexp.MustCompile(re).MatchString(c) {
				found = append(found, c)
			}
		}
		if len(found) == 0 {
			t.Fatalf("no command matching %s in:\n%s", re, out)
		}
		return found[0]
	}
	// Every command repeats the flags and names pages from site/my docs.
	checkWords := func(t *testing.T, out string) {
		t.Helper()
		for _, c := range commands(t, out) {
			if !strings.Contains(c, " --charset '*.l1=ISO-8859-1'") || !strings.Contains(c, " --root ") {
				t.Errorf("%q does not repeat the flags given to refs", c)
			}
			if strings.Contains(c, "my docs/") || strings.Contains(c, " other/") || strings.Contains(c, " src/") {
				t.Errorf("%q names a project path, not one from the directory refs ran in", c)
			}
			if !strings.Contains(c, " --root .. ") {
				t.Errorf("%q does not repeat --root as named from the directory refs ran in", c)
			}
		}
	}
	settle := func(t *testing.T, s *pinSite, run func(cmd, stdin string)) {
		t.Helper()
		out, code := s.refsCwdRun()
		if code != 1 {
			t.Fatalf("refs --diff: exit %d\n%s", code, out)
		}
		checkWords(t, out)
		// The quote whose lines were deleted: textfrag link, with the
		// lines a person chose (what is left of the old lines 4–6: 4).
		link := find(t, out, `^textfrag link '?\.\./src/b\.txt:FIRST-LAST'? .*--from '?\.\./other/gone\.md'?$`)
		stdout, stderr, code := s.shell("site/my docs", strings.Replace(link, "FIRST-LAST", "4", 1), "")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", link, code, stderr)
		}
		if !strings.HasPrefix(stdout, "[gone](") { // the author's text kept (--title)
			t.Fatalf("%s printed %q", link, stdout)
		}
		s.write("site/other/gone.md", stdout)
		// The unpinned quote: its link changed as the message says, then
		// pinned with the command given.
		m := regexp.MustCompile(`change the link to (\S+), then pin it with`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no new destination for the unpinned quote:\n%s", out)
		}
		s.write("site/my docs/g.md", strings.Replace(s.read("site/my docs/g.md"), "/src/a.l1#line=24,26)", m[1]+")", 1))
		run(out, "")
	}
	t.Run("each quote's command", func(t *testing.T) {
		s := newRefsCwdRepo(t)
		edit(s)
		settle(t, s, func(out, _ string) {
			// The changed quote and the unpinned one (its file changed
			// since HEAD: pinned only when accepted) are each accepted;
			// while the other is pending, pin fails on it.
			for i, re := range []string{
				`^textfrag pin --write .*--accept '?g\.md:1'?$`,         // the changed quote
				`^textfrag pin --write .* '?\.\./other/o\.md'?$`,        // moved, in another directory
				`^textfrag pin --write --charset \S+ --root \S+ g\.md$`, // moved
				`^textfrag pin --write .*--accept '?g\.md:5'?$`,         // the unpinned one
			} {
				c := find(t, out, re)
				if _, stderr, code := s.shell("site/my docs", c, ""); code != 0 && (i == 3 || !strings.Contains(stderr, "g.md:5:1: changed: ")) {
					t.Fatalf("%s: exit %d\n%s", c, code, stderr)
				}
			}
		})
		if out, code := s.refsCwdRun(); code != 0 || strings.Contains(out, "quoted in") {
			t.Errorf("after the remedies: exit %d\n%s", code, out)
		}
		if !strings.Contains(s.read("site/my docs/g.md"), "[unpinned](/src/a.l1#line=25,27;md5=") {
			t.Errorf("the unpinned link does not quote its text's new place:\n%s", s.read("site/my docs/g.md"))
		}
	})
	t.Run("the summary's commands", func(t *testing.T) {
		s := newRefsCwdRepo(t)
		edit(s)
		settle(t, s, func(out, _ string) {
			for _, c := range []string{
				find(t, out, `^textfrag pin -i `),                          // changed (1): read each, then accept it or not
				find(t, out, `^textfrag pin --write .* \.\./other/o\.md$`), // refreshed, moved
			} {
				if _, stderr, code := s.shell("site/my docs", c, strings.Repeat("y\n", 5)); code != 0 {
					t.Fatalf("%s: exit %d\n%s", c, code, stderr)
				}
			}
		})
		if out, code := s.refsCwdRun(); code != 0 || strings.Contains(out, "quoted in") {
			t.Errorf("after the remedies: exit %d\n%s", code, out)
		}
	})
}

// TestArgPath: a file is named relative to the working directory when
// that path leads to it (down, or up and over), else absolutely: from a
// directory reached through a symbolic link, ".." leads elsewhere.
func TestArgPath(t *testing.T) {
	top := t.TempDir()
	e2eWrite(t, top, map[string]string{"p/docs/a.md": "", "p/src/-x.go": "", "p/src/b.go": ""})
	mustSymlink(t, filepath.Join(top, "p", "docs"), filepath.Join(top, "linked"))
	for _, c := range []struct{ cwd, file, want string }{
		{"p", "p/docs/a.md", "docs/a.md"},
		{"p/docs", "p/docs/a.md", "a.md"},
		{"p/docs", "p/src/b.go", "../src/b.go"},
		{"p/docs", "p/src/-x.go", "../src/-x.go"},
		{"p/src", "p/src/-x.go", "./-x.go"}, // not a flag
		{"linked", "linked/a.md", "a.md"},
		{"linked", "p/src/b.go", filepath.ToSlash(filepath.Join(top, "p/src/b.go"))}, // ../p/src/b.go from top/p/docs is not it
		{"p/docs", "p/src/gone.go", "../src/gone.go"},                                // deleted: its directory is the same
		{"p/docs", "p/old/gone.go", "../old/gone.go"},                                // its directory deleted too
		{"linked", "p/src/gone.go", filepath.ToSlash(filepath.Join(top, "p/src/gone.go"))},
	} {
		t.Run(c.cwd+" "+c.file, func(t *testing.T) {
			t.Chdir(filepath.Join(top, c.cwd))
			cwd, err := os.Getwd()
			if err != nil {
				t.Fatal(err)
			}
			if got := argPath(cwd, filepath.Join(top, c.file)); got != c.want {
				t.Errorf("argPath(%s, %s) = %q, want %q", c.cwd, c.file, got, c.want)
			}
		})
	}
}
