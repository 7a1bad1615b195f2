package main

import (
	"os"
	"regexp"
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
		if step >= 4 {
			s.t.Fatalf("%v still fails after following %q:\n%s%s", args, followed, stdout, stderr)
		}
		m := pinAdvice.FindAllStringSubmatch(stdout+stderr, -1)
		if m == nil {
			s.t.Fatalf("%v fails (exit %d) and advises no command:\n%s%s", args, code, stdout, stderr)
		}
		advice := m[len(m)-1][1]
		followed = append(followed, advice)
		_, aerr, acode := s.run(strings.Fields(advice)[1:]...)
		// Advice may lead to more advice (pin asks for a review, then
		// --accept-changed): follow it too.
		for acode != 0 && step < 4 {
			m := pinAdvice.FindAllStringSubmatch(aerr, -1)
			if m == nil {
				s.t.Fatalf("%q fails (exit %d) and advises no command:\n%s", advice, acode, aerr)
			}
			advice = m[len(m)-1][1]
			followed = append(followed, advice)
			_, aerr, acode = s.run(strings.Fields(advice)[1:]...)
			step++
		}
		stdout, stderr, code = s.run(args...)
	}
	return followed
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
			[]string{"textfrag pin --write docs/a.md"}},
		{"changed", true, "[q](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n",
			func(s *pinSite) { s.write("src/a.go", strings.Replace(src, "line 3 é", "line three", 1)) },
			[]string{"textfrag pin --write docs/a.md", "textfrag pin --write --accept-changed docs/a.md"}},
	}
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

// TestPinRemedyExampleBrokenPage follows the advice of the example site's
// own failing page: its md5 is in no version (it was taken from a CRLF
// checkout), so pin reports it gone and re-pins it with --accept-changed.
func TestPinRemedyExampleBrokenPage(t *testing.T) {
	s := newPinSite(t, nil)
	for _, name := range []string{"_broken/stale.md", "rfc/rfc5147.txt"} {
		b, err := os.ReadFile("../../examples/site/" + name)
		if err != nil {
			t.Fatal(err)
		}
		s.write("site/"+name, string(b))
	}
	// No version has the md5: review. --accept-changed leaves it; the
	// remedy is to read the range, drop the md5 and pin.
	page := s.read("site/_broken/stale.md")
	_, stderr, code := s.run("pin", "--write", "--accept-changed", "site/_broken/stale.md")
	if code != 1 || s.read("site/_broken/stale.md") != page || !strings.Contains(stderr, "review: ") ||
		!strings.Contains(stderr, "remove the link's md5= and run `textfrag pin --write site/_broken/stale.md`") {
		t.Fatalf("pin --accept-changed: exit %d\n%s", code, stderr)
	}
	s.write("site/_broken/stale.md", regexp.MustCompile(`;md5=[0-9a-f]{32}`).ReplaceAllString(page, ""))
	if _, stderr, code := s.run("pin", "--write", "site/_broken/stale.md"); code != 0 {
		t.Fatalf("the remedy: exit %d\n%s", code, stderr)
	}
	if stdout, stderr, code := s.run("check", "site/_broken"); code != 0 {
		t.Errorf("check afterwards: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(s.read("site/_broken/stale.md"), "#line=389,401;md5=") {
		t.Errorf("the range was not kept as written:\n%s", s.read("site/_broken/stale.md"))
	}
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
