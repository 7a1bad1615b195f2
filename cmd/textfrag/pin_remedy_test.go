package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pinAdvice finds the command a message advises: the last `textfrag …`
// in backquotes.
var pinAdvice = regexp.MustCompile("`(textfrag [^`]+)`")

// followAdvice runs args, and while the command fails, runs the command its
// messages advise, literally, then the original command again. It fails
// the test when a failure advises no command, and returns the commands
// followed.
func (s *pinSite) followAdvice(args ...string) []string {
	s.t.Helper()
	var followed []string
	stdout, stderr, code := s.run(args...)
	for step := 0; code != 0; step++ {
		if step == 4 {
			s.t.Fatalf("%v still fails after following %q:\n%s%s", args, followed, stdout, stderr)
		}
		m := pinAdvice.FindAllStringSubmatch(stdout+stderr, -1)
		if m == nil {
			s.t.Fatalf("%v fails (exit %d) and advises no command:\n%s%s", args, code, stdout, stderr)
		}
		advice := m[len(m)-1][1]
		followed = append(followed, advice)
		_, aerr, acode := s.runAdvice(advice)
		// Advice may lead to more advice (pin asks for a review, then
		// --accept-changed): follow it too.
		for acode != 0 && step < 4 {
			m := pinAdvice.FindAllStringSubmatch(aerr, -1)
			if m == nil {
				s.t.Fatalf("%q fails (exit %d) and advises no command:\n%s", advice, acode, aerr)
			}
			advice = m[len(m)-1][1]
			followed = append(followed, advice)
			_, aerr, acode = s.runAdvice(advice)
			step++
		}
		stdout, stderr, code = s.run(args...)
	}
	return followed
}

// runAdvice runs an advised command; pin -i reads its answers from stdin,
// and a person who follows the advice has read each diff and answers y.
func (s *pinSite) runAdvice(advice string) (stdout, stderr string, code int) {
	s.t.Helper()
	args := strings.Fields(advice)[1:]
	stdin := ""
	if slices.Contains(args, "-i") {
		stdin = strings.Repeat("y\n", 20)
	}
	return s.runWith(nil, stdin, args...)
}

// TestPinRemedyWorks: for each kind of error whose message advises a
// command, following the advice literally makes check pass (and pin
// --check, which then has nothing left to do).
func TestPinRemedyWorks(t *testing.T) {
	src := numberedSource(1, 10)
	cases := []struct {
		name   string
		git    bool
		doc    string
		change func(s *pinSite) // after the commit
		want   []string         // the commands followed
	}{
		{"moved", true, "[q](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n",
			func(s *pinSite) { s.write("src/a.go", "// new\n"+src) },
			[]string{"textfrag pin --write docs"}},
		{"changed", true, "[q](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n",
			func(s *pinSite) { s.write("src/a.go", strings.Replace(src, "line 3 é", "line three", 1)) },
			[]string{"textfrag pin -i docs"}},
		{"moved and changed", true, "[q](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n\n[r](../src/a.go#line=7,9;md5=" + md5hex(src) + ")\n",
			func(s *pinSite) { s.write("src/a.go", "// new\n"+strings.Replace(src, "line 9 é", "line nine", 1)) },
			[]string{"textfrag pin --write docs", "textfrag pin --write --accept-changed docs"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": c.doc})
			if c.git {
				s.git("init", "-q")
				s.commit("start")
			}
			if c.change != nil {
				c.change(s)
			}
			if got := s.followAdvice("check", "docs"); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("followed %q, want %q", got, c.want)
			}
			if _, stderr, code := s.run("pin", "--check", "docs"); code != 0 {
				t.Errorf("pin --check afterwards: exit %d\n%s", code, stderr)
			}
		})
	}

	// pin --check and pin without --write advise the command that writes.
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": "[q](../src/a.go#line=2,4)\n"})
	if got := s.followAdvice("pin", "--check", "docs"); strings.Join(got, "\n") != "textfrag pin --write docs" {
		t.Errorf("pin --check: followed %q", got)
	}
	s.write("docs/a.md", "[q](../src/a.go#line=2,5)\n")
	if _, stderr, _ := s.run("pin", "docs"); !strings.Contains(stderr, "`textfrag pin --write docs`") {
		t.Errorf("pin without --write: %s", stderr)
	}
}

// TestPinRemedyByHand: review and gone quotes are never re-pinned by a
// command; pin prints what to do by hand, and doing it makes check pass.
func TestPinRemedyByHand(t *testing.T) {
	src := numberedSource(1, 10)
	// Review and gone quotes are never re-pinned by a command: pin prints
	// what to do by hand. Following the printed commands leaves the link
	// as it is; doing what the message says, then following the advice,
	// makes check pass.
	unpinned := "[q](../src/a.go#line=2,4)\n"
	byHand := []struct {
		name   string
		git    bool
		doc    string
		change func(s *pinSite)
		says   string // what the message tells a person to do
		fixed  string // the link after doing it
	}{
		{"length only", false, "[q](../src/a.go#line=2,4;length=3)\n", nil,
			"remove the link's length= and run `textfrag pin --write docs/a.md`", unpinned},
		{"review: no history", false, "[q](../src/a.go#line=2,4;md5=00000000000000000000000000000000)\n", nil,
			"remove the link's md5= and run `textfrag pin --write docs/a.md`", unpinned},
		{"review: no such version", true, "[q](../src/a.go#line=2,4;md5=00000000000000000000000000000000)\n", nil,
			"remove the link's md5= and run `textfrag pin --write docs/a.md`", unpinned},
		{"gone: quoted text deleted", true, "[q](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n",
			func(s *pinSite) { s.write("src/a.go", numberedSource(1, 2)+numberedSource(5, 10)) },
			"quote what replaced it, or remove the link, by hand", "[q](../src/a.go#line=1,3)\n"},
	}
	for _, c := range byHand {
		t.Run(c.name, func(t *testing.T) {
			s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": c.doc})
			if c.git {
				s.git("init", "-q")
				s.commit("start")
			}
			if c.change != nil {
				c.change(s)
			}
			_, stderr, code := s.run("pin", "--write", "--accept-changed", "docs")
			if code != 1 || s.read("docs/a.md") != c.doc || !strings.Contains(stderr, c.says) {
				t.Fatalf("--accept-changed: exit %d, page %q; want exit 1, the page as it was, and %q:\n%s", code, s.read("docs/a.md"), c.says, stderr)
			}
			s.write("docs/a.md", c.fixed)
			if _, stderr, code := s.run("pin", "--write", "docs/a.md"); code != 0 {
				t.Errorf("after the fix by hand, pin --write: exit %d\n%s", code, stderr)
			}
			if stdout, stderr, code := s.run("check", "docs"); code != 0 {
				t.Errorf("check afterwards: exit %d\n%s%s", code, stdout, stderr)
			}
			if _, stderr, code := s.run("pin", "--check", "docs"); code != 0 {
				t.Errorf("pin --check afterwards: exit %d\n%s", code, stderr)
			}
		})
	}
}

// TestPinRemedyExampleBrokenPage follows the advice of the example site's
// own failing page: its md5 is in no version (it was taken from a CRLF
// checkout), so pin reports it gone, refuses to re-pin it even with
// --accept-changed, and advises writing the link anew with textfrag link,
// which a person does after reading the lines.
func TestPinRemedyExampleBrokenPage(t *testing.T) {
	s := newPinSite(t, nil)
	for _, name := range []string{"_broken/stale.md", "rfc/rfc5147.txt"} {
		b, err := os.ReadFile("../../examples/site/" + name)
		if err != nil {
			t.Fatal(err)
		}
		s.write("site/"+name, string(b))
	}
	before := s.read("site/_broken/stale.md")
	_, stderr, code := s.run("pin", "--write", "--accept-changed", "site/_broken")
	if code != 1 || s.read("site/_broken/stale.md") != before || !strings.Contains(stderr, ": review: ") || !strings.Contains(stderr, "not accepted") {
		t.Fatalf("a gone quote under --accept-changed: exit %d, page changed %v:\n%s", code, s.read("site/_broken/stale.md") != before, stderr)
	}
	s.followLinkRemedy(stderr, "site/_broken/stale.md", "390-401")
	if _, stderr, code := s.run("check", "site/_broken"); code != 0 {
		t.Errorf("check after following the remedy: exit %d\n%s", code, stderr)
	}
}

// followLinkRemedy follows the remedy pin gives for a quote it will not
// re-pin: it runs the `textfrag link FILE:FIRST-LAST --from PAGE` the
// output advises, with the lines a person chose (lines, "390-401"), and
// puts the link it prints in place of the page's only RFC 5147 link.
func (s *pinSite) followLinkRemedy(output, page, lines string) {
	s.t.Helper()
	m := regexp.MustCompile("`(textfrag link [^`]+)`").FindStringSubmatch(output)
	if m == nil {
		s.t.Fatalf("no textfrag link remedy in:\n%s", output)
	}
	advice := strings.Replace(m[1], "FIRST-LAST", lines, 1)
	stdout, stderr, code := s.run(strings.Fields(advice)[1:]...)
	if code != 0 {
		s.t.Fatalf("%s: exit %d\n%s", advice, code, stderr)
	}
	src := s.read(page)
	link := regexp.MustCompile(`\[[^\]]*\]\([^)]*#line=[^)]*\)`)
	if len(link.FindAllString(src, -1)) != 1 {
		s.t.Fatalf("the page holds %d links", len(link.FindAllString(src, -1)))
	}
	s.write(page, link.ReplaceAllLiteralString(src, strings.TrimSpace(stdout)))
}

// TestPinAdviceRepeatsFlags: the command pin advises repeats the flags that
// choose what links mean (in name order), quoted for the shell, so that it pins the same
// links the same way.
func TestPinAdviceRepeatsFlags(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/a.go": numberedSource(1, 5), "my docs/a.md": "[q](../src/a.go#line=1,2;length=3)\n"})
	_, stderr, code := pinRunIn("pin", "--root", s.dir, "--charset", "*.txt=latin1", "--allow-host", "*.example.org", "--offline", s.path("my docs/a.md"))
	want := "run `textfrag pin --write --allow-host '*.example.org' --charset '*.txt=latin1' --offline=true --root " + s.dir + " '" + s.path("my docs/a.md") + "'`"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, stderr)
	}
}
