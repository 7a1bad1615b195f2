package symbol

import (
	"go/ast"
	"go/doc"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// directiveSource marks a region around a documented type in the form the
// docs recommend for Go: "//textfrag:begin NAME", no space after "//".
const directiveSource = `package p

//textfrag:begin no-cache-headers
// NoCache sets the headers that keep a response out of caches.
type NoCache struct{}
//textfrag:end no-cache-headers

// spaced marks a region the other way, which go doc shows.
// textfrag:begin spaced
type Spaced struct{}
// textfrag:end spaced
`

// TestRegionDirectiveForm: the directive form is a region marker; gofmt
// keeps it as written; go/doc leaves it out of the type's documentation,
// where the spaced form shows (what the README and the remedies say).
func TestRegionDirectiveForm(t *testing.T) {
	spans, err := Regions([]byte(directiveSource))
	if err != nil || len(spans) != 2 || spans[0].Name != "no-cache-headers" || spans[0].Start != 3 || spans[0].End != 5 {
		t.Fatalf("regions %+v, %v; want no-cache-headers on lines 4–5", spans, err)
	}
	formatted, err := format.Source([]byte(directiveSource))
	if err != nil {
		t.Fatal(err)
	}
	for _, marker := range []string{"\n//textfrag:begin no-cache-headers\n", "\n//textfrag:end no-cache-headers\n"} {
		if !strings.Contains(string(formatted), marker) {
			t.Errorf("gofmt changed %q:\n%s", marker, formatted)
		}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", directiveSource, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := doc.NewFromFiles(fset, []*ast.File{f}, "example.org/p")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, typ := range pkg.Types {
		docs[typ.Name] = typ.Doc
	}
	if d := docs["NoCache"]; strings.Contains(d, "textfrag") || !strings.Contains(d, "NoCache sets the headers") {
		t.Errorf("go doc of NoCache: %q", d)
	}
	// The spaced form leaks: this is why the directive form is advised.
	if d := docs["Spaced"]; !strings.Contains(d, "textfrag:begin spaced") {
		t.Errorf("go doc of Spaced: %q; the spaced marker no longer shows, so the advice may be moot", d)
	}
}
