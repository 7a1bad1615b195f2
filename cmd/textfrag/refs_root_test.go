package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestRefsDiffRootFailsClosed: a project in a subdirectory of a git
// repository (site/, no textfrag.toml) whose link starts with /. Without
// --root every command takes the top of the work tree as the root, where
// /src/a.txt does not exist. check and pin fail on the link, and name the
// --root that finds the file, as refs now does; refs --diff, run
// from the project, a page's directory and the top, used to report "no
// quote affected" with exit 0 although the quoted file changed. Now it
// classes the link review (blocking), on the page's line, naming the root
// and the --root that finds the file as seen from where it ran (files
// named from there, as the commands name them); following that, refs
// finds the change itself.
func TestRefsDiffRootFailsClosed(t *testing.T) {
	src := numberedSource(1, 9)
	s := newPinSite(t, map[string]string{
		"site/src/a.txt":  src,
		"site/docs/p.md":  "[q](/src/a.txt#line=2,4;md5=" + md5hex(src) + ")\n",
		"site/docs/ok.md": "[r](../src/a.txt#line=6,7;md5=" + md5hex(src) + ")\n", // relative: the same file from every root
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.write("site/src/a.txt", replaceLine(src, 3, "// line three, edited\n"))

	for _, c := range []struct {
		dir, root string // where refs runs; the --root it should be told
		page, src string // site/docs/p.md and site/src/a.txt as named there
	}{
		{"site", ".", "docs/p.md", "src/a.txt"},
		{"site/docs", "..", "p.md", "../src/a.txt"},
		{".", "site", "site/docs/p.md", "site/src/a.txt"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			out, errOut, code := s.shell(c.dir, "textfrag refs --diff main", "")
			if code != 1 {
				t.Fatalf("exit %d, want 1:\n%s%s", code, out, errOut)
			}
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.page) + `:1: review: quoted in ` + regexp.QuoteMeta(c.page) + `:1: the quoted file cannot be read`).MatchString(out) {
				t.Errorf("no review finding on the page's link:\n%s", out)
			}
			if want := "holds src/a.txt: if links starting with / mean that directory, give `--root " + c.root + "`"; !strings.Contains(out, want) {
				t.Errorf("the remedy does not name --root %s:\n%s", c.root, out)
			}
			if !strings.Contains(errOut, "1 review") || strings.Contains(errOut, "no quote affected") {
				t.Errorf("summary:\n%s", errOut)
			}
			// The relative link resolves at any root: it is classed as the
			// change touched it, not as unreadable.
			if strings.Contains(out, "ok.md:1: review") {
				t.Errorf("a readable link classed review:\n%s", out)
			}

			// pin agrees on the root, fails, and names the same --root.
			pinOut, pinErr, pinCode := s.shell(c.dir, "textfrag pin --check", "")
			if pinCode != 1 || !strings.Contains(pinOut+pinErr, "gone: src/a.txt") || !strings.Contains(pinOut+pinErr, "give `--root "+c.root+"`") {
				t.Errorf("pin --check from %s: exit %d:\n%s%s", c.dir, pinCode, pinOut, pinErr)
			}

			// Following the remedy: the quote is found changed.
			out, errOut, code = s.shell(c.dir, "textfrag refs --diff main --root "+c.root, "")
			if code != 1 || !strings.Contains(out, "\n"+c.src+":3: changed: quoted in "+c.page+":1 ("+c.src+" lines 3–4)") || strings.Contains(out, ": review:") {
				t.Errorf("with --root %s: exit %d:\n%s%s", c.root, code, out, errOut)
			}
		})
	}

	// check agrees on the root, fails, and says the same.
	out, errOut, code := s.shell("site", "textfrag check", "")
	if code != 1 || !strings.Contains(out+errOut, "holds src/a.txt: if links starting with / mean that directory, give `--root "+s.path("site")+"`") {
		t.Errorf("check from site: exit %d:\n%s%s", code, out, errOut)
	}
}
