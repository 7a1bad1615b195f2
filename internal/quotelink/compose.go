package quotelink

import (
	"errors"
	"fmt"
	"path"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// Options shape the link Compose writes. The zero value writes a link
// rooted at the project root, with the default caption and no options.
type Options struct {
	// Page is the project path of the Markdown page the link goes in: the
	// destination is relative to its directory. Default "": the
	// destination starts with "/" and resolves from the project root,
	// whichever page holds it.
	Page string
	// Caption is the link text, Markdown whose code spans (`Handle`)
	// are kept as written and whose other characters are escaped
	// (EscapeCaption). Default: the file's base name and the range in
	// human numbers, "a.go lines 11–20" (what the box's caption calls the
	// range), as plain text.
	Caption string
	// Title is the link title: per-link options such as
	// "hl=12,15-17 dedent lang=go", written as given. Default: none.
	Title string
	// Quote adds the "quote" option, which renders a char range in
	// running text as an inline quotation. Only for char ranges.
	Quote bool

	// plainCaption marks a Caption textfrag made (ComposeName's default),
	// which is plain text: its backticks are escaped.
	plainCaption bool
}

// ErrQuoteLines is matched by Compose's error when Options.Quote is set
// for a line range: quote applies to character ranges only.
var ErrQuoteLines = errors.New(`"quote" applies to character ranges only`)

// Compose writes the link that quotes r of the file at project path file,
// read as t: the fragment of r (Range.Fragment) pinned with the md5 of the
// file's bytes as stored, in the destination Dest writes for o.Page. It
// returns the selection the link makes, for its label and the file's
// facts. Errors are Range.Fragment's, or ErrQuoteLines.
func Compose(file string, r Range, t Text, o Options) (Link, *rfc5147.Selection, error) {
	f, err := r.Fragment(t)
	if err != nil {
		return Link{}, nil, err
	}
	if o.Quote && f.Scheme != rfc5147.Char {
		return Link{}, nil, fmt.Errorf("%w: give LINE:COL-LINE:COL, or character numbers with --char", ErrQuoteLines)
	}
	sel, err := t.Select(f)
	if err != nil {
		return Link{}, nil, err
	}
	f.Checks = []rfc5147.Check{{Kind: rfc5147.MD5, Name: "md5", Sum: sel.Entity.MD5, Value: sel.Entity.MD5Hex()}}
	l := Link{Text: o.Caption, Dest: Dest(o.Page, file, f.String()), Title: o.Title, CodeSpans: o.Caption != "" && !o.plainCaption}
	if l.Text == "" {
		l.Text = path.Base(file) + " " + sel.Label()
	}
	if o.Quote {
		if l.Title != "" {
			l.Title += " "
		}
		l.Title += "quote"
	}
	return l, sel, nil
}
