//go:build cgo

package treesitter

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// decl is a declaration as a reader of the fixture sees it: human line
// numbers (1-based) of its first and last line and of its doc comment's
// first line (= first when it has none).
type decl struct {
	name, kind  string
	first, last int
	doc         int
}

func (d decl) String() string {
	return fmt.Sprintf("%s %s %d–%d doc %d", d.kind, d.name, d.first, d.last, d.doc)
}

// humanLine is the 1-based line of offset in LF-only text.
func humanLine(src []byte, offset int) int { return 1 + bytes.Count(src[:offset], []byte("\n")) }

func lines(src []byte, ds []symbol.Decl) []decl {
	out := make([]decl, len(ds))
	for i, d := range ds {
		out[i] = decl{d.Name, d.Kind, humanLine(src, d.Start), humanLine(src, d.End-1), humanLine(src, d.DocStart)}
	}
	return out
}

// The spans below were counted by hand on the fixtures (cat -n).
var fixtures = []struct {
	file, lang string
	want       []decl
}{
	{"handlers.py", "python", []decl{
		{"MAX_BODY", "var", 10, 10, 9},
		{"DEFAULT_TITLE", "var", 11, 11, 11},
		{"get_note", "func", 16, 22, 14},   // decorators included, two comment lines above
		{"json_error", "func", 25, 27, 25}, // the trailing comment on line 28 is not code
		{"NoteHandler", "class", 31, 51, 31},
		{"NoteHandler.__init__", "method", 37, 38, 37},
		{"NoteHandler.list", "method", 41, 44, 40},
		{"NoteHandler.Validator", "class", 46, 51, 46},
		{"NoteHandler.Validator.check", "method", 47, 51, 47},
		{"NoteHandler.Validator.check.non_empty", "func", 48, 49, 48},
	}},
	{"service.ts", "typescript", []decl{
		{"User", "interface", 4, 8, 3},
		{"User.id", "field", 5, 5, 5},
		{"User.name", "field", 6, 6, 6},
		{"User.rename", "method", 7, 7, 7},
		{"UserId", "type", 10, 10, 10},
		{"Role", "enum", 12, 15, 12},
		{"Store", "class", 18, 21, 17},
		{"Store.get", "method", 19, 19, 19},
		{"Store.items", "field", 20, 20, 20},
		{"UserService", "class", 26, 39, 23}, // decorator and export included, /** */ above
		{"UserService.constructor", "method", 28, 28, 28},
		{"UserService.find", "method", 30, 30, 30}, // overload signatures are candidates
		{"UserService.find", "method", 31, 31, 31},
		{"UserService.find", "method", 32, 34, 32},
		{"UserService.lookup", "field", 36, 38, 36},
		{"Validation", "namespace", 41, 47, 41},
		{"Validation.maxName", "const", 42, 42, 42},
		{"Validation.valid", "func", 44, 46, 44},
		{"byId", "const", 49, 50, 49},
		{"counter", "var", 52, 52, 52}, // one of two declarators: its own
		{"limit", "var", 53, 53, 53},
		{"createService", "func", 55, 57, 55},
	}},
	{"NoteList.tsx", "tsx", []decl{
		{"Props", "type", 3, 3, 3},
		{"Row", "func", 6, 8, 5},
		{"NoteList", "const", 11, 24, 10},
		{"Legacy", "class", 26, 30, 26},
		{"Legacy.render", "method", 27, 29, 27},
	}},
	{"notes.js", "javascript", []decl{
		{"DEFAULT_LIMIT", "const", 3, 3, 3},
		{"NoteStore", "class", 8, 18, 5},
		{"NoteStore.#items", "field", 9, 9, 9},
		{"NoteStore.add", "method", 11, 13, 11},
		{"NoteStore.size", "method", 15, 17, 15},
		{"lines", "func", 21, 24, 20},
	}},
	{"queue.rs", "rust", []decl{
		{"CAPACITY", "const", 7, 7, 6},
		{"GREETING", "static", 9, 9, 9},
		{"Job", "struct", 12, 17, 11}, // attributes included, /// above them
		{"State", "enum", 19, 22, 19},
		{"Runner", "trait", 24, 31, 24},
		{"Runner.run", "method", 26, 26, 25},
		{"Runner.name", "method", 28, 30, 28},
		{"Queue", "struct", 33, 35, 33},
		{"Queue.new", "method", 39, 41, 38},
		{"Queue.push", "method", 43, 50, 43},
		{"Queue.fmt", "method", 54, 56, 54},
		{"Queue.run", "method", 60, 62, 60}, // trait impl and inherent impl: ambiguous
		{"Queue.run", "method", 66, 66, 66},
		{"job", "macro", 69, 73, 69},
		{"metrics", "mod", 75, 81, 75},
		{"metrics.Count", "type", 76, 76, 76},
		{"metrics.record", "func", 78, 80, 78},
	}},
	{"Inventory.java", "java", []decl{
		{"Inventory", "class", 9, 58, 6},
		{"Inventory.counts", "field", 13, 13, 12},
		{"Inventory.MAX", "field", 15, 15, 15},
		{"Inventory.MIN", "field", 15, 15, 15},
		{"Inventory.Inventory", "constructor", 17, 18, 17},
		{"Inventory.Inventory", "constructor", 20, 22, 20},
		{"Inventory.add", "method", 25, 27, 24},
		{"Inventory.toString", "method", 29, 32, 29},
		{"Inventory.add", "method", 34, 36, 34},
		{"Inventory.Unit", "enum", 38, 45, 38},
		{"Inventory.Unit.PIECE", "const", 39, 39, 39},
		{"Inventory.Unit.BOX", "const", 40, 40, 40},
		{"Inventory.Unit.size", "method", 42, 44, 42},
		{"Inventory.Line", "record", 47, 51, 47},
		{"Inventory.Line.Line", "constructor", 48, 50, 48},
		{"Inventory.Audit", "class", 53, 57, 53},
		{"Inventory.Audit.Listener", "interface", 54, 56, 54},
		{"Inventory.Audit.Listener.changed", "method", 55, 55, 55},
	}},
	{"ring.c", "c", []decl{
		{"RING_MIN", "macro", 5, 5, 5},
		{"RING_NEXT", "macro", 6, 6, 6},
		{"ring", "struct", 8, 12, 8},
		{"ring_t", "typedef", 14, 14, 14},
		{"stats", "typedef", 16, 18, 16}, // typedef struct stats {…} stats: one name
		{"ring_visit", "typedef", 20, 20, 20},
		{"ring_error", "enum", 22, 22, 22},
		{"ring_free", "func", 26, 26, 26}, // a prototype of a function the file does not define
		{"ring_new", "func", 30, 38, 28},
		{"ring_push", "func", 41, 48, 40},
		{"ring_full", "func", 50, 53, 50},
		{"ring_dump", "func", 56, 56, 56}, // #ifdef / #else: two candidates
		{"ring_dump", "func", 58, 58, 58},
	}},
	{"shapes.cpp", "cpp", []decl{
		{"geo", "namespace", 5, 49, 5},
		{"geo.Point", "struct", 8, 10, 7},
		{"geo.Shape", "class", 13, 18, 12},
		{"geo.Shape.~Shape", "method", 15, 15, 15},
		{"geo.Shape.area", "method", 16, 16, 16},
		{"geo.Shape.name", "method", 17, 17, 17},
		{"geo.Circle", "class", 20, 29, 20},
		{"geo.Circle.Circle", "method", 31, 31, 31},
		{"geo.Circle.area", "method", 34, 34, 33},
		{"geo.Circle.scale", "method", 36, 36, 36},
		{"geo.total_area", "func", 38, 43, 38}, // template line included
		{"geo.detail", "namespace", 45, 47, 45},
		{"geo.detail.square", "func", 46, 46, 46},
		{"Grid", "class", 51, 56, 51},
		{"Grid.at", "method", 55, 55, 55},
		{"Grid.at", "method", 58, 61, 58},
		{"main", "func", 63, 63, 63},
	}},
}

func TestDecls(t *testing.T) {
	set := Parsers()
	for _, f := range fixtures {
		t.Run(f.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", f.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := symbol.LanguageOf(f.file, ""); got != f.lang {
				t.Fatalf("LanguageOf(%s) = %q, want %q", f.file, got, f.lang)
			}
			ds, err := set[f.lang].Decls(src)
			if err != nil {
				t.Fatal(err)
			}
			got := lines(src, ds)
			if len(got) != len(f.want) {
				t.Errorf("%d declarations, want %d", len(got), len(f.want))
			}
			for i := 0; i < len(got) || i < len(f.want); i++ {
				var g, w string
				if i < len(got) {
					g = got[i].String()
				}
				if i < len(f.want) {
					w = f.want[i].String()
				}
				if g != w {
					t.Errorf("#%d: got %s\n\twant %s", i, g, w)
				}
			}
		})
	}
}

// find resolves a selector through the engine, with the tree-sitter
// parsers merged over the default set, as the command and the goldmark
// tests use them.
func find(t *testing.T, file, name string, doc bool) (symbol.Span, error) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return symbol.Default().Merge(Parsers()).Find("src/"+file, "", src, symbol.Selector{Kind: symbol.Symbol, Name: name, Doc: doc})
}

func TestFindThroughEngine(t *testing.T) {
	for _, c := range []struct {
		file, name string
		doc        bool
		first, end int // the link's #line=first,end
	}{
		{"handlers.py", "NoteHandler.list", false, 40, 44},
		{"handlers.py", "NoteHandler.list", true, 39, 44},
		{"service.ts", "Validation.valid", false, 43, 46},
		{"service.ts", "UserService", true, 22, 39},
		{"NoteList.tsx", "NoteList", false, 10, 24},
		{"notes.js", "NoteStore.size", false, 14, 17},
		{"queue.rs", "Queue::new", false, 38, 41}, // :: means .
		{"queue.rs", "metrics::record", true, 77, 80},
		{"Inventory.java", "Inventory.Audit.Listener.changed", false, 54, 55},
		{"ring.c", "ring_new", true, 27, 38},
		{"shapes.cpp", "geo::Circle::area", false, 33, 34},
	} {
		span, err := find(t, c.file, c.name, c.doc)
		if err != nil {
			t.Errorf("%s %s: %v", c.file, c.name, err)
			continue
		}
		if span.Start != c.first || span.End != c.end {
			t.Errorf("%s %s (doc %v): %s, want line=%d,%d", c.file, c.name, c.doc, span.Fragment(), c.first, c.end)
		}
	}
}

func TestAmbiguousAndNotFound(t *testing.T) {
	for _, c := range []struct {
		file, name string
		want       string
	}{
		{"service.ts", "UserService.find", "sym=UserService.find matches 3 declarations in src/service.ts: method UserService.find (line 30), method UserService.find (line 31), method UserService.find (lines 32–34); quote by a region= or by lines without sym="},
		{"queue.rs", "Queue.run", "sym=Queue.run matches 2 declarations in src/queue.rs: method Queue.run (lines 60–62), method Queue.run (line 66); quote by a region= or by lines without sym="},
		{"Inventory.java", "Inventory.add", "sym=Inventory.add matches 2 declarations in src/Inventory.java: method Inventory.add (lines 25–27), method Inventory.add (lines 34–36); quote by a region= or by lines without sym="},
		{"ring.c", "ring_dump", "sym=ring_dump matches 2 declarations in src/ring.c: func ring_dump (line 56), func ring_dump (line 58); quote by a region= or by lines without sym="},
		{"shapes.cpp", "Grid.at", "sym=Grid.at matches 2 declarations in src/shapes.cpp: method Grid.at (line 55), method Grid.at (lines 58–61); quote by a region= or by lines without sym="},
		{"handlers.py", "NoteHandler.lst", "sym=NoteHandler.lst is not in src/handlers.py (Python); close names: NoteHandler.list"},
		{"Inventory.java", "Inventory.remove", "sym=Inventory.remove is not in src/Inventory.java (Java)"},
		// A class's field is not a top-level variable in Python.
		{"handlers.py", "page_size", "sym=page_size is not in src/handlers.py (Python)"},
	} {
		_, err := find(t, c.file, c.name, false)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %s: %v\n\twant %s", c.file, c.name, err, c.want)
		}
	}
}

// A prototype counts only when the file does not define the function.
func TestPrototypes(t *testing.T) {
	src := []byte("int f(int);\nint g(int);\nint f(int x) { return x; }\nint (*fp)(int);\nint *h(void);\n")
	ds, err := Parsers()["c"].Decls(src)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(lines(src, ds))
	// fp is a pointer to a function: a variable, not a prototype.
	want := "[func g 2–2 doc 2 func f 3–3 doc 3 func h 5–5 doc 5]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDocComments(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		first     int // human line of the declaration's first line
		doc       int // and of its doc comment's
	}{
		// A blank line ends the doc.
		{"python", "# not doc\n\n# doc\ndef f():\n    pass\n", 4, 3},
		// A trailing comment on a line of code is not a doc.
		{"python", "x = 1  # about x\ndef f():\n    pass\n", 2, 2},
		// In Python a doc comment is indented like its definition.
		{"python", "class C:\n    def a(self):\n        pass\n        # end of a\n    def b(self):\n        pass\n", 5, 5},
		{"javascript", "/* plain */\nfunction f() {}\n", 2, 2},
		{"javascript", "// one\n// two\nfunction f() {}\n", 3, 1},
		// Rust: //! is the enclosing item's; /// and /** */ are the next one's.
		{"rust", "//! crate\nfn f() {}\n", 2, 2},
		{"rust", "// plain\n/// doc\n#[inline]\nfn f() {}\n", 3, 2},
		{"java", "// plain\nclass A {}\n", 2, 2},
		{"java", "/** doc */\n@Deprecated\nclass A {}\n", 2, 1},
		{"c", "/* a */ int x;\nint f(void) { return 0; }\n", 2, 2},
		{"cpp", "// doc\n/* more */\ntemplate <class T> void f(T) {}\n", 3, 1},
	} {
		src := []byte(c.src)
		ds, err := Parsers()[c.lang].Decls(src)
		if err != nil {
			t.Errorf("%s %q: %v", c.lang, c.src, err)
			continue
		}
		found := false
		for _, d := range lines(src, ds) {
			if d.first == c.first {
				found = true
				if d.doc != c.doc {
					t.Errorf("%s %q: %s, want doc %d", c.lang, c.src, d, c.doc)
				}
			}
		}
		if !found {
			t.Errorf("%s %q: no declaration on line %d: %v", c.lang, c.src, c.first, lines(src, ds))
		}
	}
}

// Spans and doc comments follow the project's line ends: the fixtures with
// CR+LF give the same lines through the engine.
func TestCRLF(t *testing.T) {
	for _, f := range fixtures {
		src, err := os.ReadFile(filepath.Join("testdata", f.file))
		if err != nil {
			t.Fatal(err)
		}
		crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
		spans, err := symbol.Default().Merge(Parsers()).Symbols("src/"+f.file, "", crlf, true)
		if err != nil {
			t.Errorf("%s with CR+LF: %v", f.file, err)
			continue
		}
		if len(spans) != len(f.want) {
			t.Errorf("%s with CR+LF: %d spans, want %d", f.file, len(spans), len(f.want))
			continue
		}
		for i, w := range f.want {
			if s := spans[i]; s.Name != w.name || s.Start != w.doc-1 || s.End != w.last {
				t.Errorf("%s with CR+LF: %s %s, want %s", f.file, s.Name, s.Fragment(), w)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		file, src string
		line      int
		name      string // looked up; "" is ok
	}{
		{"a.py", "def ok():\n    pass\n\ndef broken(:\n    pass\n", 4, ""},
		{"a.js", "function ok() {}\n\nfunction broken( {\n}\n", 3, ""},
		{"a.ts", "interface I {\n  a: number;\n}\nlet x: = 3;\n", 4, ""},
		// An element never closed: the ERROR node starts at the statement
		// that holds it.
		{"a.tsx", "const A = () => <div>\n  <span>\n</div>;\n", 1, ""},
		{"a.rs", "fn ok() {}\n\nfn broken() {\n    let x = ;\n}\n", 4, ""},
		{"A.java", "class A {\n  void m() {\n    int x = 1\n  }\n}\n", 3, ""},
		// In C and C++ a name away from the error is still found
		// (TestConfinedErrors); the one with the error is not.
		{"a.c", "int ok(void) { return 0; }\nint broken(void) { return 0 }\n", 2, "broken"},
		// A class without its ; is noticed where the next declaration
		// cannot follow it.
		{"a.cpp", "int ok() { return 0; }\nclass C {\n  void m();\n}\nint after;\n", 5, "C"},
		// A bare CR ends a line for the project, not for the grammars: a
		// # comment would hide the def after it.
		{"a.py", "def ok():\n    pass\n# doc\rdef hidden():\r    pass\r", 3, ""},
		{"a.c", "int ok(void)\r\n{\r\n\treturn 0;\r\n}\r", 4, ""},
	} {
		name := c.name
		if name == "" {
			name = "ok"
		}
		_, err := symbol.Default().Merge(Parsers()).Find(c.file, "", []byte(c.src), symbol.Selector{Kind: symbol.Symbol, Name: name})
		e, ok := err.(*symbol.Error)
		if !ok || symbol.ErrorKind(err) != "parse" {
			t.Errorf("%s: %v, want a parse error", c.file, err)
			continue
		}
		if e.Line != c.line {
			t.Errorf("%s: error on line %d, want %d: %v", c.file, e.Line, c.line, err)
		}
		if strings.ContainsAny(err.Error(), "\n\r\t") {
			t.Errorf("%s: control characters in %q", c.file, err)
		}
	}
}

// Each call has its own tree-sitter parser: calls in parallel agree.
func TestConcurrent(t *testing.T) {
	set := Parsers()
	for _, f := range fixtures {
		src, err := os.ReadFile(filepath.Join("testdata", f.file))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f.file, func(t *testing.T) {
			t.Parallel()
			want := fmt.Sprint(f.want)
			for range 50 {
				ds, err := set[f.lang].Decls(src)
				if err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprint(lines(src, ds)); got != want {
					t.Fatalf("got %s", got)
				}
			}
		})
	}
}

func TestParsersKeys(t *testing.T) {
	set := Parsers()
	want := map[string]string{"python": "Python", "javascript": "JavaScript", "typescript": "TypeScript", "tsx": "TSX", "rust": "Rust", "java": "Java", "c": "C", "cpp": "C++"}
	if len(set) != len(want) {
		t.Errorf("%d parsers, want %d", len(set), len(want))
	}
	for k, name := range want {
		if p := set[k]; p == nil || p.Language() != name {
			t.Errorf("%s: %v", k, p)
		}
	}
}

// The parser's message quotes the source without raw control characters
// or invalid UTF-8.
func TestErrorQuote(t *testing.T) {
	for in, want := range map[string]string{
		"a\x01b":      "`a\\u0001b`",
		"x\xffy":      "`x\\xffy`",
		"ok \uFFFD é": "`ok \uFFFD é`",
		"\u0085":      "`\\u0085`",
	} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// Shapes the fixtures leave out: what is a name and what is not.
func TestEdgeDeclarations(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		want      string // the names, in order
	}{
		{"typescript", "export default () => 1;\nexport default class {}\ndeclare module \"x\" { function y(): void; }\nexport { a as b };\nexport = N;\n", ""},
		{"typescript", "declare namespace N.M { function q(): void; }\nnamespace A { namespace B { export class C { m() {} } } }\n", "N.M N.M.q A A.B A.B.C A.B.C.m"},
		{"typescript", "class K { #p = 1; static [Symbol.iterator]() {} 'quoted'() {} }\n", "K K.#p K.[Symbol.iterator] K.quoted"},
		{"javascript", "const { a, b } = o;\nconst [c] = o;\nlet d;\nfunction outer() { function inner() {} }\n", "d outer"},
		{"python", "a, b = 1, 2\nx.y = 3\nA = B = 4\nif True:\n    def hidden(): pass\n", "A B hidden"}, // a def in an if block is declared (python_blocks.go)
		{"rust", "impl<'a> super::Q<'a> { fn f() {} }\nimpl Tr for &mut S { fn g() {} }\nimpl (u8, u8) { fn h() {} }\nextern \"C\" { fn e(); }\n", "Q.f S.g"},
		{"java", "@interface Q { String v(); }\nenum E { A; void s() {} }\n", "Q Q.v E E.A E.s"},
		{"c", "struct fwd;\nstruct s { int a; } var;\ntypedef struct { int b; } anon_t;\ntypedef struct t { int c; } t_t;\nextern int x;\n", "s anon_t t_t t"},
		{"cpp", "extern \"C\" { int cf(void); }\nnamespace { int anon() { return 1; } }\nusing I = int;\nstruct S { struct In { void f(); } in; };\nvoid S::In::f() {}\n", "cf anon I S S.In S.In.f"},
	} {
		src := []byte(c.src)
		ds, err := Parsers()[c.lang].Decls(src)
		if err != nil {
			t.Errorf("%s %q: %v", c.lang, c.src, err)
			continue
		}
		var names []string
		for _, d := range ds {
			names = append(names, d.Name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("%s %q:\n got %s\nwant %s", c.lang, c.src, got, c.want)
		}
	}
}
