package symbol

import (
	"errors"
	"strings"
	"testing"
)

// Struct literals nested in fields, as deep as a hostile file makes them:
// members are walked maxMemberDepth levels, so the names stay bounded (they
// grew with the square of the depth: 8,000 levels made 64 MB of names) and
// a name within the depth is still found.
func TestGoNestedStructsBounded(t *testing.T) {
	for _, n := range []int{4000, 8000} {
		src := []byte("package p\n\ntype T " + strings.Repeat("struct{ a ", n) + "int" + strings.Repeat("}", n) + "\n")
		ds, err := goParser{}.Decls(src)
		if err != nil {
			t.Fatalf("%d levels: %v", n, err)
		}
		total := 0
		for _, d := range ds {
			total += len(d.Name)
		}
		if len(ds) != maxMemberDepth+1 || total > (maxMemberDepth+1)*(2*maxMemberDepth+1) {
			t.Errorf("%d levels: %d declarations, %d bytes of names; want T and %d levels of fields", n, len(ds), total, maxMemberDepth)
		}
		set := Default()
		if s, err := set.Find("p.go", "", src, Selector{Kind: Symbol, Name: "T.a.a.a"}); err != nil || s.Start != 2 {
			t.Errorf("%d levels: sym=T.a.a.a: %+v, %v", n, s, err)
		}
		deep := "T" + strings.Repeat(".a", maxMemberDepth+1)
		if _, err := set.Find("p.go", "", src, Selector{Kind: Symbol, Name: deep}); !errors.Is(err, ErrNotFound) {
			t.Errorf("%d levels: a field %d deep: %v, want not found", n, maxMemberDepth+1, err)
		}
	}
}
