package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeQuotingByName holds the README's "Quoting by name" section to
// the command: its source files are written as shown, each "$ textfrag
// link" line is run, and it must print the lines the README shows under it,
// which pass check --strict in the page they name.
func TestReadmeQuotingByName(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n### Quoting by name\n")
	if !ok {
		t.Fatal("README.md has no section \"Quoting by name\"")
	}
	section, _, _ = strings.Cut(section, "\n### ")
	block := func(file, lang string) string {
		t.Helper()
		_, rest, ok := strings.Cut(section, "`"+file+"`:\n\n```"+lang+"\n")
		code, _, closed := strings.Cut(rest, "```\n")
		if !ok || !closed {
			t.Fatalf("the section shows no %s block for %s", lang, file)
		}
		return code
	}
	s := newPinSite(t, map[string]string{
		"src/server.go":   block("src/server.go", "go"),
		"config/app.yaml": block("config/app.yaml", "yaml"),
	})
	s.git("init", "-q")
	_, rest, _ := strings.Cut(section, "```sh\n")
	commands, _, _ := strings.Cut(rest, "```\n")
	runs := strings.Split(commands, "$ ")[1:]
	if len(runs) < 3 {
		t.Fatalf("%d commands in the section's sh block", len(runs))
	}
	for _, run := range runs {
		cmd, want, _ := strings.Cut(run, "\n")
		args := strings.Fields(cmd)
		if args[0] != "textfrag" {
			t.Fatalf("%q is not a textfrag command", cmd)
		}
		out, stderr, code := s.run(args[1:]...)
		if code != 0 || out != want {
			t.Errorf("%s: exit %d\n%s%s\nthe README shows\n%s", cmd, code, out, stderr, want)
			continue
		}
		page := "docs/guide.md"
		if !strings.Contains(cmd, "--from "+page) {
			page = "index.md"
		}
		s.write(page, "# Page\n\n"+out)
		s.mustCheck(page)
	}
}
