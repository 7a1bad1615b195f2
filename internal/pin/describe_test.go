package pin

import (
	"regexp"
	"strings"
	"testing"
)

// TestDescribeQuote: the describe step alone, class × situation → the
// words a person reads. The facts are in Message, which advises no
// command; a quote that needs a person has exactly one remedy, in Remedy;
// no md5 is named twice.
func TestDescribeQuote(t *testing.T) {
	base := situation{
		path: "src/a.go", label: "src/a.go lines 3–4",
		oldLabel: "lines 3–4", oldText: []byte("line 3\nline 4\n"),
		where:      "commit 38cfc6535a60 (in HEAD's history)",
		pinCommand: "textfrag pin --write docs/a.md", acceptCommand: "textfrag pin --write --accept-changed docs/a.md",
	}
	const quoted = "the quoted text (lines 3–4 in commit 38cfc6535a60 (in HEAD's history))"
	const reviewRemedy = "read the file and fix the link by hand: when its range quotes the right text, remove its md5= and run `textfrag pin --write docs/a.md`, which pins the text as it is"
	cases := []struct {
		name   string
		tweak  func(s *situation)
		class  Class
		msg    string
		remedy string
		detail []string
		apply  bool
		dest   string
	}{
		{"gone", func(s *situation) { s.class = Gone }, Gone,
			"src/a.go lines 3–4: " + quoted + " was deleted",
			"quote what replaced it, or remove the link, by hand (pin never re-pins a deleted quote)",
			[]string{"- line 3", "- line 4"}, false, ""},
		{"gone, the text elsewhere", func(s *situation) {
			s.class, s.hints = Gone, "the same text is still at lines 9–10 (func B): a hint, not the quote's new place"
		}, Gone,
			"src/a.go lines 3–4: " + quoted + " was deleted; the same text is still at lines 9–10 (func B): a hint, not the quote's new place",
			"quote what replaced it, or remove the link, by hand (pin never re-pins a deleted quote)",
			[]string{"- line 3", "- line 4"}, false, ""},
		{"review, the diff leads somewhere", func(s *situation) {
			s.class, s.why = Review, "the lines around the quoted text changed"
			s.leadsTo, s.leadsToText = "lines 3–4", []byte("line 3 x\nline 4\n")
		}, Review,
			"src/a.go lines 3–4: pin cannot tell where " + quoted + " is now: the lines around the quoted text changed (the diff leads to lines 3–4, shown below as a hint)",
			reviewRemedy, []string{"- line 3", "+ line 3 x", "  line 4"}, false, ""},
		{"review, the text elsewhere", func(s *situation) {
			s.class, s.why = Review, "the mapping cannot tell"
			s.hints = "the same text is still at lines 9–10: a hint, not the quote's new place"
		}, Review,
			"src/a.go lines 3–4: pin cannot tell where " + quoted + " is now: the mapping cannot tell; the same text is still at lines 9–10: a hint, not the quote's new place",
			reviewRemedy, []string{"| line 3", "| line 4"}, false, ""},
		{"refreshed", func(s *situation) {
			s.class, s.newDest, s.newLabel, s.newText = Refreshed, "../src/a.go#line=2,4;md5=1", "lines 3–4", s.oldText
		}, Refreshed,
			"src/a.go lines 3–4: the quoted text is unchanged in place; the file changed elsewhere since it was pinned (the md5 is of commit 38cfc6535a60 (in HEAD's history))",
			"", nil, true, "../src/a.go#line=2,4;md5=1"},
		{"moved, with every note", func(s *situation) {
			s.class, s.newDest, s.newLabel, s.newText = Moved, "../src/a.go#line=7,9;md5=1", "lines 8–9", s.oldText
			s.decl, s.block, s.elsewhereVersion = "func A", true, true
		}, Moved,
			"src/a.go lines 3–4 → lines 8–9 (in func A; moved as a block; pinned version: commit 38cfc6535a60 (in HEAD's history))",
			"", nil, true, "../src/a.go#line=7,9;md5=1"},
		{"moved, but other text there", func(s *situation) {
			s.class, s.newDest, s.newLabel, s.newText = Moved, "../src/a.go#line=7,9;md5=1", "lines 8–9", []byte("other\n")
		}, Error,
			"internal error: the relocated link ../src/a.go#line=7,9;md5=1 does not quote the pinned text; the link was left as it is",
			"", nil, false, ""},
		{"changed", func(s *situation) {
			s.class, s.newDest, s.newLabel, s.newText = Changed, "../src/a.go#line=2,5;md5=1", "lines 3–5", []byte("line 3\nline 3½\nline 4\n")
			s.decl = "func A"
		}, Changed,
			"src/a.go lines 3–4 → lines 3–5: the quoted text changed since it was pinned (the md5 is of commit 38cfc6535a60 (in HEAD's history)), in func A",
			"review the diff below, then re-pin with `textfrag pin --write --accept-changed docs/a.md`",
			[]string{"  line 3", "+ line 3½", "  line 4"}, false, "../src/a.go#line=2,5;md5=1"},
		{"changed, accepted", func(s *situation) {
			s.class, s.newDest, s.newLabel, s.newText = Changed, "../src/a.go#line=2,5;md5=1", "lines 3–5", []byte("line 3\nline 3½\nline 4\n")
			s.acceptChanged = true
		}, Changed,
			"src/a.go lines 3–4 → lines 3–5: the quoted text changed since it was pinned (the md5 is of commit 38cfc6535a60 (in HEAD's history)); re-pinned (--accept-changed)",
			"", []string{"  line 3", "+ line 3½", "  line 4"}, true, "../src/a.go#line=2,5;md5=1"},
	}
	command := regexp.MustCompile("`[^`]+`")
	hex := regexp.MustCompile(`[0-9a-f]{32}`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base
			c.tweak(&s)
			got := describeQuote(s)
			if got.Class != c.class || got.Message != c.msg || got.Remedy != c.remedy {
				t.Errorf("got %s\n  %q\n  remedy %q\nwant %s\n  %q\n  remedy %q", got.Class, got.Message, got.Remedy, c.class, c.msg, c.remedy)
			}
			if strings.Join(got.Detail, "\n") != strings.Join(c.detail, "\n") {
				t.Errorf("detail\n%s\nwant\n%s", strings.Join(got.Detail, "\n"), strings.Join(c.detail, "\n"))
			}
			if got.Apply != c.apply || got.NewDest != c.dest || got.Failed != (NeedsPerson(got) && !got.Apply) {
				t.Errorf("apply %v dest %q failed %v; want apply %v dest %q", got.Apply, got.NewDest, got.Failed, c.apply, c.dest)
			}
			// The facts advise nothing; one remedy at most, a command in it
			// at most once; a person-needing quote has one.
			if command.MatchString(got.Message) {
				t.Errorf("the facts advise a command: %s", got.Message)
			}
			if n := len(command.FindAllString(got.Remedy, -1)); n > 1 || (got.Remedy == "") != (!NeedsPerson(got) || got.Apply || got.Class == Error) {
				t.Errorf("remedy %q for a %s quote (apply %v)", got.Remedy, got.Class, got.Apply)
			}
			for _, sum := range hex.FindAllString(got.Text(), -1) {
				if strings.Count(got.Text(), sum) > 1 {
					t.Errorf("md5 %s named twice: %s", sum, got.Text())
				}
			}
		})
	}
}
