package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/termsafe"
)

// secretRemedy is the flag the secret error advises:
// "(textfrag: --allow-secret '.env'; library: …)".
var secretRemedy = regexp.MustCompile(`\(textfrag: (--allow-secret '[^']+')[;)]`)

// TestSecretRemedyWorks: every command that reads a file that commonly
// holds secrets refuses it with a remedy, --allow-secret NAME; the command
// run again with the remedy as written (pasted into a shell) reads it. migrate
// takes the flag as the other commands do (it did not: its remedy named a
// flag it refused).
func TestSecretRemedyWorks(t *testing.T) {
	files := map[string]string{
		"textfrag.toml": "",
		".env":          "GREETING=hello\nB=2\n",
		"docs/a.md":     "# A\n\n[env](../.env#line=0,1)\n",
		"book/b.md":     "# B\n\n```sh\n{{#include ../.env:1:1}}\n```\n",
	}
	for _, c := range []struct {
		args []string
		// after is in the output once the remedy is followed (the file read).
		after string
	}{
		{[]string{"check", "docs"}, "unpinned"},
		{[]string{"pin", "docs"}, "md5="},
		{[]string{"refs", ".env"}, "docs/a.md:3:1: .env line 1, unpinned"},
		{[]string{"link", ".env:1", "--from", "docs/new.md"}, "](../.env#line=0,1;md5="},
		{[]string{"resolve", ".env#line=0,1"}, "GREETING=hello"},
		{[]string{"render", "docs/a.md"}, `<span class="o">=</span>hello`},
		{[]string{"build", "docs", "-o", "out"}, "built 1 page"},
		{[]string{"migrate", "book"}, "+[.env line 1](../.env#line=0,1;md5="},
	} {
		t.Run(c.args[0], func(t *testing.T) {
			s := newPinSite(t, files)
			cmd := "textfrag " + termsafe.ShellWords(c.args...)
			stdout, stderr, code := s.shell(".", cmd, "")
			m := secretRemedy.FindStringSubmatch(stdout + stderr)
			if m == nil || !strings.Contains(stdout+stderr, "commonly holds secrets") {
				t.Fatalf("%s: exit %d, no secret error with its remedy:\n%s%s", cmd, code, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, "GREETING=hello") {
				t.Fatalf("%s shows the secret:\n%s%s", cmd, stdout, stderr)
			}
			// The remedy, as written, added to the same command.
			stdout, stderr, code = s.shell(".", cmd+" "+m[1], "")
			if strings.Contains(stdout+stderr, "commonly holds secrets") || strings.Contains(stderr, "flag provided but not defined") ||
				!strings.Contains(stdout+stderr, c.after) {
				t.Errorf("%s %s: exit %d, the file is still refused or not read:\n%s%s", cmd, m[1], code, stdout, stderr)
			}
			if c.args[0] != "check" && c.args[0] != "refs" && code != 0 {
				t.Errorf("%s %s: exit %d\n%s%s", cmd, m[1], code, stdout, stderr)
			}
		})
	}
}
