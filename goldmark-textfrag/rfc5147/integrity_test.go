package rfc5147

import (
	"strings"
	"testing"
)

// TestIntegrityErrorNamesCurrentValues: a mismatch message gives the
// file's current md5 and length in link syntax (SEMANTICS.md §4), whichever
// check failed, so that it can be re-pinned by hand.
func TestIntegrityErrorNamesCurrentValues(t *testing.T) {
	txt, err := NewText([]byte("héllo\nworld\n"), UTF8)
	if err != nil {
		t.Fatal(err)
	}
	const now = "the file now has md5=b41c258128d94f58cbcbfe43d0a8e93d;length=12"
	for _, frag := range []string{"line=0,1;md5=00000000000000000000000000000000", "line=0,1;length=3"} {
		f, err := Parse(frag)
		if err != nil {
			t.Fatal(err)
		}
		_, err = txt.Select(f)
		if err == nil || !strings.HasSuffix(err.Error(), now) {
			t.Errorf("%s: %v\nwant it to end with %q", frag, err, now)
		}
	}
}
