package pin

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// keptBeyondWalk is keptBeyond as it was: a walk over the lines that say
// nothing, once per question (the reference).
func keptBeyondWalk(o, j int, after bool, a, b []string, m *lineMap) bool {
	step := -1
	if after {
		step = 1
	}
	i := o + step
	for i >= 0 && i < len(a) && !substantive(a[i]) {
		i += step
	}
	k := j + step
	for k >= 0 && k < len(b) && !substantive(b[k]) {
		k += step
	}
	switch {
	case i < 0 || i >= len(a):
		return k < 0 || k >= len(b)
	case k < 0 || k >= len(b):
		return false
	}
	return m.fate[i] == lineKept && m.toNew[i] == k
}

// TestLineRunsAgreeWithWalks: keptBeyond, the nearest line that says
// something beyond a line, sameSection's first carried line of a section
// (old and new) and pairedAlone give, from the arrays made once, the
// answers the walks gave, for every line (and one past each end) of
// random versions and edits with many blank lines.
func TestLineRunsAgreeWithWalks(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 6))
	edited, alone := 0, 0
	for round := range 1500 {
		old, cur, m := randomPair(rng)
		a, b := old.contents(), cur.contents()
		r := m.runs(a, b)
		for o := -1; o <= len(a); o++ {
			for _, step := range []int{-1, 1} {
				want := o + step
				for want >= 0 && want < len(a) && !substantive(a[want]) {
					want += step
				}
				got := sayingBeyond(o, step, r.oldNext, r.oldPrev)
				if (got < 0) != (want < 0) || (got >= len(a)) != (want >= len(a)) || (got >= 0 && got < len(a) && got != want) {
					t.Fatalf("round %d: beyond old line %d by %d: %d, want %d", round, o, step, got, want)
				}
			}
			for j := -1; j <= len(b); j++ {
				for _, after := range []bool{false, true} {
					if got, want := keptBeyond(o, j, after, a, b, m), keptBeyondWalk(o, j, after, a, b, m); got != want {
						t.Fatalf("round %d: keptBeyond(%d, %d, %v) = %v, want %v", round, o, j, after, got, want)
					}
				}
			}
		}
		for i := range a {
			for limit := i; limit <= len(a); limit++ {
				want := i
				for want < limit && (m.fate[want] == lineDeleted || !substantive(a[want])) {
					want++
				}
				if got := firstFrom(i, limit, r.oldCarried); got != want {
					t.Fatalf("round %d: first carried old line from %d before %d: %d, want %d", round, i, limit, got, want)
				}
			}
			if m.fate[i] == lineEdited {
				edited++
				want := pairedAloneNow(i, a, b, m)
				if want {
					alone++
				}
				for range 2 { // asked, then answered from the memo
					if got := pairedAlone(i, a, b, m); got != want {
						t.Fatalf("round %d: pairedAlone(%d) = %v, want %v", round, i, got, want)
					}
				}
			}
		}
		for j := range b {
			for limit := j; limit <= len(b); limit++ {
				want := j
				for want < limit && (m.fromNew[want] < 0 || !substantive(b[want])) {
					want++
				}
				if got := firstFrom(j, limit, r.newCarried); got != want {
					t.Fatalf("round %d: first carried new line from %d before %d: %d, want %d", round, j, limit, got, want)
				}
			}
		}
	}
	// Both answers of pairedAlone were met.
	if alone < 200 || edited-alone < 200 {
		t.Errorf("%d edited lines met, %d paired alone", edited, alone)
	}
}

// TestFirstStrayAgreesWithWalk: the first new line of a range in a slide
// zone, or carried from outside the quote, found from the arrays made
// once is the one the walk over the range found, for every range of
// random versions and edits and every quote; every map made is ordered
// (the walk is the fallback, not the rule).
func TestFirstStrayAgreesWithWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 7))
	found := map[bool]int{}
	for round := range 600 {
		old, cur, m := randomPair(rng)
		a, b := old.contents(), cur.contents()
		z := m.slides(a, b, old.regions(outlineIndent))
		if !m.strays(a, b, z).ordered {
			t.Fatalf("round %d: line map not ordered", round)
		}
		for s := range a {
			for e := s + 1; e <= len(a) && e <= s+6; e++ {
				for ns := range b {
					for ne := ns; ne <= len(b) && ne <= ns+8; ne++ {
						wj, wzone := -1, false
						for j := ns; j < ne && wj < 0; j++ {
							if z.new[j] && substantive(b[j]) {
								wj, wzone = j, true
							} else if o := m.fromNew[j]; o >= 0 && (o < s || o >= e) {
								wj = j
							}
						}
						j, zone := m.firstStray(ns, ne, s, e, a, b, z)
						if j != wj || zone != wzone {
							t.Fatalf("round %d: quote [%d, %d), new [%d, %d): %d %v, want %d %v", round, s, e, ns, ne, j, zone, wj, wzone)
						}
						if wj >= 0 {
							found[wzone]++
						}
					}
				}
			}
		}
	}
	if found[true] < 1000 || found[false] < 1000 {
		t.Errorf("met %d in zones, %d carried from outside", found[true], found[false])
	}
}

// TestStrayInRunKeepsLikeDeletedTrail: rewrittenInQuote, looking at a
// run's lines once for all quotes, answers a random sequence of questions
// (interleaved with likeDeleted's own, as sameSection asks it) as the
// look at every line per question did, on a twin line map: likeDeletedAt
// is asked about the same lines in the same order, so it remembers the
// same answers and its budget (here set to run out within the sequence)
// runs out at the same question.
func TestStrayInRunKeepsLikeDeletedTrail(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 8))
	outOfBudget, answered := 0, map[bool]int{}
	for round := range 1500 {
		old, cur, _ := randomPair(rng)
		a, b := old.contents(), cur.contents()
		m1, m2 := newLineMap(old, cur), newLineMap(old, cur) // the walk's, the index's
		z1, z2 := m1.slides(a, b, old.regions(outlineIndent)), m2.slides(a, b, old.regions(outlineIndent))
		deleted := 0
		for i, l := range a {
			if m1.fate[i] == lineDeleted && substantive(l) {
				deleted++
			}
		}
		if rng.IntN(2) == 0 {
			left := rng.IntN(8*deleted + 1) // a few lines' worth
			m1.likeCells, m2.likeCells = maxLikeCells-left, maxLikeCells-left
		}
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		for q := range 60 {
			s := rng.IntN(len(a))
			e := s + 1 + rng.IntN(min(6, len(a)-s))
			j := rng.IntN(len(b))
			if rng.IntN(4) == 0 {
				got, want := likeDeleted(b[j], s, e, a, m2), likeDeleted(b[j], s, e, a, m1)
				if got != want {
					t.Fatalf("round %d, question %d: likeDeleted(%q, %d, %d) = %v, want %v", round, q, b[j], s, e, got, want)
				}
				continue
			}
			last := rng.IntN(2) == 0
			got, want := rewrittenInQuote(j, s, e, last, a, b, m2, z2), rewrittenInQuoteScan(j, s, e, last, a, b, m1, z1)
			if got != want {
				t.Fatalf("round %d, question %d: rewrittenInQuote(%d, %d, %d, %v) = %v, want %v", round, q, j, s, e, last, got, want)
			}
			answered[want]++
		}
		if !reflect.DeepEqual(m1.like, m2.like) || (m1.likeCells > maxLikeCells) != (m2.likeCells > maxLikeCells) {
			t.Fatalf("round %d: likeDeletedAt remembers %v (budget out: %v), want %v (%v)", round, m2.like, m2.likeCells > maxLikeCells, m1.like, m1.likeCells > maxLikeCells)
		}
		if m1.likeCells > maxLikeCells {
			outOfBudget++
		}
	}
	if outOfBudget < 100 || answered[true] < 100 || answered[false] < 1000 {
		t.Errorf("budget ran out in %d rounds; answers %v", outOfBudget, answered)
	}
}

// occursNearScan is occursNear as it was: the pattern compared at every
// place of the window (the reference).
func occursNearScan(lines []string, s, e int, pat []string) bool {
	from, to := max(0, s-tieWindow-len(pat)), min(len(lines), e+tieWindow+len(pat))
	for k := from; k+len(pat) <= to; k++ {
		if k != s && slices.Equal(lines[k:k+len(pat)], pat) {
			return true
		}
	}
	return false
}

// TestOccursNearAgreesWithScan: one pass with the failure table finds a
// copy of the pattern near [s, e) exactly when the comparison at every
// place did, on runs of few distinct lines (borders, overlapping copies),
// patterns taken from the lines or not, ranges near the ends.
func TestOccursNearAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 9))
	found := map[bool]int{}
	for range 20000 {
		lines := make([]string, rng.IntN(80))
		k := 1 + rng.IntN(3)
		for i := range lines {
			lines[i] = string(rune('A' + rng.IntN(k)))
		}
		s := rng.IntN(len(lines) + 1)
		e := min(len(lines), s+rng.IntN(8))
		pat := slices.Clone(lines[s:e])
		if rng.IntN(4) == 0 {
			pat = append(pat, "A")
		}
		got, want := occursNear(lines, s, e, pat), occursNearScan(lines, s, e, pat)
		if got != want {
			t.Fatalf("%v, [%d, %d), %v: got %v, want %v", lines, s, e, pat, got, want)
		}
		found[want]++
	}
	if found[true] < 1000 || found[false] < 1000 {
		t.Errorf("answers met: %v", found)
	}
}

// movedWithWalk is movedWith as it was: a walk from the header down, per
// question (the reference).
func movedWithWalk(a, b []string, h, e, nh, ne int, m *lineMap) bool {
	if e-h != ne-nh || nh < 0 || ne > len(b) {
		return false
	}
	for k := 0; k < e-h; k++ {
		if a[h+k] != b[nh+k] || m.fromNew[nh+k] >= 0 {
			return false
		}
	}
	return true
}

// TestMovedWithAgreesWithWalk: movedWith, measuring each header pair's
// verbatim inserted run once, answers a random sequence of questions
// (shorter and longer than what was measured, the same pairs again) as
// the walk did, on random versions where blocks moved.
func TestMovedWithAgreesWithWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 10))
	found := map[bool]int{}
	for range 1500 {
		old, cur, m := randomPair(rng)
		a, b := old.contents(), cur.contents()
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		for range 80 {
			h, nh := rng.IntN(len(a)), rng.IntN(len(b))
			if rng.IntN(2) == 0 { // a pair where a moved block starts
				for j := range b {
					if m.fromNew[j] < 0 && b[j] == a[h] {
						nh = j
						break
					}
				}
			}
			e := h + rng.IntN(len(a)-h+1)
			ne := nh + (e - h)
			if rng.IntN(8) == 0 {
				ne += rng.IntN(3) - 1
			}
			got, want := movedWith(a, b, h, e, nh, ne, m), movedWithWalk(a, b, h, e, nh, ne, m)
			if got != want {
				t.Fatalf("movedWith(%d, %d, %d, %d) = %v, want %v", h, e, nh, ne, got, want)
			}
			if e > h {
				found[want]++
			}
		}
	}
	if found[true] < 1000 || found[false] < 1000 {
		t.Errorf("answers met: %v", found)
	}
}
