package lsp

import "testing"

// titleTyped finds the title being written after a destination, in each
// of the three title delimiters, and nothing outside a title.
func TestTitleTyped(t *testing.T) {
	for _, tc := range []struct {
		typed, dest, title string
		ok                 bool
	}{
		{`a.go#line=1,2 "sym=`, "a.go#line=1,2", "sym=", true},
		{`a.go#line=1,2  'lang=go sym=Ser`, "a.go#line=1,2", "lang=go sym=Ser", true},
		{`a.go#line=1,2 (region=`, "a.go#line=1,2", "region=", true},
		{`<a b.go#line=1,2> "sym=`, "", "", false}, // a destination with a space: not split here
		{`<a.go#line=1,2> "sym=`, "a.go#line=1,2", "sym=", true},
		{`a.go#line=1,2 "sym=X" `, "", "", false}, // the title is closed
		{`a.go#line=1,2) sym=`, "", "", false},    // after the link
		{`a.go "sym=`, "", "", false},             // no fragment: not a quote
		{`a.go#line=1,2`, "", "", false},
		{`a.go#line=1,2 `, "", "", false},
		{` "sym=`, "", "", false},
	} {
		dest, title, ok := titleTyped(tc.typed)
		if ok != tc.ok || ok && (dest != tc.dest || title != tc.title) {
			t.Errorf("%q: %q %q %v, want %q %q %v", tc.typed, dest, title, ok, tc.dest, tc.title, tc.ok)
		}
	}
}
