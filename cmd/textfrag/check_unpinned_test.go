package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestCheckUnpinnedAdviceOneStep: check's warning for an unpinned link
// gives the command that pins it in one step. Where the link's file
// changed since HEAD, pin --write PAGE does not pin it unread (it shows
// the lines and asks for an accept, one step more), so the warning names
// the lines to read and the accept command; elsewhere it stays pin
// --write PAGE. Each is run as printed, with sh, from a subdirectory
// (the page's name and the file's as named there, the flags repeated,
// --root relative), and check --strict then passes; the summary counts the
// link as pin will class it.
func TestCheckUnpinnedAdviceOneStep(t *testing.T) {
	src := numberedSource(1, 10)
	for _, c := range []struct {
		name    string
		changed bool // the file changes after the commit
		want    string
	}{
		{"file changed since HEAD", true, "textfrag pin --write --root .. --accept '../my docs/g.md:3:1' '../my docs/g.md'"}, // two links on the line: its column
		{"file as in HEAD", false, "textfrag pin --write --root .. '../my docs/g.md'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newPinSite(t, map[string]string{
				"site/src/a.go":     src,
				"site/my docs/g.md": "Intro.\n\n[the quote](/src/a.go#line=3,5) and [another](/src/a.go#line=6,7)\n",
				"site/other/x.txt":  "a directory to run in\n",
			})
			s.git("init", "-q")
			s.commit("start")
			if c.changed {
				s.write("site/src/a.go", strings.Replace(src, "// line 9 é\n", "// line nine\n", 1))
			}
			out, errOut, code := s.shell("site/other", "textfrag check --root .. '../my docs'", "")
			if code != 0 {
				t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
			}
			m := regexp.MustCompile("(?m)^../my docs/g.md:3:1: warning: /src/a.go#line=3,5: unpinned: .*`(textfrag [^`]+)`$").FindStringSubmatch(errOut)
			if m == nil {
				t.Fatalf("no unpinned warning with a command for g.md:3:1:\n%s", errOut)
			}
			if m[1] != c.want {
				t.Errorf("advice %q, want %q", m[1], c.want)
			}
			if c.changed {
				for _, want := range []string{"lines 4–5 of ../src/a.go", "read them"} {
					if !strings.Contains(m[0], want) {
						t.Errorf("the warning does not say %q: %s", want, m[0])
					}
				}
				if !strings.Contains(errOut, "quotes by class: 0 refreshed, 0 moved, 2 changed, 0 gone, 0 review, 0 unpinned") {
					t.Errorf("the summary does not count the links as pin will:\n%s", errOut)
				}
				// The summary's command for the class: pin -i, where a
				// person reads each and answers y.
				sum := regexp.MustCompile("changed \\(2\\): links without md5= whose file changed since HEAD: .*`(textfrag pin -i [^`]+)`").FindStringSubmatch(errOut)
				if sum == nil || sum[1] != "textfrag pin -i --root .. '../my docs'" {
					t.Errorf("the summary's command for the class: %q\n%s", sum, errOut)
				} else if _, e, code := s.shell("site/other", sum[1], "y\ny\n"); code != 0 || !strings.Contains(s.read("site/my docs/g.md"), "line=6,7;md5=") {
					t.Errorf("%s: exit %d\n%s\n%s", sum[1], code, e, s.read("site/my docs/g.md"))
				} else {
					s.write("site/my docs/g.md", "Intro.\n\n[the quote](/src/a.go#line=3,5) and [another](/src/a.go#line=6,7)\n") // again, for the warning's command
				}
				// pin --write PAGE, the old advice, stops on the link.
				if _, _, code := s.shell("site/other", "textfrag pin --write --root .. '../my docs/g.md'", ""); code != 1 || strings.Contains(s.read("site/my docs/g.md"), "line=3,5;md5=") {
					t.Fatalf("pin --write pinned the link unread: exit %d\n%s", code, s.read("site/my docs/g.md"))
				}
			}
			if out, errOut, code := s.shell("site/other", m[1], ""); code != 0 && !strings.Contains(errOut, "g.md:3:37: changed") { // the other link, not accepted
				t.Fatalf("%s: exit %d\n%s%s", m[1], code, out, errOut)
			}
			if !strings.Contains(s.read("site/my docs/g.md"), "[the quote](/src/a.go#line=3,5;md5=") {
				t.Errorf("%s did not pin the link:\n%s", m[1], s.read("site/my docs/g.md"))
			}
			// The other link on the line has its own warning and command.
			out, errOut, code = s.shell("site/other", "textfrag check --root .. '../my docs'", "")
			if cmd := regexp.MustCompile("`(textfrag [^`]+)`").FindStringSubmatch(errOut); cmd != nil {
				if _, e, code := s.shell("site/other", cmd[1], ""); code != 0 {
					t.Fatalf("%s: exit %d\n%s", cmd[1], code, e)
				}
			}
			if out, errOut, code := s.shell("site/other", "textfrag check --strict --root .. '../my docs'", ""); code != 0 || strings.Contains(errOut, ": warning: ") {
				t.Errorf("check --strict after following the advice: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

// TestCheckUnpinnedAdviceReference: an unpinned reference link
// ([text][label]) whose file changed since HEAD is warned about where the
// reference is, but pin pins the definition it uses, and only when
// accepted: check's command accepts the definitions of that destination
// by their lines (two definitions of the same destination show the same
// lines, so both are read alike), pins them all when run as printed, and
// the summary counts them as pin classes them, not as "nothing to review".
func TestCheckUnpinnedAdviceReference(t *testing.T) {
	src := numberedSource(1, 10)
	page := "Intro [one][r] and [two][r] and [three][s].\n\n[r]: ../src/a.go#line=2,4\n[s]: ../src/a.go#line=2,4\n"
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/g.md": page})
	s.git("init", "-q")
	s.commit("start")
	s.write("src/a.go", "// a new first line\n"+src)
	_, errOut, code := s.shell(".", "textfrag check docs", "")
	if code != 0 {
		t.Fatalf("check: exit %d\n%s", code, errOut)
	}
	want := "textfrag pin --write --accept docs/g.md:3 --accept docs/g.md:4 docs/g.md"
	warnings := regexp.MustCompile("(?m)^docs/g.md:1:[0-9]+: warning: .*unpinned: .*`(textfrag [^`]+)`$").FindAllStringSubmatch(errOut, -1)
	if len(warnings) != 3 {
		t.Fatalf("%d unpinned warnings with a command on line 1, want 3:\n%s", len(warnings), errOut)
	}
	for _, m := range warnings {
		if m[1] != want || !strings.Contains(m[0], "lines 3–4 of src/a.go") {
			t.Errorf("warning %q: want the lines to read and %q", m[0], want)
		}
	}
	if !strings.Contains(errOut, "quotes by class: 0 refreshed, 0 moved, 3 changed, 0 gone, 0 review, 0 unpinned") {
		t.Errorf("the summary does not count the links as pin will:\n%s", errOut)
	}
	if out, e, code := s.shell(".", warnings[0][1], ""); code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", warnings[0][1], code, out, e)
	}
	got := s.read("docs/g.md")
	if strings.Count(got, "../src/a.go#line=2,4;md5=") != 2 {
		t.Errorf("%s did not pin both definitions:\n%s", warnings[0][1], got)
	}
	if out, e, code := s.shell(".", "textfrag check --strict docs", ""); code != 0 {
		t.Errorf("check --strict after the advice: exit %d\n%s%s", code, out, e)
	}
}

// TestCheckUnpinnedShortcode: a textfrag shortcode without md5= in a page
// is warned about as an unpinned link is (check --strict fails on it), and
// the warning's command, run as printed, pins it: check --strict then
// passes. (Hugo runs a shortcode inside a code span too, so it counts.)
func TestCheckUnpinnedShortcode(t *testing.T) {
	s := newPinSite(t, map[string]string{
		"site/src/a.go":  numberedSource(1, 10),
		"site/docs/g.md": "Intro.\n\n{{< textfrag \"../src/a.go#line=3,5\" >}}\n",
	})
	s.git("init", "-q")
	s.commit("start")
	out, errOut, code := s.shell("site", "textfrag check --strict docs", "")
	if code == 0 {
		t.Fatalf("check --strict passed an unpinned shortcode:\n%s%s", out, errOut)
	}
	m := regexp.MustCompile("(?m)^docs/g.md:3:1: (?:warning|error): ../src/a.go#line=3,5: unpinned: .*`(textfrag [^`]+)`$").FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("no unpinned warning with a command for the shortcode at g.md:3:1:\n%s", errOut)
	}
	if out, errOut, code := s.shell("site", m[1], ""); code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", m[1], code, out, errOut)
	}
	if got := s.read("site/docs/g.md"); !regexp.MustCompile(`\{\{< textfrag "\.\./src/a\.go#line=3,5;md5=[0-9a-f]{32}" >\}\}`).MatchString(got) {
		t.Errorf("the shortcode is not pinned:\n%s", got)
	}
	if out, errOut, code := s.shell("site", "textfrag check --strict docs", ""); code != 0 {
		t.Errorf("check --strict after the remedy: exit %d\n%s%s", code, out, errOut)
	}
}
