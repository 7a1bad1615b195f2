package symbol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// partialParser returns a fixed partial parse of partialSrc, as a
// tree-sitter parser does for C with errors.
type partialParser struct{ damage []symbol.Damage }

// partialSrc: lines 1–3 a, 4 garbage, 5–6 b, 7 c, 8 ~d.
const partialSrc = "int a() {\n  return 1;\n}\nFOO BAR(x\nint b()\n{ return 2; }\nint c;\nd::~d() {}\n"

func (p partialParser) Language() string { return "C" }
func (p partialParser) Decls(src []byte) ([]symbol.Decl, error) {
	at := func(s string) int { return strings.Index(partialSrc, s) }
	decls := []symbol.Decl{
		{Name: "a", Kind: "func", Start: 0, End: at("FOO") - 1, DocStart: 0},
		{Name: "b", Kind: "func", Start: at("int b"), End: at("int c") - 1, DocStart: at("int b")},
		{Name: "c", Kind: "var", Start: at("int c"), End: at("d::") - 1, DocStart: at("int c")},
		{Name: "d.~d", Kind: "method", Start: at("d::"), End: len(partialSrc) - 1, DocStart: at("d::")},
	}
	return nil, &symbol.ParseError{Offset: at("BAR"), Msg: "unexpected `BAR`", Partial: &symbol.Partial{Decls: decls, Damage: p.damage}}
}

func TestPartialParse(t *testing.T) {
	at := func(s string) int { return strings.Index(partialSrc, s) }
	garbage := symbol.Damage{Offset: at("BAR"), Msg: "unexpected `BAR`", Start: at("FOO"), End: at("int b") - 1, Words: []string{"FOO", "BAR", "x", "d"}}
	set := symbol.Set{"c": partialParser{[]symbol.Damage{garbage}}}
	find := func(name string) (symbol.Span, error) {
		return set.Find("a.c", "", []byte(partialSrc), symbol.Selector{Kind: symbol.Symbol, Name: name})
	}
	// Away from the damage: found, with its lines.
	if sp, err := find("a"); err != nil || sp.Start != 0 || sp.End != 3 {
		t.Errorf("a: %s %v, want lines 1–3", sp.Human(), err)
	}
	if sp, err := find("b"); err != nil || sp.Start != 4 || sp.End != 6 {
		t.Errorf("b: %s %v, want lines 5–6", sp.Human(), err)
	}
	// Not declared, and not named in the damage: not found.
	if _, err := find("e"); symbol.ErrorKind(err) != "not-found" {
		t.Errorf("e: %v, want not-found", err)
	}
	// Named in the damage: a parse error at the error's line, though not
	// declared (the damage may hide it), and though found elsewhere.
	for _, name := range []string{"x", "FOO", "d.~d", "d::~d"} {
		_, err := find(name)
		var e *symbol.Error
		if !errors.As(err, &e) || !errors.Is(err, symbol.ErrParse) || e.Line != 4 {
			t.Errorf("%s: %v, want a parse error on line 4", name, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "the parser could not read line 4 as written") || !strings.HasSuffix(msg, "quote by region= or by lines") {
			t.Errorf("%s: %s", name, msg)
		}
	}
	// A candidate overlapping damage fails, whatever its name.
	wide := garbage
	wide.Start, wide.Words = at("return 1"), nil
	set = symbol.Set{"c": partialParser{[]symbol.Damage{wide}}}
	if _, err := find("a"); !errors.Is(err, symbol.ErrParse) || !strings.Contains(err.Error(), "the error is in or next to func a (lines 1–3)") {
		t.Errorf("a overlapping damage: %v", err)
	}
	if _, err := find("b"); err != nil {
		t.Errorf("b: %v", err)
	}
	// A partial parse is not a list of the file's declarations.
	if _, err := set.Symbols("a.c", "", []byte(partialSrc), false); !errors.Is(err, symbol.ErrParse) {
		t.Errorf("Symbols: %v, want the parse error", err)
	}
	// Damage outside the file is the parser's bug: every name fails.
	bad := garbage
	bad.End = len(partialSrc) + 1
	set = symbol.Set{"c": partialParser{[]symbol.Damage{bad}}}
	if _, err := find("a"); !errors.Is(err, symbol.ErrParse) || !strings.Contains(err.Error(), "bug in the parser") {
		t.Errorf("damage outside the file: %v", err)
	}
	// Without damage (every error was harmless) names are found.
	set = symbol.Set{"c": partialParser{nil}}
	if _, err := find("x"); symbol.ErrorKind(err) != "not-found" {
		t.Errorf("x without damage: %v, want not-found", err)
	}
}
