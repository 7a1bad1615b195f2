package rfc5147

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
)

// Scheme is the unit a fragment counts in.
type Scheme uint8

const (
	// Char counts characters: code points, with each line ending one character.
	Char Scheme = iota + 1
	// Line counts lines, each with its line ending.
	Line
)

// String returns the scheme's name as written in a fragment: "char" or "line".
func (s Scheme) String() string {
	switch s {
	case Char:
		return "char"
	case Line:
		return "line"
	}
	return "Scheme(" + strconv.Itoa(int(s)) + ")"
}

// Form is the shape of the position or range part of a fragment.
type Form uint8

const (
	// Position is a single number ("line=5"): a zero-length fragment.
	Position Form = iota + 1
	// Range has both ends written ("line=5,9").
	Range
	// FromStart omits the start ("line=,9"), which is then 0.
	FromStart
	// ToEnd omits the end ("line=5,"), which is then the end of the entity.
	ToEnd
)

// Unbounded is the value a number takes when it does not fit an int64, and the
// End of a ToEnd range. Any entity is smaller, so it always clamps.
const Unbounded = math.MaxInt64

// Fragment is a parsed RFC 5147 text fragment identifier, such as
// "line=10,20;md5=…". The zero value is not a valid fragment; use [Parse].
type Fragment struct {
	Scheme Scheme
	Form   Form
	// Start is the first position: the written number, 0 for FromStart.
	Start int64
	// End is the last position: the written number, Start for a Position,
	// Unbounded for ToEnd.
	End int64
	// Checks are the integrity checks in the order written, unknown ones included.
	Checks []Check

	// startDigits and endDigits are the numbers as written, without leading
	// zeros, when they were too large for an int64 (Start or End is then
	// Unbounded), so that String writes them exactly; "" otherwise.
	startDigits, endDigits string
}

// String returns the fragment in canonical form: numbers without leading zeros
// (a parsed number too large for an int64 as written, not as Unbounded), md5
// values in lower case, checks in the order written. Parse(f.String())
// returns a fragment equal to f.
func (f Fragment) String() string {
	var b strings.Builder
	b.WriteString(f.Scheme.String())
	b.WriteByte('=')
	switch f.Form {
	case Position:
		b.WriteString(writtenNumber(f.Start, f.startDigits))
	case Range:
		b.WriteString(writtenNumber(f.Start, f.startDigits))
		b.WriteByte(',')
		b.WriteString(writtenNumber(f.End, f.endDigits))
	case FromStart:
		b.WriteByte(',')
		b.WriteString(writtenNumber(f.End, f.endDigits))
	case ToEnd:
		b.WriteString(writtenNumber(f.Start, f.startDigits))
		b.WriteByte(',')
	}
	for _, c := range f.Checks {
		b.WriteByte(';')
		b.WriteString(c.String())
	}
	return b.String()
}

// IsZeroLength reports whether the fragment names a position rather than a
// stretch of text, whatever the entity: "line=5" or "line=5,5".
func (f Fragment) IsZeroLength() bool {
	return f.Form == Position || (f.Form == Range && f.Start == f.End) || (f.Form == FromStart && f.End == 0)
}

// CheckKind tells which integrity check a [Check] is.
type CheckKind uint8

const (
	// Length is "length=N": the entity's number of characters.
	Length CheckKind = iota + 1
	// MD5 is "md5=H": the MD5 of the entity's bytes.
	MD5
	// Unknown is any other check ("sha256=…"); RFC 5147 section 3.1 says to ignore it.
	Unknown
)

// Check is one integrity check of a fragment.
type Check struct {
	Kind CheckKind
	// Name is the check's name as written: "length", "md5", or another name.
	Name string
	// Value is the value as written; for MD5 lower-cased, for Length the
	// number without leading zeros (all its digits, even when too large).
	Value string
	// Length is the value of a Length check (Unbounded if too large).
	Length int64
	// Sum is the value of an MD5 check.
	Sum [16]byte
	// Charset is the mime-charset written after the value, or "".
	Charset string
}

// String returns the check as it appears in a canonical fragment.
func (c Check) String() string {
	var s string
	switch c.Kind {
	case Length:
		s = "length=" + writtenNumber(c.Length, c.Value)
	case MD5:
		s = "md5=" + hex.EncodeToString(c.Sum[:])
	default:
		s = c.Name + "=" + c.Value
	}
	if c.Charset != "" {
		s += "," + c.Charset
	}
	return s
}

// IsCandidate reports whether a URI fragment (without "#") claims to be an
// RFC 5147 fragment: it starts with "char=" or "line=", in any case. Front
// ends treat every other fragment ("#intro", "#L10") as not theirs. Parse
// then rejects "LINE=" (RFC 5147 literals are lower case), so a mistyped
// scheme is reported rather than silently left as a plain link.
func IsCandidate(fragment string) bool {
	return hasPrefixFold(fragment, "char=") || hasPrefixFold(fragment, "line=")
}

// writtenNumber writes n, or the digits it was parsed from when n is
// Unbounded because they were too many for an int64: a fragment's canonical
// form names the number written, never a different one.
func writtenNumber(n int64, digits string) string {
	if n == Unbounded && digits != "" {
		return digits
	}
	return strconv.FormatInt(n, 10)
}
