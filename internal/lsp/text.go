package lsp

import (
	"sort"
	"unicode/utf8"
)

// Position encodings (LSP 3.17 PositionEncodingKind).
const (
	encodingUTF16 = "utf-16"
	encodingUTF8  = "utf-8"
)

// lineIndex maps byte offsets of a text to protocol positions and back.
// Lines end at LF, CR+LF or CR, as the protocol counts them (not at NEL,
// which RFC 5147 also counts: positions here are the editor's).
type lineIndex struct {
	text   []byte
	starts []int // byte offset where each line starts
	utf8   bool  // characters are UTF-8 bytes, else UTF-16 code units
}

func newLineIndex(text []byte, encoding string) *lineIndex {
	x := &lineIndex{text: text, starts: []int{0}, utf8: encoding == encodingUTF8}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			x.starts = append(x.starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			x.starts = append(x.starts, i+1)
		}
	}
	return x
}

// lineEnd returns the offset where line's content ends, before its line
// ending.
func (x *lineIndex) lineEnd(line int) int {
	end := len(x.text)
	if line+1 < len(x.starts) {
		end = x.starts[line+1]
	}
	if end > x.starts[line] && x.text[end-1] == '\n' {
		end--
	}
	if end > x.starts[line] && x.text[end-1] == '\r' {
		end--
	}
	return end
}

// position returns the position of byte offset off (clamped to the text).
// An offset inside a character counts as that character's start.
func (x *lineIndex) position(off int) Position {
	off = max(0, min(off, len(x.text)))
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	return Position{Line: line, Character: x.units(x.starts[line], off)}
}

// units counts the characters from byte offset from to to on one line.
func (x *lineIndex) units(from, to int) int {
	if x.utf8 {
		return to - from
	}
	n := 0
	for i := from; i < to; {
		r, size := utf8.DecodeRune(x.text[i:])
		if i+size > to {
			break
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// offset returns the byte offset of p. A line past the end is the end of
// the text; a character past the end of its line is the line's end, and
// one inside a character (half a surrogate pair, a byte inside a UTF-8
// sequence) is that character's start, as the protocol asks.
func (x *lineIndex) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(x.starts) {
		return len(x.text)
	}
	i, end := x.starts[p.Line], x.lineEnd(p.Line)
	for n := 0; i < end; {
		r, size := utf8.DecodeRune(x.text[i:])
		w := size
		if !x.utf8 {
			w = 1
			if r >= 0x10000 {
				w = 2
			}
		}
		if n+w > p.Character {
			break
		}
		n += w
		i += size
	}
	return i
}

// span returns the range of bytes [start, end).
func (x *lineIndex) span(start, end int) Range {
	return Range{Start: x.position(start), End: x.position(end)}
}
