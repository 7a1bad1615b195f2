package pin

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// The functions below are the answers as they were, one look over the
// whole file (or all runs of changes, or all declarations) per question:
// the references the indexed answers are held to.

func occursTwiceScan(data, text []byte) bool {
	i := bytes.Index(data, text)
	return len(text) > 0 && i >= 0 && bytes.Contains(data[i+1:], text)
}

func deletedLinesScan(f rfc5147.Fragment, s, e int, old, cur *rfcText, m *lineMap, out quoteMapping) quoteMapping {
	n := e - s
	moved := -1
	for k := 0; k+n <= len(cur.lines); k++ {
		if !linesMatch(old, s, cur, k, n) || !formAllows(f, k == 0, k+n == len(cur.lines)) {
			continue
		}
		if len(out.elsewhere) < maxHints {
			out.elsewhere = append(out.elsewhere, [2]int{k, k + n})
		}
		inserted := true
		for j := k; j < k+n; j++ {
			inserted = inserted && m.fromNew[j] < 0
		}
		switch {
		case inserted && moved == -1:
			moved = k
		case inserted:
			moved = -2
		}
	}
	if out.said == 0 {
		out.why = "the quoted lines hold no letter or digit to follow them by, and they changed"
		return out
	}
	if moved >= 0 {
		out.fate, out.block = quoteIntact, true
		out.start, out.end, out.newLines = int64(moved), int64(moved+n), [2]int{moved, moved + n}
		return out
	}
	out.fate = quoteDeleted
	return out
}

func rewrittenInQuoteScan(j, s, e int, last bool, a, b []string, m *lineMap, z *slideZones) bool {
	for _, h := range m.hunks {
		if j < h.newStart || j >= h.newEnd {
			continue
		}
		if h.oldStart < s || h.oldEnd > e || h.oldEnd == h.oldStart {
			return false
		}
		for k := h.newStart; k < h.newEnd; k++ {
			if substantive(b[k]) && (z.had[b[k]] || likeDeleted(b[k], s, e, a, m)) {
				return false
			}
		}
		o, j, step := h.oldStart, h.newStart, -1
		if last {
			o, j, step = h.oldEnd-1, h.newEnd-1, 1
		}
		if !keptBeyond(o, j, last, a, b, m) {
			return false
		}
		for o += step; o >= 0 && o < len(a) && !substantive(a[o]); o += step {
		}
		return o < 0 || o >= len(a) || z.tiedAt(o, a, m)
	}
	return false
}

func overlappedScan(spans []symbol.Span, s, e int) string {
	e = max(e, s+1)
	var names []string
	for _, d := range spans {
		if d.Start < e && s < d.End {
			names = append(names, d.Kind+" "+d.Name)
		}
	}
	return strings.Join(names, ", ")
}

// randomEndedLines returns a text of n lines drawn from few distinct ones (so
// that blocks repeat), with every line ending rfcText knows, and sometimes
// none at the end.
func randomEndedLines(rng *rand.Rand, n, distinct int) []string {
	endings := []string{"\n", "\n", "\n", "\r\n", "\r", "\u0085", "\r\u0085"}
	out := make([]string, n)
	for i := range out {
		w := []string{"", "  ", "x", "y := 1", "}", "z"}[rng.IntN(6)]
		if rng.IntN(3) > 0 {
			w = fmt.Sprintf("line %d", rng.IntN(distinct))
		}
		out[i] = w + endings[rng.IntN(len(endings))]
	}
	if n > 0 && rng.IntN(4) == 0 {
		out[n-1] = strings.TrimRight(out[n-1], "\r\n\u0085")
	}
	return out
}

// editLines returns lines with random runs deleted, inserted (fresh, or
// copies of runs from elsewhere, so that blocks move), and edited.
func editLines(rng *rand.Rand, lines []string, distinct int) []string {
	out := slices.Clone(lines)
	for range rng.IntN(8) {
		at := rng.IntN(len(out) + 1)
		switch rng.IntN(4) {
		case 0: // delete a run
			out = slices.Delete(out, at, min(len(out), at+1+rng.IntN(4)))
		case 1: // insert fresh lines
			out = slices.Insert(out, at, randomEndedLines(rng, 1+rng.IntN(4), distinct)...)
		case 2: // copy a run of the old lines here (a moved block)
			if len(lines) > 0 {
				from := rng.IntN(len(lines))
				out = slices.Insert(out, at, lines[from:min(len(lines), from+1+rng.IntN(5))]...)
			}
		default: // edit a line
			if at < len(out) {
				if rng.IntN(2) == 0 {
					out[at] = "edited " + out[at]
				} else {
					out[at] = "x" + out[at] + " 0" // like what it was
				}
			}
		}
	}
	return out
}

// randomPair returns a random pinned version, a random edit of it, and
// their line map.
func randomPair(rng *rand.Rand) (old, cur *rfcText, m *lineMap) {
	distinct := 2 + rng.IntN(10)
	a := randomEndedLines(rng, rng.IntN(40), distinct)
	b := editLines(rng, a, distinct)
	old, cur = newRFCText([]byte(strings.Join(a, ""))), newRFCText([]byte(strings.Join(b, "")))
	return old, cur, newLineMap(old, cur)
}

// TestOccursTwiceAgreesWithScan: occursTwice through the suffix array
// gives the scans' answer (overlapping occurrences count), before and
// after the index is built, on random texts and their substrings, texts
// they lack, and the empty text.
func TestOccursTwiceAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for round := range 300 {
		data := []byte(strings.Join(randomEndedLines(rng, rng.IntN(30), 1+rng.IntN(4)), ""))
		if rng.IntN(5) == 0 {
			data = bytes.Repeat([]byte("ab"), rng.IntN(20)) // overlapping occurrences
		}
		txt := newRFCText(data)
		for q := range 3 * scanQuestions {
			var text []byte
			switch {
			case len(data) > 0 && rng.IntN(4) > 0:
				i := rng.IntN(len(data))
				text = data[i : i+rng.IntN(min(12, len(data)-i)+1)]
			case rng.IntN(2) == 0:
				text = []byte("line 1\nline 2\n")
			}
			if got, want := txt.occursTwice(text), occursTwiceScan(data, text); got != want {
				t.Fatalf("round %d, question %d (index built: %v): %q in %q: got %v, want %v", round, q, txt.occurs.index != nil, text, data, got, want)
			}
		}
		if txt.occurs.index == nil {
			t.Fatalf("round %d: no index after %d questions", round, 3*scanQuestions)
		}
	}
}

// TestDeletedLinesAgreesWithScan: where the index finds a quote's lines
// now (hints, in file order, at most maxHints; a block all of whose lines
// were inserted, once or more) is where the scan over every new line
// found them, for every range of lines of random versions and edits,
// line endings of every kind (a last line without one matching any), and
// the three fragment forms.
func TestDeletedLinesAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 2))
	forms := []rfc5147.Form{rfc5147.Range, rfc5147.FromStart, rfc5147.ToEnd}
	moved, hinted, indexed := 0, 0, 0
	for round := range 1500 {
		old, cur, m := randomPair(rng)
		if round%2 == 0 {
			// The scans' budget spent: the index answers every question
			// (else the first few are scanned, then the index is built).
			m.deletedScans = deletedScanBudget(len(cur.lines)) + 1
		}
		for s := range len(old.lines) {
			for e := s + 1; e <= len(old.lines) && e <= s+6; e++ {
				f := rfc5147.Fragment{Scheme: rfc5147.Line, Form: forms[rng.IntN(3)]}
				out := quoteMapping{oldLines: [2]int{s, e}, said: rng.IntN(2)}
				if m.occurs != nil {
					indexed++
				}
				got, want := deletedLines(f, s, e, old, cur, m, out), deletedLinesScan(f, s, e, old, cur, m, out)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, lines [%d, %d), form %d:\nold %q\ncur %q\ngot  %+v\nwant %+v", round, s, e, f.Form, old.data, cur.data, got, want)
				}
				if want.block {
					moved++
				}
				if len(want.elsewhere) == maxHints {
					hinted++
				}
			}
		}
	}
	// The cases that matter were met: blocks found moved, hints cut short.
	if moved < 500 || hinted < 500 || indexed < 20000 {
		t.Errorf("only %d moved blocks, %d full hint lists and %d questions answered by the index met", moved, hinted, indexed)
	}
}

// TestDeletedLinesScansThenIndexes: a line map's first deletedLines
// questions are answered by a look over the new lines while a budget of a
// few scans of the file lasts, and only then is the index made: one
// deleted quote into a large file does not pay for it (O(N log N) time,
// ~48 bytes a line), many do, and the scans cost O(N) in all. The answers
// are the reference scan's either way.
func TestDeletedLinesScansThenIndexes(t *testing.T) {
	_, v1, v2, _ := adversarial("deleted", 3000)
	old, cur := newRFCText([]byte(v1)), newRFCText([]byte(v2))
	m := newLineMap(old, cur)
	f := rfc5147.Fragment{Scheme: rfc5147.Line, Form: rfc5147.Range}
	ask := func(i int) {
		s := 8*i + 2
		out := quoteMapping{oldLines: [2]int{s, s + 3}, said: 3}
		got, want := deletedLines(f, s, s+3, old, cur, m, out), deletedLinesScan(f, s, s+3, old, cur, m, out)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("quote %d: got %+v, want %+v", i, got, want)
		}
	}
	ask(0)
	ask(1)
	if m.occurs != nil {
		t.Fatalf("two questions into %d lines built the index", len(cur.lines))
	}
	for i := 2; i < 3000; i++ {
		ask(i)
	}
	if m.occurs == nil {
		t.Fatal("3,000 questions and no index")
	}
	if budget := deletedScanBudget(len(cur.lines)); m.deletedScans > budget+int64(len(cur.lines)) {
		t.Errorf("scans spent %d comparisons, budget %d", m.deletedScans, budget)
	}
}

// TestSuffixArraySorted: the suffix array of random sequences (few
// symbols, long repeats) orders every suffix, as a sort of them does.
func TestSuffixArraySorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 3))
	for range 500 {
		seq := make([]int32, rng.IntN(60))
		k := 1 + rng.IntN(4)
		for i := range seq {
			seq[i] = int32(rng.IntN(k))
		}
		want := make([]int32, len(seq))
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortFunc(want, func(a, b int32) int { return slices.Compare(seq[a:], seq[b:]) })
		if got := suffixArray(seq, k); !slices.Equal(got, want) {
			t.Fatalf("%v: got %v, want %v", seq, got, want)
		}
	}
}

// TestRewrittenInQuoteAgreesWithScan: the run of changes found by binary
// search gives rewrittenInQuote the answer the look at every run gave,
// for every new line as either edge of every small quote, on random
// versions and edits; hunkAtNew is the run whose new lines hold the line.
func TestRewrittenInQuoteAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 4))
	yes := 0
	for round := range 1500 {
		old, cur, m := randomPair(rng)
		a, b := old.contents(), cur.contents()
		for j := range b {
			want := -1
			for n, h := range m.hunks {
				if h.newStart <= j && j < h.newEnd {
					want = n
				}
			}
			if got := m.hunkAtNew(j); got != want {
				t.Fatalf("round %d: new line %d: run %d, want %d (%v)", round, j, got, want, m.hunks)
			}
		}
		f := []outlineFormat{outlineIndent, outlineMarkdown, outlineTables}[rng.IntN(3)]
		z := m.slides(a, b, old.regions(f))
		for s := range a {
			for e := s + 1; e <= len(a) && e <= s+5; e++ {
				for j := range b {
					for _, last := range []bool{false, true} {
						got, want := rewrittenInQuote(j, s, e, last, a, b, m, z), rewrittenInQuoteScan(j, s, e, last, a, b, m, z)
						if got != want {
							t.Fatalf("round %d: j %d, [%d, %d), last %v: got %v, want %v", round, j, s, e, last, got, want)
						}
						if want {
							yes++
						}
					}
				}
			}
		}
	}
	if yes < 100 {
		t.Errorf("only %d quotes rewritten in place met", yes)
	}
}

// TestOverlappedAgreesWithScan: the declarations a range touches, named
// through the index, are the scan's, in order, on random declarations
// (nested, equal, empty, ending before they start, starting before the
// file) and ranges inside, across, outside and past them.
func TestOverlappedAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	nonempty := 0
	for round := range 3000 {
		lines := 1 + rng.IntN(60)
		spans := make([]symbol.Span, rng.IntN(14))
		for i := range spans {
			s := rng.IntN(lines+2) - 1
			e := s + rng.IntN(lines-s+2)
			if rng.IntN(10) == 0 {
				e = s - 1 - rng.IntN(3) // no parser makes these; asked anyway
			}
			spans[i] = symbol.Span{Start: s, End: e, Kind: "func", Name: fmt.Sprintf("f%d", i)}
		}
		d := &declarations{spans: spans}
		for range 60 {
			s := rng.IntN(lines+6) - 2
			e := s + rng.IntN(10) - 2
			got, want := d.overlapped(s, e), overlappedScan(spans, s, e)
			if got != want {
				t.Fatalf("round %d: spans %v, lines [%d, %d): got %q, want %q", round, spans, s, e, got, want)
			}
			if want != "" {
				nonempty++
			}
			if got, want := d.enclosing(s, e), enclosing(spans, s, e); got != want {
				t.Fatalf("round %d: spans %v, lines [%d, %d): enclosing %d, want %d", round, spans, s, e, got, want)
			}
		}
	}
	if nonempty < 10000 {
		t.Errorf("only %d ranges touched a declaration", nonempty)
	}
}
