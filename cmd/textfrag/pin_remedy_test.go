package main

import (
	"bytes"
	"os"
	"os/exec"
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
// command; each message gives one remedy, the textfrag link command that
// writes the link anew with the lines a person chose, and following it
// makes check pass.
func TestPinRemedyByHand(t *testing.T) {
	src := numberedSource(1, 10)
	remedy := "read the file, run `textfrag link src/a.go:FIRST-LAST --title q --from docs/a.md` with the lines to quote now, and put the link it prints in this one's place (or delete the quote)"
	byHand := []struct {
		name   string
		git    bool
		doc    string
		change func(s *pinSite)
		lines  string // the lines a person chooses after reading the file
	}{
		{"length only", false, "[q](../src/a.go#line=2,4;length=3)\n", nil, "3-4"},
		{"review: no history", false, "[q](../src/a.go#line=2,4;md5=00000000000000000000000000000000)\n", nil, "3-4"},
		{"review: no such version", true, "[q](../src/a.go#line=2,4;md5=00000000000000000000000000000000)\n", nil, "3-4"},
		{"gone: quoted text deleted", true, "[q](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n",
			func(s *pinSite) { s.write("src/a.go", numberedSource(1, 2)+numberedSource(5, 10)) }, "2-3"},
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
			if code != 1 || s.read("docs/a.md") != c.doc || !strings.Contains(stderr, "; not accepted: ") || !strings.Contains(stderr, remedy) {
				t.Fatalf("--accept-changed: exit %d, page %q; want exit 1, the page as it was, and %q:\n%s", code, s.read("docs/a.md"), remedy, stderr)
			}
			_, stderr, _ = s.run("pin", "docs")
			if !strings.Contains(stderr, remedy) {
				t.Fatalf("pin: no remedy %q:\n%s", remedy, stderr)
			}
			assertOneRemedy(t, stderr)
			s.followLinkRemedy(stderr, "docs/a.md", c.lines)
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

// pinQuoteLine is the first line of a quote's report in pin's output.
var pinQuoteLine = regexp.MustCompile(`(?m)^\S.*?:\d+:\d+: (pinned|refreshed|moved|changed|gone|review|error|warning): .*$`)

// assertOneRemedy: every quote pin reports for a person (changed, gone,
// review) advises exactly one command, and none repeats an md5.
func assertOneRemedy(t *testing.T, output string) {
	t.Helper()
	for _, m := range pinQuoteLine.FindAllStringSubmatch(output, -1) {
		switch m[1] {
		case "changed", "gone", "review":
		default:
			continue
		}
		if n := len(pinAdvice.FindAllString(m[0], -1)); n != 1 {
			t.Errorf("%d commands advised, want 1: %s", n, m[0])
		}
		for _, sum := range regexp.MustCompile(`[0-9a-f]{32}`).FindAllString(m[0], -1) {
			if strings.Count(m[0], sum) > 1 {
				t.Errorf("the md5 %s repeated: %s", sum, m[0])
			}
		}
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
	stdout, stderr, code := s.shell(".", advice, "") // as a person pastes it
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
// choose what links mean (in name order), quoted for the shell, so that it
// pins the same links the same way: a review quote's textfrag link takes
// those link knows (--charset, --root), and followed through a shell from
// where pin ran, it writes a link that checks.
func TestPinAdviceRepeatsFlags(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/a.go": numberedSource(1, 5), "my docs/a.md": "[q](../src/a.go#line=1,2;length=3)\n"})
	_, stderr, code := pinRunIn("pin", "--root", s.dir, "--charset", "*.txt=latin1", "--allow-host", "*.example.org", "--offline", s.path("my docs/a.md"))
	want := "run `textfrag link --charset '*.txt=latin1' --root " + s.dir + " " + s.path("src/a.go") + ":FIRST-LAST --title q --from '" + s.path("my docs/a.md") + "'`"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr lacks %q:\n%s", code, want, stderr)
	}
	assertOneRemedy(t, stderr)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	link := s.runShell(wd, strings.Replace(pinAdvice.FindStringSubmatch(stderr)[1], "FIRST-LAST", "2-2", 1))
	s.write("my docs/a.md", link)
	if _, stderr, code := s.run("check", "my docs"); code != 0 {
		t.Errorf("check after following %q: exit %d\n%s", link, code, stderr)
	}
	// The pin advice of a quote pin can write repeats every such flag.
	s.write("my docs/a.md", "[q](../src/a.go#line=1,2)\n")
	_, stderr, _ = pinRunIn("pin", "--root", s.dir, "--charset", "*.txt=latin1", "--allow-host", "*.example.org", "--offline", s.path("my docs/a.md"))
	if want := "`textfrag pin --write --allow-host '*.example.org' --charset '*.txt=latin1' --offline=true --root " + s.dir + " '" + s.path("my docs/a.md") + "'`"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}

// runShell runs an advised textfrag command line as a person pastes it into
// a shell in dir (textfrag being the built command), and returns its
// output; it fails the test when the command fails.
func (s *pinSite) runShell(dir, advice string) string {
	s.t.Helper()
	line, ok := strings.CutPrefix(advice, "textfrag ")
	if !ok {
		s.t.Fatalf("not a textfrag command: %s", advice)
	}
	cmd := exec.Command("sh", "-c", `exec "$0" `+line, e2eBin(s.t))
	cmd.Dir = dir
	cmd.Env = s.env()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		s.t.Fatalf("%s (in %s): %v\n%s%s", advice, dir, err, out.String(), errOut.String())
	}
	return out.String()
}
