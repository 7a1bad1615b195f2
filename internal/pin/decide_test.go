package pin

import (
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// TestDecide is step 4's table: what the mapping shows and whether the
// declaration is the same (by a symbol parser, or for a file none reads
// by its sections, sameSection) decide the class; nothing else does, and
// what cannot be told is review, never moved or changed.
func TestDecide(t *testing.T) {
	intact := quoteMapping{fate: quoteIntact, anchored: true}
	block := quoteMapping{fate: quoteIntact, block: true, elsewhere: [][2]int{{4, 6}}}
	for _, c := range []struct {
		name    string
		mp      quoteMapping
		v       declVerdict
		inPlace bool
		want    Class
	}{
		{"intact in place", intact, declSame, true, Refreshed},
		{"intact elsewhere", intact, declSame, false, Moved},
		{"intact, cannot tell", intact, declUnknown, false, Review},
		{"intact in place, cannot tell", intact, declUnknown, true, Review},
		{"intact, not anchored, same declaration", quoteMapping{fate: quoteIntact}, declSame, false, Moved},
		{"intact in another declaration", intact, declOther, false, Review},
		{"intact in place, in another declaration", intact, declOther, true, Review},
		{"edited", quoteMapping{fate: quoteEdited}, declSame, false, Changed},
		{"edited, cannot tell", quoteMapping{fate: quoteEdited, anchored: true}, declUnknown, false, Review},
		{"edited into another declaration", quoteMapping{fate: quoteEdited}, declOther, false, Review},
		{"deleted", quoteMapping{fate: quoteDeleted, elsewhere: [][2]int{{1, 3}}}, declUnknown, false, Gone},
		{"unknown", quoteMapping{fate: quoteUnknown, why: "x"}, declSame, false, Review},
		{"block moved, same declaration", block, declSame, false, Moved},
		{"block moved, cannot tell", block, declUnknown, false, Review},
		{"block moved into another declaration", block, declOther, false, Review},
	} {
		if got := decide(c.mp, c.v, "func A → func B", c.inPlace); got.class != c.want || (got.class == Review) != (got.why != "") {
			t.Errorf("%s: %s (%q), want %s", c.name, got.class, got.why, c.want)
		}
	}
}

// TestSameDeclaration compares the declaration around a quote in two
// versions of a Go file: by name when it is unique, through a rename only
// when the diff carried the declaration's distinctive lines into it.
func TestSameDeclaration(t *testing.T) {
	old := "package p\n\nfunc A() {\n\ta := load(1)\n\tstore(a, 2)\n\tflush(3)\n}\n\nfunc B() {\n\tother()\n}\n"
	for _, c := range []struct {
		name, cur  string
		oldR, newR [2]int
		want       declVerdict
	}{
		{"same name, moved", "package p\n\nvar x = 1\n\nfunc A() {\n\ta := load(1)\n\tstore(a, 2)\n\tflush(3)\n}\n\nfunc B() {\n\tother()\n}\n", [2]int{3, 5}, [2]int{5, 7}, declSame},
		{"renamed, body kept", "package p\n\nfunc Load() {\n\ta := load(1)\n\tstore(a, 2)\n\tflush(3)\n}\n\nfunc B() {\n\tother()\n}\n", [2]int{3, 5}, [2]int{3, 5}, declSame},
		{"into another function", "package p\n\nfunc B() {\n\ta := load(1)\n\tstore(a, 2)\n}\n", [2]int{3, 5}, [2]int{3, 5}, declOther},
		{"replaced by a new function", "package p\n\nfunc C() {\n\ta := load(1)\n\tnew()\n\tnewer()\n}\n\nfunc B() {\n\tother()\n}\n", [2]int{3, 4}, [2]int{3, 4}, declOther},
		{"outside any function", "package p\n\nfunc A() {\n\ta := load(1)\n\tstore(a, 2)\n\tflush(3)\n}\n", [2]int{0, 1}, [2]int{0, 1}, declSame},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, n := newRFCText([]byte(old)), newRFCText([]byte(c.cur))
			m := newLineMap(o, n)
			od, nd := goDecls(t, old), goDecls(t, c.cur)
			pv := &pinnedVersion{lines: o}
			if got, what := sameDeclaration(od, nd, c.oldR, c.newR, m, pv.distinctive); got != c.want {
				t.Errorf("got %d (%s), want %d", got, what, c.want)
			}
		})
	}
	// No parser for the language: unknown.
	if v, _ := sameDeclaration(&declarations{err: symbol.ErrUnsupported}, &declarations{}, [2]int{0, 1}, [2]int{0, 1}, nil, nil); v != declUnknown {
		t.Errorf("no parser: %d", v)
	}
}

func goDecls(t *testing.T, src string) *declarations {
	t.Helper()
	spans, err := symbol.Default().Symbols("p.go", "", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	return &declarations{spans: spans}
}
