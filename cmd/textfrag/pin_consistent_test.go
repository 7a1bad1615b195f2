package main

import (
	"regexp"
	"strings"
	"testing"
)

// consistentV1 and consistentV2 are two commits of a file: between them an
// import is added above, and Sum is rewritten (its first statement deleted,
// a comment and a call added), so the quote of Sum is changed and grows,
// and the note below it moves unchanged.
const consistentV1 = `package a

// Sum adds the numbers.
func Sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

// Note: the sum of nothing is zero, as the loop never runs.
`

const consistentV2 = `package a

import "fmt"

// Sum adds the numbers.
func Sum(xs []int) (total int) {
	// Add each number.
	for _, x := range xs {
		total += x
	}
	fmt.Println(total)
	return total
}

// Note: the sum of nothing is zero, as the loop never runs.
`

// TestPinKeepsPageConsistentThroughHistory: on a real git history, a
// changed quote that grew keeps hl= on the lines its emphasized lines
// became (one deleted is dropped, with a warning), and the captions
// textfrag link wrote, for a line= and a char= range, state the new
// ranges. pin runs from the page's directory, and its remedy, followed
// there through a shell, accepts the change. The oracle is textfrag link
// itself: the page's links end up as link writes them for the new lines.
func TestPinKeepsPageConsistentThroughHistory(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/a.go": consistentV1})
	s.git("init", "-q")
	lines := strings.TrimSpace(s.mustRun("link", "src/a.go:4-10", "--from", "docs/a.md", "--options", "hl=5,7 dedent"))
	chars := strings.TrimSpace(s.mustRun("link", "src/a.go:12:4-12:40", "--from", "docs/a.md"))
	if !strings.HasPrefix(lines, "[a.go lines 4–10](") || !strings.HasPrefix(chars, "[a.go line 12, col 4 – line 12, col 40](") {
		t.Fatalf("textfrag link's captions: %s\n%s", lines, chars)
	}
	s.write("docs/a.md", lines+"\n\n"+chars+"\n")
	s.commit("v1, pinned")
	s.write("src/a.go", consistentV2)
	s.commit("v2")

	docs := s.path("docs")
	_, stderr, code := s.runIn(docs, "pin", "a.md")
	if code != 1 || !strings.Contains(stderr, "a.md:1:1: changed: src/a.go lines 4–10 → lines 6–13: ") || !strings.Contains(stderr, "a.md:3:1: moved: ") {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	assertOneRemedy(t, stderr)
	advice := pinAdvice.FindAllStringSubmatch(stderr, -1)
	if len(advice) == 0 || advice[0][1] != "textfrag pin --write --accept a.md:1" {
		t.Fatalf("the changed quote's remedy: %q\n%s", advice, stderr)
	}
	s.runShell(docs, advice[0][1])

	wantLines := strings.TrimSpace(s.mustRun("link", "src/a.go:6-13", "--from", "docs/a.md", "--options", "hl=9 dedent"))
	wantChars := strings.TrimSpace(s.mustRun("link", "src/a.go:15:4-15:40", "--from", "docs/a.md"))
	if got, want := s.read("docs/a.md"), wantLines+"\n\n"+wantChars+"\n"; got != want {
		t.Errorf("the page after the remedy:\n%s\nwant, as textfrag link writes it:\n%s", got, want)
	}
	// The warning for the line that was deleted, printed by the run that
	// wrote the page.
	_, stderr, _ = s.runIn(docs, "pin", "--write", "a.md")
	if stderr != "" {
		t.Errorf("pin again: %s", stderr)
	}
	s.mustCheck()
}

// TestPinWarnsOfDeletedEmphasis: the run that writes a changed quote says
// which emphasized line it dropped and why.
func TestPinWarnsOfDeletedEmphasis(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/a.go": consistentV1})
	s.git("init", "-q")
	s.write("docs/a.md", strings.TrimSpace(s.mustRun("link", "src/a.go:4-10", "--from", "docs/a.md", "--options", "hl=5,7 dedent"))+"\n")
	s.commit("v1, pinned")
	s.write("src/a.go", consistentV2)
	_, stderr, code := s.run("pin", "--write", "--accept-changed", "docs")
	if want := "docs/a.md:1:1: warning: hl=5,7 became hl=9: line 5 was deleted, or pin cannot tell which line it became"; code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, stderr)
	}
	s.mustCheck()
}

// TestPinRemedyFromSubdirectory: run from the page's directory, pin's
// remedy for a gone quote (textfrag link …) works when followed there,
// through a shell: the link it prints, put in place, checks.
func TestPinRemedyFromSubdirectory(t *testing.T) {
	src := numberedSource(1, 10)
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/guide/a.md": "[q](../../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n"})
	s.git("init", "-q")
	s.commit("start")
	s.write("src/a.go", numberedSource(1, 2)+numberedSource(5, 10))
	dir := s.path("docs/guide")
	_, stderr, code := s.runIn(dir, "pin", "a.md")
	want := "`textfrag link ../../src/a.go:FIRST-LAST --title q --from a.md`" // named from where pin ran, the link text kept
	if code != 1 || !strings.Contains(stderr, "a.md:1:1: gone: ") || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr lacks %q:\n%s", code, want, stderr)
	}
	assertOneRemedy(t, stderr)
	advice := strings.Replace(pinAdvice.FindStringSubmatch(stderr)[1], "FIRST-LAST", "2-3", 1)
	link := strings.TrimSpace(s.runShell(dir, advice))
	if !regexp.MustCompile(`^\[q\]\(\.\./\.\./src/a\.go#line=1,3;md5=[0-9a-f]{32}\)$`).MatchString(link) {
		t.Fatalf("%s printed %q", advice, link)
	}
	s.write("docs/guide/a.md", link+"\n")
	s.mustCheck("docs")
}

// runIn runs the built textfrag in dir.
func (s *pinSite) runIn(dir string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	saved := s.dir
	s.dir = dir
	defer func() { s.dir = saved }()
	return s.run(args...)
}

// TestPinRemedyKeepsTheName: a review quote named by region= (no history
// to compare it with) is advised to be written anew by its name, with its
// other options; followed through a shell, the new link keeps both.
func TestPinRemedyKeepsTheName(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/server.go": namesServer})
	stale := `[setup](../src/server.go#line=13,18;md5=00000000000000000000000000000000 "region=setup dedent")`
	s.write("docs/a.md", stale+"\n")
	_, stderr, code := s.run("pin", "docs")
	advice := "textfrag link src/server.go --region setup --options dedent --title setup --from docs/a.md"
	if code != 1 || !strings.Contains(stderr, "docs/a.md:1:1: review: ") || !strings.Contains(stderr, "`"+advice+"`") {
		t.Fatalf("exit %d, stderr lacks %q:\n%s", code, advice, stderr)
	}
	assertOneRemedy(t, stderr)
	link := strings.TrimSpace(s.runShell(s.dir, advice))
	if !strings.HasPrefix(link, "[setup](") || !strings.HasSuffix(link, ` "region=setup dedent")`) {
		t.Errorf("%s printed %s", advice, link)
	}
	s.write("docs/a.md", link+"\n")
	s.mustCheck()
}
