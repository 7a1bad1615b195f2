package rfc5147

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// ErrSyntax is matched (with errors.Is) by every error Parse returns for a
// fragment that does not follow the grammar of RFC 5147 section 3.
var ErrSyntax = errors.New("not a valid RFC 5147 fragment")

// ErrMisordered is matched by the error Parse returns for a range whose
// written start is greater than its written end ("line=30,20").
var ErrMisordered = errors.New("range start is after its end")

// ParseError describes why a fragment was rejected.
type ParseError struct {
	// Fragment is the input, without "#".
	Fragment string
	// Offset is the byte offset in Fragment where the problem was found.
	Offset int
	// Msg says what is wrong, for a person.
	Msg string
	// Err is ErrSyntax or ErrMisordered.
	Err error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s (at offset %d of %q)", e.Msg, e.Offset, e.Fragment)
}

// Unwrap returns ErrSyntax or ErrMisordered.
func (e *ParseError) Unwrap() error { return e.Err }

// Parse parses an RFC 5147 fragment identifier, given without the leading "#"
// and before any percent-decoding: "%3D" is data, not "=".
//
// It accepts exactly the grammar of RFC 5147 section 3, literals in lower case
// only. Numbers may have leading zeros; numbers too large for an int64 become
// Unbounded. Integrity checks other than length and md5 are kept as Unknown.
// A range whose written start exceeds its written end is an error wrapping
// ErrMisordered; every other rejection wraps ErrSyntax.
func Parse(fragment string) (Fragment, error) {
	p := parser{in: fragment}
	f, err := p.fragment()
	if err != nil {
		return Fragment{}, err
	}
	return f, nil
}

type parser struct {
	in  string
	pos int
}

func (p *parser) fail(at int, format string, args ...any) error {
	return &ParseError{Fragment: p.in, Offset: at, Msg: fmt.Sprintf(format, args...), Err: ErrSyntax}
}

func (p *parser) rest() string { return p.in[p.pos:] }

func (p *parser) fragment() (Fragment, error) {
	var f Fragment
	switch {
	case strings.HasPrefix(p.in, "char="):
		f.Scheme = Char
	case strings.HasPrefix(p.in, "line="):
		f.Scheme = Line
	case hasPrefixFold(p.in, "char=") || hasPrefixFold(p.in, "line="):
		return f, p.fail(0, "scheme names are lower case: write %q", strings.ToLower(p.in[:5]))
	default:
		return f, p.fail(0, "an RFC 5147 fragment starts with \"char=\" or \"line=\"")
	}
	p.pos = 5
	if err := p.positions(&f); err != nil {
		return Fragment{}, err
	}
	for p.pos < len(p.in) {
		// positions and checks stop only at ';' or the end.
		p.pos++ // the ';'
		c, err := p.check()
		if err != nil {
			return Fragment{}, err
		}
		f.Checks = append(f.Checks, c)
	}
	return f, nil
}

// positions parses "( position / range )" after "char=" or "line=".
func (p *parser) positions(f *Fragment) error {
	name := f.Scheme.String() + "="
	startAt := p.pos
	start, startDigits, ok := p.number()
	if !ok {
		switch {
		case p.pos == len(p.in) || p.in[p.pos] == ';':
			return p.fail(p.pos, "%s needs a position or a range, such as %s10 or %s10,20", name, name, name)
		case p.in[p.pos] != ',':
			return p.unexpected("a number or ','")
		}
	}
	if start == Unbounded {
		f.startDigits = trimZeros(startDigits)
	}
	if p.pos == len(p.in) || p.in[p.pos] == ';' {
		f.Form, f.Start, f.End = Position, start, start
		f.endDigits = f.startDigits
		return nil
	}
	if p.in[p.pos] != ',' {
		if p.in[p.pos] == '-' {
			return p.fail(p.pos, "a range is written with a comma: %s%s,…", name, startDigits)
		}
		return p.unexpected("',' or ';'")
	}
	p.pos++ // ','
	endAt := p.pos
	end, endDigits, hasEnd := p.number()
	if p.pos < len(p.in) && p.in[p.pos] != ';' {
		if p.in[p.pos] == ',' {
			return p.fail(p.pos, "a range has two numbers at most")
		}
		return p.unexpected("a number or ';'")
	}
	if hasEnd && end == Unbounded {
		f.endDigits = trimZeros(endDigits)
	}
	switch {
	case !ok && !hasEnd:
		return p.fail(startAt, "a range needs at least one number, such as %s10,20", name)
	case !ok:
		f.Form, f.Start, f.End = FromStart, 0, end
	case !hasEnd:
		f.Form, f.Start, f.End = ToEnd, start, Unbounded
	default:
		f.Form, f.Start, f.End = Range, start, end
		if compareDecimal(startDigits, endDigits) > 0 {
			return &ParseError{Fragment: p.in, Offset: endAt, Err: ErrMisordered,
				Msg: fmt.Sprintf("range start %s is after its end %s; write %s%s,%s", trimZeros(startDigits), trimZeros(endDigits), name, trimZeros(endDigits), trimZeros(startDigits))}
		}
	}
	return nil
}

// number reads 1*DIGIT, saturating at Unbounded. ok is false when there is no digit.
func (p *parser) number() (n int64, digits string, ok bool) {
	start := p.pos
	for p.pos < len(p.in) && isDigit(p.in[p.pos]) {
		d := int64(p.in[p.pos] - '0')
		if n > (Unbounded-d)/10 {
			n = Unbounded
		} else if n != Unbounded {
			n = n*10 + d
		}
		p.pos++
	}
	return n, p.in[start:p.pos], p.pos > start
}

// check parses one integrity-check after ';'.
func (p *parser) check() (Check, error) {
	at := p.pos
	eq := strings.IndexByte(p.rest(), '=')
	semi := strings.IndexByte(p.rest(), ';')
	if p.pos == len(p.in) || p.in[p.pos] == ';' {
		return Check{}, p.fail(at, "empty integrity check after ';'")
	}
	if eq < 0 || (semi >= 0 && semi < eq) {
		return Check{}, p.fail(at, "an integrity check has the form name=value, such as md5=… or length=…")
	}
	name := p.in[at : at+eq]
	p.pos = at + eq + 1
	c := Check{Name: name}
	switch name {
	case "length":
		c.Kind = Length
		n, digits, ok := p.number()
		if !ok {
			return Check{}, p.fail(p.pos, "length needs a number of characters, such as length=1024")
		}
		// Value is canonical, so that Parse(f.String()) equals f.
		c.Length, c.Value = n, trimZeros(digits)
	case "md5":
		c.Kind = MD5
		valueAt := p.pos
		for p.pos < len(p.in) && isHex(p.in[p.pos]) {
			p.pos++
		}
		value := p.in[valueAt:p.pos]
		if p.pos < len(p.in) && p.in[p.pos] != ';' && p.in[p.pos] != ',' {
			return Check{}, p.fail(p.pos, "md5 takes hex digits only, got %q", p.in[p.pos:p.pos+runeLen(p.rest())])
		}
		if len(value) != 32 {
			return Check{}, p.fail(valueAt, "md5 needs 32 hex digits, got %d", len(value))
		}
		hex.Decode(c.Sum[:], []byte(value)) // cannot fail: 32 hex digits
		c.Value = strings.ToLower(value)
	case "char", "line":
		return Check{}, p.fail(at, "a fragment has exactly one char= or line= scheme; %q after ';' is not an integrity check", name+"=")
	default:
		if !validCheckName(name) {
			return Check{}, p.fail(at, "%q is not an integrity check name", name)
		}
		c.Kind = Unknown
		valueAt := p.pos
		for p.pos < len(p.in) && isCheckValueByte(p.in[p.pos]) {
			p.pos++
		}
		if p.pos == valueAt {
			return Check{}, p.fail(valueAt, "integrity check %q has no value", name)
		}
		c.Value = p.in[valueAt:p.pos]
	}
	if p.pos < len(p.in) && p.in[p.pos] == ',' {
		p.pos++
		csAt := p.pos
		for p.pos < len(p.in) && isCharsetByte(p.in[p.pos]) {
			p.pos++
		}
		if p.pos == csAt {
			return Check{}, p.fail(csAt, "a charset name must follow ',' (such as UTF-8)")
		}
		c.Charset = p.in[csAt:p.pos]
	}
	if p.pos < len(p.in) && p.in[p.pos] != ';' {
		return Check{}, p.unexpected("';' or the end")
	}
	return c, nil
}

func (p *parser) unexpected(want string) error {
	got := p.in[p.pos : p.pos+runeLen(p.rest())]
	switch got {
	case " ", "\t":
		return p.fail(p.pos, "spaces are not allowed in a fragment")
	case "+":
		return p.fail(p.pos, "numbers are plain digits, without a sign")
	}
	return p.fail(p.pos, "expected %s, got %q", want, got)
}

// compareDecimal compares two non-empty digit strings by value, whatever their length.
func compareDecimal(a, b string) int {
	a, b = trimZeros(a), trimZeros(b)
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func trimZeros(d string) string {
	t := strings.TrimLeft(d, "0")
	if t == "" {
		return "0"
	}
	return t
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func runeLen(s string) int {
	for i := range s {
		if i > 0 {
			return i
		}
	}
	return len(s)
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func isHex(b byte) bool { return isDigit(b) || ('a' <= b && b <= 'f') || ('A' <= b && b <= 'F') }

func isAlpha(b byte) bool { return ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') }

// validCheckName accepts the names a future integrity check could have:
// a letter, then letters, digits, '-', '_' or '.'.
func validCheckName(name string) bool {
	if name == "" || !isAlpha(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		b := name[i]
		if !isAlpha(b) && !isDigit(b) && b != '-' && b != '_' && b != '.' {
			return false
		}
	}
	return true
}

// isCheckValueByte accepts the URI fragment characters (RFC 3986 pchar, '/', '?')
// other than the delimiters ';' and ',', plus non-ASCII bytes of an IRI.
func isCheckValueByte(b byte) bool {
	if b >= 0x80 || isAlpha(b) || isDigit(b) {
		return true
	}
	return strings.IndexByte("-._~%!$&'()*+=:@/?", b) >= 0
}

// isCharsetByte accepts mime-charset-chars (RFC 2978).
func isCharsetByte(b byte) bool {
	return isAlpha(b) || isDigit(b) || strings.IndexByte("!#$%&'+-^_`{}~", b) >= 0
}
