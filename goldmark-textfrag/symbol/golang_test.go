package symbol_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// The spans below are read off `cat -n testdata/server.go.txt`: human
// lines first–last become the positions [first-1, last).
func TestGoDeclarations(t *testing.T) {
	src := readFixture(t, "server.go.txt")
	set := symbol.Default()
	for _, c := range []struct {
		name        string
		doc         bool
		first, last int
		kind        string
	}{
		{"DefaultPort", false, 10, 10, "const"},
		{"DefaultPort", true, 9, 10, "const"},
		{"MaxBody", false, 15, 15, "const"},
		{"MaxBody", true, 14, 15, "const"},
		{"MaxHeaders", false, 16, 16, "const"},
		{"MaxParams", false, 16, 16, "const"},
		{"started", false, 21, 21, "var"},
		{"hits", false, 23, 23, "var"},
		{"hits", true, 22, 23, "var"},
		{"errClosed", false, 26, 26, "var"},
		{"errBusy", false, 26, 26, "var"},
		{"Server", false, 29, 37, "type"},
		{"Server", true, 28, 37, "type"},
		{"Server.Mutex", false, 30, 30, "field"},
		{"Server.Addr", false, 32, 32, "field"},
		{"Server.Addr", true, 31, 32, "field"},
		{"Server.handler", false, 33, 33, "field"},
		{"Server.limits", false, 34, 36, "field"},
		{"Server.limits.Body", false, 35, 35, "field"},
		{"Handler", false, 41, 45, "type"},
		{"Handler", true, 40, 45, "type"},
		{"Handler.Serve", false, 43, 43, "method"},
		{"Handler.Serve", true, 42, 43, "method"},
		{"Route", false, 46, 46, "type"},
		{"List", false, 50, 50, "type"},
		{"List", true, 49, 50, "type"},
		{"List.items", false, 50, 50, "field"},
		{"Pair", false, 53, 56, "type"},
		{"Pair.Key", false, 54, 54, "field"},
		{"List.Push", false, 59, 61, "method"},
		{"List.Push", true, 58, 61, "method"},
		{"List::Push", false, 59, 61, "method"},
		{"Pair.Swap", false, 63, 63, "method"},
		{"Pair.Set", false, 65, 67, "method"},
		{"Server.Handle", false, 72, 77, "method"},
		{"Server.Handle", true, 69, 77, "method"},
		{"Server.String", false, 79, 79, "method"},
		{"New", false, 86, 88, "func"},
		{"New", true, 85, 88, "func"},
	} {
		sel := symbol.Selector{Kind: symbol.Symbol, Name: c.name, Doc: c.doc}
		got, err := set.Find("src/server.go", "", src, sel)
		if err != nil {
			t.Errorf("%s: %v", sel, err)
			continue
		}
		if got.Start != c.first-1 || got.End != c.last || got.Kind != c.kind {
			t.Errorf("%s = %s %s (%s), want %s lines %d–%d", sel, got.Kind, got.Name, got.Human(), c.kind, c.first, c.last)
		}
	}
}

func TestGoNotNames(t *testing.T) {
	src := readFixture(t, "server.go.txt")
	for _, name := range []string{"_", "http", "server", "Server.Lock", "Handler.Handler", "Server.Handle.w", "T._"} {
		_, err := symbol.Default().Find("src/server.go", "", src, symbol.Selector{Kind: symbol.Symbol, Name: name})
		if !errors.Is(err, symbol.ErrNotFound) {
			t.Errorf("sym=%s: %v, want not found", name, err)
		}
	}
}

func TestGoAmbiguousInit(t *testing.T) {
	src := readFixture(t, "server.go.txt")
	_, err := symbol.Default().Find("src/server.go", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "init"})
	if !errors.Is(err, symbol.ErrAmbiguous) {
		t.Fatalf("%v, want ambiguous", err)
	}
	want := "sym=init matches 2 declarations in src/server.go: func init (lines 81–83), func init (line 90); quote by a region= or by lines without sym="
	if err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
	if symbol.ErrorKind(err) != "ambiguous" {
		t.Errorf("kind %q", symbol.ErrorKind(err))
	}
}

func TestGoNotFoundCloseNames(t *testing.T) {
	src := readFixture(t, "server.go.txt")
	_, err := symbol.Default().Find("src/server.go", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handler"})
	want := "sym=Server.Handler is not in src/server.go (Go); close names: Server.handler, Handler, Server.Handle; fix the name, or quote by lines without sym="
	if err == nil || err.Error() != want {
		t.Fatalf("message\n%v\nwant\n%s", err, want)
	}
	var e *symbol.Error
	if !errors.As(err, &e) || len(e.Candidates) != 3 || e.Candidates[2].Start != 71 {
		t.Errorf("candidates %+v", e)
	}
	// Not more than five, and none that are far off.
	_, err = symbol.Default().Find("src/server.go", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "Zebra"})
	want = "sym=Zebra is not in src/server.go (Go); fix the name, or quote by lines without sym="
	if err == nil || err.Error() != want {
		t.Fatalf("message\n%v\nwant\n%s", err, want)
	}
	many := "package p\n\nvar (\n\tab1, ab2, ab3, ab4, ab5, ab6, ab7 int\n)\n"
	_, err = symbol.Default().Find("p.go", "", []byte(many), symbol.Selector{Kind: symbol.Symbol, Name: "ab"})
	if !errors.As(err, &e) || len(e.Candidates) != 5 || e.Candidates[0].Name != "ab1" || e.Candidates[4].Name != "ab5" {
		t.Errorf("close names of ab: %+v", err)
	}
}

func TestGoParseError(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line      int
	}{
		{"lf", "package p\n\nfunc F() {\n\treturn 1 +\n}\n", 5},
		// CR+LF endings count as one line each, as go/parser counts them.
		{"crlf", "package p\r\n\r\nfunc F( {\r\n}\r\n", 3},
		// CR alone ends a line for RFC 5147 but not for Go, where it is a
		// space: Go reads one line, and the error is placed by the
		// project's rule.
		{"cr", "package p\rfunc F( {\r", 2},
		{"nel", "package p\u0085func F() {}\u0085", 1},
	} {
		_, err := symbol.Default().Find("src/a.go", "", []byte(c.src), symbol.Selector{Kind: symbol.Symbol, Name: "F"})
		var e *symbol.Error
		if !errors.As(err, &e) || !errors.Is(err, symbol.ErrParse) {
			t.Errorf("%s: %v, want a parse error", c.name, err)
			continue
		}
		if e.Line != c.line {
			t.Errorf("%s: line %d, want %d (%v)", c.name, e.Line, c.line, err)
		}
		if !strings.HasPrefix(err.Error(), "src/a.go does not parse as Go (line ") || !strings.HasSuffix(err.Error(), "; fix the file, or quote by region= or by lines") {
			t.Errorf("%s: message %q", c.name, err)
		}
	}
}

// A file with CR line endings is one line to Go, in which a line comment
// runs to the end: Go's reading decides what is declared, so F is not.
func TestGoCRHidesDecls(t *testing.T) {
	_, err := symbol.Default().Find("a.go", "", []byte("package p\r// c\rfunc F() {}\r"), symbol.Selector{Kind: symbol.Symbol, Name: "F"})
	if !errors.Is(err, symbol.ErrNotFound) {
		t.Fatalf("%v, want not found", err)
	}
}

func TestGoCRLF(t *testing.T) {
	src := "package p\r\n\r\n// F is f.\r\nfunc F() {\r\n}\r\n"
	got, err := symbol.Default().Find("a.go", "", []byte(src), symbol.Selector{Kind: symbol.Symbol, Name: "F", Doc: true})
	if err != nil || got.Start != 2 || got.End != 5 {
		t.Fatalf("F doc = %+v, %v; want lines 3–5", got, err)
	}
}

func TestUnsupported(t *testing.T) {
	src := []byte("def f():\n    pass\n")
	_, err := symbol.Default().Find("src/a.py", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "f"})
	want := "no symbol parser for src/a.py (Python); sym= works in Go; quote by region= (any language) or by lines"
	if err == nil || err.Error() != want || symbol.ErrorKind(err) != "unsupported" {
		t.Fatalf("%v, want %s", err, want)
	}
	_, err = symbol.Default().Find("src/a.rb", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "f"})
	want = "no symbol parser for src/a.rb; sym= works in Go; quote by region= (any language) or by lines"
	if err == nil || err.Error() != want {
		t.Fatalf("%v, want %s", err, want)
	}
	// lang= names the language: Go source in a .txt file.
	got, err := symbol.Default().Find("notes/a.txt", "go", []byte("package p\n\nfunc f() {}\n"), symbol.Selector{Kind: symbol.Symbol, Name: "f"})
	if err != nil || got.Start != 2 || got.End != 3 {
		t.Fatalf("lang=go: %+v, %v", got, err)
	}
	// A parser that reports itself unsupported (tree-sitter without cgo).
	set := symbol.Default().Merge(symbol.Set{"python": noCgo{}})
	_, err = set.Find("src/a.py", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "f"})
	want = "no symbol parser for src/a.py (Python: built without cgo); sym= works in Go; quote by region= (any language) or by lines"
	if err == nil || err.Error() != want {
		t.Fatalf("%v, want %s", err, want)
	}
	// A nil parser removes a language.
	if _, ok := symbol.Default().Merge(symbol.Set{"go": nil})["go"]; ok {
		t.Error("Merge kept a language set to nil")
	}
}

type noCgo struct{}

func (noCgo) Language() string { return "Python" }
func (noCgo) Decls([]byte) ([]symbol.Decl, error) {
	return nil, symbol.Unsupported("built without cgo")
}

// A parser that returns offsets outside the source is a parse error, not a
// panic.
func TestBadParser(t *testing.T) {
	set := symbol.Set{"python": badParser{}}
	_, err := set.Find("a.py", "", []byte("x = 1\n"), symbol.Selector{Kind: symbol.Symbol, Name: "x"})
	if !errors.Is(err, symbol.ErrParse) {
		t.Fatalf("%v, want a parse error", err)
	}
}

type badParser struct{}

func (badParser) Language() string { return "Python" }
func (badParser) Decls(src []byte) ([]symbol.Decl, error) {
	return []symbol.Decl{{Name: "x", Kind: "var", Start: 0, End: len(src) + 10}}, nil
}

func TestSymbols(t *testing.T) {
	src := []byte("package p\n\n// A is a.\nconst A = 1\n\nfunc B() {}\n")
	spans, err := symbol.Default().Symbols("p.go", "", src, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []symbol.Span{{Start: 2, End: 4, Name: "A", Kind: "const"}, {Start: 5, End: 6, Name: "B", Kind: "func"}}
	if len(spans) != 2 || spans[0] != want[0] || spans[1] != want[1] {
		t.Errorf("Symbols = %+v, want %+v", spans, want)
	}
}

func TestLanguageOf(t *testing.T) {
	for _, c := range [][3]string{
		{"a.go", "", "go"}, {"a.py", "", "python"}, {"a.pyi", "", "python"}, {"a.mjs", "", "javascript"},
		{"a.jsx", "", "javascript"}, {"a.cts", "", "typescript"}, {"a.tsx", "", "tsx"}, {"a.rs", "", "rust"},
		{"A.java", "", "java"}, {"a.c", "", "c"}, {"a.h", "", "cpp"}, {"a.ipp", "", "cpp"}, {"a.c++", "", "cpp"},
		{"a.txt", "", ""}, {"Makefile", "", ""}, {"a.txt", "py", "python"}, {"a.go", "C++", "cpp"},
		{"a.go", "ruby", "go"}, {"a.rb", "", ""},
	} {
		if got := symbol.LanguageOf(c[0], c[1]); got != c[2] {
			t.Errorf("LanguageOf(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestParseSelector(t *testing.T) {
	for _, c := range []struct {
		title string
		want  symbol.Selector
		ok    bool
		err   string
	}{
		{"", symbol.Selector{}, false, ""},
		{"hl=3 dedent", symbol.Selector{}, false, ""},
		{"sym=Server.Handle", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"}, true, ""},
		{"doc sym=impl::App::run lang=rust", symbol.Selector{Kind: symbol.Symbol, Name: "impl::App::run", Doc: true}, true, ""},
		{"region=setup-2.a", symbol.Selector{Kind: symbol.Region, Name: "setup-2.a"}, true, ""},
		{"sym=a region=b", symbol.Selector{}, false, "name lines twice"},
		{"sym=a sym=b", symbol.Selector{}, false, "name lines twice"},
		{"region=a doc", symbol.Selector{}, false, "doc only goes with sym="},
		{"doc", symbol.Selector{}, false, "doc only goes with sym="},
		{"sym=a doc doc", symbol.Selector{}, false, "doc is given twice"},
		{"sym=", symbol.Selector{}, false, "names nothing"},
		{"region=", symbol.Selector{}, false, "names nothing"},
		{"sym=a..b", symbol.Selector{}, false, "is not a name"},
		{"sym=.a", symbol.Selector{}, false, "is not a name"},
		{"sym=a::", symbol.Selector{}, false, "is not a name"},
		{"region=-x", symbol.Selector{}, false, "is not a region name"},
		{"region=a/b", symbol.Selector{}, false, "is not a region name"},
		{"quote region=a", symbol.Selector{}, false, "quote shows characters"},
		{"quote hl=2", symbol.Selector{}, false, ""},
	} {
		sel, ok, err := symbol.ParseSelector(c.title)
		switch {
		case c.err != "":
			if !errors.Is(err, symbol.ErrOptions) || !strings.Contains(err.Error(), c.err) || symbol.ErrorKind(err) != "options" {
				t.Errorf("%q: %v, want an options error with %q", c.title, err, c.err)
			}
		case err != nil || ok != c.ok || sel != c.want:
			t.Errorf("%q = %+v, %v, %v; want %+v, %v", c.title, sel, ok, err, c.want, c.ok)
		}
	}
}
