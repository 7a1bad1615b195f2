package quotelink

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// This file writes links that quote a name: a symbol (sym=Server.Handle)
// or a region between marker comments (region=setup). The link is the
// standard one for the lines the name spans today; the name goes in the
// link's title, where builds check that it still spans those lines and pin
// follows it when it moves.

// ErrName is matched by errors for a name that cannot be written in a link
// title, or a title whose name options contradict each other; those errors
// wrap symbol.ErrOptions too.
var ErrName = errors.New("bad name")

// titleError is an error about a name that also matches ErrName, with its
// own message (symbol.ParseSelector's, as builds print it, for a title).
type titleError struct{ err error }

func (e titleError) Error() string   { return e.err.Error() }
func (e titleError) Unwrap() []error { return []error{ErrName, e.err} }

// ParseNameRef splits FILE:NAME, as an author names a symbol
// ("src/server.go:Server.Handle", "src/lib.rs:App::run"). ok is false when
// ref is FILE:START[-END] (ParseRef's), or has no ':' after its last '/'.
// FILE ends at a ':' not doubled ("::" belongs to the name); when there are
// several, FILE is the shortest prefix for which isFile reports true, else
// the shortest (isFile nil: the shortest).
func ParseNameRef(ref string, isFile func(string) bool) (file, name string, ok bool) {
	if refPattern.MatchString(ref) {
		return "", "", false
	}
	var splits []int
	base := strings.LastIndexByte(ref, '/') + 1
	for i := base; i < len(ref); i++ {
		if ref[i] != ':' {
			continue
		}
		if i+1 < len(ref) && ref[i+1] == ':' {
			i++ // "::" separates names
			continue
		}
		if i > 0 && i+1 < len(ref) {
			splits = append(splits, i)
		}
	}
	if len(splits) == 0 {
		return "", "", false
	}
	at := splits[0]
	if isFile != nil {
		for _, i := range splits {
			if isFile(ref[:i]) {
				at = i
				break
			}
		}
	}
	return ref[:at], ref[at+1:], true
}

// NewSelector returns the selector for a symbol name (region false) or a
// region name, with doc (a symbol's span starts at its doc comment), by
// the rule builds read titles with (symbol.ParseSelector). Errors wrap
// ErrName.
func NewSelector(name string, region, doc bool) (symbol.Selector, error) {
	title := "sym=" + name
	if region {
		title = "region=" + name
	}
	if strings.ContainsFunc(name, unicode.IsSpace) {
		return symbol.Selector{}, titleError{fmt.Errorf("%q: a name has no spaces", title)}
	}
	if doc {
		title += " doc"
	}
	sel, _, _, err := TitleName(title)
	return sel, err
}

// TitleName reads the name options of a link title as builds read them
// (symbol.ParseSelector): the selector of its sym=NAME (with doc) or
// region=NAME, and its lang= option (the last one). named is false when
// the title names nothing. Errors wrap ErrName and symbol.ErrOptions: both
// sym= and region=, either twice, doc without sym=, an empty or malformed
// name.
func TitleName(title string) (sel symbol.Selector, lang string, named bool, err error) {
	sel, named, err = symbol.ParseSelector(title)
	if err != nil {
		return symbol.Selector{}, "", false, titleError{err}
	}
	return sel, symbol.TitleLang(title), named, nil
}

// Caption returns the default link text of a link that quotes sel in the
// file at project path file: "server.go: Server.Handle", "a.go: region
// setup".
func Caption(file string, sel symbol.Selector) string {
	if sel.Kind == symbol.Region {
		return path.Base(file) + ": region " + sel.Name
	}
	return path.Base(file) + ": " + sel.Name
}

// ComposeName writes the link that quotes the lines span (where sel is
// found now, by the Resolver's FindName) of the file at project path file,
// read as t: the line range pinned with the md5, as Compose writes it, with
// sel recorded first in the title and o.Title after it. The caption
// defaults to Caption's. Errors wrap ErrName (o.Title names a symbol or
// region itself, or the span is empty: markers with no line between them),
// ErrQuoteLines (o.Quote: a name quotes lines), or are Compose's.
func ComposeName(file string, sel symbol.Selector, span symbol.Span, t Text, o Options) (Link, *rfc5147.Selection, error) {
	if o.Quote {
		return Link{}, nil, fmt.Errorf("%w: a name quotes whole lines", ErrQuoteLines)
	}
	if _, _, named, err := TitleName(o.Title); err != nil || named {
		return Link{}, nil, titleError{fmt.Errorf("the options %q name a symbol or region themselves; give the name as FILE:NAME or --region NAME (and doc as --doc), not in the options", o.Title)}
	}
	if span.End <= span.Start {
		return Link{}, nil, titleError{fmt.Errorf("%s spans no line (its markers are adjacent); put the lines to quote between %s and %s", sel, "textfrag:begin "+sel.Name, "textfrag:end "+sel.Name)}
	}
	if o.Caption == "" {
		o.Caption, o.plainCaption = Caption(file, sel), true
	}
	if o.Title == "" {
		o.Title = sel.String()
	} else {
		o.Title = sel.String() + " " + o.Title
	}
	return Compose(file, Range{Unit: Lines, Start: int64(span.Start) + 1, End: int64(span.End)}, t, o)
}

// Markers advises the marker lines of region name in file: for Go, the
// directive form "//textfrag:begin NAME" (no space after //), which Go's
// doc comments leave out, so the markers never show in go doc; for other
// files, comment lines holding "textfrag:begin NAME".
func Markers(file, name string) string {
	if strings.EqualFold(path.Ext(file), ".go") {
		return fmt.Sprintf("the lines `//textfrag:begin %s` and `//textfrag:end %s` (no space after //: Go leaves such directives out of doc comments)", name, name)
	}
	return fmt.Sprintf("comment lines `textfrag:begin %s` and `textfrag:end %s` (after the file's comment leader: # textfrag:begin %s)", name, name, name)
}

// ExplainName words an error of Resolver.FindName (a *symbol.Error) for
// someone writing a link with "textfrag link": what is wrong and the
// command that works instead. file is FILE as they wrote it; languages
// names the languages sym= works in (for ErrUnsupported).
func ExplainName(file string, err error, languages []string) string {
	var se *symbol.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	sel := se.Selector
	in := se.Path
	if se.Language != "" {
		in += " (" + se.Language + ")"
	}
	byLines := fmt.Sprintf("`textfrag link %s:START-END`", file)
	switch {
	case errors.Is(err, symbol.ErrNotFound):
		msg := fmt.Sprintf("%s is not in %s", sel, in)
		if len(se.Candidates) == 0 && sel.Kind == symbol.Region {
			return msg + fmt.Sprintf("; check the name, or mark the lines to quote with %s, or quote by lines: %s", Markers(file, sel.Name), byLines)
		}
		if len(se.Candidates) == 0 {
			return msg + "; check the name, or quote by lines: " + byLines
		}
		var names []string
		for _, c := range se.Candidates {
			names = append(names, c.Name)
		}
		return fmt.Sprintf("%s; close names: %s; for the first: `textfrag link %s`", msg, strings.Join(names, ", "), nameRef(file, sel, se.Candidates[0].Name))
	case errors.Is(err, symbol.ErrAmbiguous):
		var cands []string
		for _, c := range se.Candidates {
			cands = append(cands, fmt.Sprintf("%s %s (%s)", c.Kind, c.Name, c.Lines()))
		}
		remedy := "quote one by its lines"
		if len(se.Candidates) > 0 {
			remedy += fmt.Sprintf(", e.g. `textfrag link %s:%s`", file, strings.ReplaceAll(se.Candidates[0].Human(), "–", "-"))
		}
		if sel.Kind == symbol.Symbol {
			remedy += fmt.Sprintf(", or mark it with %s and use --region NAME", Markers(file, "NAME"))
		} else {
			remedy = "give each region its own name (a name is begun once), or " + remedy
		}
		what := "declarations"
		if sel.Kind == symbol.Region {
			what = "begin markers"
		}
		return fmt.Sprintf("%s matches %d %s in %s: %s; %s", sel, len(se.Candidates), what, se.Path, strings.Join(cands, ", "), remedy)
	case errors.Is(err, symbol.ErrUnsupported):
		msg := fmt.Sprintf("no symbol parser for %s", se.Path)
		if se.Detail != "" {
			msg += " (" + se.Detail + ")"
		}
		if len(languages) > 0 {
			msg += "; sym= works in " + strings.Join(languages, ", ")
		}
		return msg + fmt.Sprintf("; mark the lines with %s and run `textfrag link %s --region NAME` (any language), or quote by lines: %s", Markers(file, "NAME"), file, byLines)
	case errors.Is(err, symbol.ErrParse):
		msg := fmt.Sprintf("%s does not parse", se.Path)
		if se.Language != "" {
			msg += " as " + se.Language
		}
		if se.Line > 0 {
			msg += fmt.Sprintf(" (line %d)", se.Line)
		}
		if se.Detail != "" {
			msg += ": " + se.Detail
		}
		return msg + fmt.Sprintf("; fix the file, or quote by region (`textfrag link %s --region NAME`) or by lines: %s", file, byLines)
	case errors.Is(err, symbol.ErrUnclosed):
		// The engine's message says which marker is missing, at which
		// line, and the line to add.
		return se.Error()
	}
	return err.Error()
}

// nameRef writes the reference "textfrag link" takes for name in file.
func nameRef(file string, sel symbol.Selector, name string) string {
	if sel.Kind == symbol.Region {
		return file + " --region " + name
	}
	ref := file + ":" + name
	if sel.Doc {
		ref += " --doc"
	}
	return ref
}
