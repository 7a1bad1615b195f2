package symbol

import (
	"sort"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// lineIndex maps byte offsets of a text to RFC 5147 line positions, with the
// line-ending rule of package rfc5147 (its LineStarts), so that parsers
// report bytes and never count lines themselves.
type lineIndex struct {
	src    []byte
	starts []int // byte offset where each line position starts
}

func newLineIndex(src []byte) *lineIndex {
	return &lineIndex{src: src, starts: rfc5147.LineStarts(src)}
}

// count is the text's number of lines: text after the last line ending is
// a line when it is not empty, and an empty text is one line (as
// rfc5147.Text.Lines counts).
func (x *lineIndex) count() int {
	n := len(x.starts)
	if n > 1 && x.starts[n-1] == len(x.src) {
		n--
	}
	return n
}

// at returns the line position of the line holding byte offset off.
func (x *lineIndex) at(off int) int {
	off = max(0, min(off, len(x.src)))
	return sort.SearchInts(x.starts, off+1) - 1
}

// span returns the line positions [first, last+1) of the lines holding the
// bytes [start, end): the line of start up to and including the line of
// end-1. An empty byte range is the empty span at start's line.
func (x *lineIndex) span(start, end int) (int, int) {
	s := x.at(start)
	if end <= start {
		return s, s
	}
	return s, x.at(end-1) + 1
}

// content returns line k's characters, without its line ending.
func (x *lineIndex) content(k int) []byte {
	start, end := x.starts[k], len(x.src)
	if k+1 < len(x.starts) {
		end = x.starts[k+1]
	}
	line := x.src[start:end]
	// The line ends with exactly one line ending: the longest one that is
	// a suffix (CR+LF, not LF alone).
	switch n := len(line); {
	case n >= 2 && line[n-2] == '\r' && line[n-1] == '\n':
		return line[:n-2]
	case n >= 3 && line[n-3] == '\r' && line[n-2] == 0xC2 && line[n-1] == 0x85:
		return line[:n-3]
	case n >= 2 && line[n-2] == 0xC2 && line[n-1] == 0x85:
		return line[:n-2]
	case n >= 1 && (line[n-1] == '\n' || line[n-1] == '\r'):
		return line[:n-1]
	}
	return line
}
