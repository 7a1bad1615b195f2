package rfc5147

import (
	"bytes"
	"crypto/md5"
	"errors"
	"hash"
	"io"
)

// streamBuf is the size of each read buffer of SelectReader; streamBufs of
// them are in flight, so memory is bounded by the selection plus about 1 MiB.
const (
	streamBuf  = 256 << 10
	streamBufs = 4
)

// SelectReader applies f to the entity read from r, in one pass that hashes
// the bytes and selects the text together, with memory bounded by the
// selection rather than the entity. Hashing runs on its own goroutine, so on
// two cores the pass costs about as much as MD5 alone.
//
// The entity is UTF-8 unless it starts with a UTF-16 BOM; for charsets other
// than UTF-8 it is read whole and handled as NewText does. Errors are as for
// [Text.Select], plus read errors.
func SelectReader(r io.Reader, f Fragment) (*Selection, error) {
	head := make([]byte, 4)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if cs, _ := sniff(head, UTF8); !cs.IsUTF8() {
		rest, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		t, err := NewText(append(head, rest...), UTF8)
		if err != nil {
			return nil, err
		}
		return t.Select(f)
	}
	_, bom := sniff(head, UTF8)
	return selectStream(io.MultiReader(bytes.NewReader(head), r), bom, f, streamBuf)
}

// selectStream reads r in buffers of bufSize bytes (tests use tiny ones, so
// that buffer boundaries fall everywhere).
func selectStream(r io.Reader, bom int, f Fragment, bufSize int) (*Selection, error) {
	s := newScanner(f.Scheme, f.Start, endTarget(f), true)

	// Checks in other charsets need the whole text transcoded; keep it then.
	var whole []byte
	keepWhole := needsTranscoding(f.Checks)

	h := md5.New()
	hashed := make(chan chunk, streamBufs)
	free := make(chan []byte, streamBufs)
	for range streamBufs {
		free <- make([]byte, utf8Carry+bufSize)
	}
	hashDone := make(chan struct{})
	go hashChunks(h, hashed, free, hashDone)

	var carry [utf8Carry]byte
	nCarry := 0
	var readErr error
	for readErr == nil && s.err == nil {
		buf := <-free
		carried := copy(buf, carry[:nCarry])
		n, err := io.ReadFull(r, buf[carried:])
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		readErr = err
		text := buf[:carried+n]
		if bom > 0 { // the BOM is hashed but is not text
			skip := min(bom, len(text))
			text, bom = text[skip:], bom-skip
		}
		used := s.feed(text, readErr != nil)
		if keepWhole {
			whole = append(whole, text[:used]...)
		}
		nCarry = copy(carry[:], text[used:])
		hashed <- chunk{buf: buf, raw: buf[carried : carried+n]}
	}
	close(hashed)
	<-hashDone
	if readErr != io.EOF && readErr != nil {
		return nil, readErr
	}
	if s.err != nil {
		return nil, s.err
	}
	var sum [16]byte
	h.Sum(sum[:0])
	facts := Facts{Charset: UTF8, Length: s.chars, MD5: sum}
	sel := s.selection(f, s.finish(), facts, s.totalLines())
	sel.Text = s.text
	sel.AtEnd = sel.Chars.End == s.chars
	var err error
	sel.Checks, err = verify(f.Checks, facts, func(cs Charset) (Facts, error) {
		return transcodedFacts(whole, facts.Length, cs)
	})
	return sel, err
}

// utf8Carry is the most the scanner leaves unconsumed at the end of a read:
// an incomplete rune of up to three bytes after a CR.
const utf8Carry = 4

// chunk is a buffer on its way to the hasher: raw is the part of buf read
// from the entity (buf also holds bytes carried over from the last read).
type chunk struct{ buf, raw []byte }

func hashChunks(h hash.Hash, chunks <-chan chunk, free chan<- []byte, done chan<- struct{}) {
	for c := range chunks {
		h.Write(c.raw)
		free <- c.buf
	}
	close(done)
}

func needsTranscoding(checks []Check) bool {
	for _, c := range checks {
		if c.Kind != Unknown && c.Charset != "" {
			if cs, err := LookupCharset(c.Charset); err == nil && !UTF8.names(cs) {
				return true
			}
		}
	}
	return false
}
