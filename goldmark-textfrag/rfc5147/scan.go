package rfc5147

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// This file is the one place that knows how RFC 5147 counts: code points,
// line endings (CR+LF, CR+NEL, LF, CR, NEL) as one character each, and
// positions between them. Everything else asks the scanner.

// subChunk bounds the stretch of text that the per-character path may walk
// when a target falls inside it; the rest is counted in bulk.
const subChunk = 32 << 10

// checkpointEvery is the piece size of a scan that records checkpoints
// (NewText's), so that Text.Select starts at most this far before its
// target. At 32 KiB, counting from the top of the file was most of the
// cost of a link into a small file; 1 KiB costs 32 bytes of checkpoint per
// KiB of text and NewText about 7% more than 4 KiB did, and halves Select.
const checkpointEvery = 1 << 10

// selectPiece is the piece size of Text.Select's scan from a checkpoint.
const selectPiece = 1 << 10

// walkMax is the longest stretch around a target that the scanner walks one
// character at a time: a piece holding a target is halved until the half
// holding it is this short, and everything else is counted in bulk.
const walkMax = 32

// Point is a human position in text: 1-based line and column, with columns
// counting characters (a line ending is one character).
type Point struct {
	Line   int64 `json:"line"`
	Column int64 `json:"column"`
}

// Span is a half-open interval [Start, End) of positions or offsets.
type Span struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// Len returns End - Start.
func (s Span) Len() int64 { return s.End - s.Start }

// mark records where the scanner stood when it reached a target position.
type mark struct {
	reached bool
	char    int64 // character position
	line    int64 // line endings before it
	byteOff int64 // byte offset in the decoded text
	point   Point // the position, in human numbers
	prev    Point // the character before it
}

// TextError reports decoded text that is not text: invalid in its charset, or
// holding a NUL character. It wraps ErrNotText.
type TextError struct {
	Offset int64 // byte offset in the decoded text
	Msg    string
}

func (e *TextError) Error() string { return e.Msg }

// Unwrap returns ErrNotText.
func (e *TextError) Unwrap() error { return ErrNotText }

// scanner walks decoded UTF-8 text (no BOM) once, in pieces, and records the
// two ends of one fragment. The zero scanner, with no targets, only counts.
type scanner struct {
	scheme       Scheme
	startT, endT int64 // target positions in scheme units; endT < 0: end of text
	stopEarly    bool  // stop once both ends are found (caller knows the totals)
	capture      bool  // copy the selection into text (streaming)
	chars        int64 // characters consumed
	lineEnds     int64 // line endings consumed
	lineStart    int64 // character position where the current line starts
	off          int64 // bytes consumed
	prev         Point // the last character consumed
	start, end   mark
	capturing    bool
	text         []byte
	err          error
	// record makes feed keep a checkpoint before each piece, so that later
	// scans of the same text can start near their target.
	record bool
	// pieceSize is how many bytes feed counts at a time (0: subChunk).
	pieceSize   int
	checkpoints []checkpoint
}

// checkpoint is the scanner's count at a piece boundary of a text.
type checkpoint struct {
	chars, lineEnds, lineStart, off int64
}

// resume sets a fresh scanner's counts to a checkpoint that lies before
// its start target, as if it had scanned the text up to there.
func (s *scanner) resume(c checkpoint) {
	s.chars, s.lineEnds, s.lineStart, s.off = c.chars, c.lineEnds, c.lineStart, c.off
}

func newScanner(scheme Scheme, start, end int64, capture bool) *scanner {
	// capture must be set before position 0 is reached, or a selection
	// starting there would not be captured.
	s := &scanner{scheme: scheme, startT: start, endT: end, capture: capture}
	s.reach() // position 0
	return s
}

func (s *scanner) done() bool { return s.stopEarly && s.end.reached }

// feed consumes a prefix of p and returns its length. Unless eof, it leaves
// out a trailing incomplete UTF-8 sequence and a trailing CR, whose meaning
// depends on the bytes that follow; the caller passes them again.
func (s *scanner) feed(p []byte, eof bool) int {
	n := len(p)
	if !eof {
		n = safeEnd(p)
	}
	size := s.pieceSize
	if size == 0 {
		size = subChunk
	}
	for i := 0; i < n && s.err == nil && !s.done(); {
		j := min(i+size, n)
		if j < n {
			j = pieceEnd(p[:n], j)
		}
		if s.record {
			s.checkpoints = append(s.checkpoints, checkpoint{s.chars, s.lineEnds, s.lineStart, s.off})
		}
		s.piece(p[i:j])
		i = j
	}
	return n
}

// safeEnd returns how much of p can be scanned without seeing more bytes.
func safeEnd(p []byte) int {
	n := len(p)
	for i := n - 1; i >= 0 && i >= n-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:n]) {
				n = i
			}
			break
		}
	}
	if n > 0 && p[n-1] == '\r' {
		n--
	}
	return n
}

// pieceEnd moves a split point j forward so that it neither splits a rune
// nor a CR+LF or CR+NEL pair.
func pieceEnd(p []byte, j int) int {
	for j < len(p) && !utf8.RuneStart(p[j]) {
		j++
	}
	if j < len(p) && p[j-1] == '\r' {
		if p[j] == '\n' {
			j++
		} else if p[j] == 0xC2 && j+1 < len(p) && p[j+1] == 0x85 {
			j += 2
		}
	}
	return j
}

// piece scans a stretch that splits no rune and no line ending.
func (s *scanner) piece(c []byte) {
	// Report whichever problem comes first in the text, so that the message
	// does not depend on how the text was cut into pieces.
	runes, nels, bad := scanUTF8(c)
	what := ""
	if bad < len(c) {
		what = "invalid UTF-8"
	}
	if i := bytes.IndexByte(c[:bad], 0); i >= 0 {
		bad, what = i, "a NUL character (binary data)"
	}
	if what != "" {
		s.fail(c, bad, what)
		return
	}
	nChars, nEnds := countEndings(c, runes, nels)
	if s.targetWithin(nChars, nEnds) {
		// Halve the piece until the half holding the target is short
		// enough to walk one character at a time; the other halves are
		// counted in bulk.
		if len(c) > walkMax {
			if mid := pieceEnd(c, len(c)/2); mid < len(c) {
				s.piece(c[:mid])
				if s.err == nil && !s.done() {
					s.piece(c[mid:])
				}
				return
			}
		}
		s.walk(c)
		return
	}
	if s.capturing {
		s.text = append(s.text, c...)
	}
	oldLineStart := s.lineStart
	if nEnds > 0 {
		last := lastEnding(c)
		after := int64(utf8.RuneCount(c[last:]))
		s.lineStart = s.chars + nChars - after
	}
	s.chars += nChars
	s.lineEnds += nEnds
	s.off += int64(len(c))
	if nChars > 0 {
		s.prev = s.lastPoint(c, oldLineStart)
	}
}

// lastPoint returns the human position of the last character of c, which
// was just counted in bulk; oldLineStart is where the line stood before c.
// The end mark takes it as Last when the end of the text is reached after
// a bulk piece.
func (s *scanner) lastPoint(c []byte, oldLineStart int64) Point {
	if s.chars > s.lineStart {
		// The last character is not a line ending: it is on the current line.
		return Point{s.lineEnds + 1, s.chars - s.lineStart}
	}
	// The last character is a line ending, the last one of line lineEnds;
	// find where that line starts.
	end := len(c) - 1 // start of the final line ending
	switch {
	case c[end] == '\n' && end > 0 && c[end-1] == '\r':
		end--
	case c[end] == 0x85 && end > 0 && c[end-1] == 0xC2:
		end--
		if end > 0 && c[end-1] == '\r' {
			end--
		}
	}
	if prior := lastEnding(c[:end]); prior > 0 {
		return Point{s.lineEnds, int64(utf8.RuneCount(c[prior:end])) + 1}
	}
	return Point{s.lineEnds, s.chars - oldLineStart}
}

func (s *scanner) fail(c []byte, i int, what string) {
	at := s.off + int64(i)
	line, col := s.lineEnds+1, s.chars-s.lineStart+1
	if i > 0 {
		// Count the stretch before the bad byte exactly, for a useful message.
		before := c[:i]
		for len(before) > 0 && !utf8.Valid(before) {
			before = before[:len(before)-1]
		}
		n, e := countPiece(before)
		if e > 0 {
			line += e
			col = int64(utf8.RuneCount(before[lastEnding(before):])) + 1
		} else {
			col += n
		}
	}
	s.err = &TextError{Offset: at, Msg: formatTextError(what, at, Point{line, col})}
}

// targetWithin reports whether a target not yet reached lies within the next
// nChars characters or nEnds line endings (its end included).
func (s *scanner) targetWithin(nChars, nEnds int64) bool {
	within := func(t int64) bool {
		if s.scheme == Line {
			return t > s.lineEnds && t <= s.lineEnds+nEnds
		}
		return t > s.chars && t <= s.chars+nChars
	}
	return (!s.start.reached && within(s.startT)) || (!s.end.reached && s.endT >= 0 && within(s.endT))
}

// walk scans c one character at a time.
func (s *scanner) walk(c []byte) {
	from := 0
	for i := 0; i < len(c); {
		size, ending := 1, false
		switch b := c[i]; {
		case b == '\n':
			ending = true
		case b == '\r':
			ending = true
			if i+1 < len(c) && c[i+1] == '\n' {
				size = 2
			} else if i+2 < len(c) && c[i+1] == 0xC2 && c[i+2] == 0x85 {
				size = 3
			}
		case b < utf8.RuneSelf:
		case b == 0xC2 && i+1 < len(c) && c[i+1] == 0x85:
			size, ending = 2, true
		default:
			_, size = utf8.DecodeRune(c[i:])
		}
		s.prev = Point{s.lineEnds + 1, s.chars - s.lineStart + 1}
		i += size
		s.off += int64(size)
		s.chars++
		if ending {
			s.lineEnds++
			s.lineStart = s.chars
		}
		wasCapturing := s.capturing
		if s.reach() && s.capture {
			if wasCapturing {
				s.text = append(s.text, c[from:i]...)
			}
			from = i
		}
		if s.done() {
			return
		}
	}
	if s.capturing {
		s.text = append(s.text, c[from:]...)
	}
}

// reach records the current position against the targets and reports
// whether it reached one.
func (s *scanner) reach() bool {
	pos := s.chars
	if s.scheme == Line {
		pos = s.lineEnds
		if s.chars != s.lineStart {
			return false // line positions are only at line starts
		}
	}
	hit := false
	if !s.start.reached && pos == s.startT {
		s.start = s.here()
		s.capturing = s.capture
		hit = true
	}
	if !s.end.reached && s.endT >= 0 && pos == s.endT && s.start.reached {
		s.end = s.here()
		s.capturing = false
		hit = true
	}
	return hit
}

func (s *scanner) here() mark {
	return mark{reached: true, char: s.chars, line: s.lineEnds, byteOff: s.off,
		point: Point{s.lineEnds + 1, s.chars - s.lineStart + 1}, prev: s.prev}
}

// totalLines is the entity's number of lines: text after the last line ending
// is a line if it is not empty, and text without line endings is one line.
func (s *scanner) totalLines() int64 {
	if s.chars > s.lineStart || s.lineEnds == 0 {
		return s.lineEnds + 1
	}
	return s.lineEnds
}

// finish resolves the targets the text was too short to reach: they become
// the end of the text. It reports whether a written number was clamped.
func (s *scanner) finish() (clamped bool) {
	size := s.chars
	if s.scheme == Line {
		size = s.totalLines()
	}
	if !s.start.reached {
		clamped = s.startT > size
		s.start = s.here()
	}
	if !s.end.reached {
		clamped = clamped || s.endT > size
		s.end = s.here()
	}
	s.capturing = false
	return clamped
}

// countPiece returns the characters and line endings in c, which is valid
// UTF-8 and splits no CR+LF or CR+NEL pair.
func countPiece(c []byte) (nChars, nEnds int64) {
	runes := int64(len(c) - countContinuation(c))
	return countEndings(c, runes, int64(bytes.Count(c, []byte{0xC2, 0x85})))
}

// countEndings is countPiece given the number of code points and NELs in c.
func countEndings(c []byte, runes, nels int64) (nChars, nEnds int64) {
	lf := bytes.Count(c, []byte{'\n'})
	cr := bytes.Count(c, []byte{'\r'})
	pairs := 0
	if cr > 0 {
		pairs = bytes.Count(c, []byte{'\r', '\n'}) + bytes.Count(c, []byte{'\r', 0xC2, 0x85})
	}
	return runes - int64(pairs), int64(lf+cr-pairs) + nels
}

// scanUTF8 validates c and counts its code points and NELs in one pass,
// skipping ASCII eight bytes at a time (utf8.Valid leaves its fast path at
// the first non-ASCII byte, for good). bad is the offset of the first
// invalid byte, or len(c); the counts are only meaningful when c is valid.
func scanUTF8(c []byte) (runes, nels int64, bad int) {
	const high = 0x8080808080808080
	n := len(c)
	runes = int64(n)
	for i := 0; i < n; {
		if i+8 <= n {
			w := binary.LittleEndian.Uint64(c[i:])
			if w&high == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(w&high) / 8 // the first non-ASCII byte
		} else if c[i] < utf8.RuneSelf {
			i++
			continue
		}
		// A well-formed sequence (The Unicode Standard, table 3-7), decoded
		// by hand: utf8.DecodeRune is not inlined for non-ASCII.
		switch b := c[i]; {
		case 0xC2 <= b && b <= 0xDF:
			if i+1 < n && c[i+1]&0xC0 == 0x80 {
				if b == 0xC2 && c[i+1] == 0x85 {
					nels++
				}
				runes--
				i += 2
				continue
			}
		case 0xE0 <= b && b <= 0xEF:
			lo, hi := byte(0x80), byte(0xBF)
			if b == 0xE0 {
				lo = 0xA0 // no overlong forms
			} else if b == 0xED {
				hi = 0x9F // no surrogates
			}
			if i+2 < n && lo <= c[i+1] && c[i+1] <= hi && c[i+2]&0xC0 == 0x80 {
				runes -= 2
				i += 3
				continue
			}
		case 0xF0 <= b && b <= 0xF4:
			lo, hi := byte(0x80), byte(0xBF)
			if b == 0xF0 {
				lo = 0x90 // no overlong forms
			} else if b == 0xF4 {
				hi = 0x8F // nothing above U+10FFFF
			}
			if i+3 < n && lo <= c[i+1] && c[i+1] <= hi && c[i+2]&0xC0 == 0x80 && c[i+3]&0xC0 == 0x80 {
				runes -= 3
				i += 4
				continue
			}
		}
		return runes, nels, i
	}
	return runes, nels, n
}

// countContinuation counts UTF-8 continuation bytes (10xxxxxx), eight at a time.
func countContinuation(c []byte) int {
	const high = 0x8080808080808080
	n := 0
	for len(c) >= 8 {
		w := binary.LittleEndian.Uint64(c)
		n += bits.OnesCount64(w & ^(w << 1) & high)
		c = c[8:]
	}
	for _, b := range c {
		if b&0xC0 == 0x80 {
			n++
		}
	}
	return n
}

// lastEnding returns the index just after the last line ending in c, which
// must contain one.
func lastEnding(c []byte) int {
	for i := len(c) - 1; i >= 0; i-- {
		switch c[i] {
		case '\n', '\r':
			return i + 1
		case 0x85:
			if i > 0 && c[i-1] == 0xC2 {
				return i + 1
			}
		}
	}
	return 0
}

// LineStarts returns the byte offset at which each line of text (decoded
// UTF-8, no BOM) starts, by the counting rule of this package: CR+LF,
// CR+NEL, LF, CR and NEL each end a line. Element k is where line position
// k starts, so the line holding byte offset o is the number of elements
// not after o, less one. Text that ends with a line ending gets a last
// element equal to len(text): a position, not a line. Packages that map
// byte offsets to line positions (symbol) use it rather than count again.
func LineStarts(text []byte) []int {
	starts := make([]int, 1, 1+bytes.Count(text, []byte{'\n'}))
	for i := 0; i < len(text); i++ {
		if n := EndingAt(text, i); n > 0 {
			i += n - 1
			starts = append(starts, i+1)
		}
	}
	return starts
}

// EndingAt returns the length in bytes of the line ending that starts at
// text[i] (CR+LF and CR+NEL are one ending), or 0 when none does.
func EndingAt(text []byte, i int) int {
	switch text[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(text) && text[i+1] == '\n' {
			return 2
		}
		if i+2 < len(text) && text[i+1] == 0xC2 && text[i+2] == 0x85 {
			return 3
		}
		return 1
	case 0xC2:
		if i+1 < len(text) && text[i+1] == 0x85 {
			return 2
		}
	}
	return 0
}
