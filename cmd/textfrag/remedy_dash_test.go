package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestRemedyDashPage: a page whose name starts with "-", named after "--"
// as a shell user must name it. The pin commands that check's and pin's
// summaries advise name it "./-p.md": as "-p.md" pin took it for a flag
// ("flag provided but not defined: -p.md", exit 2). Each is run as printed.
func TestRemedyDashPage(t *testing.T) {
	src := numberedSource(1, 9)
	s := newPinSite(t, map[string]string{
		"textfrag.toml": "",
		"src/a.txt":     src,
		"docs/-p.md":    "[a](../src/a.txt#line=2,4;md5=" + md5hex(src) + ")\n[b](../src/a.txt#line=6,7;md5=" + md5hex(src) + ")\n",
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.write("src/a.txt", "// top\n"+replaceLine(src, 3, "// line three, edited\n"))
	cmdRE := regexp.MustCompile("`(textfrag pin [^`]*)`")
	for _, run := range []string{"textfrag check -- -p.md", "textfrag pin -- -p.md"} {
		out, errOut, _ := s.shell("docs", run, "")
		cmds := cmdRE.FindAllStringSubmatch(out+errOut, -1)
		if len(cmds) == 0 {
			t.Fatalf("%s advises no pin command:\n%s%s", run, out, errOut)
		}
		for _, m := range cmds {
			// --accept takes its value whatever it starts with.
			if rest := strings.ReplaceAll(m[1], "--accept -p.md", ""); strings.Contains(rest, " -p.md") || strings.Contains(rest, "'-p.md") {
				t.Errorf("%s advises %q: -p.md is read as a flag", run, m[1])
			}
			if _, errOut, code := s.shell("docs", m[1], ""); code == 2 || strings.Contains(errOut, "not defined") {
				t.Errorf("%s: %s: exit %d\n%s", run, m[1], code, errOut)
			}
		}
	}
}
