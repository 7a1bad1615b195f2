package pin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// TestOutline is the table of the fallback's sections: Markdown headings
// (fenced code aside), TOML tables, indented blocks and paragraphs.
func TestOutline(t *testing.T) {
	for _, c := range []struct {
		name, path, text string
		want             []string // "kind name start-end", 0-based, end excluded
	}{
		{"markdown", "README.md",
			"# Top\n\ntext\n## A\nx\n```\n# not a heading\n```\nB\n---\ny\n### C #\nz\n## D\n",
			[]string{"h1 Top 0-14", "h2 A 3-8", "h2 B 8-13", "h3 C 11-13", "h2 D 13-14"}},
		{"markdown: no heading in a ~~~ fence, #hashtag is text", "a.markdown",
			"~~~\n## x\n~~~\n#tag\n  ## Two ##\n",
			[]string{"h2 Two 4-5"}},
		{"toml", "conf/a.toml",
			"a = 1\n[x]\nk = 1\n[[p]]\nn = 2\n[y] # c\n",
			[]string{"table [x] 1-3", "table [[p]] 3-5", "table [y] 5-6"}},
		{"yaml", "ci.yaml",
			"jobs:\n  build:\n    - a\n    - b\n  test:\n    - c\nx: 1\n",
			[]string{"paragraph jobs: 0-7", "block jobs: 0-6", "block build: 1-4", "block test: 4-6"}},
		{"text: paragraphs of two lines or more; a block spans blank lines", "NOTES",
			"p1\np2\n\nq1\n\n\tcode\n",
			[]string{"paragraph p1 0-2", "block q1 3-6"}},
		{"text: a block ends at its last indented line", "run.sh",
			"if x; then\n  a\n\n  b\n\nfi\n",
			[]string{"block if x; then 0-4", "paragraph if x; then 0-2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := strings.Split(strings.TrimSuffix(c.text, "\n"), "\n")
			var got []string
			for _, s := range outline(outlineFormatOf(c.path), lines) {
				got = append(got, fmt.Sprintf("%s %s %d-%d", s.Kind, s.Name, s.Start, s.End))
			}
			if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestSameSection is the fallback's table: whether a quote the line map
// carries stays in its section, or whether that cannot be told.
func TestSameSection(t *testing.T) {
	md := "# Guide\n\nIntro.\n\n## Install\n\nRun make install.\nThen check it.\n\n## Usage\n\nRun the tool.\nIt prints a report.\n"
	for _, c := range []struct {
		name, path, old, cur, frag string
		want                       declVerdict
	}{
		{"section moved down by a new one", "g.md", md,
			strings.Replace(md, "## Install", "## News\n\nNew things.\n\n## Install", 1), "line=6,8", declSame},
		{"section renamed, its lines kept", "g.md", md,
			strings.Replace(md, "## Usage", "## Using it", 1), "line=11,13", declSame},
		{"lines moved into another section", "g.md", md,
			strings.Replace(strings.Replace(md, "Run make install.\nThen check it.\n", "", 1), "It prints a report.\n", "It prints a report.\n\nRun make install.\nThen check it.\n", 1), "line=6,8", declOther},
		{"one of two copies deleted", "g.md",
			"# A\n\nfirst\n\n- same\n- same\n\n- same\n- same\n\nlast\n",
			"# A\n\nfirst\n\n- same\n- same\n\nlast\n", "line=4,6", declUnknown},
		{"a copy added next to it", "g.md",
			"# A\n\nfirst\n\n- same\n- same\n\nlast\n",
			"# A\n\nfirst\n\n- same\n- same\n\n- same\n- same\n\nlast\n", "line=4,6", declUnknown},
		{"a table header kept, its body replaced", "c.toml",
			"[example]\nname = \"x\"\nenabled = true\n[[plugin]]\nname = \"p27\"\npath = \"./a\"\n[[plugin]]\nname = \"p1\"\n",
			"[example]\nname = \"x\"\nenabled = true\n[[plugin]]\nargs = [\"--fast\"]\n[[plugin]]\nname = \"p1\"\n", "line=1,4", declUnknown},
		{"edited into a line the file already had", "notes.txt",
			"alpha one\nbeta two\ngamma three\n\ncommon line here\n",
			"alpha one\nbeta two\ncommon line here\n\ncommon line here\n", "line=1,3", declUnknown},
		{"plain text with no sections, tied to a line it has once", "notes.txt",
			"unique heading\nbody one\nbody two\n",
			"inserted\nunique heading\nbody one\nbody two\n", "line=0,3", declSame},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := rfc5147.Parse(c.frag)
			if err != nil {
				t.Fatal(err)
			}
			oldT, err := rfc5147.NewText([]byte(c.old), rfc5147.UTF8)
			if err != nil {
				t.Fatal(err)
			}
			sel, err := oldT.Select(f)
			if err != nil {
				t.Fatal(err)
			}
			old, cur := newRFCText([]byte(c.old)), newRFCText([]byte(c.cur))
			m := newLineMap(old, cur)
			mp := mapQuote(f, sel, old, cur, m)
			if mp.fate != quoteIntact && mp.fate != quoteEdited {
				t.Fatalf("mapping: %d (%s)", mp.fate, mp.why)
			}
			if got, what := sameSection(outlineFormatOf(c.path), old, cur, sel.Text, mp, m); got != c.want {
				t.Errorf("got %d (%s), want %d", got, what, c.want)
			}
		})
	}
}

// TestSameSectionLikeBounded: a quote whose first line was replaced by n
// new lines, in a file that lost n lines elsewhere, is checked line by
// line against the lost lines (a new line like one may be it, moved):
// n² comparisons, bounded per line map (maxLikeCells), past which the
// fallback cannot tell, and says so.
func TestSameSectionLikeBounded(t *testing.T) {
	for _, c := range []struct {
		n    int
		want declVerdict
	}{{200, declSame}, {2000, declUnknown}} {
		var old, cur strings.Builder
		old.WriteString("anchor one\nquoted two\n")
		cur.WriteString("anchor one\n")
		for k := range c.n {
			fmt.Fprintf(&cur, "inserted line number %d here\n", k)
		}
		for k := range c.n + 2 {
			fmt.Fprintf(&old, "kept %d\n", k)
			fmt.Fprintf(&cur, "kept %d\n", k)
		}
		old.WriteString("anchor four\n")
		cur.WriteString("anchor four\n")
		for k := range c.n {
			fmt.Fprintf(&old, "deleted %d zz%dqq\n", k*7919, k)
		}
		f, err := rfc5147.Parse(fmt.Sprintf("line=1,%d", c.n+4))
		if err != nil {
			t.Fatal(err)
		}
		oldT, err := rfc5147.NewText([]byte(old.String()), rfc5147.UTF8)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := oldT.Select(f)
		if err != nil {
			t.Fatal(err)
		}
		o, n := newRFCText([]byte(old.String())), newRFCText([]byte(cur.String()))
		m := newLineMap(o, n)
		mp := mapQuote(f, sel, o, n, m)
		if mp.fate != quoteEdited {
			t.Fatalf("n=%d: mapping %d (%s)", c.n, mp.fate, mp.why)
		}
		before := diceCalls.Load()
		v, what := sameSection(outlineIndent, o, n, sel.Text, mp, m)
		calls := diceCalls.Load() - before
		if v != c.want {
			t.Errorf("n=%d: verdict %d (%s), want %d", c.n, v, what, c.want)
		}
		if limit := int64(maxLikeCells + 4*c.n); calls > limit {
			t.Errorf("n=%d: %d comparisons, over %d", c.n, calls, limit)
		}
	}
}

// TestSameSectionRegionsOnce: the fallback labels each line of the
// pinned version with its region once per text, not once per quote: a
// page of many quotes into one large file costs the file once.
func TestSameSectionRegionsOnce(t *testing.T) {
	var old, cur strings.Builder
	for k := range 2000 {
		fmt.Fprintf(&old, "section %d\n  body line %d\n\n", k, k)
	}
	cur.WriteString("inserted at the top\n" + old.String())
	o, c := newRFCText([]byte(old.String())), newRFCText([]byte(cur.String()))
	m := newLineMap(o, c)
	before := regionLines.Load()
	for q := range 200 {
		f, err := rfc5147.Parse(fmt.Sprintf("line=%d,%d", 30*q, 30*q+2))
		if err != nil {
			t.Fatal(err)
		}
		oldT, err := rfc5147.NewText([]byte(old.String()), rfc5147.UTF8)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := oldT.Select(f)
		if err != nil {
			t.Fatal(err)
		}
		mp := mapQuote(f, sel, o, c, m)
		if mp.fate != quoteIntact {
			t.Fatalf("quote %d: mapping %d (%s)", q, mp.fate, mp.why)
		}
		if v, what := sameSection(outlineIndent, o, c, sel.Text, mp, m); v != declSame {
			t.Fatalf("quote %d: %d (%s)", q, v, what)
		}
	}
	if got, lines := regionLines.Load()-before, int64(len(o.contents())); got != lines {
		t.Errorf("200 quotes labelled %d lines with regions; the file has %d", got, lines)
	}
}
