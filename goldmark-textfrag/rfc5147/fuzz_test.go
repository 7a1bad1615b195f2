package rfc5147

import (
	"bytes"
	"crypto/md5"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"
)

var fuzzFragments = []string{
	"line=5", "char=0", "line=10,20", "line=,1", "line=5,", "char=3,3", "line=007,010",
	"char=99999999999999999999", "line=99999999999999999998,99999999999999999999",
	"line=1;md5=0123456789abcdefFEDCBA9876543210", "line=10,20;length=9876,UTF-8",
	"line=1;sha256=abc,latin1;length=012", "line=1;MD5=x", "char=0,;length=3,ISO-8859-1",
	"line=30,20", "LINE=1", "line=1-2", "line=1,2,3", "line=1;", "line=1;md5=abc",
	"line=1;length=5,", "line=1;x=y,z", "line=+1", "line= 1", "", "char=,",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzFragments {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		frag, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q): %T is not a *ParseError", s, err)
			}
			if errors.Is(err, ErrSyntax) == errors.Is(err, ErrMisordered) {
				t.Fatalf("Parse(%q): %v must match exactly one of ErrSyntax, ErrMisordered", s, err)
			}
			if pe.Offset < 0 || pe.Offset > len(s) || pe.Msg == "" || pe.Fragment != s {
				t.Fatalf("Parse(%q): bad ParseError %+v", s, pe)
			}
			return
		}
		if !IsCandidate(s) {
			t.Fatalf("Parse(%q) succeeded on a fragment that is not a candidate", s)
		}
		if frag.Start > frag.End || frag.Start < 0 {
			t.Fatalf("Parse(%q) = %+v: Start after End", s, frag)
		}
		canon := frag.String()
		again, err := Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) = %+v, but Parse(String() = %q): %v", s, frag, canon, err)
		}
		if !reflect.DeepEqual(again, frag) {
			t.Fatalf("Parse(%q) = %+v, but Parse(%q) = %+v", s, frag, canon, again)
		}
		if again.String() != canon {
			t.Fatalf("String() not stable: %q then %q", canon, again.String())
		}
		if len(canon) > len(s) {
			// Canonical form drops leading zeros and lower-cases md5
			// values, writing every number with the digits it was written
			// with: it never grows.
			t.Fatalf("String() of %q is longer: %q", s, canon)
		}
	})
}

func FuzzSelect(f *testing.F) {
	texts := []string{
		"", "a", "a\nb", "a\nb\n", "one\r\ntwo\r\nthree", "a\rb\rc", "a\u0085b\u0085", "a\r\u0085b",
		"a\n\rb", "a\fb\vc\u2028d\u2029e\n", "a😀b\n", "\xEF\xBB\xBFab\ncd", "\xFF\xFEa\x00\n\x00b\x00",
		"\xFE\xFF\x00a\x00\n\x00b", "ab\ncd\xFFe", "ab\x00", "\r", "\r\n\n\r\r\u0085\u0085", "\xEF\xBB",
	}
	for i, s := range texts {
		for j, fr := range fuzzFragments {
			if (i+j)%3 == 0 {
				f.Add([]byte(s), fr)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, fs string) {
		frag, err := Parse(fs)
		if err != nil {
			return
		}
		want, wantErr := selectText(data, UTF8, frag)
		got, gotErr := SelectReader(bytes.NewReader(data), frag)
		if d := diffOutcome(want, wantErr, got, gotErr); d != "" {
			t.Fatalf("%q#%s: SelectReader differs from Text.Select: %s", data, fs, d)
		}
		if cs, _ := sniff(data, UTF8); cs.IsUTF8() {
			n := 1 + len(data)%7
			got, gotErr := streamSmall(data, frag, n)
			if d := diffOutcome(want, wantErr, got, gotErr); d != "" {
				t.Fatalf("%q#%s: selectStream (buffer %d) differs from Text.Select: %s", data, fs, n, d)
			}
		}
		if want == nil {
			if !errors.Is(wantErr, ErrNotText) {
				t.Fatalf("%q#%s: no selection, error %v", data, fs, wantErr)
			}
			return
		}
		if errors.Is(wantErr, ErrNotText) {
			t.Fatalf("%q#%s: a selection with error %v", data, fs, wantErr)
		}
		// The reference model, on the decoded text.
		tx, err := NewText(data, UTF8)
		if err != nil {
			t.Fatal(err)
		}
		ref := newRef(string(tx.Bytes())).selection(frag, md5.Sum(data))
		for _, c := range frag.Checks {
			if c.Charset != "" { // the model does not transcode
				ref.statuses = nil
				for _, r := range want.Checks {
					ref.statuses = append(ref.statuses, r.Status)
				}
				break
			}
		}
		if d := diffRef(want, ref); d != "" {
			t.Fatalf("%q#%s: %s", data, fs, d)
		}
	})
}

// FuzzScanUTF8 checks the scanner's validator and counter against package
// unicode/utf8.
func FuzzScanUTF8(f *testing.F) {
	for _, s := range []string{"", "a", "é€😀\u0085", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE0\x9F\x80", "abcdefgh\xC2\x85abcdefgh\xFF"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, c []byte) {
		runes, nels, bad := scanUTF8(c)
		want := len(c)
		for i := 0; i < len(c); {
			r, size := utf8.DecodeRune(c[i:])
			if r == utf8.RuneError && size == 1 {
				want = i
				break
			}
			i += size
		}
		if bad != want {
			t.Fatalf("scanUTF8(%q): bad = %d, want %d", c, bad, want)
		}
		if bad == len(c) && (runes != int64(utf8.RuneCount(c)) || nels != int64(bytes.Count(c, []byte("\u0085")))) {
			t.Fatalf("scanUTF8(%q) = %d runes, %d NELs", c, runes, nels)
		}
	})
}
