package mdlink

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// positions turns byte offsets of one page into 1-based lines and columns
// (columns in characters, lines counted at '\n', as the goldmark extension
// counts them in its messages). Lines are found in an index of line starts;
// a column is counted from the previous position when it is on the same
// line and not after it, so offsets asked for in increasing order cost time
// linear in the page, not in the page times the links.
type positions struct {
	src        []byte
	lineStarts []int // offsets of the lines' first bytes; built on first use
	// The last position computed.
	pos, line, col int
}

func newPositions(src []byte) *positions { return &positions{src: src, pos: -1} }

// at returns the line and column of the byte at offset pos (0 ≤ pos ≤ len(src)).
func (p *positions) at(pos int) (line, col int) {
	if p.lineStarts == nil {
		p.lineStarts = append(make([]int, 0, 64), 0)
		for i := 0; ; {
			j := bytes.IndexByte(p.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			p.lineStarts = append(p.lineStarts, i)
		}
	}
	// The last line whose start is at or before pos.
	line = sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > pos })
	if p.pos >= 0 && line == p.line && p.pos <= pos {
		col = p.col + utf8.RuneCount(p.src[p.pos:pos])
	} else {
		col = 1 + utf8.RuneCount(p.src[p.lineStarts[line-1]:pos])
	}
	p.pos, p.line, p.col = pos, line, col
	return line, col
}
