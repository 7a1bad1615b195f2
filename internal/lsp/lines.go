package lsp

import (
	"math/rand/v2"
	"sync/atomic"
	"unicode/utf8"
)

// lineTree is an open buffer being edited: its lines, each with its line
// ending (the last line has none, and may be empty), in a balanced tree (a
// treap ordered by line number, with random priorities) that counts the
// lines and bytes below each node. An incremental change finds its lines
// in time logarithmic in the buffer and rewrites only them, so a change
// costs what it touches, not the buffer's size: applying each change to a
// flat copy of the text, and indexing its lines again for the next, made
// 4,000 changes to a 1 MB page take some 40 s. The text is written out
// once, when it is next needed (flushEdits).
//
// Lines end as the protocol counts them: at LF, CR+LF or CR.
type lineTree struct {
	root *lineNode
}

type lineNode struct {
	line        []byte
	prio        uint64
	left, right *lineNode
	lines       int // lines in this subtree
	size        int // bytes in this subtree
}

// lineWork counts the nodes and bytes the trees' edits have visited, for
// the tests that hold an edit's cost to what it touches.
var lineWork atomic.Int64

func (n *lineNode) count() int {
	if n == nil {
		return 0
	}
	return n.lines
}

func (n *lineNode) bytes() int {
	if n == nil {
		return 0
	}
	return n.size
}

func (n *lineNode) update() {
	n.lines = 1 + n.left.count() + n.right.count()
	n.size = len(n.line) + n.left.bytes() + n.right.bytes()
}

// splitLines cuts text into its lines, each with its line ending; the
// last has none (it is empty when text ends with a line ending).
func splitLines(text []byte) [][]byte {
	var lines [][]byte
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			lines = append(lines, text[start:i+1])
			start = i + 1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			lines = append(lines, text[start:i+1])
			start = i + 1
		}
	}
	return append(lines, text[start:])
}

// build makes a treap of lines in order, in time linear in them (the
// Cartesian tree of random priorities, built with a stack).
func build(lines [][]byte) *lineNode {
	var stack []*lineNode
	for _, l := range lines {
		n := &lineNode{line: l, prio: rand.Uint64()}
		var last *lineNode
		for len(stack) > 0 && stack[len(stack)-1].prio < n.prio {
			last = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			last.update()
		}
		n.left = last
		if len(stack) > 0 {
			stack[len(stack)-1].right = n
		}
		stack = append(stack, n)
	}
	for i := len(stack) - 1; i >= 0; i-- {
		stack[i].update()
	}
	if len(stack) == 0 {
		return nil
	}
	return stack[0]
}

// split cuts n into its first k lines and the rest.
func split(n *lineNode, k int) (*lineNode, *lineNode) {
	if n == nil {
		return nil, nil
	}
	lineWork.Add(1)
	if left := n.left.count(); k <= left {
		a, b := split(n.left, k)
		n.left = b
		n.update()
		return a, n
	}
	a, b := split(n.right, k-n.left.count()-1)
	n.right = a
	n.update()
	return n, b
}

// merge joins a and b, every line of a before those of b.
func merge(a, b *lineNode) *lineNode {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	lineWork.Add(1)
	if a.prio > b.prio {
		a.right = merge(a.right, b)
		a.update()
		return a
	}
	b.left = merge(a, b.left)
	b.update()
	return b
}

// appendLines appends n's lines to lines, in order.
func appendLines(lines [][]byte, n *lineNode) [][]byte {
	var stack []*lineNode
	for n != nil || len(stack) > 0 {
		for n != nil {
			stack = append(stack, n)
			n = n.left
		}
		n = stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lines = append(lines, n.line)
		n = n.right
	}
	return lines
}

func newLineTree(text []byte) *lineTree {
	return &lineTree{root: build(splitLines(text))}
}

// line returns line k (0 ≤ k < the line count).
func (t *lineTree) line(k int) []byte {
	n := t.root
	for n != nil {
		lineWork.Add(1)
		switch left := n.left.count(); {
		case k < left:
			n = n.left
		case k == left:
			return n.line
		default:
			k -= left + 1
			n = n.right
		}
	}
	return nil
}

// text writes the buffer out.
func (t *lineTree) text() []byte {
	out := make([]byte, 0, t.root.bytes())
	for _, l := range appendLines(nil, t.root) {
		out = append(out, l...)
	}
	return out
}

// at returns the line and the byte in it of position p, as lineIndex.offset
// reads a position: a line past the end is the end of the text, a
// character past the end of its line is the line's end (before its line
// ending), one inside a character is that character's start.
func (t *lineTree) at(p Position, utf8Units bool) (line, off int) {
	n := t.root.count()
	if p.Line < 0 {
		return 0, 0
	}
	if p.Line >= n {
		return n - 1, len(t.line(n - 1))
	}
	text := t.line(p.Line)
	end := len(text)
	if end > 0 && text[end-1] == '\n' {
		end--
	}
	if end > 0 && text[end-1] == '\r' {
		end--
	}
	i := 0
	for units := 0; i < end; {
		r, size := utf8.DecodeRune(text[i:])
		w := size
		if !utf8Units {
			w = 1
			if r >= 0x10000 {
				w = 2
			}
		}
		if units+w > p.Character {
			break
		}
		units += w
		i += size
	}
	lineWork.Add(int64(i))
	return p.Line, i
}

// edit replaces the text of range r with text, as an incremental
// didChange asks. It rewrites the lines the range touches and the line on
// either side of them, so that a line ending the change makes or breaks
// (a CR before an inserted LF) is read as the whole text would read it.
func (t *lineTree) edit(r Range, text string, utf8Units bool) {
	l1, b1 := t.at(r.Start, utf8Units)
	l2, b2 := t.at(r.End, utf8Units)
	if l2 < l1 || l2 == l1 && b2 < b1 {
		l1, b1, l2, b2 = l2, b2, l1, b1
	}
	n := t.root.count()
	lo, hi := max(l1-1, 0), min(l2+1, n-1)
	a, rest := split(t.root, lo)
	mid, c := split(rest, hi-lo+1)
	old := appendLines(nil, mid)
	s, e := b1, b2
	for i := lo; i < l1; i++ {
		s += len(old[i-lo])
	}
	for i := lo; i < l2; i++ {
		e += len(old[i-lo])
	}
	joined := make([]byte, 0, mid.bytes())
	for _, l := range old {
		joined = append(joined, l...)
	}
	buf := make([]byte, 0, len(joined)-(e-s)+len(text))
	buf = append(append(append(buf, joined[:s]...), text...), joined[e:]...)
	lineWork.Add(int64(len(buf)))
	lines := splitLines(buf)
	if c != nil {
		// The lines end with a line ending; the empty last piece is not
		// a line: the next one follows.
		lines = lines[:len(lines)-1]
	}
	t.root = merge(merge(a, build(lines)), c)
}
