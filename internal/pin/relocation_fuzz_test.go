package pin

import (
	"fmt"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// FuzzSlideEdits: for any two texts, the slid edit script still turns the
// old lines into the new ones, keeps as many lines as the diff did, and
// keeps only equal lines.
func FuzzSlideEdits(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("\n\nx\n\n\ny\n", "\nx\n\ny\n\n")
	f.Add("def f():\n    a\n\n\ndef g():\n    b\n", "def f():\n    a\n\n\ndef h():\n    c\n\n\ndef g():\n    b\n")
	f.Add("A\nA\nA\nB\nA\n", "A\nB\nA\nA\n")
	f.Add("x\r\n\t\ty\r\n  \r\n", "x\n        y\n\n")
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		a, b := newRFCText([]byte(oldText)).contents(), newRFCText([]byte(newText)).contents()
		in := diffLinesAnchored(a, b)
		out := slideEdits(a, b, in)
		kept := func(es []edit) int {
			n := 0
			for _, e := range es {
				if e.kind == opEqual {
					n++
				}
			}
			return n
		}
		if got, want := kept(out), kept(in); got != want {
			t.Fatalf("kept %d lines, the diff kept %d", got, want)
		}
		// Apply the script: every old line is consumed once, in order;
		// every new line is written once, in order.
		i, j := 0, 0
		for _, e := range out {
			switch e.kind {
			case opEqual:
				if e.a != i || e.b != j || a[i] != b[j] {
					t.Fatalf("equal edit %+v at old %d new %d (%q vs %q)", e, i, j, a[min(e.a, len(a)-1)], b[min(e.b, len(b)-1)])
				}
				i, j = i+1, j+1
			case opDelete:
				if e.a != i {
					t.Fatalf("delete %+v at old %d", e, i)
				}
				i++
			case opInsert:
				if e.b != j {
					t.Fatalf("insert %+v at new %d", e, j)
				}
				j++
			}
		}
		if i != len(a) || j != len(b) {
			t.Fatalf("script covers old %d/%d, new %d/%d", i, len(a), j, len(b))
		}
	})
}

// FuzzSameSection: outlines of any text are well formed in every format,
// and the fallback's verdict on any quote through any change never panics;
// a file that did not change keeps every quote where it was.
func FuzzSameSection(f *testing.F) {
	md := "# Guide\n\nIntro.\n\n## Install\n\nRun make install.\nThen check it.\n\n## Usage\n\nRun the tool.\n"
	f.Add(md, "# Guide\n\n## News\n\nNew.\n\n## Install\n\nRun make install.\nThen check it.\n", uint8(0), uint16(6), uint16(2))
	f.Add("[a]\nx = 1\n[[p]]\nn = 1\n[[p]]\nn = 1\n", "[a]\nx = 1\n[[p]]\nn = 1\n", uint8(1), uint16(3), uint16(2))
	f.Add("jobs:\n  build:\n    - a\n\t- b\n", "jobs:\n  test:\n    - a\n\t- b\n", uint8(2), uint16(2), uint16(2))
	f.Add("same\nsame\nsame\n", "same\nsame\n", uint8(2), uint16(0), uint16(2))
	f.Add("\n\n\n", "\n\n", uint8(0), uint16(0), uint16(3))
	f.Add("", "", uint8(1), uint16(0), uint16(1))
	f.Fuzz(func(t *testing.T, oldText, newText string, format uint8, start, n uint16) {
		old, cur := newRFCText([]byte(oldText)), newRFCText([]byte(newText))
		for _, lines := range [][]string{old.contents(), cur.contents()} {
			for fm := outlineIndent; fm <= outlineTables; fm++ {
				for _, s := range outline(fm, lines) {
					if s.Start < 0 || s.Start >= s.End || s.End > len(lines) {
						t.Fatalf("format %d: section %+v outside %d lines", fm, s, len(lines))
					}
				}
			}
		}
		fm := outlineFormat(format % 3)
		nl := len(old.contents())
		s := int(start) % nl
		e := min(nl, s+1+int(n)%8)
		frag, err := rfc5147.Parse(fmt.Sprintf("line=%d,%d", s, e))
		if err != nil {
			t.Fatal(err)
		}
		oldT, err := rfc5147.NewText([]byte(oldText), rfc5147.UTF8)
		if err != nil {
			return // not UTF-8: the planner never gets this far
		}
		sel, err := oldT.Select(frag)
		if err != nil {
			return
		}
		m := newLineMap(old, cur)
		mp := mapQuote(frag, sel, old, cur, m)
		if mp.fate != quoteIntact && mp.fate != quoteEdited {
			return
		}
		v, _ := sameSection(fm, old, cur, sel.Text, mp, m)
		if oldText == newText && (mp.fate != quoteIntact || mp.newLines != mp.oldLines) {
			t.Fatalf("unchanged file: quote mapped %d %v → %v (verdict %d)", mp.fate, mp.oldLines, mp.newLines, v)
		}
	})
}
