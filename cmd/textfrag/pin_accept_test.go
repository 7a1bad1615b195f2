package main

import (
	"regexp"
	"strings"
	"testing"
)

// acceptSite is a git site whose src/a.go had lines 1–20 when docs/a.md
// pinned two quotes, lines 3–4 and 12–13; then one line of each changed.
func acceptSite(t *testing.T) (s *pinSite, src, now string) {
	t.Helper()
	src = numberedSource(1, 20)
	s = newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": "# A\n\n" +
		"[first](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n\n" +
		"[second](../src/a.go#line=11,13;md5=" + md5hex(src) + ")\n"})
	s.git("init", "-q")
	s.commit("start")
	now = strings.Replace(strings.Replace(src, "line 3 é", "line three", 1), "line 12 é", "line twelve", 1)
	s.write("src/a.go", now)
	return s, src, now
}

var acceptIDRE = regexp.MustCompile(`docs/a\.md:(\d+):1: changed: [^\n]*\(quote ([0-9a-f]{8})\)\n`)

// TestPinAcceptOneQuote: pin names each changed quote with an id and a
// remedy that accepts that quote alone; following it re-pins that quote
// and leaves the other, which the id pin printed accepts next.
func TestPinAcceptOneQuote(t *testing.T) {
	s, src, now := acceptSite(t)
	_, stderr, code := s.run("pin", "docs")
	ids := acceptIDRE.FindAllStringSubmatch(stderr, -1)
	if code != 1 || len(ids) != 2 || ids[0][1] != "3" || ids[1][1] != "5" {
		t.Fatalf("pin: exit %d, ids %q\n%s", code, ids, stderr)
	}
	if !strings.Contains(stderr, "pin: 0 refreshed, 0 moved, 2 changed, 0 gone, 0 review, 0 unpinned\n") {
		t.Errorf("no counts by class:\n%s", stderr)
	}
	// The first quote's own remedy, followed literally.
	m := regexp.MustCompile("docs/a.md:3:1: changed[^\n]*`(textfrag pin --write --accept docs/a.md:3)`").FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no per-quote remedy for the first quote:\n%s", stderr)
	}
	_, stderr, code = s.runAdvice(m[1])
	page := s.read("docs/a.md")
	if code != 1 || !strings.Contains(page, "[first](../src/a.go#line=2,4;md5="+md5hex(now)+")") || !strings.Contains(page, "[second](../src/a.go#line=11,13;md5="+md5hex(src)+")") {
		t.Fatalf("after %s: exit %d (want 1: the second quote is pending)\n%s\n%s", m[1], code, page, stderr)
	}
	if !strings.Contains(stderr, "changed (1): ") || !strings.Contains(stderr, "(quote "+ids[1][2]+")") {
		t.Errorf("the second quote is not reported with its id:\n%s", stderr)
	}
	// The second by the id pin printed for it.
	if _, stderr, code := s.run("pin", "--write", "--accept", ids[1][2], "docs"); code != 0 {
		t.Fatalf("--accept %s: exit %d\n%s", ids[1][2], code, stderr)
	}
	if !strings.Contains(s.read("docs/a.md"), "[second](../src/a.go#line=11,13;md5="+md5hex(now)+")") {
		t.Errorf("the second quote was not re-pinned:\n%s", s.read("docs/a.md"))
	}
	for _, args := range [][]string{{"check", "docs"}, {"pin", "--check", "docs"}} {
		if _, stderr, code := s.run(args...); code != 0 {
			t.Errorf("%v afterwards: exit %d\n%s", args, code, stderr)
		}
	}
	// An id that names no quote (any more) is an error, not silence.
	if _, stderr, code := s.run("pin", "--write", "--accept", ids[1][2], "docs"); code != 1 || !strings.Contains(stderr, "no link there needs accepting") {
		t.Errorf("a stale id: exit %d\n%s", code, stderr)
	}
}

// TestPinInteractive drives pin -i through stdin as a person at a
// terminal would: ? prints the help, n leaves a quote, y re-pins one, and
// q (or the end of input) leaves the rest.
func TestPinInteractive(t *testing.T) {
	s, src, now := acceptSite(t)
	_, stderr, code := s.runWith(nil, "?\nn\ny\n", "pin", "-i", "docs")
	page := s.read("docs/a.md")
	if !strings.Contains(page, "[first](../src/a.go#line=2,4;md5="+md5hex(src)+")") || !strings.Contains(page, "[second](../src/a.go#line=11,13;md5="+md5hex(now)+")") {
		t.Fatalf("after n, y:\n%s\n%s", page, stderr)
	}
	if code != 1 {
		t.Errorf("exit %d, want 1: the first quote is still pending", code)
	}
	for _, want := range []string{
		"- // line 3 é\n    + // line three\n",                       // the diff, before the question
		"[y,n,q,?] y - re-pin this quote",                            // ? prints the help
		"q - leave it and every quote not yet answered",              // all of it
		"docs/a.md:5:1: changed: src/a.go lines 12–13 → lines 12–13", // accepted, reported once
		"re-pinned: accepted",
		"1 accepted",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Count(stderr, "+ // line twelve") != 1 {
		t.Errorf("the diff of an answered quote is shown %d times:\n%s", strings.Count(stderr, "+ // line twelve"), stderr)
	}
	// The quote answered n is reported without its diff, shown above with
	// the question: its remedy does not point below, where nothing is.
	if !strings.Contains(stderr, "; read the diff above, then accept it with `textfrag pin --write --accept docs/a.md:") || strings.Contains(stderr, "read the diff below") {
		t.Errorf("the remedy of the quote answered n:\n%s", stderr)
	}

	// q leaves every quote not yet answered; so does the end of input.
	for _, answers := range []string{"q\n", ""} {
		s, src, _ := acceptSite(t)
		_, stderr, code := s.runWith(nil, answers, "pin", "-i", "docs")
		if code != 1 || strings.Count(stderr, "[y,n,q,?]") != 1 || strings.Count(s.read("docs/a.md"), md5hex(src)) != 2 {
			t.Errorf("answers %q: exit %d, %d questions, page\n%s\n%s", answers, code, strings.Count(stderr, "[y,n,q,?]"), s.read("docs/a.md"), stderr)
		}
	}
	if _, stderr, code := s.run("pin", "-i", "--check", "docs"); code != 2 {
		t.Errorf("-i --check: exit %d\n%s", code, stderr)
	}
}

// TestPinRefusesGone: a quote whose pinned version no history holds
// (review: pin cannot tell whether it moved or changed) is never re-pinned, by --accept-changed, --accept or -i; pin --check fails
// on it; the remedy, followed with the lines a person chose, mends it.
func TestPinRefusesGone(t *testing.T) {
	src := numberedSource(1, 10)
	page := "[q](../src/a.go#line=2,4;md5=00000000000000000000000000000000)\n"
	s := newPinSite(t, map[string]string{"src/a.go": src, "docs/a.md": page})
	s.git("init", "-q")
	s.commit("start")
	_, stderr, code := s.run("pin", "--check", "docs")
	id := regexp.MustCompile(`docs/a\.md:1:1: review: [^\n]*\(quote ([0-9a-f]{8})\)\n`).FindStringSubmatch(stderr)
	if code != 1 || id == nil || !strings.Contains(stderr, "0 changed, 0 gone, 1 review") {
		t.Fatalf("pin --check on a review quote: exit %d\n%s", code, stderr)
	}
	for _, args := range [][]string{
		{"pin", "--write", "--accept-changed", "docs"},
		{"pin", "--write", "--accept", id[1], "docs"},
		{"pin", "--write", "--accept", "docs/a.md:1"},
	} {
		_, stderr, code := s.run(args...)
		if code != 1 || s.read("docs/a.md") != page || !strings.Contains(stderr, "not accepted: pin cannot show that the text it would point at is the text it quoted") {
			t.Errorf("%v: exit %d, page %q\n%s", args, code, s.read("docs/a.md"), stderr)
		}
	}
	_, stderr, _ = s.runWith(nil, "y\ny\n", "pin", "-i", "docs")
	if s.read("docs/a.md") != page || strings.Contains(stderr, "[y,n,q,?]") {
		t.Errorf("-i asked about a review quote, or re-pinned it:\n%s", stderr)
	}
	s.followLinkRemedy(stderr, "docs/a.md", "3-4")
	for _, args := range [][]string{{"check", "docs"}, {"pin", "--check", "docs"}} {
		if _, stderr, code := s.run(args...); code != 0 {
			t.Errorf("%v after the remedy: exit %d\n%s", args, code, stderr)
		}
	}
}

// TestPinSummaryCommands: every run ends with counts by class and, for
// each class found, one command; followed, the command for refreshed,
// moved and unpinned quotes settles them, and pin --check then passes.
// (The unpinned link quotes a file unchanged since HEAD: one into a changed
// file is a changed quote, TestPinByHandUnpinnedFileChanged.)
func TestPinSummaryCommands(t *testing.T) {
	src := numberedSource(1, 20)
	s := newPinSite(t, map[string]string{"src/a.go": src, "src/b.go": src, "src/c.go": src, "docs/a.md": "" +
		"[m](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n\n" +
		"[r](../src/b.go#line=2,4;md5=" + md5hex(src) + ")\n\n" +
		"[u](../src/c.go#line=5,6)\n"})
	s.git("init", "-q")
	s.commit("start")
	s.write("src/a.go", "// new\n"+src)
	s.write("src/b.go", src+"// new\n")
	for _, args := range [][]string{{"check", "docs"}, {"pin", "--check", "docs"}} {
		_, stderr, code := s.run(args...)
		if code != 1 || !strings.Contains(stderr, "1 refreshed, 1 moved, 0 changed, 0 gone, 0 review, 1 unpinned") {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
		if !strings.Contains(stderr, "refreshed, moved, unpinned (3): the same text, nothing to review: `textfrag pin --write docs`") {
			t.Errorf("%v: no command for the classes:\n%s", args, stderr)
		}
		if strings.Contains(stderr, "changed (") || strings.Contains(stderr, "gone, review") {
			t.Errorf("%v: advice for classes not found:\n%s", args, stderr)
		}
	}
	if _, stderr, code := s.run("pin", "--write", "docs"); code != 0 || !strings.Contains(stderr, "(3): written") {
		t.Errorf("pin --write: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := s.run("pin", "--check", "docs"); code != 0 {
		t.Errorf("pin --check afterwards: exit %d\n%s", code, stderr)
	}
}

// TestPinKeepsPageConsistent: a moved quote's hl= lines and the caption
// textfrag link wrote follow it; a caption of the author's own and a
// sym= name stay as written; a changed quote that grew keeps hl= on the
// line it emphasized, which the line map carries. The page then checks
// without a warning.
func TestPinKeepsPageConsistent(t *testing.T) {
	src := "package a\n\n// A does a.\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n"
	s := newPinSite(t, map[string]string{"src/a.go": src})
	s.git("init", "-q")
	s.commit("start")
	linked := strings.TrimSpace(s.mustRun("link", "src/a.go:4-6", "--from", "docs/a.md", "--options", "hl=5"))
	named := strings.TrimSpace(s.mustRun("link", "src/a.go:B", "--from", "docs/a.md", "--options", "hl=9"))
	own := "[my words](../src/a.go#line=7,10;md5=" + md5hex(src) + ")"
	s.write("docs/a.md", linked+"\n\n"+named+"\n\n"+own+"\n")
	now := "package a\n\nimport \"fmt\"\n\n" + strings.Replace(src[len("package a\n\n"):], "return 2", "fmt.Println()\n\treturn 2", 1)
	s.write("src/a.go", now)
	_, stderr, code := s.run("pin", "--write", "--accept-changed", "docs")
	page := s.read("docs/a.md")
	want := "[a.go lines 6–8](../src/a.go#line=5,8;md5=" + md5hex(now) + " \"hl=7\")\n\n" +
		"[a.go: B](../src/a.go#line=9,13;md5=" + md5hex(now) + " \"sym=B hl=12\")\n\n" +
		"[my words](../src/a.go#line=9,13;md5=" + md5hex(now) + ")\n"
	if code != 0 || page != want {
		t.Fatalf("pin: exit %d\n%s\ngot\n%s\nwant\n%s", code, stderr, page, want)
	}
	if strings.Contains(stderr, "warning:") {
		t.Errorf("a warning, though every hl= line has its place:\n%s", stderr)
	}
	if _, stderr, code := s.run("check", "--strict", "docs"); code != 0 {
		t.Errorf("check --strict: exit %d\n%s", code, stderr)
	}
}

// mustRun runs textfrag and fails the test unless it exits 0.
func (s *pinSite) mustRun(args ...string) string {
	s.t.Helper()
	stdout, stderr, code := s.run(args...)
	if code != 0 {
		s.t.Fatalf("%v: exit %d\n%s", args, code, stderr)
	}
	return stdout
}
