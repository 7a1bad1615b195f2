package refs

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestDescribeCommands: the commands a message advises name the files as
// Commands.Path says, quoted for the shell, with the flags given again;
// the zero Commands names project paths.
func TestDescribeCommands(t *testing.T) {
	cmds := Commands{
		Path:      func(p string) string { return "../" + strings.Replace(p, "docs/", "my docs/", 1) },
		PinFlags:  " --root ..",
		LinkFlags: " --charset '*.l1=latin1'",
	}
	f := base()
	f.followedAt, f.fix = "lines 11–13", "../src/a.go#line=10,13"
	for _, c := range []struct {
		why   string
		tweak func(f *facts)
		zero  string // the command with the zero Commands
		want  string // with cmds
	}{
		{caseMoved, nil, "`textfrag pin --write docs/g.md`", "`textfrag pin --write --root .. '../my docs/g.md'`"},
		{caseRefresh, nil, "`textfrag pin --write docs/g.md`", "`textfrag pin --write --root .. '../my docs/g.md'`"},
		// Unpinned, the file changed: pin pins it only when accepted.
		{caseUnpinnedMoved, func(f *facts) { f.pinned = false }, "`textfrag pin --write --accept docs/g.md:3`", "`textfrag pin --write --root .. --accept '../my docs/g.md:3'`"},
		{caseChanged, nil, "`textfrag pin --write --accept docs/g.md:3`", "`textfrag pin --write --root .. --accept '../my docs/g.md:3'`"},
		// Another link starts on line 3: PAGE:LINE would accept it too.
		{caseChanged, func(f *facts) { f.pageColumn = 40 }, "`textfrag pin --write --accept docs/g.md:3:40`", "`textfrag pin --write --root .. --accept '../my docs/g.md:3:40'`"},
		{caseChanged, func(f *facts) { f.pinned = false }, "`textfrag pin --write --accept docs/g.md:3`", "`textfrag pin --write --root .. --accept '../my docs/g.md:3'`"},
		{caseLinesGone, func(f *facts) { f.linesDeleted = true }, "`textfrag link src/a.go:FIRST-LAST --from docs/g.md`", "`textfrag link ../src/a.go:FIRST-LAST --charset '*.l1=latin1' --from '../my docs/g.md'`"},
		// The author's link text kept, quoted for the shell; a command
		// holding a backtick set off by two.
		{caseLinesGone, func(f *facts) { f.linesDeleted, f.title = true, "the handler's" }, "`textfrag link src/a.go:FIRST-LAST --title 'the handler'\\''s' --from docs/g.md`", "`textfrag link ../src/a.go:FIRST-LAST --charset '*.l1=latin1' --title 'the handler'\\''s' --from '../my docs/g.md'`"},
		{caseLinesGone, func(f *facts) { f.linesDeleted, f.title = true, "`Handle`" }, "``textfrag link src/a.go:FIRST-LAST --title '`Handle`' --from docs/g.md``", "``textfrag link ../src/a.go:FIRST-LAST --charset '*.l1=latin1' --title '`Handle`' --from '../my docs/g.md'``"},
	} {
		g := f
		if c.tweak != nil {
			c.tweak(&g)
		}
		if msg, _ := describe(verdict{why: c.why}, g); !strings.Contains(msg, c.zero) {
			t.Errorf("%s, zero Commands: %q lacks %q", c.why, msg, c.zero)
		}
		g.cmds = cmds
		if msg, _ := describe(verdict{why: c.why}, g); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q lacks %q", c.why, msg, c.want)
		}
	}
}

// TestFixByHandFence: the textfrag link command in FixByHand's advice,
// read as Markdown reads a code span (goldmark, not this package's
// counting), is the whole command, whatever runs of backticks its --title
// holds: a fence of two around a command holding two in a row would end
// the span inside the --title.
func TestFixByHandFence(t *testing.T) {
	for _, cmd := range []string{
		"textfrag link src/a.go:FIRST-LAST --from docs/g.md",
		"textfrag link src/a.go:FIRST-LAST --title '`Handle`' --from docs/g.md",
		"textfrag link src/a.go:FIRST-LAST --title '``a`b`` c' --from docs/g.md",
		"textfrag link src/a.go:FIRST-LAST --title '```x``` and ``y``' --from docs/g.md",
	} {
		fix := FixByHand(cmd)
		src := []byte(fix)
		doc := goldmark.New().Parser().Parse(text.NewReader(src))
		var spans []string
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if c, ok := n.(*ast.CodeSpan); ok && entering {
				var b strings.Builder
				for t := c.FirstChild(); t != nil; t = t.NextSibling() {
					if t, ok := t.(*ast.Text); ok {
						b.Write(t.Segment.Value(src))
					}
				}
				spans = append(spans, b.String())
				return ast.WalkSkipChildren, nil
			}
			return ast.WalkContinue, nil
		})
		if len(spans) != 1 || spans[0] != cmd {
			t.Errorf("%q: code spans %q, want the one command %q", fix, spans, cmd)
		}
	}
}
