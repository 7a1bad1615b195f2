package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestRefsDiffOldVersionCharset: refs --diff decodes the BASE version of
// a quoted file in the charset --charset gives it, as the resolver
// decodes the work tree's. A quote of an ISO-8859-1 file whose lines were
// deleted keeps its label and is changed with the `textfrag link` remedy
// (it was review, unlabelled: the old version read as UTF-8 failed); the
// remedy, run with sh as printed, writes a link that check passes.
func TestRefsDiffOldVersionCharset(t *testing.T) {
	src := refsLatin1()
	s := newPinSite(t, map[string]string{
		"src/a.l1":     src,
		"docs/page.md": "[q](../src/a.l1#line=9,12;md5=" + md5hex(src) + ")\n",
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.write("src/a.l1", strings.Replace(src, "l\xednea 10\nl\xednea 11\nl\xednea 12\n", "", 1))

	out, errOut, code := s.shell(".", "textfrag refs --diff main --charset '*.l1=ISO-8859-1'", "")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s%s", code, out, errOut)
	}
	if want := "src/a.l1:10: changed: quoted in docs/page.md:1 (src/a.l1 lines 10–12): the quoted lines were deleted"; !strings.Contains(out, want) {
		t.Fatalf("want %q in:\n%s", want, out)
	}
	m := regexp.MustCompile("`(textfrag link [^`]+)`").FindStringSubmatch(out)
	if m == nil || !strings.Contains(m[1], " --charset '*.l1=ISO-8859-1'") {
		t.Fatalf("no textfrag link remedy with --charset in:\n%s", out)
	}
	link, errOut, code := s.shell(".", strings.Replace(m[1], "FIRST-LAST", "9-10", 1), "")
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s", m[1], code, errOut)
	}
	s.write("docs/page.md", strings.TrimSpace(link)+"\n")
	if out, errOut, code := s.shell(".", "textfrag check --charset '*.l1=ISO-8859-1'", ""); code != 0 {
		t.Errorf("check after the remedy: exit %d\n%s%s", code, out, errOut)
	}
}
