package quotelink

import (
	"errors"
	"fmt"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// Text is the file a link quotes, as the engine sees it: *rfc5147.Text is
// one (a file or an editor's buffer in memory); the command resolves
// fragments through a target.Resolver, so that the file is read inside the
// project's realm. Errors it returns are passed on as they are.
type Text interface {
	Select(rfc5147.Fragment) (*rfc5147.Selection, error)
}

// ErrPastEnd is matched by errors for a Range that reaches beyond the end
// of the file, or of a line (a column).
var ErrPastEnd = errors.New("past the end")

// Fragment returns the RFC 5147 fragment, without integrity checks, that
// selects r in t: lines 11-20 are line=10,20, characters 101-150 are
// char=100,150, and line 3 column 5 to line 4 column 2 is the char range
// between them, counted by the engine (line endings are one character
// each, a BOM none). Errors wrap ErrRange, ErrPastEnd (saying how long the
// file or line is), or are t's own.
func (r Range) Fragment(t Text) (rfc5147.Fragment, error) {
	if err := r.Check(); err != nil {
		return rfc5147.Fragment{}, err
	}
	whole, err := t.Select(rfc5147.Fragment{Scheme: rfc5147.Line, Form: rfc5147.Position})
	if err != nil {
		return rfc5147.Fragment{}, err
	}
	lines, chars := whole.TotalLines, whole.Entity.Length
	f := rfc5147.Fragment{Form: rfc5147.Range, Start: r.Start - 1, End: r.End}
	switch r.Unit {
	case Lines:
		if r.End > lines {
			return f, fmt.Errorf("%w: line %d is not in the file, which has %s", ErrPastEnd, r.End, plural(lines, "line"))
		}
		f.Scheme = rfc5147.Line
	case Chars:
		if r.End > chars {
			return f, fmt.Errorf("%w: character %d is not in the file, which has %s (line endings count one each)", ErrPastEnd, r.End, plural(chars, "character"))
		}
		f.Scheme = rfc5147.Char
	case LineCols:
		if r.End > lines {
			return f, fmt.Errorf("%w: line %d is not in the file, which has %s", ErrPastEnd, r.End, plural(lines, "line"))
		}
		start, err := column(t, r.Start, r.StartCol)
		if err != nil {
			return f, err
		}
		end, err := column(t, r.End, r.EndCol)
		if err != nil {
			return f, err
		}
		f.Scheme, f.Start, f.End = rfc5147.Char, start, end+1
	}
	return f, nil
}

// column returns the character position before column col of human line
// line, which the file has.
func column(t Text, line, col int64) (int64, error) {
	sel, err := t.Select(rfc5147.Fragment{Scheme: rfc5147.Line, Form: rfc5147.Range, Start: line - 1, End: line})
	if err != nil {
		return 0, err
	}
	if n := sel.Chars.Len(); col > n {
		return 0, fmt.Errorf("%w: line %d has %s (its line ending counts one), so it has no column %d", ErrPastEnd, line, plural(n, "character"), col)
	}
	return sel.Chars.Start + col - 1, nil
}

func plural(n int64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
