package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// flatEdit applies a change as the server did before lineTree: to a flat
// copy of the text, through a line index of the whole text. The tree must
// give the same text.
func flatEdit(text []byte, r Range, s string, enc string) []byte {
	x := newLineIndex(text, enc)
	start, end := x.offset(r.Start), x.offset(r.End)
	if end < start {
		start, end = end, start
	}
	return append(append(append([]byte{}, text[:start]...), s...), text[end:]...)
}

// Random edits (line endings LF, CR+LF and CR made and broken, emoji
// counted in UTF-16, positions past a line's end and past the text's end,
// ranges backwards) give the text the flat application gives, after each.
func TestLineTreeEdits(t *testing.T) {
	pieces := []string{"", "a", "é", "😀", "\n", "\r", "\r\n", "xy\nz", "\r\r\n\n", "ab😀cd\r\n", "\n\n\n"}
	for _, enc := range []string{encodingUTF16, encodingUTF8} {
		rng := rand.New(rand.NewPCG(1, 2))
		for round := range 200 {
			var b strings.Builder
			for range rng.IntN(12) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := []byte(b.String())
			tree := newLineTree(text)
			for step := range 30 {
				lines := strings.Count(string(text), "\n") + strings.Count(string(text), "\r") + 2
				pos := func() Position { return Position{Line: rng.IntN(lines), Character: rng.IntN(8)} }
				r := Range{Start: pos(), End: pos()}
				if rng.IntN(3) == 0 {
					r.End = r.Start
				}
				s := pieces[rng.IntN(len(pieces))]
				want := flatEdit(text, r, s, enc)
				tree.edit(r, s, enc == encodingUTF8)
				if got := tree.text(); string(got) != string(want) {
					t.Fatalf("%s, round %d, step %d: %q, replace %+v with %q: got %q, want %q", enc, round, step, text, r, s, got, want)
				}
				if n, want := tree.root.count(), len(newLineIndex(want, enc).starts); n != want {
					t.Fatalf("%s, round %d, step %d: %d lines in the tree, want %d (%q)", enc, round, step, n, want, text)
				}
				text = want
			}
		}
	}
}

// editsWork applies k changes, spread over a buffer of n lines, to its
// tree and returns the nodes and bytes they visited.
func editsWork(n, k int) int64 {
	text := []byte(strings.Repeat("a line of text, 😀, and some more words\n", n))
	tree := newLineTree(text)
	rng := rand.New(rand.NewPCG(3, 4))
	edits := []string{"x", "\n", "", "😀"}
	before := lineWork.Load()
	for range k {
		p := Position{Line: rng.IntN(n), Character: rng.IntN(30)}
		end := p
		if rng.IntN(2) == 0 {
			end.Character++
		}
		tree.edit(Range{Start: p, End: end}, edits[rng.IntN(len(edits))], false)
	}
	return lineWork.Load() - before
}

// An incremental change costs what it touches: twice the buffer costs
// little more per change (the tree is one level deeper), twice the changes
// at most about twice the work.
func TestLineTreeEditCost(t *testing.T) {
	base := editsWork(20000, 2000)
	if bigger := editsWork(40000, 2000); float64(bigger) > 1.3*float64(base) {
		t.Errorf("2,000 changes: %d nodes and bytes visited in 20,000 lines, %d in 40,000 (more than 1.3 times)", base, bigger)
	}
	if more := editsWork(20000, 4000); float64(more) > 2.2*float64(base) {
		t.Errorf("in 20,000 lines: %d nodes and bytes visited for 2,000 changes, %d for 4,000 (more than 2.2 times)", base, more)
	}
}

// BenchmarkDidChange is 4,000 one-character changes spread over a 1 MB
// buffer (25,000 lines), as one didChange or many bring them.
func BenchmarkDidChange(b *testing.B) {
	for b.Loop() {
		editsWork(25000, 4000)
	}
}
