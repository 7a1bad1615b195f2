package textfrag

import (
	"bytes"
	"sort"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// position returns the 1-based line and column of n's first character.
// Called in document order, its cost is linear in the document's size.
func (d *document) position(n ast.Node) (int, int) {
	pos := n.Pos()
	if l, ok := n.(*ast.AutoLink); ok && pos >= 0 && pos < len(d.source) && d.source[pos] != '<' {
		// GFM's linkify starts a bare URL's node at the character that
		// triggered it, the space or "(" before the URL: name the URL's
		// own first character.
		if label := l.Label(d.source); !bytes.HasPrefix(d.source[pos:], label) && bytes.HasPrefix(d.source[pos+1:], label) {
			pos++
		}
	}
	for m := n; pos < 0 && m != nil; m = m.Parent() {
		if m.Type() == ast.TypeBlock && m.Lines().Len() > 0 {
			pos = m.Lines().At(0).Start
		}
	}
	if pos < 0 || pos > len(d.source) {
		return 1, 1
	}
	if d.lineStarts == nil {
		d.lineStarts = []int{0}
		for i, c := range d.source {
			if c == '\n' {
				d.lineStarts = append(d.lineStarts, i+1)
			}
		}
		d.lastLine = -1
	}
	line := sort.SearchInts(d.lineStarts, pos+1) - 1
	from, col := d.lineStarts[line], 1
	if line == d.lastLine && pos >= d.lastPos {
		from, col = d.lastPos, d.lastCol // further along the same line
	}
	col += utf8.RuneCount(d.source[from:pos])
	d.lastPos, d.lastLine, d.lastCol = pos, line, col
	return line + 1, col
}
