package target

import (
	"errors"
	"fmt"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// FindName resolves the selector sel (sym= or region=) in the file at
// project path p, as Resolve found it (Result.Path); lang is the link's
// lang= option or "". A file's names are parsed once per Resolver, until
// Forget (or longer: Options.NameCacheLimit), however many links name
// them: the text is the one Resolve quotes. A file the Resolver streams (over its cache limit) is an error
// (symbol.ErrTooLarge): names are never looked up in part of a file.
func (r *Resolver) FindName(p, lang string, sel symbol.Selector) (symbol.Span, error) {
	x, err := r.Names(p, lang)
	if err != nil {
		var se *symbol.Error
		if errors.As(err, &se) {
			e := *se
			e.Selector = sel
			return symbol.Span{}, &e
		}
		return symbol.Span{}, err
	}
	return x.Find(sel)
}

// Names returns the names of the file at p (a project path as Resolve
// found it, or a remote target's URL) in the language symbol.LanguageOf(p,
// lang) gives, made once per Resolver (or kept longer, NameCacheLimit):
// what FindName looks names up in, and what an editor lists for
// completion. A file the Resolver streams is symbol.ErrTooLarge.
func (r *Resolver) Names(p, lang string) (*symbol.Index, error) {
	var e *entry
	if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
		u, ok := remoteURL(p)
		if !ok || r.remote == nil || !r.remote.allows(u) {
			return nil, fmt.Errorf("%w: %s", ErrNotOurs, p)
		}
		e = r.entry(u.String())
		e.once.Do(func() { e.err = r.fillRemote(e, u) })
		if e.err != nil {
			return nil, e.err
		}
	} else {
		var err error
		if e, err = r.load(p); err != nil {
			return nil, err
		}
	}
	if e.text == nil {
		return nil, &symbol.Error{Path: p, Err: symbol.ErrTooLarge,
			Detail: fmt.Sprintf("over %s, the most the resolver holds in memory", formatSize(r.cacheLimit))}
	}
	language := symbol.LanguageOf(p, lang)
	e.namesMu.Lock()
	defer e.namesMu.Unlock()
	x := e.names[language]
	if x == nil {
		if e.names == nil {
			e.names = make(map[string]*symbol.Index, 1)
		}
		if r.nameCache != nil {
			x = r.nameCache.index(r.symbols, p, lang, e.text.Bytes())
		} else {
			x = r.symbols.Index(p, lang, e.text.Bytes())
		}
		e.names[language] = x
	}
	return x, nil
}

// formatSize writes a byte count as people read it: "8 MiB", "1500 bytes".
func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// CheckName verifies the name sel written in the title of the link that
// res resolved (in the document at project path doc): it must span
// exactly the lines the link quotes, so that a quote kept on a symbol or a
// region fails the build once the name moved, grew or shrank. Call it
// after Resolve succeeded; lang is the link's lang= option or "". The
// error is an *Error holding the *symbol.Error (Kind "symbol"), with Result
// set so that a front end can re-pin: symbol.ErrMismatch when the lines
// differ (a clamped range never matches), symbol.ErrEmpty for a region
// whose markers are adjacent, symbol.ErrOptions when the link
// is not a line range (char=, or a single line position), and the errors
// of FindName.
func (r *Resolver) CheckName(doc string, res *Result, lang string, sel symbol.Selector) error {
	fail := func(err error) error {
		return &Error{Doc: doc, Link: res.Link.Written, Path: res.Path, Err: err, Result: res}
	}
	if err := NameOnFragment(sel, res.Fragment); err != nil {
		return fail(err)
	}
	now, err := r.FindName(res.Path, lang, sel)
	if err != nil {
		return fail(err)
	}
	if sel.Kind == symbol.Region && now.End <= now.Start {
		// Markers with no line between them: the quote would be empty.
		return fail(&symbol.Error{Selector: sel, Path: res.Path, Err: symbol.ErrEmpty, Now: now})
	}
	s := res.Selection
	quoted := symbol.Span{Start: int(s.Lines.Start), End: int(s.Lines.End)}
	if s.Clamped || quoted.Start != now.Start || quoted.End != now.End {
		return fail(&symbol.Error{Selector: sel, Path: res.Path, Err: symbol.ErrMismatch, Now: now, Quoted: quoted})
	}
	return nil
}

// NameOnFragment returns an error wrapping symbol.ErrOptions when a name
// cannot be checked against the fragment f: a name spans lines, so the link
// must quote a range of lines (not char=, not a single position line=5).
func NameOnFragment(sel symbol.Selector, f rfc5147.Fragment) error {
	switch {
	case f.Scheme != rfc5147.Line:
		return symbol.OptionsError(fmt.Sprintf("link title: %s needs a line range (#line=a,b), not %s=: a name spans whole lines; quote by lines, or drop %s",
			sel, f.Scheme, sel))
	case f.Form == rfc5147.Position:
		return symbol.OptionsError(fmt.Sprintf("link title: %s needs a line range (#line=a,b), not the single position line=%d; write the range the name spans (`textfrag link` does)",
			sel, f.Start))
	}
	return nil
}
