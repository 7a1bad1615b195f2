package pin

import (
	"math/rand/v2"
	"strings"
	"testing"
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
