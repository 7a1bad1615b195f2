package pin

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// mapThroughWordsScan is mapOffset's word step as it was: the word diff
// made for every question, and every word looked at (the reference).
func mapThroughWordsScan(off int, isStart bool, a, b []byte) (int, bool) {
	wa, wb := words(a), words(b)
	sa, sb := make([]string, len(wa)), make([]string, len(wb))
	for i, w := range wa {
		sa[i] = string(a[w[0]:w[1]])
	}
	for i, w := range wb {
		sb[i] = string(b[w[0]:w[1]])
	}
	to := make([]int, len(wa))
	for i := range to {
		to[i] = -1
	}
	for _, e := range diffLines(sa, sb) {
		if e.kind == opEqual {
			to[e.a] = e.b
		}
	}
	if off >= len(a) {
		if n := len(wa); n > 0 && to[n-1] >= 0 {
			return wb[to[n-1]][1], true
		}
		return 0, false
	}
	for i, w := range wa {
		switch {
		case w[0] < off && off < w[1]:
			if to[i] >= 0 {
				return wb[to[i]][0] + off - w[0], true
			}
			return 0, false
		case w[0] == off && isStart, w[1] == off && !isStart:
			if to[i] >= 0 {
				return wb[to[i]][w2(isStart)], true
			}
		}
	}
	for i, w := range wa {
		if (isStart && w[1] == off) || (!isStart && w[0] == off) {
			if to[i] >= 0 {
				return wb[to[i]][w2(!isStart)], true
			}
		}
	}
	return 0, false
}

// TestWordMapAgreesWithScan: a run's word diff made once carries every
// offset (each byte of the run and its end, starts and ends) where the
// diff made per question and the look at every word carried it, on
// random runs of words, spaces, punctuation and multi-byte letters with
// words kept, changed, inserted and deleted.
func TestWordMapAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 11))
	pieces := []string{"foo", "bar", "x1", " ", "  ", "\t", ".", "(", ")", "é", "naïve", "_", "\n", "\xff"}
	text := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = pieces[rng.IntN(len(pieces))]
		}
		return out
	}
	carried := map[bool]int{}
	for range 2000 {
		ap := text(rng.IntN(20))
		bp := append([]string(nil), ap...)
		for range rng.IntN(4) {
			at := rng.IntN(len(bp) + 1)
			switch rng.IntN(3) {
			case 0:
				bp = append(bp[:at], append(text(1+rng.IntN(3)), bp[at:]...)...)
			case 1:
				if at < len(bp) {
					bp = append(bp[:at], bp[at+1:]...)
				}
			default:
				if at < len(bp) {
					bp[at] = pieces[rng.IntN(len(pieces))]
				}
			}
		}
		a, b := []byte(strings.Join(ap, "")), []byte(strings.Join(bp, ""))
		w := newWordMap(a, b)
		for off := 0; off <= len(a)+1; off++ {
			for _, isStart := range []bool{true, false} {
				gp, gok := w.carry(off, isStart)
				wp, wok := mapThroughWordsScan(off, isStart, a, b)
				if gp != wp || gok != wok {
					t.Fatalf("%q → %q, offset %d, start %v: %d %v, want %d %v", a, b, off, isStart, gp, gok, wp, wok)
				}
				carried[wok]++
			}
		}
	}
	if carried[true] < 5000 || carried[false] < 5000 {
		t.Errorf("answers met: %v", carried)
	}
}

// TestCharPosAgreesWithCount: the character position at every boundary
// offset, from the counts made once per line, is the count from the
// start of the text, on random texts with every line ending, NEL inside
// lines, multi-byte letters and bytes that are not UTF-8.
func TestCharPosAgreesWithCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 12))
	pieces := []string{"a", "é", "€", "\n", "\r", "\r\n", "\u0085", "\r\u0085", "\xc2", "\x85", "\xe2\x82", "\xff", " "}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		txt := newRFCText([]byte(b.String()))
		for off := 0; off <= len(txt.data); off++ {
			if !txt.boundary(off) {
				continue
			}
			if got, want := txt.charPos(off), countChars(txt.data[:off]); got != want {
				t.Fatalf("%q at %d: %d, want %d", txt.data, off, got, want)
			}
		}
	}
}

// charsElsewhereScan is mapCharQuote's search for deleted characters as
// it was, once per quote (the reference).
func charsElsewhereScan(f rfc5147.Fragment, quoted []byte, cur *rfcText, m *lineMap) (hints [][2]int, moved int) {
	moved = -1
	for from := 0; len(quoted) > 0 && from <= len(cur.data); {
		i := bytes.Index(cur.data[from:], quoted)
		if i < 0 {
			break
		}
		off, end := from+i, from+i+len(quoted)
		from = off + 1
		if !cur.boundary(off) || !cur.boundary(end) || !formAllows(f, off == 0, end == len(cur.data)) {
			continue
		}
		l0, _ := cur.lineAt(off)
		l1, _ := cur.lineAt(max(end-1, off))
		if len(hints) < maxHints {
			hints = append(hints, [2]int{l0, l1 + 1})
		}
		inserted := true
		for j := l0; j <= l1 && j < len(cur.lines); j++ {
			inserted = inserted && m.fromNew[j] < 0
		}
		switch {
		case inserted && moved == -1:
			moved = off
		case inserted:
			moved = -2
		}
	}
	return hints, moved
}

// TestCharsElsewhereAgreesWithScan: the search for a deleted char=
// quote's characters, kept by text and form, answers as the search per
// quote did, asked twice, for substrings of random versions (line
// endings of every kind, blocks moved) in the three forms.
func TestCharsElsewhereAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 13))
	forms := []rfc5147.Form{rfc5147.Range, rfc5147.FromStart, rfc5147.ToEnd}
	moved := 0
	for range 800 {
		old, cur, m := randomPair(rng)
		for range 30 {
			if len(old.data) == 0 {
				break
			}
			s := rng.IntN(len(old.data))
			quoted := old.data[s : s+rng.IntN(min(20, len(old.data)-s)+1)]
			f := rfc5147.Fragment{Scheme: rfc5147.Char, Form: forms[rng.IntN(3)]}
			wh, wm := charsElsewhereScan(f, quoted, cur, m)
			for range 2 {
				gh, gm := m.charsElsewhere(f, quoted, cur)
				if !reflect.DeepEqual(gh, wh) || gm != wm {
					t.Fatalf("%q in %q (form %d): %v %d, want %v %d", quoted, cur.data, f.Form, gh, gm, wh, wm)
				}
			}
			if wm >= 0 {
				moved++
			}
		}
	}
	if moved < 500 {
		t.Errorf("only %d moved texts met", moved)
	}
}

// TestCharsElsewhereLinear: the search for a deleted char= quote's
// characters looks at the file once, however many times and however
// densely the quoted text occurs in it: a quote of L repeated lines into
// a file of N such lines occurs at N-L+1 places, overlapping, and a
// search that re-reads the quote at each (bytes.Index from the next byte)
// or walks each occurrence's lines costs N × L. Work is counted in
// questionWork (bytes and lines looked at, binary-search steps) and held
// to grow no faster than the file when file and quote grow fourfold
// (N × L grows sixteenfold); the answer is the reference scan's.
func TestCharsElsewhereLinear(t *testing.T) {
	perByte := map[int]float64{}
	for _, n := range []int{1000, 4000} {
		// Old lines: the file's lines, the quote's deleted from its place
		// (an "x" line moved); new lines: some inserted, some kept.
		oldLines := strings.Repeat("x\n", n)
		curLines := "y\n" + strings.Repeat("x\n", n) + strings.Repeat("x\n", n/2+1)
		old, cur := newRFCText([]byte(oldLines)), newRFCText([]byte(curLines))
		m := newLineMap(old, cur)
		quoted := old.data[2 : 2+2*(n/2)] // n/2 lines
		for _, form := range []rfc5147.Form{rfc5147.Range, rfc5147.FromStart, rfc5147.ToEnd} {
			f := rfc5147.Fragment{Scheme: rfc5147.Char, Form: form}
			wh, wm := charsElsewhereScan(f, quoted, cur, m)
			m.chars = nil
			before := questionWork.Load()
			gh, gm := m.charsElsewhere(f, quoted, cur)
			work := questionWork.Load() - before
			if !reflect.DeepEqual(gh, wh) || gm != wm {
				t.Fatalf("n %d form %d: %v %d, want %v %d", n, form, gh, gm, wh, wm)
			}
			if form == rfc5147.Range {
				if len(wh) != maxHints || wm != -2 {
					t.Fatalf("n %d: hints %v moved %d: the workload lacks dense occurrences, some inserted", n, wh, wm)
				}
				perByte[n] = float64(work) / float64(len(cur.data)+len(quoted))
			}
		}
	}
	if growth := perByte[4000] / perByte[1000]; growth > 1.5 {
		t.Errorf("work per byte %.1f at 1000 lines, %.1f at 4000 (×%.2f): grows with file and quote", perByte[1000], perByte[4000], growth)
	} else {
		t.Logf("work per byte %.1f at 1000 lines, %.1f at 4000 (×%.2f)", perByte[1000], perByte[4000], growth)
	}
}
