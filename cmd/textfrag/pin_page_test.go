package main

import (
	"fmt"
	"strings"
	"testing"
)

// apiSource is a Python module of n numbered functions, with the body
// line `        return get(url, params)` at line 63 when pre is 0; pre
// lines of imports above move everything down.
func apiSource(pre int) string {
	var b strings.Builder
	for i := 0; i < pre; i++ {
		fmt.Fprintf(&b, "import mod%d\n", i)
	}
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "X%d = %d\n", i, i)
	}
	b.WriteString("def get(url, params):\n    if url:\n        return get(url, params)\n    return None\n")
	return b.String()
}

// TestPinMovesCharCaption: a char= quote whose line moved (63 → 77, new
// imports above) keeps the caption textfrag link writes for it, with the
// new lines: "api.py line 63, col 9 – line 63, col 29" becomes "api.py
// line 77, col 9 – line 77, col 29". The oracle is textfrag link, run
// on the new version.
func TestPinMovesCharCaption(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/api.py": apiSource(0)})
	s.git("init", "-q")
	link := strings.TrimSpace(s.mustRun("link", "src/api.py:63:9-63:29", "--from", "docs/a.md"))
	if !strings.HasPrefix(link, "[api.py line 63, col 9 – line 63, col 29](../src/api.py#char=") {
		t.Fatalf("textfrag link: %s", link)
	}
	s.write("docs/a.md", "See "+link+" for the call.\n")
	s.commit("pinned")
	s.write("src/api.py", apiSource(14))
	s.commit("imports")

	_, stderr, code := s.run("pin", "--check", "docs")
	if want := "docs/a.md:1:5: moved: src/api.py line 63, col 9 – line 63, col 29 → line 77, col 9 – line 77, col 29"; code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("pin: exit %d, want %q:\n%s", code, want, stderr)
	}
	s.mustRun("pin", "--write", "docs")
	want := "See " + strings.TrimSpace(s.mustRun("link", "src/api.py:77:9-77:29", "--from", "docs/a.md")) + " for the call.\n"
	if got := s.read("docs/a.md"); got != want {
		t.Errorf("the page:\n%s\nwant, as textfrag link writes it:\n%s", got, want)
	}
	s.mustCheck()
}

// utilsV1 and utilsV2: a function whose try block gains a comment line (4
// → 5 quoted lines), with 50 lines added above it.
func utilsSource(pre int, comment bool) string {
	var b strings.Builder
	for i := 1; i <= 1000+pre; i++ {
		fmt.Fprintf(&b, "V%d = %d\n", i, i)
	}
	b.WriteString("def get_auth_from_url(url):\n    parsed = urlparse(url)\n\n    try:\n")
	if comment {
		b.WriteString("        # except handles parsed.username/password being None\n")
	}
	b.WriteString("        auth = (unquote(parsed.username), unquote(parsed.password))\n    except (AttributeError, TypeError):\n        auth = (\"\", \"\")\n\n    return auth\n")
	return b.String()
}

// TestPinChangedQuoteTitle: accepting a changed quote whose lines grew
// (utils.py lines 1003–1006 → 1053–1057, a comment inserted) maps hl=
// through the diff: the emphasized `try:` line keeps its emphasis where
// it is now. A quote whose title was only the hl= of a line that was
// deleted loses the title whole, never written as an empty `""`. Both
// are accepted by following the remedies pin prints, through a shell;
// the oracle is textfrag link on the new lines.
func TestPinChangedQuoteTitle(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/utils.py": utilsSource(0, false)})
	s.git("init", "-q")
	kept := strings.TrimSpace(s.mustRun("link", "src/utils.py:1003-1006", "--from", "docs/a.md", "--options", "hl=1004"))
	if !strings.HasSuffix(kept, `"hl=1004")`) {
		t.Fatalf("textfrag link: %s", kept)
	}
	deleted := strings.TrimSpace(s.mustRun("link", "src/utils.py:1004-1006", "--from", "docs/a.md", "--options", "hl=1005"))
	s.write("docs/a.md", kept+"\n\n"+deleted+"\n")
	s.commit("pinned")
	// The auth line is rewritten (deleted, as far as any diff can tell:
	// nothing like it is left) and a comment added above it.
	v2 := strings.Replace(utilsSource(50, true), "        auth = (unquote(parsed.username), unquote(parsed.password))\n", "        creds = parsed.username or '', parsed.password or ''\n", 1)
	s.write("src/utils.py", v2)
	s.commit("v2")

	_, stderr, code := s.run("pin", "docs")
	if code != 1 || !strings.Contains(stderr, "docs/a.md:1:1: changed: src/utils.py lines 1003–1006 → lines 1053–1057: ") ||
		!strings.Contains(stderr, "docs/a.md:3:1: changed: src/utils.py lines 1004–1006 → lines 1054–1057: ") {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	// Each remedy accepts its own quote; pin exits 1 while the other
	// is still changed, so the last one run is the one that must pass.
	var remedies []string
	for _, a := range pinAdvice.FindAllStringSubmatch(stderr, -1) {
		if strings.Contains(a[1], "--accept docs/a.md:") {
			remedies = append(remedies, a[1])
		}
	}
	if len(remedies) != 2 {
		t.Fatalf("remedies %q:\n%s", remedies, stderr)
	}
	_, stderr, _ = s.run(strings.Fields(strings.TrimPrefix(remedies[0], "textfrag "))...)
	if !strings.Contains(stderr, "docs/a.md:1:1: changed: ") || !strings.Contains(stderr, "re-pinned: accepted") {
		t.Fatalf("%s:\n%s", remedies[0], stderr)
	}
	s.runShell(s.dir, remedies[1])
	want := strings.TrimSpace(s.mustRun("link", "src/utils.py:1053-1057", "--from", "docs/a.md", "--options", "hl=1054")) + "\n\n" +
		strings.TrimSpace(s.mustRun("link", "src/utils.py:1054-1057", "--from", "docs/a.md")) + "\n"
	if got := s.read("docs/a.md"); got != want {
		t.Errorf("the page after the remedies:\n%s\nwant, as textfrag link writes it:\n%s", got, want)
	}
	if strings.Contains(s.read("docs/a.md"), `""`) {
		t.Errorf("an empty title was written:\n%s", s.read("docs/a.md"))
	}
	s.mustCheck()
}

// remedies counts what a gone message tells a person to do: commands in
// backticks and "fix the link by hand".
func remedies(msg string) int {
	return len(pinAdvice.FindAllString(msg, -1)) + strings.Count(msg, "--root") - strings.Count(msg, "`textfrag") + strings.Count(msg, "fix the link by hand")
}

// TestPinGoneFileWording: a quote whose file is missing is gone, and what
// pin says of the file is true of git's history: a file a commit deleted
// "no longer exists" (naming that commit); one that never was there "does
// not exist" under the root, nor in git's history. Each message gives one
// remedy: by hand, or, for a link starting with / whose file a directory
// below the root holds, the --root that finds it (followed: check passes).
func TestPinGoneFileWording(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/a.py": numberedSource(1, 5), "src/old.py": numberedSource(1, 5), "site/src/b.py": numberedSource(1, 5)})
	s.git("init", "-q")
	sum := md5hex(numberedSource(1, 5))
	s.write("site/docs/a.md", "[never](../../src/nothere.py#line=1,3;md5="+sum+")\n\n"+
		"[deleted](../../src/old.py#line=1,3;md5="+sum+")\n\n"+
		"[rooted](/src/b.py#line=1,3;md5="+sum+")\n")
	s.commit("start")
	s.git("rm", "-q", "src/old.py")
	s.commit("drop old.py")
	deletedBy := strings.TrimSpace(s.git("rev-parse", "--short=12", "HEAD"))

	_, stderr, code := s.run("pin", "site/docs")
	lines := map[string]string{}
	for _, l := range strings.Split(stderr, "\n") {
		for _, at := range []string{"site/docs/a.md:1:1: gone: ", "site/docs/a.md:3:1: gone: ", "site/docs/a.md:5:1: gone: "} {
			if strings.HasPrefix(l, at) {
				lines[at] = l
			}
		}
	}
	if code != 1 || len(lines) != 3 {
		t.Fatalf("pin: exit %d, %d gone quotes:\n%s", code, len(lines), stderr)
	}
	never := lines["site/docs/a.md:1:1: gone: "]
	if want := "src/nothere.py: the target file does not exist: no file src/nothere.py under the project root " + s.dir + ", nor in git's history; fix the link by hand"; !strings.Contains(never, want) {
		t.Errorf("never there: want %q:\n%s", want, never)
	}
	deleted := lines["site/docs/a.md:3:1: gone: "]
	if want := "src/old.py: the target file no longer exists (commit " + deletedBy + " deleted it); fix the link by hand"; !strings.Contains(deleted, want) {
		t.Errorf("deleted: want %q:\n%s", want, deleted)
	}
	rooted := lines["site/docs/a.md:5:1: gone: "]
	for _, want := range []string{"src/b.py: the target file does not exist", "links starting with / resolve at the project root, " + s.dir, "give `--root site`"} {
		if !strings.Contains(rooted, want) {
			t.Errorf("rooted: want %q:\n%s", want, rooted)
		}
	}
	for _, l := range lines {
		if strings.Contains(l, "no longer exists") && l != deleted {
			t.Errorf("said to no longer exist, but git's history never had it: %s", l)
		}
		if n := remedies(l); n != 1 {
			t.Errorf("%d remedies, want 1: %s", n, l)
		}
	}
	// The --root remedy works: from there the rooted link resolves.
	if _, stderr, code := s.run("check", "--root", "site", "site/docs"); strings.Contains(stderr, "/src/b.py") {
		t.Errorf("check --root site: exit %d, still fails on the rooted link:\n%s", code, stderr)
	}
}
