package pin

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// TestMapQuote runs step 3 of relocation (with step 2's line map) on old
// and new texts: what the mapping shows became of a quote, and where.
func TestMapQuote(t *testing.T) {
	numbered := func(from, to int, extra ...string) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "line %d\n", i)
		}
		return b.String() + strings.Join(extra, "")
	}
	sentence := "\t// Value returns the value from the request's context, which is canceled once the request finishes. More text follows here.\n"
	edited := strings.Replace(sentence, "canceled once", "cancelled as soon as", 1)
	for _, c := range []struct {
		name, old, cur, frag string
		want                 string // "intact S,E", "edited S,E", "deleted", "unknown", with " block" for a moved block
	}{
		{"unchanged in place", numbered(1, 30), numbered(1, 30, "tail\n"), "line=10,20", "intact 10,20"},
		{"lines inserted above", numbered(1, 30), "a\nb\nc\n" + numbered(1, 30), "line=10,20", "intact 13,23"},
		{"lines removed above", numbered(1, 30), numbered(3, 30), "line=10,20", "intact 8,18"},
		{"edited inside", numbered(1, 30), "a\n" + strings.Replace(numbered(1, 30), "line 15\n", "line fifteen\n", 1), "line=10,20", "edited 11,21"},
		{"line added inside", numbered(1, 30), strings.Replace(numbered(1, 30), "line 15\n", "line 15\nnew\n", 1), "line=10,20", "edited 10,21"},
		{"first quoted line rewritten", numbered(1, 30), strings.Replace(numbered(1, 30), "line 11\n", "LINE 11\n", 1), "line=10,20", "edited 10,20"},
		{"all quoted lines deleted", numbered(1, 30), numbered(1, 10) + numbered(21, 30), "line=10,20", "deleted"},
		{"all quoted lines replaced", numbered(1, 30), numbered(1, 10) + "other\nthings\n" + numbered(21, 30), "line=10,20", "deleted"},
		{"most quoted lines deleted", numbered(1, 30), numbered(1, 18) + numbered(21, 30), "line=10,20", "edited 10,18"},
		{"one of ten left", numbered(1, 30), numbered(1, 10) + "line 19\n" + numbered(21, 30), "line=10,20", "unknown"},
		{"CRLF region moved", "x\r\ny\r\nz\r\n", "new\r\nx\r\ny\r\nz\r\n", "line=1,2", "intact 2,3"},
		{"line endings changed", "x\r\ny\r\nz\r\n", "x\ny\nz\n", "line=1,2", "edited 1,2"},
		{"last line gains its line ending", "a\nb\nc", "new\na\nb\nc\nd\n", "line=1,", "edited 2,5"},
		{"last line gains its line ending (range)", "a\nb\nc", "new\na\nb\nc\nd\n", "line=1,3", "intact 2,4"},
		{"to end, appended", numbered(1, 5), numbered(1, 6), "line=3,", "edited 3,6"},
		{"to end, moved", numbered(1, 5), "x\n" + numbered(1, 5), "line=3,", "intact 4,6"},
		{"from start, prefix", numbered(1, 5), "x\n" + numbered(1, 5), "line=,2", "edited 0,3"},
		{"position", numbered(1, 10), "x\n" + numbered(1, 10), "line=5", "intact 6,6"},
		{"position at an edit", numbered(1, 10), strings.Replace(numbered(1, 10), "line 6\n", "six\n", 1), "line=5", "unknown"},
		// Unique lines anchor the diff: the quoted copy of a duplicated
		// block stays with its own neighbours.
		{"duplicate kept with its neighbours", "func a\nX\nY\nfunc b\nX\nY\n", "func a\nX\nY\nnew\nfunc b\nX\nY\n", "line=4,6", "intact 5,7"},
		{"duplicate rewritten, its twin kept", "func a\nX := 1\nY := 2\nfunc b\nX := 1\nY := 2\n", "func a\nX := 1\nY := 2\nfunc b\nZ = 9\n", "line=4,6", "deleted"},
		{"block moved past a longer one", "x1\nx2\nA1\nA2\nA3\nA4\n", "A1\nA2\nA3\nA4\nx1\nx2\n", "line=0,2", "intact 4,6 block"},
		{"block moved and duplicated", "x1\nx2\nA1\nA2\nA3\nA4\n", "A1\nx1\nx2\nA2\nA3\nA4\nx1\nx2\n", "line=0,2", "deleted"},
		{"braces only, changed", "a\n}\n}\nb\n", "a\n)\n)\nb\n", "line=1,3", "unknown"},
		{"chars moved", "hello wide world\n", "say: hello wide world\n", "char=6,10", "intact 11,15"},
		{"chars across CRLF", "ab\r\ncd\r\n", "zz\r\nab\r\ncd\r\n", "char=2,4", "intact 5,7"},
		{"chars not inside CRLF", "a\nb\n", "a\r\nb\n", "char=1,3", "edited 1,3"},
		// A sentence moved down and one of its words changed: changed at
		// its new place, all of it (issue 22, C6).
		{"sentence moved and edited", numbered(1, 5) + sentence + numbered(6, 8), numbered(1, 5) + numbered(100, 126) + edited + numbered(6, 8),
			fmt.Sprintf("char=%d,%d", len(numbered(1, 5))+4, len(numbered(1, 5))+strings.Index(sentence, " More")), "edited sentence"},
		{"chars deleted", "keep\nthe quoted words\nkeep\n", "keep\nkeep\n", "char=9,15", "deleted"},
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
			mp := mapQuote(f, sel, old, cur, newLineMap(old, cur))
			got := ""
			switch mp.fate {
			case quoteUnknown:
				got = "unknown"
			case quoteDeleted:
				got = "deleted"
			case quoteIntact:
				got = fmt.Sprintf("intact %d,%d", mp.start, mp.end)
			case quoteEdited:
				got = fmt.Sprintf("edited %d,%d", mp.start, mp.end)
			}
			if mp.block {
				got += " block"
			}
			if c.want == "edited sentence" {
				// The new range quotes the whole edited sentence.
				curT, _ := rfc5147.NewText([]byte(c.cur), rfc5147.UTF8)
				nf, _ := rfc5147.Parse(fmt.Sprintf("char=%d,%d", mp.start, mp.end))
				ns, err := curT.Select(nf)
				want := strings.TrimSuffix(strings.TrimPrefix(edited, "\t// "), " More text follows here.\n")
				if mp.fate != quoteEdited || err != nil || string(ns.Text) != want {
					t.Errorf("got %s quoting %q, want edited quoting %q", got, ns.Text, want)
				}
				return
			}
			if got != c.want {
				t.Errorf("got %s (%s), want %s", got, mp.why, c.want)
			}
		})
	}
}

// TestLineMapPairsEditedLines: inside a run of changed lines, a line is
// edited into the similar new line, in order; dissimilar lines are
// deleted; a run too large to pair is unknown, not guessed.
func TestLineMapPairsEditedLines(t *testing.T) {
	old := newRFCText([]byte("keep\nreturn fmt.Errorf(\"bad value %d\", v)\nx := compute(a, b)\nkeep2\n"))
	cur := newRFCText([]byte("keep\ny := other()\nreturn fmt.Errorf(\"bad value %d (max %d)\", v, m)\nkeep2\n"))
	m := newLineMap(old, cur)
	want := []lineFate{lineKept, lineEdited, lineDeleted, lineKept}
	for i, f := range want {
		if m.fate[i] != f {
			t.Errorf("line %d: fate %d, want %d", i, m.fate[i], f)
		}
	}
	if m.toNew[1] != 2 || m.fromNew[1] != -1 || m.fromNew[2] != 1 {
		t.Errorf("pairing: toNew %v fromNew %v", m.toNew, m.fromNew)
	}
	var a, b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&a, "old statement number %d\n", i)
		fmt.Fprintf(&b, "old statement numero %d\n", i)
	}
	big := newLineMap(newRFCText([]byte("top\n"+a.String()+"end\n")), newRFCText([]byte("top\n"+b.String()+"end\n")))
	if big.fate[1] != lineUnknown || big.fate[301] != lineKept {
		t.Errorf("a 300×300 rewrite: fates %d %d, want unknown and kept", big.fate[1], big.fate[301])
	}
}

// TestDiffLinesAnchored: the anchored diff is a correct edit script (it
// rebuilds both sides) on random inputs, keeps every line unique on both
// sides that a longest increasing run allows, and matches a duplicated
// line within the stretch its unique neighbours delimit.
func TestDiffLinesAnchored(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	for n := 0; n < 500; n++ {
		a := randomLines(rng, rng.Intn(14))
		b := randomLines(rng, rng.Intn(14))
		a = append(a, fmt.Sprint("u", rng.Intn(3)))
		b = append([]string{fmt.Sprint("u", rng.Intn(3))}, b...)
		var ra, rb []string
		for _, e := range diffLinesAnchored(a, b) {
			switch e.kind {
			case opEqual:
				if a[e.a] != b[e.b] {
					t.Fatalf("%q %q: equal edit joins %q and %q", a, b, a[e.a], b[e.b])
				}
				ra, rb = append(ra, a[e.a]), append(rb, b[e.b])
			case opDelete:
				ra = append(ra, a[e.a])
			case opInsert:
				rb = append(rb, b[e.b])
			}
		}
		if strings.Join(ra, ",") != strings.Join(a, ",") || strings.Join(rb, ",") != strings.Join(b, ",") {
			t.Fatalf("%q %q: script rebuilds %q %q", a, b, ra, rb)
		}
	}
	// "}" matches the brace of its own function, not the first one.
	a := []string{"func A", "x", "}", "func B", "y", "}"}
	b := []string{"func A", "x", "z", "}", "func B", "}"}
	kept := map[int]int{}
	for _, e := range diffLinesAnchored(a, b) {
		if e.kind == opEqual {
			kept[e.a] = e.b
		}
	}
	if kept[2] != 3 || kept[5] != 5 {
		t.Errorf("braces matched %v", kept)
	}
}

// A run of changed lines whose bytes, times the lines on the other side,
// pass maxPairBytes is not paired (unknown): one long old line rewritten
// into many short ones would compare the long line once per short one.
func TestLineMapPairingBoundedByBytes(t *testing.T) {
	long := strings.Repeat("ab", 1<<19) // 1 MiB
	short := strings.Repeat("ab\n", 200)
	old := newRFCText([]byte("keep\n" + long + "\nkeep2\n"))
	cur := newRFCText([]byte("keep\n" + short + "keep2\n"))
	m := newLineMap(old, cur)
	if m.fate[1] != lineUnknown {
		t.Errorf("the long line's fate %d, want unknown (1 MiB × 200 lines passes maxPairBytes)", m.fate[1])
	}
	// Below the bound, a long line of a like length is still followed.
	edited := strings.Replace(long, "abab", "abxb", 1)
	m = newLineMap(newRFCText([]byte("keep\n"+long+"\nkeep2\n")), newRFCText([]byte("keep\n"+edited+"\nkeep2\n")))
	if m.fate[1] != lineEdited {
		t.Errorf("a 1 MiB line edited in one place: fate %d, want edited", m.fate[1])
	}
}

// TestZeroLengthCharAtEndOfFile: a zero-length char= position at the end
// of a file (char=N,N, N its characters) spans the line after the last;
// anchoredAt looked for a distinctive neighbour from there on, past the
// file, and indexed out of range (a panic on a link anyone may write,
// with or without a final line ending, LF or CRLF). It is told like the
// line= position at the end: review, never re-pointed.
func TestZeroLengthCharAtEndOfFile(t *testing.T) {
	for _, c := range []struct{ v1, v2, frag, line string }{
		{"a\nb\nc\n", "x\na\nb\nc\n", "char=6,6", "line=3,3"},
		{"a\nb\nc\n", "a\nb\nc\nd\n", "char=6,6", "line=3,3"},
		{"a\r\nb\r\nc\r\n", "x\r\na\r\nb\r\nc\r\n", "char=6,6", "line=3,3"},
		{"a\nb\nc", "x\na\nb\nc", "char=5,5", ""},
	} {
		dir := importHistory(t, "f.txt", []string{c.v1, c.v2})
		page := "[q](../f.txt#" + c.frag + ";md5=" + md5hex(c.v1) + ")\n"
		if c.line != "" {
			page += "[q](../f.txt#" + c.line + ";md5=" + md5hex(c.v1) + ")\n"
		}
		changes := planWith(t, dir, NewHistory(dir), page)
		for _, ch := range changes {
			if ch.Class != Review || ch.NewDest != "" {
				t.Errorf("%q → %q, %s: %s %q (%s), want review and no new link", c.v1, c.v2, ch.Link.Dest, ch.Class, ch.NewDest, ch.Message)
			}
		}
	}
}
