package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestCheckPinRemediesFromSubdirectory: check and pin, run from a
// directory that is neither the project's root nor the page's (site/other,
// the page in "site/my docs"), with the flags that choose what links mean
// (--root .., --charset for an ISO-8859-1 file; the links start with /),
// print commands that run as written there, with sh: check's unpinned
// warning and its stale md5 error name pin with those flags and the page
// quoted for the shell; pin's textfrag link remedy for a quote it will not
// re-pin names the file and page from there and repeats the flags. Each
// is followed, in the order a person would, until check passes. Without
// the flags, each would run at the git top (where /src/a.l1 is missing)
// or read the file as UTF-8, and fail.
func TestCheckPinRemediesFromSubdirectory(t *testing.T) {
	src := refsLatin1()
	s := newPinSite(t, map[string]string{
		"site/src/a.l1":     src,
		"site/my docs/g.md": "[in](/src/a.l1#line=9,12)\n",
		"site/other/x.txt":  "a directory to run in\n",
	})
	s.git("init", "-q", "-b", "main")
	const flags = " --root .. --charset '*.l1=ISO-8859-1'"
	remedy := func(out, prefix string) string {
		t.Helper()
		m := regexp.MustCompile("`(" + regexp.QuoteMeta(prefix) + "[^`]*)`").FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no `%s…` remedy in:\n%s", prefix, out)
		}
		if !strings.Contains(m[1], " --charset '*.l1=ISO-8859-1'") || !strings.Contains(m[1], " --root ") {
			t.Errorf("%q does not repeat the flags given", m[1])
		}
		return m[1]
	}
	run := func(line string, want int) string {
		t.Helper()
		out, errOut, code := s.shell("site/other", line, "")
		if code != want {
			t.Fatalf("%s: exit %d, want %d:\n%s%s", line, code, want, out, errOut)
		}
		return out + errOut
	}

	// 1. The unpinned warning's command pins the link.
	out := run("textfrag check"+flags+" '../my docs'", 0)
	cmd := remedy(out[strings.Index(out, "unpinned:"):], "textfrag pin --write")
	if !strings.HasSuffix(cmd, " '../my docs/g.md'") {
		t.Errorf("%q does not name the page from site/other, quoted", cmd)
	}
	run(cmd, 0)
	if !strings.Contains(s.read("site/my docs/g.md"), "#line=9,12;md5="+md5hex(src)+")") {
		t.Fatalf("not pinned:\n%s", s.read("site/my docs/g.md"))
	}
	s.commit("pinned")

	// 2. The quoted lines are deleted: check's stale error names pin,
	// which refuses the quote (gone) and names textfrag link.
	s.write("site/src/a.l1", strings.Replace(src, "l\xednea 10\nl\xednea 11\nl\xednea 12\n", "", 1))
	out = run("textfrag check"+flags+" '../my docs'", 1)
	cmd = remedy(out[strings.Index(out, "md5 mismatch"):], "textfrag pin --write")
	out = run(cmd, 1)
	cmd = remedy(out, "textfrag link")
	if !strings.HasPrefix(cmd, "textfrag link ") || !strings.Contains(cmd, " ../src/a.l1:FIRST-LAST") || !strings.HasSuffix(cmd, " --from '../my docs/g.md'") {
		t.Errorf("%q does not name the file and page from site/other", cmd)
	}
	link, errOut, code := s.shell("site/other", strings.Replace(cmd, "FIRST-LAST", "9-10", 1), "")
	if code != 0 {
		t.Fatalf("%s: exit %d:\n%s", cmd, code, errOut)
	}
	link = strings.TrimSpace(link)
	if !strings.HasPrefix(link, "[") || !strings.Contains(link, "md5=") {
		t.Fatalf("textfrag link printed %q", link)
	}
	s.write("site/my docs/g.md", link+"\n")
	if out := run("textfrag check --strict"+flags+" '../my docs'", 0); strings.Contains(out, "warning:") {
		t.Errorf("check after the remedies:\n%s", out)
	}
}

// TestLinkFlagArgs: the flags remedies repeat for textfrag link are
// --root, --charset and --allow-secret as given, each value its own flag
// quoted for the shell (two --allow-secret globs were one quoted word),
// and no other; globs from textfrag.toml are not repeated.
func TestLinkFlagArgs(t *testing.T) {
	o := newPinOptions()
	if err := o.flags.Parse([]string{"--allow-secret", ".env.example", "--allow-secret", "deploy/*.pem", "--charset", "*.l1=latin1", "--root", "my site", "--offline", "--write"}); err != nil {
		t.Fatal(err)
	}
	if err := o.files.secrets.SetFromRepository("repo.pem"); err != nil {
		t.Fatal(err)
	}
	want := " --allow-secret .env.example --allow-secret 'deploy/*.pem' --charset '*.l1=latin1' --root 'my site'"
	if got := linkFlagArgs(o.flags); got != want {
		t.Errorf("linkFlagArgs = %q, want %q", got, want)
	}
}
