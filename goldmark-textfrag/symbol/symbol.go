package symbol

// This file fixes the package's API (issue 15). Bodies marked "stub" are
// filled in by the engine's implementation; the types are the contract that
// the tree-sitter parsers, the command, the language server and the Hugo
// corpus runner are written against.

import (
	"errors"
	"fmt"
	"strings"
)

// Kind says how a Selector names lines.
type Kind uint8

const (
	// Symbol is a declaration found by a language's parser: sym=NAME.
	Symbol Kind = iota + 1
	// Region is the lines between two marker comments: region=NAME.
	Region
)

// Selector is a name written in a link's title: "sym=Server.Handle",
// "sym=Server.Handle doc" or "region=setup".
type Selector struct {
	Kind Kind
	// Name is the name as written. Symbol names are qualified with "." (a
	// method is Type.Method); "::" is accepted and means the same.
	Name string
	// Doc makes a symbol's span start at its doc comment (title word "doc").
	// It is false for regions.
	Doc bool
}

// String returns the selector as a link title writes it.
func (s Selector) String() string {
	switch s.Kind {
	case Symbol:
		if s.Doc {
			return "sym=" + s.Name + " doc"
		}
		return "sym=" + s.Name
	case Region:
		return "region=" + s.Name
	}
	return ""
}

// Span is the lines a name spans now, as RFC 5147 line positions: the link
// #line=Start,End quotes exactly those lines. End is exclusive.
type Span struct {
	Start, End int
	// Name is the qualified name found; Kind what it is ("func", "method",
	// "type", "class", "region", …), for messages and completion.
	Name, Kind string
}

// Human returns the span in human line numbers, "12–30" or "12".
func (s Span) Human() string {
	if s.End-s.Start <= 1 {
		return fmt.Sprint(s.Start + 1)
	}
	return fmt.Sprintf("%d–%d", s.Start+1, s.End)
}

// Fragment returns the RFC 5147 fragment that quotes the span, without
// integrity checks: "line=11,30".
func (s Span) Fragment() string { return fmt.Sprintf("line=%d,%d", s.Start, s.End) }

// Decl is one declaration a Parser found. Offsets are bytes into the source
// it was given; the engine turns them into line positions with the
// project's line-ending rule (SEMANTICS.md §2), so parsers need not count
// lines.
type Decl struct {
	// Name is qualified with ".": "Server.Handle", "List.Push" for a
	// generic receiver List[T], "Outer.Inner.method".
	Name string
	// Kind is "func", "method", "type", "const", "var", "class", "struct",
	// "enum", "interface", "trait", "impl", "namespace", "field", ….
	Kind string
	// Start and End delimit the declaration (decorators, attributes and
	// annotations included; doc comment excluded). End is exclusive.
	Start, End int
	// DocStart is where the doc comment that precedes the declaration
	// starts; it equals Start when there is none.
	DocStart int
}

// Parser finds the declarations of one language.
type Parser interface {
	// Language names the language in messages, e.g. "Go", "Python".
	Language() string
	// Decls returns every named declaration in src (UTF-8, no BOM), in
	// source order. Source that does not parse is an error (*ParseError):
	// a name is never looked up in a guess.
	Decls(src []byte) ([]Decl, error)
}

// Set maps a language name (as LanguageOf returns it) to its parser. The
// zero Set knows no language; Default knows Go.
type Set map[string]Parser

// ErrNotFound, ErrAmbiguous, ErrUnsupported, ErrParse and ErrUnclosed
// classify this package's errors for errors.Is.
var (
	ErrNotFound    = errors.New("name not found")
	ErrAmbiguous   = errors.New("name is ambiguous")
	ErrUnsupported = errors.New("no symbol parser for this language")
	ErrParse       = errors.New("source does not parse")
	ErrUnclosed    = errors.New("region is not closed")
)

// Error is a selector that could not be resolved. Err is one of the Err
// values above.
type Error struct {
	Selector Selector
	Path     string // the file's project path, for messages
	Language string // the language name, when known
	Err      error
	// Candidates are the spans an ambiguous name matched, or, for a name
	// not found, the closest names (at most 5), for the remedy.
	Candidates []Span
	// Detail is the parser's message for ErrParse and the marker line for
	// ErrUnclosed.
	Detail string
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s: %v", e.Selector, e.Path, e.Err)
	if e.Detail != "" {
		b.WriteString(" (" + e.Detail + ")")
	}
	return b.String()
}

// LanguageOf returns the language a file's names are looked up in: lang
// (a link's lang= option) when it names a language of this package, else
// by the file name's extension: "go", "python", "javascript", "typescript",
// "tsx", "rust", "java", "c", "cpp"; "" when unknown.
func LanguageOf(path, lang string) string { return "" } // stub

// Default returns a Set that knows Go (through go/parser).
func Default() Set { return Set{} } // stub

// Find resolves sel in src, the decoded text (UTF-8, no BOM) of the file
// whose project path is path; lang is the link's lang= option or "".
// Regions need no parser and work in any language.
func (s Set) Find(path, lang string, src []byte, sel Selector) (Span, error) { // stub
	return Span{}, &Error{Selector: sel, Path: path, Err: ErrUnsupported}
}

// Symbols returns the span of every declaration in src, in source order,
// with doc comments when doc is set (for completion and reverse lookups).
func (s Set) Symbols(path, lang string, src []byte, doc bool) ([]Span, error) { // stub
	return nil, &Error{Path: path, Err: ErrUnsupported}
}

// Regions returns every region in src, in the order of their begin markers.
func Regions(src []byte) ([]Span, error) { return nil, nil } // stub
