//go:build cgo

package treesitter

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// want is what a lookup must give: the human lines of a span (first,
// last), or a parse error on line errLine whose message names mention.
type want struct {
	first, last int
	errLine     int
	mention     string
}

func checkLookups(t *testing.T, file, src string, cases map[string]want) {
	t.Helper()
	set := symbol.Default().Merge(Parsers())
	for name, w := range cases {
		span, err := set.Find(file, "", []byte(src), symbol.Selector{Kind: symbol.Symbol, Name: name})
		if w.errLine == 0 {
			if err != nil {
				t.Errorf("%s %s: %v", file, name, err)
			} else if span.Start+1 != w.first || span.End != w.last {
				t.Errorf("%s %s: lines %s, want %d–%d", file, name, span.Human(), w.first, w.last)
			}
			continue
		}
		e, ok := err.(*symbol.Error)
		if !ok || symbol.ErrorKind(err) != "parse" {
			t.Errorf("%s %s: %v (span %s), want a parse error", file, name, err, span.Human())
			continue
		}
		if e.Line != w.errLine {
			t.Errorf("%s %s: error on line %d, want %d: %v", file, name, e.Line, w.errLine, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, w.mention) || !strings.HasSuffix(msg, "fix the file, or quote by region= or by lines") {
			t.Errorf("%s %s: message does not name %q and the remedy: %s", file, name, w.mention, msg)
		}
	}
}

// An export macro the grammar cannot read damages only the declaration it
// stands before, and none when it is on the line the declaration's type
// starts on; a __has_include condition and an extern "C" block split by
// #ifdef damage no declaration.
func TestConfinedExportMacros(t *testing.T) {
	src := strings.Join([]string{
		"// Public API of the widget library.", // 1
		"#pragma once",                         // 2
		"#if __has_include(<version>)",         // 3
		"#include <version>",                   // 4
		"#endif",                               // 5
		"",                                     // 6
		"#ifdef __cplusplus",                   // 7
		"extern \"C\" {",                       // 8
		"#endif",                               // 9
		"",                                     // 10
		"WIDGET_API",                           // 11
		"int widget_count(void);",              // 12
		"",                                     // 13
		"/* Opens a widget. */",                // 14
		"WIDGET_API int widget_open(const char *name);", // 15
		"WIDGET_API unsigned widget_flags(int id);",     // 16
		"WIDGET_API const char *widget_name(int id);",   // 17
		"WIDGET_API struct widget *widget_get(int id);", // 18
		"",                          // 19
		"int widget_close(int id);", // 20
		"",                          // 21
		"#ifdef __cplusplus",        // 22
		"}",                         // 23
		"#endif",                    // 24
		"",
	}, "\n")
	checkLookups(t, "widget.h", src, map[string]want{
		// The macro on a line of its own may or may not belong to the
		// declaration: its lines are not known.
		"widget_count": {errLine: 12, mention: "widget_count is named there"},
		"widget_open":  {first: 15, last: 15},
		"widget_flags": {first: 16, last: 16},
		"widget_name":  {first: 17, last: 17},
		// struct in the ERROR is a keyword: the declaration read is not
		// the one written.
		"widget_get":   {errLine: 18, mention: "widget_get is named there"},
		"widget_close": {first: 20, last: 20},
	})
	// The same in a class body, and the file's one exported class.
	cls := strings.Join([]string{
		"class Panel {",                     // 1
		" public:",                          // 2
		"  PANEL_API void show();",          // 3
		"  PANEL_API bool visible() const;", // 4
		"};",                                // 5
		"",                                  // 6
		"class PANEL_API Frame : public Widget {", // 7
		" public:",              // 8
		"  void draw();",        // 9
		"};",                    // 10
		"",                      // 11
		"void Panel::show() {}", // 12
		"",
	}, "\n")
	checkLookups(t, "panel.hpp", cls, map[string]want{
		"Panel.visible": {first: 4, last: 4},
		"Panel.show":    {first: 12, last: 12}, // the definition, not the prototype
		"Panel":         {first: 1, last: 5},
		"Frame":         {errLine: 7, mention: "Frame is named there"},
		"Frame.draw":    {errLine: 7, mention: "draw is named there"},
	})
	// Had Frame derived from Panel, Panel would be named in the damage
	// too, and fail: a name written there may be a declaration of it.
	checkLookups(t, "panel.hpp", strings.Replace(cls, "Widget", "Panel", 1), map[string]want{
		"Panel":         {errLine: 7, mention: "Panel is named there"},
		"Panel.visible": {first: 4, last: 4},
	})
}

// Namespace macros: the declaration right after a macro on a line of its
// own is damaged, the others are found with their lines.
func TestConfinedNamespaceMacros(t *testing.T) {
	src := strings.Join([]string{
		"#pragma once",                   // 1
		"#include \"config.hpp\"",        // 2
		"",                               // 3
		"SHAPES_NAMESPACE_BEGIN",         // 4
		"",                               // 5
		"double pi();",                   // 6
		"",                               // 7
		"// Area of a square of side s.", // 8
		"inline double square_area(double s) { return s * s; }", // 9
		"",                       // 10
		"struct Point {",         // 11
		"  double x, y;",         // 12
		"  double norm() const;", // 13
		"};",                     // 14
		"",                       // 15
		"SHAPES_NAMESPACE_END",   // 16
		"",
	}, "\n")
	checkLookups(t, "shapes.hpp", src, map[string]want{
		"pi":          {errLine: 6, mention: "pi is named there"},
		"square_area": {first: 9, last: 9},
		"Point":       {first: 11, last: 14},
		"Point.norm":  {first: 13, last: 13},
	})
	set := symbol.Default().Merge(Parsers())
	sp, err := set.Find("shapes.hpp", "", []byte(src), symbol.Selector{Kind: symbol.Symbol, Name: "square_area", Doc: true})
	if err != nil || sp.Start != 7 || sp.End != 9 {
		t.Errorf("square_area doc: %s %v, want lines 8–9", sp.Human(), err)
	}
}

// An error inside a function's body damages that function only: a name
// the body mentions is still found. An error that may hide a second
// declaration of a name fails the name even where one is found.
func TestConfinedBodiesAndHiddenNames(t *testing.T) {
	body := strings.Join([]string{
		"int helper(int x) { return x + 1; }",    // 1
		"",                                       // 2
		"int broken(int x) {",                    // 3
		"  return helper(x) +;",                  // 4
		"}",                                      // 5
		"",                                       // 6
		"int after(int x) { return broken(x); }", // 7
		"",
	}, "\n")
	checkLookups(t, "body.c", body, map[string]want{
		"helper": {first: 1, last: 1},
		"broken": {errLine: 4, mention: "the error is in or next to func broken (lines 3–5)"},
		"after":  {first: 7, last: 7},
	})
	hidden := strings.Join([]string{
		"#include <stdio.h>", // 1
		"",                   // 2
		"#ifdef FAST",        // 3
		"static int scale(int x) { return x << 1; }", // 4
		"#else",                                  // 5
		"int (scale)(int x) = { return x * 2; }", // 6
		"#endif",                                 // 7
		"",                                       // 8
		"int twice(int x) { return scale(x); }",  // 9
		"",
	}, "\n")
	// The parser sees one scale (line 4): the one on line 6 is in an
	// ERROR. Without the rule, sym=scale would quote line 4 and pass.
	_, err := Parsers()["c"].Decls([]byte(hidden))
	var pe *symbol.ParseError
	if !errors.As(err, &pe) || pe.Partial == nil {
		t.Fatalf("%v, want a partial parse", err)
	}
	n := 0
	for _, d := range pe.Partial.Decls {
		if d.Name == "scale" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the parse has %d declarations of scale, want the one the test is about", n)
	}
	checkLookups(t, "scale.c", hidden, map[string]want{
		"scale": {errLine: 6, mention: "scale is named there"},
		"twice": {first: 9, last: 9},
	})
}

// Braces decide scopes: braces the tree pairs otherwise than a compiler
// damage what lies between them, and a brace without a partner fails
// every name, naming its line.
func TestConfinedBraces(t *testing.T) {
	unbalanced := strings.Join([]string{
		"#if NEW_API",    // 1
		"namespace v2 {", // 2
		"#else",          // 3
		"namespace v1 {", // 4
		"#endif",         // 5
		"int f();",       // 6
		"}",              // 7
		"",
	}, "\n")
	checkLookups(t, "v.hpp", unbalanced, map[string]want{
		"f":    {errLine: 2, mention: "this brace has no partner"},
		"v1.f": {errLine: 2, mention: "this brace has no partner"},
	})
	// A class the grammar cannot read: its { is in an ERROR, so all of
	// it is damaged; the braces of a macro's text do not count.
	src := strings.Join([]string{
		"#define OPEN_NS namespace app {", // 1
		"#define CLOSE_NS }",              // 2
		"",                                // 3
		"template <typename T>",           // 4
		"class ALIGNED(16) Buffer final : Base<T> {", // 5
		"  T *data;",                       // 6
		"  int size() const { return n; }", // 7
		"};",                               // 8
		"",                                 // 9
		"int size(const char *s);",         // 10
		"int count(const char *s) { return s[0] == '{'; }", // 11
		"",
	}, "\n")
	checkLookups(t, "buf.hpp", src, map[string]want{
		"Buffer":      {errLine: 5, mention: "Buffer is named there"},
		"Buffer.size": {errLine: 5, mention: "size is named there"},
		"size":        {errLine: 5, mention: "size is named there"},
		"count":       {first: 11, last: 11},
		"OPEN_NS":     {first: 1, last: 1},
	})
}

// A #define whose text the grammar cannot read swallows the line after
// it (here an uppercase macro on a line of its own): the declaration after
// that is damaged, as it is after such a macro anywhere.
func TestConfinedBrokenDefine(t *testing.T) {
	src := strings.Join([]string{
		"// Ring buffer.",               // 1
		"#ifndef RING_HPP",              // 2
		"#define RING_HPP",              // 3
		"#define RING_CLOSE \\",         // 4
		"    }  /* ring */ \\",          // 5
		"    }",                         // 6
		"RING_OPEN",                     // 7
		"int ring_size() { return 8; }", // 8
		"RING_CLOSE",                    // 9
		"int ring_cap() { return 16; }", // 10
		"int ring_len() { return 0; }",  // 11
		"#endif",                        // 12
		"",
	}, "\n")
	checkLookups(t, "ring.hpp", src, map[string]want{
		"ring_size": {errLine: 4, mention: "ring_size is named there"},
		// After RING_CLOSE on a line of its own, as after any such
		// macro.
		"ring_cap": {errLine: 10, mention: "ring_cap is named there"},
		"ring_len": {first: 11, last: 11},
		"RING_HPP": {first: 3, last: 3},
	})
}

// The brace pairing reads literals and comments as a compiler does.
func TestPairBraces(t *testing.T) {
	for _, c := range []struct {
		src      string
		pairs    int
		unpaired int
	}{
		{"int f() { return '}'; }", 1, -1},
		{"int f() { return \"}\\\"}\"; }", 1, -1},
		{"int f() { /* } */ return 0; } // }", 1, -1},
		{"// a comment \\\n} continued\nint f() {}", 1, -1},
		{"auto s = R\"x(})\" )x\"; int f() {}", 1, -1},
		{"int n = 1'000; int f() { return '{'; }", 1, -1},
		{"#define A { \\\n  {\nint f() {}", 1, -1},
		{"double e = 1e+5; struct S { int a[2] = {1, 2}; };", 2, -1},
		{"int f() {\n", 0, 8},
		{"}\nint f() {}", 0, 0},
	} {
		pairs, unpaired := pairBraces([]byte(c.src))
		if len(pairs) != c.pairs || unpaired != c.unpaired {
			t.Errorf("%q: %d pairs, unpaired %d; want %d, %d", c.src, len(pairs), unpaired, c.pairs, c.unpaired)
		}
	}
}

// Other languages still fail every name in a file with an error.
func TestOnlyCFamilyIsConfined(t *testing.T) {
	src := "def ok():\n    pass\n\ndef broken(:\n    pass\n"
	_, err := Parsers()["python"].Decls([]byte(src))
	var pe *symbol.ParseError
	if !errors.As(err, &pe) || pe.Partial != nil {
		t.Fatalf("%v: want a parse error without a partial parse", err)
	}
}

// A line the grammar cannot read, inserted anywhere in the C and C++
// fixtures (where it makes a syntax error), never moves a name: each name
// of the clean file is either
// found on its own lines (shifted by the inserted line) or fails as
// ambiguous or not found as before, or as a parse error. (After a
// template<…> line the inserted line becomes what the template declares,
// and the declaration really starts a line later: those are left out.)
func TestConfinedNeverMoves(t *testing.T) {
	garbage := []string{
		"FOO_BEGIN", "#if __has_include(<x>)", "int )(;", "class X Y : {", "}", "{",
		"DECLARE(a, b)", "int f(", "IMGUI_API int",
	}
	set := symbol.Default().Merge(Parsers())
	for _, file := range []string{"ring.c", "shapes.cpp"} {
		src, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		clean, err := set.Symbols(file, "", src, false)
		if err != nil {
			t.Fatal(err)
		}
		type lookup struct {
			span symbol.Span
			err  error
		}
		before := make([]lookup, len(clean))
		for i, c := range clean {
			before[i].span, before[i].err = set.Find(file, "", src, symbol.Selector{Kind: symbol.Symbol, Name: c.Name})
		}
		lines := bytes.SplitAfter(src, []byte("\n"))
		found := 0
		for at := range lines {
			if at > 0 && bytes.HasPrefix(bytes.TrimSpace(lines[at-1]), []byte("template")) {
				continue
			}
			for _, g := range garbage {
				mutated := slices.Concat(bytes.Join(lines[:at], nil), []byte(g+"\n"), bytes.Join(lines[at:], nil))
				x := set.Index(file, "", mutated)
				if _, err := x.Symbols(false); err == nil {
					// The grammar read the line without an error (as
					// attributes after a declarator, or as a statement):
					// the clean parse is trusted as it always was.
					continue
				}
				for i, c := range clean {
					sel := symbol.Selector{Kind: symbol.Symbol, Name: c.Name}
					was, wasErr := before[i].span, before[i].err
					got, err := x.Find(sel)
					switch {
					case err != nil && (symbol.ErrorKind(err) == "parse" || symbol.ErrorKind(err) == symbol.ErrorKind(wasErr)):
					case err != nil:
						t.Errorf("%s, %q before line %d: %s: %v (was %v)", file, g, at+1, c.Name, err, wasErr)
					case wasErr != nil:
						t.Errorf("%s, %q before line %d: %s found on %s (was %v)", file, g, at+1, c.Name, got.Human(), wasErr)
					default:
						if was.Start >= at {
							was.Start++
						}
						if was.End > at {
							was.End++
						}
						if got.Start != was.Start || got.End != was.End {
							t.Errorf("%s, %q before line %d: %s on %s, want %s", file, g, at+1, c.Name, got.Human(), was.Human())
						}
						found++
					}
				}
			}
		}
		t.Logf("%s: %d lookups found their lines", file, found)
		if found == 0 {
			t.Errorf("%s: no name found in any mutated file", file)
		}
	}
}
