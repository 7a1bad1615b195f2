package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// linkRemedyStart finds pin's textfrag link remedy in its output: set off
// as a Markdown code span, by a fence one backtick longer than the longest
// run of backticks the command holds (a --title with code spans).
var linkRemedyStart = regexp.MustCompile("run (`+) ?textfrag link ")

// linkRemedy returns the textfrag link command of pin's output: what lies
// between the fence and the first run of backticks as long as it.
func linkRemedy(t *testing.T, output string) string {
	t.Helper()
	m := linkRemedyStart.FindStringSubmatchIndex(output)
	if m == nil {
		t.Fatalf("no textfrag link remedy in:\n%s", output)
	}
	fence := output[m[2]:m[3]]
	rest := output[m[3]:]
	for i := 0; i < len(rest); {
		j := i
		for j < len(rest) && rest[j] == '`' {
			j++
		}
		if j-i == len(fence) {
			cmd := rest[:i]
			if len(cmd) > 2 && cmd[0] == ' ' && cmd[len(cmd)-1] == ' ' {
				cmd = cmd[1 : len(cmd)-1]
			}
			return cmd
		}
		i = max(j, i+1)
	}
	t.Fatalf("the fence %q of the textfrag link remedy is not closed in:\n%s", fence, output)
	return ""
}

// TestPinLinkRemedyKeepsText: the textfrag link command pin advises for a
// quote it will not re-pin keeps the author's link text (--title, quoted
// for the shell): followed literally through sh with the lines a person
// chose, the link it prints, put in the old one's place, reads as the
// author wrote it, and check passes. Text --title cannot write as markup
// keeps its words (emphasis); a caption textfrag link wrote for the old
// lines is written anew for the new ones; no raw control character is
// printed.
func TestPinLinkRemedyKeepsText(t *testing.T) {
	const stale = "(../src/a.go#line=2,5;md5=00000000000000000000000000000000)"
	for _, c := range []struct {
		name, text string
		want       string // the new link's text as written in the page
	}{
		{"shell characters", `the handler's "$HOME"; $(id) & *`, `the handler's "$HOME"; $(id) & \*`},
		{"code span", "`Server.Handle` serves", "`Server.Handle` serves"},
		{"code spans fenced by two and three backticks", "``a`b`` and ```c``d```", "``a`b`` and ```c``d```"},
		{"a dash first, as a flag's", "--from -v", "--from -v"},
		{"escapes", `a \*star\* and \[brackets\] and \\`, `a \*star\* and \[brackets\] and \\`},
		{"entity", "Q&amp;A", "Q&A"},
		{"two lines", "the request\nhandler", "the request handler"},
		{"emphasis: its words", "the *request* handler", "the request handler"},
		{"control characters", "red\x1b alert\x07", "red alert"},
		{"a bidirectional control: link's own text", "abc\u202edef", "a.go lines 3–4"},
		{"textfrag's caption, stating the old lines", "a.go lines 3–5", "a.go lines 3–4"},
		{"a backtick that opens no code span", "\\`tick", "\\`tick"},
		{"a text longer than a command line holds: link's own text", strings.Repeat("long ", 40000), "a.go lines 3–4"},
		{"escaped backticks around a word: not a code span, which --title would make", "\\`x\\` y", "a.go lines 3–4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newPinSite(t, map[string]string{"src/a.go": numberedSource(1, 10), "docs/a.md": "Intro.\n\n[" + c.text + "]" + stale + "\n"})
			_, stderr, code := s.run("pin", "docs")
			if code != 1 || !strings.Contains(stderr, "docs/a.md:3:1: review: ") {
				t.Fatalf("pin: exit %d, want a review quote:\n%s", code, stderr)
			}
			if i := strings.IndexFunc(stderr, func(r rune) bool { return r < ' ' && r != '\n' || r == 0x7f || termsafe.IsBidiControl(r) }); i >= 0 {
				t.Errorf("raw control character %q in pin's output:\n%q", stderr[i], stderr)
			}
			assertOneRemedy(t, stderr)
			advice := linkRemedy(t, stderr)
			if !strings.Contains(advice, "FIRST-LAST") {
				t.Fatalf("%q leaves no lines to choose", advice)
			}
			link, errOut, code := s.shell(".", strings.Replace(advice, "FIRST-LAST", "3-4", 1), "")
			if code != 0 {
				t.Fatalf("sh -c %q: exit %d\n%s", advice, code, errOut)
			}
			link = strings.TrimSpace(link)
			if !strings.HasPrefix(link, "["+c.want+"](../src/a.go#line=2,4;md5=") {
				t.Errorf("%s\nprinted %s\nwant the text [%s]", advice, link, c.want)
			}
			s.write("docs/a.md", "Intro.\n\n"+link+"\n")
			if stdout, stderr, code := s.run("check", "--strict", "docs"); code != 0 {
				t.Errorf("check after the remedy: exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// TestAuthorTitle: the --title given is the text as a reader reads it,
// none where link's own text serves (textfrag's caption for a range or a
// name, no text) or where --title cannot write it back the same.
func TestAuthorTitle(t *testing.T) {
	region := symbol.Selector{Kind: symbol.Region, Name: "setup"}
	for _, c := range []struct {
		md    string
		sel   symbol.Selector
		named bool
		want  string
	}{
		{"[the handler](a.go#line=1,2)", symbol.Selector{}, false, "the handler"},
		{"[a.go lines 2–3](a.go#line=1,3)", symbol.Selector{}, false, ""},
		{"[a.go line 2](a.go#line=1,2)", symbol.Selector{}, false, ""},
		{"[a.go line 3, col 5 – line 4, col 9](a.go#char=1,9)", symbol.Selector{}, false, ""},
		{"[b.go lines 2–3](a.go#line=1,3)", symbol.Selector{}, false, "b.go lines 2–3"}, // another file's name: the author's
		{"[a.go lines 2–3 and more](a.go#line=1,3)", symbol.Selector{}, false, "a.go lines 2–3 and more"},
		{`[a.go: region setup](a.go#line=1,3 "region=setup")`, region, true, ""},
		{`[setup](a.go#line=1,3 "region=setup")`, region, true, "setup"},
		{"[`x` \\`y](a.go#line=1,3)", symbol.Selector{}, false, "`x` `y"},
		{"[\\`x\\` y](a.go#line=1,3)", symbol.Selector{}, false, ""},
		{"[abc\u202edef](a.go#line=1,3)", symbol.Selector{}, false, ""},
		{"[" + strings.Repeat("x", maxAuthorTitle) + "](a.go#line=1,3)", symbol.Selector{}, false, strings.Repeat("x", maxAuthorTitle)},
		{"[" + strings.Repeat("x", maxAuthorTitle+1) + "](a.go#line=1,3)", symbol.Selector{}, false, ""},
		{"[x]\n\n[x]: a.go#line=1,3", symbol.Selector{}, false, ""},
	} {
		links := mdlink.Find([]byte(c.md))
		if len(links) != 1 {
			t.Fatalf("%q: %d links", c.md, len(links))
		}
		if got := authorTitle(links[0], "src/a.go", c.sel, c.named); got != c.want {
			t.Errorf("%q: --title %q, want %q", c.md, got, c.want)
		}
	}
}
