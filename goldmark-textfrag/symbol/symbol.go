package symbol

// This file holds the package's types: the contract that the tree-sitter
// parsers, the command, the language server and the Hugo corpus runner are
// written against (issue 15).

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

// Unavailable is implemented by a Parser that may be unable to run in this
// program (tree-sitter's parsers in a build without cgo): when Unavailable
// reports true, messages do not name its language among those sym= works in.
type Unavailable interface {
	Unavailable() bool
}

// Set maps a language name (as LanguageOf returns it) to its parser. The
// zero Set knows no language; Default knows Go.
type Set map[string]Parser

// ErrNotFound, ErrAmbiguous, ErrUnsupported, ErrParse and ErrUnclosed
// classify this package's errors for errors.Is; so do ErrMismatch,
// ErrTooLarge and ErrOptions, which front ends report with them.
var (
	ErrNotFound    = errors.New("name not found")
	ErrAmbiguous   = errors.New("name is ambiguous")
	ErrUnsupported = errors.New("no symbol parser for this language")
	ErrParse       = errors.New("source does not parse")
	ErrUnclosed    = errors.New("region is not closed")
	// ErrMismatch: the name spans other lines than the link quotes
	// (Error.Now and Error.Quoted say which).
	ErrMismatch = errors.New("name spans other lines than the link quotes")
	// ErrTooLarge: the file is too large to be held in memory and parsed;
	// its names are not looked up (never in a partial parse). ErrorKind
	// calls it "unsupported".
	ErrTooLarge = errors.New("file too large to look names up in")
	// ErrEmpty: a region's markers are adjacent, so it spans no line; a
	// link that names it quotes nothing, and fails as "textfrag link
	// --region" does.
	ErrEmpty = errors.New("region spans no line")
	// ErrOptions: a link title misuses sym=, region= or doc.
	ErrOptions = errors.New("misused sym=, region= or doc")
)

// Error is a selector that could not be resolved. Err is one of the Err
// values above. Its message says what is wrong and how to fix it, in the
// words of testdata/SYMBOLS.md, but for the re-pin command of a mismatch,
// which names the Markdown document (target.Explain adds it).
type Error struct {
	Selector Selector
	Path     string // the file's project path, for messages
	Language string // the language name, when known
	Err      error
	// Candidates are the spans an ambiguous name matched, or, for a name
	// not found, the closest names (at most 5), for the remedy.
	Candidates []Span
	// Detail is the parser's message for ErrParse, the marker line that
	// fixes an ErrUnclosed, and the reason for ErrUnsupported and
	// ErrTooLarge when there is one ("built without cgo").
	Detail string
	// Line is the human line (1-based) an ErrParse or ErrUnclosed is
	// about, 0 when unknown.
	Line int
	// Known are the languages the Set has parsers for (Parser.Language),
	// for ErrUnsupported.
	Known []string
	// Now is where the name is, and Quoted the lines the link quotes, for
	// ErrMismatch.
	Now, Quoted Span

	// unclosed says which marker is missing, for ErrUnclosed.
	unclosed unclosedHow
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	label := e.Selector.String()
	via := "sym="
	if e.Selector.Kind == Region {
		via = "region="
	}
	switch {
	case errors.Is(e.Err, ErrMismatch):
		return fmt.Sprintf("%s spans %s of %s now (#%s); the link quotes %s",
			label, e.Now.Lines(), e.Path, e.Now.Fragment(), e.Quoted.Lines())
	case errors.Is(e.Err, ErrNotFound):
		in := e.Path
		if e.Language != "" && e.Selector.Kind == Symbol {
			in += " (" + e.Language + ")"
		}
		msg := fmt.Sprintf("%s is not in %s", label, in)
		if len(e.Candidates) > 0 {
			names := make([]string, len(e.Candidates))
			for i, c := range e.Candidates {
				names[i] = c.Name
			}
			msg += "; close names: " + strings.Join(names, ", ")
		}
		return msg + "; fix the name, or quote by lines without " + via
	case errors.Is(e.Err, ErrAmbiguous):
		what, remedy := "declarations", "quote by a region= or by lines without sym="
		if e.Selector.Kind == Region {
			what, remedy = "begin markers", "give each region a name of its own"
		}
		list := make([]string, len(e.Candidates))
		for i, c := range e.Candidates {
			list[i] = fmt.Sprintf("%s %s (%s)", c.Kind, c.Name, c.Lines())
		}
		return fmt.Sprintf("%s matches %d %s in %s: %s; %s", label, len(e.Candidates), what, e.Path, strings.Join(list, ", "), remedy)
	case errors.Is(e.Err, ErrParse):
		lang := e.Language
		if lang == "" {
			lang = "its language"
		}
		at := ""
		if e.Line > 0 {
			at = fmt.Sprintf(" (line %d)", e.Line)
		}
		return fmt.Sprintf("%s does not parse as %s%s: %s; fix the file, or quote by region= or by lines", e.Path, lang, at, e.Detail)
	case errors.Is(e.Err, ErrUnclosed):
		return e.unclosedMessage(label)
	case errors.Is(e.Err, ErrEmpty):
		return fmt.Sprintf("%s spans no line of %s: its markers (lines %d and %d) are adjacent; put the lines to quote between them, or quote by lines without region=",
			label, e.Path, e.Now.Start, e.Now.Start+1)
	case errors.Is(e.Err, ErrTooLarge):
		why := ""
		if e.Detail != "" {
			why = " (" + e.Detail + ")"
		}
		return fmt.Sprintf("%s is too large to look names up in%s; quote by lines without %s", e.Path, why, via)
	case errors.Is(e.Err, ErrUnsupported):
		what := e.Path
		switch {
		case e.Language != "" && e.Detail != "":
			what += " (" + e.Language + ": " + e.Detail + ")"
		case e.Language != "":
			what += " (" + e.Language + ")"
		case e.Detail != "":
			what += " (" + e.Detail + ")"
		}
		works := "in no language here"
		if len(e.Known) > 0 {
			works = "in " + strings.Join(e.Known, ", ")
		}
		return fmt.Sprintf("no symbol parser for %s; sym= works %s; quote by region= (any language) or by lines", what, works)
	}
	msg := fmt.Sprintf("%s in %s: %v", label, e.Path, e.Err)
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

// Lines names a span's lines for messages: "lines 12–30", "line 12", or
// for an empty span "no lines (before line 12)".
func (s Span) Lines() string {
	switch {
	case s.End <= s.Start:
		return fmt.Sprintf("no lines (before line %d)", s.Start+1)
	case s.End-s.Start == 1:
		return fmt.Sprintf("line %d", s.Start+1)
	}
	return fmt.Sprintf("lines %d–%d", s.Start+1, s.End)
}

// Unsupported returns an error wrapping ErrUnsupported whose message is
// reason, for a Parser that cannot run here ("built without cgo"): Find
// reports it as a language without a parser, with the reason.
func Unsupported(reason string) error { return &unsupported{reason} }

type unsupported struct{ reason string }

func (e *unsupported) Error() string { return e.reason }
func (e *unsupported) Unwrap() error { return ErrUnsupported }

// OptionsError returns an error wrapping ErrOptions whose message is msg
// as written ("link title: …"), for a front end's own checks of a title's
// names (a name on a char= fragment, say).
func OptionsError(msg string) error { return &optionsError{msg} }

type optionsError struct{ msg string }

func (e *optionsError) Error() string { return e.msg }
func (e *optionsError) Unwrap() error { return ErrOptions }

// ParseError is source a Parser could not parse: its first error.
type ParseError struct {
	// Offset is the byte offset of the error in the source given to the
	// parser, or -1 when unknown; the engine turns it into a line.
	Offset int
	Msg    string
	// Partial, when not nil, is what a name may still be looked up in:
	// the parser could say which names its errors may have misread. A
	// lookup that no Damage touches uses Partial.Decls; any other lookup,
	// and Index.Symbols, fails with this error. Nil (the zero value): no
	// name is looked up in the file.
	Partial *Partial
}

// Partial is a parse with syntax errors, each of which a parser has
// confined to a part of the file (testdata/SYMBOLS.md §7).
type Partial struct {
	// Decls are every declaration the parser found, as Decls would
	// return them; some may lie in Damage.
	Decls []Decl
	// Damage is, for each error, what it may have misread, in source
	// order.
	Damage []Damage
}

// Damage is the part of a file one syntax error may have misread.
type Damage struct {
	// Offset is where the error is (-1 when unknown) and Msg what the
	// parser found there, for the message.
	Offset int
	Msg    string
	// Start and End (exclusive) are the bytes the parser may have read
	// wrongly: a declaration overlapping them is not trusted, and neither
	// is a lookup with a candidate there.
	Start, End int
	// Words are the identifiers a declaration the error hid or made up
	// could be named by: a name whose last component is one of them fails.
	Words []string
}

func (e *ParseError) Error() string { return e.Msg }

// Unwrap returns ErrParse.
func (e *ParseError) Unwrap() error { return ErrParse }

// ErrorKind returns the sub-kind of a symbol error, as the corpus's
// want.symbol names it: "mismatch", "not-found", "ambiguous", "parse",
// "unclosed", "unsupported" (ErrUnsupported and ErrTooLarge), "options" or
// "empty";
// "" when err is none of these.
func ErrorKind(err error) string {
	for _, k := range []struct {
		err  error
		name string
	}{
		{ErrMismatch, "mismatch"},
		{ErrNotFound, "not-found"},
		{ErrAmbiguous, "ambiguous"},
		{ErrParse, "parse"},
		{ErrUnclosed, "unclosed"},
		{ErrUnsupported, "unsupported"},
		{ErrTooLarge, "unsupported"},
		{ErrOptions, "options"},
		{ErrEmpty, "empty"},
	} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return ""
}
