//go:build cgo

package treesitter

import (
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// Shapes met in real projects (field testing, issue 15), written afresh.

// A TypeScript member's decorators on lines of their own are part of its
// span, as a class's are, and its doc comment is the one above them. The
// TypeScript grammar puts them before the member in the class body.
func TestTypeScriptDecoratedMembers(t *testing.T) {
	src := strings.Join([]string{
		"@Panel({title: 'notes'})", // 1
		"export class NotePanel {", // 2
		"  @Bind() label = '';",    // 3
		"",                         // 4
		"  /** Saves the note. */", // 5
		"  @Debounce(200)",         // 6
		"  // why: clicks repeat",  // 7
		"  @Log",                   // 8
		"  save(): void {",         // 9
		"    this.label = '';",     // 10
		"  }",                      // 11
		"",                         // 12
		"  @Watch('label')",        // 13
		"  onLabel(): void {}",     // 14
		"  plain(): void {}",       // 15
		"}",                        // 16
		"",
	}, "\n")
	for _, lang := range []string{"typescript", "tsx"} {
		ds, err := Parsers()[lang].Decls([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		got := lines([]byte(src), ds)
		want := []decl{
			{"NotePanel", "class", 1, 16, 1},
			{"NotePanel.label", "field", 3, 3, 3},
			{"NotePanel.save", "method", 6, 11, 5},
			{"NotePanel.onLabel", "method", 13, 14, 13},
			{"NotePanel.plain", "method", 15, 15, 15},
		}
		if len(got) != len(want) {
			t.Fatalf("%s: got %v\nwant %v", lang, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: got %v, want %v", lang, got[i], want[i])
			}
		}
	}
}

// When a construct the grammar cannot read makes it give up on a whole
// include guard, the error is placed where the problem is, not on the
// guard's first line.
func TestParseErrorInsideGuard(t *testing.T) {
	src := strings.Join([]string{
		"// Ring buffer, header only.",  // 1
		"#ifndef RING_HPP",              // 2
		"#define RING_HPP",              // 3
		"",                              // 4
		"#ifndef RING_CLOSE",            // 5
		"#define RING_CLOSE \\",         // 6
		"    }  /* ring */ \\",          // 7
		"    }",                         // 8
		"#endif",                        // 9
		"",                              // 10
		"RING_OPEN",                     // 11
		"int ring_size() { return 8; }", // 12
		"RING_CLOSE",                    // 13
		"",                              // 14
		"#endif",                        // 15
		"",
	}, "\n")
	_, err := symbol.Default().Merge(Parsers()).Find("ring.hpp", "", []byte(src), symbol.Selector{Kind: symbol.Symbol, Name: "ring_size"})
	e, ok := err.(*symbol.Error)
	if !ok || symbol.ErrorKind(err) != "parse" {
		t.Fatalf("%v, want a parse error", err)
	}
	if e.Line < 6 || e.Line > 8 {
		t.Errorf("error on line %d, want the macro's lines 6–8: %v", e.Line, err)
	}
}

// A million nested brackets fail at once, in every language, as a parse
// error at the bracket that goes too deep; tree-sitter is not run (it took
// seconds and hundreds of megabytes on such a file).
func TestMillionNestedBrackets(t *testing.T) {
	const n = 1000000
	set := symbol.Default().Merge(Parsers())
	for _, c := range []struct{ file, head, open, close, tail string }{
		{"deep.py", "def f():\n    return ", "[", "]", "\n"},
		{"deep.js", "function f() { return ", "[", "]", "; }\n"},
		{"deep.ts", "function f() { return ", "(", ")", "; }\n"},
		{"deep.tsx", "function f() { return ", "(", ")", "; }\n"},
		{"deep.rs", "fn f() {\n", "{", "}", "\n}\n"},
		{"Deep.java", "class Deep { int f() { return ", "(", "1)", "; } }\n"},
		{"deep.c", "int f(void) {\n", "{", "}", "\n}\n"},
		{"deep.cpp", "int f() { return ", "(", "1)", "; }\n"},
	} {
		src := []byte(c.head + strings.Repeat(c.open, n) + strings.Repeat(c.close, n) + c.tail)
		start := time.Now()
		_, err := set.Find(c.file, "", src, symbol.Selector{Kind: symbol.Symbol, Name: "f"})
		took := time.Since(start)
		e, ok := err.(*symbol.Error)
		if !ok || symbol.ErrorKind(err) != "parse" || !strings.Contains(err.Error(), "nested more than 10000 deep") {
			t.Errorf("%s: %v, want a parse error about the nesting", c.file, err)
			continue
		}
		if want := strings.Count(c.head, "\n") + 1; e.Line != want {
			t.Errorf("%s: error on line %d, want %d", c.file, e.Line, want)
		}
		if took > time.Second {
			t.Errorf("%s: %v to refuse %d KB", c.file, took, len(src)/1024)
		}
	}
	// As deep as is allowed still parses: the body's { and the nesting
	// inside it make maxNesting.
	src := []byte("int f() { return " + strings.Repeat("(", maxNesting-1) + "1" + strings.Repeat(")", maxNesting-1) + "; }\n")
	if _, err := set.Find("ok.cpp", "", src, symbol.Selector{Kind: symbol.Symbol, Name: "f"}); err != nil {
		t.Errorf("%d nested parentheses: %v", maxNesting, err)
	}
}

// A trait's associated types are its items, as its consts and methods
// are; impl blocks with where clauses name their type's methods.
func TestRustTraitItemsAndWhereClauses(t *testing.T) {
	src := strings.Join([]string{
		"/// A source of readings.",                // 1
		"pub trait Sensor {",                       // 2
		"    /// What one reading holds.",          // 3
		"    type Reading: Copy;",                  // 4
		"    const RATE: u32;",                     // 5
		"    fn read(&mut self) -> Self::Reading;", // 6
		"}",                               // 7
		"",                                // 8
		"pub struct Probe<T> {",           // 9
		"    last: T,",                    // 10
		"}",                               // 11
		"",                                // 12
		"impl<T> Sensor for Probe<T>",     // 13
		"where",                           // 14
		"    T: Copy + Default,",          // 15
		"{",                               // 16
		"    type Reading = T;",           // 17
		"    const RATE: u32 = 10;",       // 18
		"    #[inline]",                   // 19
		"    fn read(&mut self) -> T {",   // 20
		"        self.last // the latest", // 21
		"    }",                           // 22
		"}",                               // 23
		"",
	}, "\n")
	ds, err := Parsers()["rust"].Decls([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := lines([]byte(src), ds)
	want := []decl{
		{"Sensor", "trait", 2, 7, 1},
		{"Sensor.Reading", "type", 4, 4, 3},
		{"Sensor.RATE", "const", 5, 5, 5},
		{"Sensor.read", "method", 6, 6, 6},
		{"Probe", "struct", 9, 11, 9},
		{"Probe.Reading", "type", 17, 17, 17},
		{"Probe.RATE", "const", 18, 18, 18},
		{"Probe.read", "method", 19, 22, 19},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %v, want %v", got[i], want[i])
		}
	}
}
