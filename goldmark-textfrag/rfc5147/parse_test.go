package rfc5147

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// hex32 is a valid md5 value in mixed case; sum32 is its bytes.
const hex32 = "0123456789abcdefFEDCBA9876543210"

var sum32 = [16]byte{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10}

func TestParseValid(t *testing.T) {
	tests := []struct {
		in   string
		want Fragment
	}{
		// Positions and ranges (RFC 5147 section 3, SEMANTICS.md §1).
		{"line=5", Fragment{Scheme: Line, Form: Position, Start: 5, End: 5}},
		{"char=0", Fragment{Scheme: Char, Form: Position, Start: 0, End: 0}},
		{"line=10,20", Fragment{Scheme: Line, Form: Range, Start: 10, End: 20}},
		{"char=3,3", Fragment{Scheme: Char, Form: Range, Start: 3, End: 3}},
		{"line=,1", Fragment{Scheme: Line, Form: FromStart, Start: 0, End: 1}},
		{"char=,0", Fragment{Scheme: Char, Form: FromStart, Start: 0, End: 0}},
		{"line=5,", Fragment{Scheme: Line, Form: ToEnd, Start: 5, End: Unbounded}},
		{"char=0,", Fragment{Scheme: Char, Form: ToEnd, Start: 0, End: Unbounded}},
		// Leading zeros are legal, however many.
		{"line=007", Fragment{Scheme: Line, Form: Position, Start: 7, End: 7}},
		{"line=007,010", Fragment{Scheme: Line, Form: Range, Start: 7, End: 10}},
		{"char=000", Fragment{Scheme: Char, Form: Position, Start: 0, End: 0}},
		{"line=00000000000000000000000000000001", Fragment{Scheme: Line, Form: Position, Start: 1, End: 1}},
		// Numbers too big for an int64 saturate, keeping their digits for
		// String; the largest int64 is kept as is.
		{"char=9223372036854775806", Fragment{Scheme: Char, Form: Position, Start: 9223372036854775806, End: 9223372036854775806}},
		{"char=9223372036854775807", Fragment{Scheme: Char, Form: Position, Start: Unbounded, End: Unbounded, startDigits: "9223372036854775807", endDigits: "9223372036854775807"}},
		{"char=9223372036854775808", Fragment{Scheme: Char, Form: Position, Start: Unbounded, End: Unbounded, startDigits: "9223372036854775808", endDigits: "9223372036854775808"}},
		{"char=99999999999999999999999999999999", Fragment{Scheme: Char, Form: Position, Start: Unbounded, End: Unbounded, startDigits: "99999999999999999999999999999999", endDigits: "99999999999999999999999999999999"}},
		{"line=1,99999999999999999999", Fragment{Scheme: Line, Form: Range, Start: 1, End: Unbounded, endDigits: "99999999999999999999"}},
		{"line=,099999999999999999999", Fragment{Scheme: Line, Form: FromStart, Start: 0, End: Unbounded, endDigits: "99999999999999999999"}},
		{"line=99999999999999999999,", Fragment{Scheme: Line, Form: ToEnd, Start: Unbounded, End: Unbounded, startDigits: "99999999999999999999"}},
		// Written start smaller than written end, although both saturate.
		{"line=99999999999999999998,99999999999999999999", Fragment{Scheme: Line, Form: Range, Start: Unbounded, End: Unbounded, startDigits: "99999999999999999998", endDigits: "99999999999999999999"}},
		// Integrity checks.
		{"line=1;md5=" + hex32, Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: MD5, Name: "md5", Value: "0123456789abcdeffedcba9876543210", Sum: sum32}}}},
		{"line=1;md5=0123456789ABCDEFFEDCBA9876543210", Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: MD5, Name: "md5", Value: "0123456789abcdeffedcba9876543210", Sum: sum32}}}},
		{"line=10,20;length=9876", Fragment{Scheme: Line, Form: Range, Start: 10, End: 20,
			Checks: []Check{{Kind: Length, Name: "length", Value: "9876", Length: 9876}}}},
		{"line=10,20;length=9876,UTF-8", Fragment{Scheme: Line, Form: Range, Start: 10, End: 20,
			Checks: []Check{{Kind: Length, Name: "length", Value: "9876", Length: 9876, Charset: "UTF-8"}}}},
		{"char=0,5;length=0", Fragment{Scheme: Char, Form: Range, Start: 0, End: 5,
			Checks: []Check{{Kind: Length, Name: "length", Value: "0", Length: 0}}}},
		{"char=0,5;length=00012", Fragment{Scheme: Char, Form: Range, Start: 0, End: 5,
			Checks: []Check{{Kind: Length, Name: "length", Value: "12", Length: 12}}}},
		{"char=0,5;length=99999999999999999999", Fragment{Scheme: Char, Form: Range, Start: 0, End: 5,
			Checks: []Check{{Kind: Length, Name: "length", Value: "99999999999999999999", Length: Unbounded}}}},
		{"line=1;md5=" + hex32 + ",iso-8859-1", Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: MD5, Name: "md5", Value: "0123456789abcdeffedcba9876543210", Sum: sum32, Charset: "iso-8859-1"}}}},
		// mime-charset-chars include these punctuation marks (RFC 2978).
		{"line=1;length=3,x!#$%&'+-^_`{}~9", Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: Length, Name: "length", Value: "3", Length: 3, Charset: "x!#$%&'+-^_`{}~9"}}}},
		// Unknown checks are kept, in order, with their value as written.
		{"line=1;sha256=AbC123", Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: Unknown, Name: "sha256", Value: "AbC123"}}}},
		{"line=1;crc=1a2b,UTF-8", Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: Unknown, Name: "crc", Value: "1a2b", Charset: "UTF-8"}}}},
		{"line=1;x-sum.v_2=a%20b", Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: Unknown, Name: "x-sum.v_2", Value: "a%20b"}}}},
		// Check names are lower case too: "MD5" is not the md5 check, so it is unknown.
		{"line=1;MD5=" + hex32, Fragment{Scheme: Line, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: Unknown, Name: "MD5", Value: hex32}}}},
		{"line=2,3;length=5;md5=" + hex32 + ";sha1=ff", Fragment{Scheme: Line, Form: Range, Start: 2, End: 3,
			Checks: []Check{
				{Kind: Length, Name: "length", Value: "5", Length: 5},
				{Kind: MD5, Name: "md5", Value: "0123456789abcdeffedcba9876543210", Sum: sum32},
				{Kind: Unknown, Name: "sha1", Value: "ff"},
			}}},
		// Two checks of the same kind are both kept.
		{"char=1;length=1;length=2", Fragment{Scheme: Char, Form: Position, Start: 1, End: 1,
			Checks: []Check{{Kind: Length, Name: "length", Value: "1", Length: 1}, {Kind: Length, Name: "length", Value: "2", Length: 2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseSyntaxError(t *testing.T) {
	md5Bad := "line=1;md5=0123456789abcdef0123456789abcdeg" // 'g' at offset 11+31
	tests := []struct {
		in     string
		offset int
		msg    string // part of the message
	}{
		{"", 0, `starts with "char=" or "line="`},
		{"intro", 0, `starts with "char=" or "line="`},
		{"L10", 0, `starts with "char=" or "line="`},
		{"lines=1", 0, `starts with "char=" or "line="`},
		{"line", 0, `starts with "char=" or "line="`},
		{"line%3D1", 0, `starts with "char=" or "line="`},
		{"LINE=1", 0, `scheme names are lower case: write "line="`},
		{"Char=1", 0, `scheme names are lower case: write "char="`},
		{"line=", 5, "line= needs a position or a range"},
		{"char=", 5, "char= needs a position or a range"},
		{"line=;length=1", 5, "line= needs a position or a range"},
		{"line=,", 5, "a range needs at least one number"},
		{"line=,;length=1", 5, "a range needs at least one number"},
		{"line=1,2,3", 8, "a range has two numbers at most"},
		{"line=1,,", 7, "a range has two numbers at most"},
		{"line=1-2", 6, "a range is written with a comma: line=1,"},
		{"line=007-9", 8, "a range is written with a comma: line=007,"},
		{"line=+1", 5, "without a sign"},
		{"line=1,+2", 7, "without a sign"},
		{"line=-1", 5, `expected a number or ',', got "-"`},
		{"line= 1", 5, "spaces are not allowed"},
		{"line=1 ", 6, "spaces are not allowed"},
		{"line=1, 2", 7, "spaces are not allowed"},
		{"line=1,\t2", 7, "spaces are not allowed"},
		{"line=a", 5, `expected a number or ',', got "a"`},
		{"line=%31", 5, `expected a number or ',', got "%"`},
		{"line=1a", 6, `expected ',' or ';', got "a"`},
		{"line=1é", 6, `expected ',' or ';', got "é"`},
		{"line=1,2a", 8, `expected a number or ';', got "a"`},
		{"line=1,2#", 8, `expected a number or ';', got "#"`},
		{"line=1;", 7, "empty integrity check after ';'"},
		{"line=1;;length=1", 7, "empty integrity check after ';'"},
		{"line=1;length=1;", 16, "empty integrity check after ';'"},
		{"line=1;foo", 7, "an integrity check has the form name=value"},
		{"line=1;foo;md5=" + hex32, 7, "an integrity check has the form name=value"},
		{"line=1;=abc", 7, `"" is not an integrity check name`},
		{"line=1;1x=abc", 7, `"1x" is not an integrity check name`},
		{"line=1;a b=c", 7, `"a b" is not an integrity check name`},
		{"line=1;sha256=", 14, `integrity check "sha256" has no value`},
		{"line=1;sha256=,UTF-8", 14, `integrity check "sha256" has no value`},
		{"line=1;sha256=a,b,c", 17, `expected ';' or the end, got ","`},
		{"line=1;md5=abc", 11, "md5 needs 32 hex digits, got 3"},
		{"line=1;md5=", 11, "md5 needs 32 hex digits, got 0"},
		{"line=1;md5=,UTF-8", 11, "md5 needs 32 hex digits, got 0"},
		{"line=1;md5=" + hex32 + "0", 11, "md5 needs 32 hex digits, got 33"},
		{"line=1;md5=" + hex32[:31] + ";length=1", 11, "md5 needs 32 hex digits, got 31"},
		{md5Bad, 42, `md5 takes hex digits only, got "g"`},
		{"line=1;md5=é", 11, `md5 takes hex digits only, got "é"`},
		{"line=1;length=", 14, "length needs a number of characters"},
		{"line=1;length=-5", 14, "length needs a number of characters"},
		{"line=1;length=x", 14, "length needs a number of characters"},
		{"line=1;length=12a", 16, `expected ';' or the end, got "a"`},
		{"line=1;length=12 ", 16, "spaces are not allowed"},
		{"line=1;length=5,", 16, "a charset name must follow ','"},
		{"line=1;length=5,;md5=" + hex32, 16, "a charset name must follow ','"},
		{"line=1;length=5,UTF-8,x", 21, `expected ';' or the end, got ","`},
		{"line=1;length=5,UTF 8", 19, "spaces are not allowed"},
		// Exactly one scheme per fragment.
		{"line=1;line=2", 7, "exactly one char= or line= scheme"},
		{"line=1;char=2", 7, "exactly one char= or line= scheme"},
		{"char=1,2;length=3;line=5", 18, "exactly one char= or line= scheme"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want a syntax error", tt.in, f)
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q): %v does not match ErrSyntax", tt.in, err)
			}
			if errors.Is(err, ErrMisordered) {
				t.Errorf("Parse(%q): %v matches ErrMisordered", tt.in, err)
			}
			if !reflect.DeepEqual(f, Fragment{}) {
				t.Errorf("Parse(%q) returned %+v with its error, want the zero Fragment", tt.in, f)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q): %T is not a *ParseError", tt.in, err)
			}
			if pe.Fragment != tt.in {
				t.Errorf("ParseError.Fragment = %q, want %q", pe.Fragment, tt.in)
			}
			if pe.Offset != tt.offset {
				t.Errorf("Parse(%q): offset %d, want %d (%v)", tt.in, pe.Offset, tt.offset, err)
			}
			if !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("Parse(%q): message %q does not contain %q", tt.in, pe.Msg, tt.msg)
			}
			// The error names the fragment and the offset, for a person.
			if !strings.Contains(err.Error(), "offset") || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Parse(%q): error %q lacks the offset or the message", tt.in, err)
			}
		})
	}
}

func TestParseMisordered(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"line=30,20", 8, "range start 30 is after its end 20; write line=20,30"},
		{"char=2,1", 7, "range start 2 is after its end 1; write char=1,2"},
		{"line=1,0", 7, "range start 1 is after its end 0"},
		{"char=0010,9", 10, "range start 10 is after its end 9; write char=9,10"},
		{"line=10,0009", 8, "range start 10 is after its end 9"},
		{"line=30,20;md5=" + hex32, 8, "range start 30 is after its end 20"},
		// Judged on the numbers as written, although both saturate to Unbounded.
		{"line=99999999999999999999,99999999999999999998", 26, "range start 99999999999999999999 is after its end 99999999999999999998"},
		{"line=99999999999999999999,9223372036854775807", 26, "range start 99999999999999999999 is after its end 9223372036854775807"},
		{"char=100000000000000000000,99999999999999999999", 27, "range start 100000000000000000000"},
		{"line=000000000000000000000000002,1", 33, "range start 2 is after its end 1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Parse(tt.in)
			if !errors.Is(err, ErrMisordered) {
				t.Fatalf("Parse(%q) error %v, want ErrMisordered", tt.in, err)
			}
			if errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q): misordered error also matches ErrSyntax", tt.in)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%T is not a *ParseError", err)
			}
			if pe.Offset != tt.offset {
				t.Errorf("offset %d, want %d", pe.Offset, tt.offset)
			}
			if !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("message %q does not contain %q", pe.Msg, tt.msg)
			}
		})
	}
	// Equal ends, and a syntax error that comes after a misordered range:
	// the range is judged first, so it is the misordered error.
	if _, err := Parse("line=0005,5"); err != nil {
		t.Errorf("line=0005,5: %v", err)
	}
	if _, err := Parse("line=5,4;md5=x"); !errors.Is(err, ErrMisordered) {
		t.Errorf("line=5,4;md5=x: %v, want ErrMisordered", err)
	}
}

func TestFragmentString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"line=5", "line=5"},
		{"char=0", "char=0"},
		{"char=00", "char=0"},
		{"line=007,010", "line=7,10"},
		{"line=,1", "line=,1"},
		{"line=,0001", "line=,1"},
		{"line=5,", "line=5,"},
		{"line=05,", "line=5,"},
		{"char=3,3", "char=3,3"},
		// Numbers too big for an int64 as written, not as the int64 they
		// saturate to: the canonical form names the same numbers.
		{"char=99999999999999999999", "char=99999999999999999999"},
		{"line=1,99999999999999999999", "line=1,99999999999999999999"},
		{"line=0099999999999999999998,000099999999999999999999", "line=99999999999999999998,99999999999999999999"},
		{"line=,0018446744073709551616", "line=,18446744073709551616"},
		{"char=9223372036854775808,", "char=9223372036854775808,"},
		{"line=1;length=00099999999999999999999", "line=1;length=99999999999999999999"},
		{"line=1;md5=ABCDEF0123456789ABCDEF0123456789", "line=1;md5=abcdef0123456789abcdef0123456789"},
		{"line=1;length=012,utf-8", "line=1;length=12,utf-8"},
		{"line=1;sha256=XyZ,Latin1;length=3", "line=1;sha256=XyZ,Latin1;length=3"},
		{"line=1;MD5=ABCDEF0123456789ABCDEF0123456789", "line=1;MD5=ABCDEF0123456789ABCDEF0123456789"},
		{"line=2,3;length=5;md5=" + hex32 + ",ISO-8859-1;x=y", "line=2,3;length=5;md5=0123456789abcdeffedcba9876543210,ISO-8859-1;x=y"},
	}
	for _, tt := range tests {
		f, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := f.String(); got != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		g, err := Parse(f.String())
		if err != nil {
			t.Errorf("Parse(%q): %v", f.String(), err)
		} else if !reflect.DeepEqual(f, g) {
			t.Errorf("Parse(%q) = %+v, want %+v", f.String(), g, f)
		}
	}
	// A fragment built by hand.
	f := Fragment{Scheme: Char, Form: Range, Start: 3, End: 7, Checks: []Check{{Kind: MD5, Sum: sum32, Charset: "UTF-8"}}}
	if got, want := f.String(), "char=3,7;md5=0123456789abcdeffedcba9876543210,UTF-8"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := Scheme(9).String(); got != "Scheme(9)" {
		t.Errorf("Scheme(9).String() = %q", got)
	}
}

func TestIsCandidate(t *testing.T) {
	for in, want := range map[string]bool{
		"line=1": true, "char=": true, "line=x": true, "char=0,1;md5=x": true,
		"": false, "LINE=1": true, "Char=1": true, // claimed, then rejected by Parse (lower case only)
		"L10": false, "intro": false,
		"line%3D1": false, "line": false, " line=1": false, "lines=1": false,
	} {
		if got := IsCandidate(in); got != want {
			t.Errorf("IsCandidate(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestIsZeroLength(t *testing.T) {
	for in, want := range map[string]bool{
		"line=5": true, "line=5,5": true, "char=0,0": true, "line=,0": true, "char=007,7": true,
		"line=5,6": false, "line=0,": false, "line=,1": false, "char=0,1": false,
	} {
		f, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.IsZeroLength(); got != want {
			t.Errorf("Parse(%q).IsZeroLength() = %v, want %v", in, got, want)
		}
	}
}
