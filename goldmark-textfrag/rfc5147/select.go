package rfc5147

import (
	"crypto/md5"
	"sort"
	"sync"
)

// Selection is the part of a text entity that a fragment identifies.
type Selection struct {
	// Fragment is the fragment that was applied.
	Fragment Fragment
	// Text is the selected characters as UTF-8 with their line endings as
	// stored (CR+LF stays CR+LF); never a BOM.
	Text []byte
	// Chars is the selection in character positions, after clamping.
	Chars Span
	// Lines is the selection in line positions, after clamping. For a char
	// fragment it is the lines the selection touches.
	Lines Span
	// Bytes is where Text lies in the entity's UTF-8 text (without BOM).
	Bytes Span
	// First is the human position of the first selected character; for an
	// empty selection, the position itself.
	First Point
	// Last is the human position of the last selected character; First when empty.
	Last Point
	// Clamped reports that a written number exceeded the entity and was
	// taken as its end (SEMANTICS.md §2: a warning).
	Clamped bool
	// AtEnd reports that the selection ends at the end of the entity.
	AtEnd bool
	// Entity holds the whole entity's facts.
	Entity Facts
	// TotalLines is the entity's number of lines.
	TotalLines int64
	// Checks holds the outcome of each integrity check, in the order written.
	Checks []CheckResult
}

// Empty reports whether the selection is zero-length (a position).
func (s *Selection) Empty() bool { return s.Chars.Start == s.Chars.End }

// Text is a text entity held in memory, decoded once, so that many fragments
// can be applied to it cheaply. It is safe for concurrent use.
type Text struct {
	data   []byte // UTF-8, no BOM
	facts  Facts
	lines  int64
	marks  []checkpoint // scanner counts every checkpointEvery bytes, for Select to start near its target
	mu     sync.Mutex
	others map[string]transcoded
}

type transcoded struct {
	facts Facts
	err   error
}

// NewText decodes raw, the bytes of an entity as stored, and computes its
// integrity facts in one pass over the text. The charset is configured (the
// zero Charset means UTF-8); a UTF-16 BOM overrides it and a UTF-8 BOM is
// skipped. Invalid bytes and NUL characters are an error wrapping ErrNotText.
func NewText(raw []byte, charset Charset) (*Text, error) {
	cs, bom := sniff(raw, charset)
	data, err := decode(raw[bom:], cs)
	if err != nil {
		return nil, err
	}
	s := newScanner(Char, Unbounded, Unbounded, false)
	s.record, s.pieceSize = true, checkpointEvery
	s.feed(data, true)
	if s.err != nil {
		return nil, s.err
	}
	return &Text{
		data:  data,
		facts: Facts{Charset: cs, Length: s.chars, MD5: md5.Sum(raw)},
		lines: s.totalLines(),
		marks: s.checkpoints,
	}, nil
}

// Facts returns the entity's integrity facts in its own charset.
func (t *Text) Facts() Facts { return t.facts }

// Lines returns the entity's number of lines.
func (t *Text) Lines() int64 { return t.lines }

// Bytes returns the entity's text as UTF-8 without BOM. Do not modify it.
func (t *Text) Bytes() []byte { return t.data }

// Select applies f. On an integrity failure it returns the selection and an
// error wrapping ErrIntegrity; callers must not use the text then.
func (t *Text) Select(f Fragment) (*Selection, error) {
	s := newScanner(f.Scheme, f.Start, endTarget(f), false)
	s.stopEarly, s.pieceSize = true, selectPiece
	from := int64(0)
	if !s.start.reached {
		// Start at the last checkpoint strictly before the start target, so a
		// link near the end of a large file does not rescan all of it.
		i := sort.Search(len(t.marks), func(i int) bool {
			pos := t.marks[i].chars
			if f.Scheme == Line {
				pos = t.marks[i].lineEnds
			}
			return pos >= f.Start
		})
		if i > 0 {
			s.resume(t.marks[i-1])
			from = t.marks[i-1].off
		}
	}
	s.feed(t.data[from:], true)
	if s.err != nil {
		return nil, s.err // unreachable: the text was scanned in NewText
	}
	sel := s.selection(f, s.finish(), t.facts, t.lines)
	sel.Text = t.data[sel.Bytes.Start:sel.Bytes.End]
	sel.AtEnd = sel.Chars.End == t.facts.Length
	var err error
	sel.Checks, err = verify(f.Checks, t.facts, t.transcode)
	return sel, err
}

// transcode returns the facts of the text in another charset, once per charset.
func (t *Text) transcode(cs Charset) (Facts, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.others[cs.Name]; ok {
		return r.facts, r.err
	}
	f, err := transcodedFacts(t.data, t.facts.Length, cs)
	if t.others == nil {
		t.others = make(map[string]transcoded)
	}
	t.others[cs.Name] = transcoded{f, err}
	return f, err
}

func endTarget(f Fragment) int64 {
	if f.Form == ToEnd {
		return -1
	}
	return f.End
}

// selection turns the scanner's marks into a Selection (without Text).
func (s *scanner) selection(f Fragment, clamped bool, facts Facts, totalLines int64) *Selection {
	sel := &Selection{
		Fragment:   f,
		Chars:      Span{s.start.char, s.end.char},
		Bytes:      Span{s.start.byteOff, s.end.byteOff},
		First:      s.start.point,
		Last:       s.start.point,
		Clamped:    clamped,
		Entity:     facts,
		TotalLines: totalLines,
	}
	if s.end.char > s.start.char {
		sel.Last = s.end.prev
	}
	if f.Scheme == Line {
		sel.Lines = Span{min(f.Start, totalLines), totalLines}
		if f.Form != ToEnd {
			sel.Lines.End = min(f.End, totalLines)
		}
	} else {
		sel.Lines = Span{sel.First.Line - 1, sel.Last.Line}
		if sel.Empty() {
			sel.Lines.End = sel.Lines.Start
		}
	}
	return sel
}
