package highlight

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/alecthomas/chroma/v2"
)

// Highlighting has a bounded cost per block, and a page comes out byte for
// byte the same on every machine.
//
// Chroma's lexers are regular expressions run by a backtracking engine
// (regexp2), tried at every position of the code; some of them scan to the
// end of the line or of the block before they fail, so that lexing costs
// time quadratic in a line's or a block's length: a one-line Perl file of
// "s/" and 60,000 `\/` takes minutes. Chroma also gives each match 250 ms of
// wall-clock time and treats a match that ran out of time as no match, so
// that on such input its output depends on the machine's speed and load.
//
// Two rules keep both in check:
//
//  1. Shape, decided from the code alone (OverBudget): a block with a line
//     longer than MaxLineBytes, or longer than MaxBlockBytes in all, is
//     written as plain text, as a language chroma does not know is. The
//     decision reads only the code's bytes, so every machine takes it the
//     same way, and a cached block is keyed by the limits (keyFor).
//
//  2. A wall-clock safety net, which never changes the output: every block
//     that passes the shape rule is lexed under a clock. Every regular
//     expression match runs inside one step of chroma's iterator (one
//     token), and regexp2 ends a match only once its coarse clock (updated
//     every 100 ms) has moved 350 ms past the match's start, that is after
//     at least 250 ms of wall time. So if no step took StepLimit (100 ms),
//     no match timed out and the tokens are chroma's deterministic ones. If
//     one did, the block is lexed once more (a machine may be busy for a
//     moment); if a step is slow again, or the whole block takes longer
//     than blockTimeLimit, Write fails with ErrTooSlow and writes nothing.
//     A page is therefore either the one every machine writes or not
//     written at all; it is never silently different.
//
// Ordinary code is far inside both: lines of a few hundred bytes at most,
// and lexed at about 0.4 MB/s with steps of microseconds.
const (
	// MaxLineBytes is the longest line, in bytes, given to a lexer. A
	// hostile line this long costs at most tens of milliseconds.
	MaxLineBytes = 1000
	// MaxBlockBytes is the most bytes of code given to a lexer in one block.
	MaxBlockBytes = 1 << 20
	// StepLimit is the longest one lexer step may take before the block's
	// tokens are no longer trusted to be the same on every machine: well
	// under the 250 ms chroma gives each match.
	StepLimit = 100 * time.Millisecond
)

// blockTimeLimit is how long lexing a block of n bytes may take in all: two
// seconds, and one more per 32 KiB, twenty times what chroma takes for
// ordinary code, so that only code that costs more than linear time reaches
// it. It is a variable for tests.
var blockTimeLimit = func(n int) time.Duration {
	return 2*time.Second + time.Duration(n>>15)*time.Second
}

// now is the clock of the safety net; a variable for tests.
var now = time.Now

// ErrTooSlow is the error of Write for a block whose lexing the safety net
// stopped.
var ErrTooSlow = errors.New("highlighting took too long")

// OverBudget returns why Write writes code as plain text instead of with the
// lexer lang names, or "" if it does not: when lang has a lexer other than
// plain text and code has a line longer than MaxLineBytes, or is longer
// than MaxBlockBytes. Line ends are LF, CR+LF and CR, as chroma counts them.
// The answer depends on code and lang alone.
func OverBudget(code, lang string) string {
	lexer := Lexer(lang)
	if lexer == nil || isPlainText(lexer) {
		return ""
	}
	return overBudget(code, lexer)
}

func overBudget(code string, lexer chroma.Lexer) string {
	name := lexer.Config().Name
	if len(code) > MaxBlockBytes {
		return fmt.Sprintf("the block is %d bytes, more than the %d bytes chroma's %s lexer is given (its cost can grow faster than the size); shown as plain text",
			len(code), MaxBlockBytes, name)
	}
	line, rest := 1, code
	for len(rest) > 0 {
		end := strings.IndexAny(rest, "\r\n")
		if end < 0 {
			end = len(rest)
		}
		if end > MaxLineBytes {
			return fmt.Sprintf("line %d of the block is %d bytes long, more than the %d bytes chroma's %s lexer is given (its cost can grow with the square of a line's length); shown as plain text",
				line, end, MaxLineBytes, name)
		}
		rest = rest[end:]
		switch {
		case strings.HasPrefix(rest, "\r\n"):
			rest = rest[2:]
		case rest != "":
			rest = rest[1:]
		}
		line++
	}
	return ""
}

// lexWatched lexes code with lexer under the safety net described above,
// coalescing runs of tokens of one type as chroma.Coalesce does.
func lexWatched(lexer chroma.Lexer, code string) (chroma.Iterator, error) {
	start := now()
	deadline := start.Add(blockTimeLimit(len(code)))
	for attempt := 1; ; attempt++ {
		w := &watched{Lexer: lexer, deadline: deadline}
		it, err := chroma.Coalesce(w).Tokenise(nil, code)
		if err != nil {
			return nil, err
		}
		tokens := it.Tokens()
		switch {
		case w.late:
			return nil, fmt.Errorf("%w: chroma's %s lexer was stopped after %v on a block of %d bytes, too long for its size (the code makes its regular expressions backtrack)",
				ErrTooSlow, lexer.Config().Name, now().Sub(start).Round(time.Millisecond), len(code))
		case w.slowStep && attempt == 2:
			return nil, fmt.Errorf("%w: a step of chroma's %s lexer took %v or more, twice, on a block of %d bytes, so its output could depend on this machine's speed (its regular expressions give up after 250 ms; the code makes them backtrack, or the machine is overloaded)",
				ErrTooSlow, lexer.Config().Name, StepLimit, len(code))
		case !w.slowStep:
			return chroma.Literator(tokens...), nil
		}
	}
}

// watched is a lexer whose iterator times each step, and ends early once
// one step was slow or the deadline passed.
type watched struct {
	chroma.Lexer
	deadline time.Time
	slowStep bool // a step took StepLimit or more
	late     bool // the deadline passed
}

// Tokenise implements chroma.Lexer.
func (w *watched) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	it, err := w.Lexer.Tokenise(options, text)
	if err != nil {
		return nil, err
	}
	return func() chroma.Token {
		if w.slowStep || w.late {
			return chroma.EOF
		}
		t0 := now()
		tok := it()
		t1 := now()
		w.slowStep = t1.Sub(t0) >= StepLimit
		w.late = t1.After(w.deadline)
		if w.slowStep || w.late {
			return chroma.EOF
		}
		return tok
	}, nil
}
