package quotelink

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
)

// Unit is what a Range's numbers count.
type Unit uint8

const (
	// Lines: Start and End are line numbers ("11-20"). The zero value.
	Lines Unit = iota
	// Chars: Start and End are character numbers ("101-150", --char):
	// code points, each line ending one character, no BOM.
	Chars
	// LineCols: Start and End are line numbers and StartCol and EndCol
	// columns in them ("3:5-4:2"), which select characters.
	LineCols
)

// Range is a stretch of a file in human numbers, as an author names it:
// everything counts from 1 and both ends are included. For LineCols,
// columns count characters (code points) and a line's last column is its
// line ending, when it has one.
type Range struct {
	Unit       Unit
	Start, End int64 // first and last line (Lines, LineCols) or character (Chars)
	// StartCol and EndCol are the first and last column, for LineCols.
	StartCol, EndCol int64
}

// ErrRange is matched by errors for a Range that cannot be right in any
// file: a number below 1, a start after the end, a malformed reference.
var ErrRange = errors.New("bad range")

// String writes r as ParseRef reads it: "11-20", "11", "3:5-4:2".
func (r Range) String() string {
	n := strconv.FormatInt
	switch r.Unit {
	case LineCols:
		s := n(r.Start, 10) + ":" + n(r.StartCol, 10)
		if r.End != r.Start || r.EndCol != r.StartCol {
			s += "-" + n(r.End, 10) + ":" + n(r.EndCol, 10)
		}
		return s
	default:
		s := n(r.Start, 10)
		if r.End != r.Start {
			s += "-" + n(r.End, 10)
		}
		return s
	}
}

// Check returns an error wrapping ErrRange when r cannot be right in any
// file: a number below 1, or a start after the end.
func (r Range) Check() error {
	unit := "line"
	if r.Unit == Chars {
		unit = "character"
	}
	switch {
	case r.Unit > LineCols:
		return fmt.Errorf("%w: unknown unit %d", ErrRange, r.Unit)
	case r.Start < 1 || r.End < 1:
		return fmt.Errorf("%w: %s numbers start at 1", ErrRange, unit)
	case r.Unit == LineCols && (r.StartCol < 1 || r.EndCol < 1):
		return fmt.Errorf("%w: column numbers start at 1", ErrRange)
	case r.Start > r.End || r.Unit == LineCols && r.Start == r.End && r.StartCol > r.EndCol:
		return fmt.Errorf("%w: %s starts after it ends; write the first %s first", ErrRange, r, unit)
	}
	return nil
}

// refPattern is FILE:START[-END], each end LINE or LINE:COL. FILE is the
// shortest prefix that lets the rest match, so a name with a colon in it
// works unless what follows its colon looks like a range.
var refPattern = regexp.MustCompile(`^(.+?):([0-9]+)(?::([0-9]+))?(?:-([0-9]+)(?::([0-9]+))?)?$`)

// ParseRef splits a reference as an author writes it, FILE:START[-END],
// into the file and the range. START and END are line numbers, or
// character numbers when chars is set; LINE:COL-LINE:COL (or one LINE:COL)
// names characters by line and column. An omitted END is START. Errors wrap
// ErrRange, and do not repeat ref.
func ParseRef(ref string, chars bool) (file string, r Range, err error) {
	m := refPattern.FindStringSubmatch(ref)
	if m == nil {
		return "", r, fmt.Errorf("%w: not FILE:START[-END], such as src/a.go:11-20 or src/a.go:3:5-4:2", ErrRange)
	}
	var nums [4]int64
	for i, s := range m[2:] {
		if s == "" {
			continue
		}
		if nums[i], err = strconv.ParseInt(s, 10, 64); err != nil {
			return "", r, fmt.Errorf("%w: %s is too large a number", ErrRange, s)
		}
	}
	file = m[1]
	hasEnd, cols := m[4] != "", m[3] != ""
	switch {
	case cols != (m[5] != "") && hasEnd:
		return "", r, fmt.Errorf("%w: give both ends as LINE:COL, or both as numbers", ErrRange)
	case cols && chars:
		return "", r, fmt.Errorf("%w: --char takes character numbers, not LINE:COL (which selects characters anyway)", ErrRange)
	case cols:
		r = Range{Unit: LineCols, Start: nums[0], StartCol: nums[1], End: nums[0], EndCol: nums[1]}
		if hasEnd {
			r.End, r.EndCol = nums[2], nums[3]
		}
	default:
		r = Range{Start: nums[0], End: nums[0]}
		if chars {
			r.Unit = Chars
		}
		if hasEnd {
			r.End = nums[2]
		}
	}
	return file, r, r.Check()
}
