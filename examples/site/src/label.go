//go:build ignore

package rfc5147

import "fmt"

// Label describes the selection in human (1-based) numbers, as captions show
// it: "lines 11–20", "line 11", "line 3, col 5 – line 4, col 2",
// "line 3, col 5", "before line 6", "before line 3, col 5", "end of file".
func (s *Selection) Label() string {
	if s.Fragment.Scheme == Line {
		switch first, last := s.Lines.Start+1, s.Lines.End; {
		case last > first:
			return fmt.Sprintf("lines %d–%d", first, last)
		case last == first:
			return fmt.Sprintf("line %d", first)
		}
	} else if !s.Empty() {
		if s.First == s.Last {
			return pointLabel(s.First)
		}
		return pointLabel(s.First) + " – " + pointLabel(s.Last)
	}
	switch {
	case s.AtEnd:
		return "end of file"
	case s.Fragment.Scheme == Line:
		return fmt.Sprintf("before line %d", s.First.Line)
	default:
		return "before " + pointLabel(s.First)
	}
}

func pointLabel(p Point) string { return fmt.Sprintf("line %d, col %d", p.Line, p.Column) }
