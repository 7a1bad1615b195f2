package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/quotelink"
	"github.com/textfrag/textfrag/internal/symbols"
)

func init() {
	register(command{name: "link", summary: "print a pinned link that quotes lines of a file: textfrag link src/a.go:11-20 --from docs/guide.md", run: runLink})
}

const linkHelp = `Usage: textfrag link FILE:START[-END] [--from PAGE.md] [flags]

Prints a Markdown link that quotes lines START to END of FILE (human
numbers: from 1, both included; END defaults to START), ready to paste:

  $ textfrag link src/a.go:11-20 --from docs/guide.md
  [a.go lines 11–20](../src/a.go#line=10,20;md5=…)

The link holds the RFC 5147 fragment (line=10,20 for lines 11 to 20), pinned
with the md5 of FILE's bytes as stored, so a build fails once those bytes
change. The path is relative to the directory of PAGE.md, the page the link
goes in (which need not exist yet); without --from it starts with / and
resolves from the project root, from any page. Characters a link cannot hold
as they are (spaces, parentheses, #, %, ?) are percent-encoded; non-ASCII
letters stay as they are.

Ranges (FILE:…):
  11-20            lines 11 to 20                    line=10,20
  11               line 11                           line=10,11
  101-150 --char   characters 101 to 150             char=100,150
  3:5-4:2          line 3, col 5 to line 4, col 2    char=…, counted
Columns and characters count code points; a line ending (CR+LF, CR+NEL, LF,
CR, NEL) is one character, a BOM none, as builds count them.

Forms: a link alone in its paragraph becomes a box; --box (the default) is
meant to be pasted as a paragraph of its own, with blank lines around it.
--inline is for running text, where it stays a link, verified; with --quote
a character range there is written as an inline quotation.

The link text is --title, else FILE's name and the range. The link is
resolved and rendered as a build would before it is printed, so options
(--options) and limits are checked too. FILE is found as the shell finds
it; it must lie inside the project root, which is found as for every
command (see "textfrag check -h"); textfrag.toml there sets defaults for
--charset and --allow-secret.

Exit status: 0 on success (warnings are printed), 1 when FILE or the range
cannot be quoted (missing, outside the root, not text, past its end), 2 on
bad usage.

Flags:`

// linkJSON is what --format json prints, for editors.
type linkJSON struct {
	Markdown string `json:"markdown"`
	Dest     string `json:"dest"`
	Fragment string `json:"fragment"`
	Path     string `json:"path"`
	Label    string `json:"label"`
	Form     string `json:"form"`
}

func runLink(e *env, args []string) int {
	fs := flag.NewFlagSet("link", flag.ContinueOnError)
	fs.String("root", "", "project root `DIR`: FILE must lie inside it, and links starting with / resolve there ("+rootHelp+")")
	from := fs.String("from", "", "write the path relative to the Markdown page `PAGE.md` the link goes in (default: from the project root, starting with /)")
	chars := fs.Bool("char", false, "START and END are character numbers, not line numbers")
	caption := fs.String("title", "", "the link's text `T` (default: FILE's name and the range, e.g. \"a.go lines 11–20\")")
	options := fs.String("options", "", "per-link options `OPTS` for the link's title, e.g. 'hl=12,15-17 dedent lang=go'")
	box := fs.Bool("box", false, "print the link as a box, to be pasted as a paragraph of its own (the default)")
	inline := fs.Bool("inline", false, "print the link for running text")
	quote := fs.Bool("quote", false, "with a character range, quote it in running text as an inline quotation (implies --inline)")
	format := fs.String("format", "text", "output `FORMAT`: text (the link), or json ({markdown, dest, fragment, path, label, form})")
	var files fileFlags
	files.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), linkHelp)
		fs.PrintDefaults()
	}
	pos, ok := e.parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	ref := pos[0]
	file, rng, err := quotelink.ParseRef(ref, *chars)
	usage := func(format string, args ...any) int {
		e.errorf(format, args...)
		return exitUsage
	}
	switch {
	case err != nil:
		return usage("%s: %v", ref, err)
	case *box && (*inline || *quote):
		return usage("--box and --inline (or --quote) ask for different forms; give one")
	case *format != "text" && *format != "json":
		return usage("--format %q: want text or json", *format)
	}
	form := "box"
	if *inline || *quote {
		form = "inline"
	}

	proj, ok := e.findProject(fs)
	if !ok {
		return exitError
	}
	r, err := target.New(target.Options{Root: proj.Root, Charsets: files.charsets, AllowSecrets: files.secrets, Symbols: symbols.Set()})
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	filePath := r.DocPath(file)
	if !filepath.IsLocal(filepath.FromSlash(filePath)) {
		e.errorf("%s: outside the project root; %s", file, rootAdvice(proj))
		return exitError
	}
	page, doc := "", "." // without --from: rooted, resolved from the root
	if *from != "" {
		if info, err := os.Stat(*from); err == nil && info.IsDir() {
			return usage("--from %s: a directory; name the Markdown page the link goes in", *from)
		}
		page = r.DocPath(*from)
		if !filepath.IsLocal(filepath.FromSlash(page)) {
			e.errorf("--from %s: outside the project root, so no build of the project reads it; %s", *from, rootAdvice(proj))
			return exitError
		}
		doc = page
	}

	src := resolvedText{r: r, doc: doc, path: quotelink.Dest(page, filePath, "")}
	link, sel, err := quotelink.Compose(filePath, rng, src, quotelink.Options{Page: page, Caption: *caption, Title: *options, Quote: *quote})
	switch {
	case errors.Is(err, quotelink.ErrQuoteLines):
		return usage("--quote: %v", err)
	case errors.Is(err, quotelink.ErrPastEnd):
		e.errorf("%s: %v", ref, err)
		return exitError
	case err != nil:
		e.errorf("%s: %s", file, oneLine(explainLinkTarget(err, proj)))
		return exitError
	}
	if !e.verifyLink(r, doc, filePath, link, form) {
		return exitError
	}
	if *format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(linkJSON{
			Markdown: link.Markdown(), Dest: link.Dest, Fragment: target.SplitLink(link.Dest).Fragment,
			Path: filePath, Label: sel.Label(), Form: form,
		})
		return exitOK
	}
	fmt.Fprintln(e.stdout, link.Markdown())
	return exitOK
}

// resolvedText is the file a link quotes, read through the Resolver as a
// build reads it: inside the realm, in its configured charset, each
// fragment resolved from the page as the link will be.
type resolvedText struct {
	r    *target.Resolver
	doc  string // the page's project path, or "."
	path string // the destination's path part, as quotelink.Dest wrote it
}

// Select implements quotelink.Text.
func (t resolvedText) Select(f rfc5147.Fragment) (*rfc5147.Selection, error) {
	res, err := t.r.Resolve(t.doc, t.path+"#"+f.String())
	if err != nil {
		return nil, err
	}
	return res.Selection, nil
}

// explainLinkTarget says why FILE cannot be quoted, and how to fix it.
func explainLinkTarget(err error, p *project.Project) string {
	msg := target.Explain(err, "")
	switch {
	case errors.Is(err, target.ErrOutsideRoot):
		msg += "; " + rootAdvice(p)
	case errors.As(err, new(*rfc5147.TextError)): // bytes, not a FIFO or device
		msg += "; for a text file in another charset, give --charset 'GLOB=CHARSET' (e.g. '*.txt=ISO-8859-1') or add it to charsets in " + project.ConfigName
	}
	return msg
}

// verifyLink renders the link, in the form asked for, in a page at doc as
// a build renders it, and reports false after printing the errors: the
// link must quote filePath and build without errors (its options, the
// box's limits). Warnings are printed.
func (e *env) verifyLink(r *target.Resolver, doc, filePath string, link quotelink.Link, form string) bool {
	res, err := r.Resolve(doc, link.Dest)
	if err != nil || res.Path != filePath || res.Selection.Clamped {
		// Compose resolved every part of it already: this is a bug.
		e.errorf("%s: the link made does not quote %s as asked (%v); please report this", link.Dest, filePath, err)
		return false
	}
	md := link.Markdown() + "\n"
	if form == "inline" {
		md = "Text " + link.Markdown() + " text.\n"
	}
	conv := goldmark.New(goldmark.WithExtensions(extension.GFM,
		textfrag.New(textfrag.WithResolver(r), textfrag.WithHighlighting(false))))
	pc := parser.NewContext()
	if doc != "." {
		textfrag.SetDocument(pc, doc)
	}
	err = conv.Convert([]byte(md), io.Discard, parser.WithContext(pc))
	ok := err == nil
	for _, p := range textfrag.Problems(pc) {
		if p.Severity == textfrag.Error {
			ok = false
			msg := p.Message
			if p.Kind == "limit" {
				msg += "; or link to it in running text (--inline), where it is checked and not shown"
			}
			e.errorf("%s: %s", link.Dest, oneLine(msg))
		} else {
			e.errorf("warning: %s: %s", link.Dest, oneLine(p.Message))
		}
	}
	if !ok && len(textfrag.Problems(pc)) == 0 {
		e.errorf("%s: %v", link.Dest, err)
	}
	return ok
}
