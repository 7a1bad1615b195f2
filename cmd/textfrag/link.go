package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/quotelink"
	"github.com/textfrag/textfrag/internal/symbols"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "link", summary: "print a pinned link that quotes lines of a file: textfrag link src/a.go:11-20 --from docs/guide.md", run: runLink})
}

const linkHelp = `Usage: textfrag link FILE:START[-END] [--from PAGE.md] [flags]
       textfrag link FILE:NAME [--doc] [--from PAGE.md] [flags]
       textfrag link FILE --region NAME [--from PAGE.md] [flags]

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

Names (the link quotes the lines the name spans today, and records it):
  src/server.go:Server.Handle   a declaration: title "sym=Server.Handle"
  src/lib.rs:App::run           :: means . (Rust, C++)
  src/server.go:Server --doc    from the declaration's doc comment
  src/a.sh --region setup       the lines between "textfrag:begin setup"
                                and "textfrag:end setup" comment lines
                                (any language): title "region=setup"; in
                                Go write "//textfrag:begin setup", no
                                space after //: a directive, which go doc
                                leaves out of doc comments
Builds check that the name still spans exactly the linked lines, and
"textfrag pin --write" re-pins the link to the name when it moves. Symbols
are found in Go, Python, JavaScript, TypeScript, Rust, Java, C and C++.

Forms: a link alone in its paragraph becomes a box; --box (the default) is
meant to be pasted as a paragraph of its own, with blank lines around it.
--inline is for running text, where it stays a link, verified; with --quote
a character range there is written as an inline quotation.

The link text is --title, else FILE's name and the range (or the name).
The link is resolved and rendered as a build would before it is printed, so
options (--options) and limits are checked too. FILE is found as the shell
finds it; it must lie inside the project root, which is found as for every
command (see "textfrag check -h"); textfrag.toml there sets defaults for
--charset and --allow-secret.

Exit status: 0 on success (warnings are printed), 1 when FILE or the range
cannot be quoted (missing, outside the root, not text, past its end, a name
not found, ambiguous or in a language without a parser), 2 on bad usage.

Flags:`

// linkJSON is what --format json prints, for editors.
type linkJSON struct {
	Markdown string `json:"markdown"`
	Dest     string `json:"dest"`
	Fragment string `json:"fragment"`
	Path     string `json:"path"`
	Label    string `json:"label"`
	Form     string `json:"form"`
	// Name is the name the link records, as its title writes it
	// ("sym=Server.Handle", "region=setup"); "" for a range.
	Name string `json:"name,omitempty"`
}

// linkCmdOptions is link's command line.
type linkCmdOptions struct {
	// flags holds the flags below, for textfrag.toml's defaults
	// (findProject sets those the command line left unset).
	flags *flag.FlagSet
	files fileFlags

	Ref     string
	From    string // the page the link goes in (--from), or ""
	Caption string // --title
	Options string // the link's title options (--options)
	Format  string // "text" or "json"
	Form    string // "box" or "inline"
	Quote   bool

	// What Ref names: File and Range, or File and Name (a sym= or
	// region= selector; Name.Kind is 0 for a range).
	File  string
	Range quotelink.Range
	Name  symbol.Selector
}

// parseLink reads link's command line, REF included. It reports false
// after printing the problem, or the usage -h asked for (e.helped).
func parseLink(e *env, args []string) (*linkCmdOptions, bool) {
	o := &linkCmdOptions{flags: newFlagSet("link", linkHelp)}
	fs := o.flags
	fs.String("root", "", "project root `DIR`: FILE must lie inside it, and links starting with / resolve there ("+rootHelp+")")
	fs.StringVar(&o.From, "from", "", "write the path relative to the Markdown page `PAGE.md` the link goes in (default: from the project root, starting with /)")
	chars := fs.Bool("char", false, "START and END are character numbers, not line numbers")
	fs.StringVar(&o.Caption, "title", "", "the link's text `T` (default: FILE's name and the range, e.g. \"a.go lines 11–20\")")
	fs.StringVar(&o.Options, "options", "", "per-link options `OPTS` for the link's title, e.g. 'hl=12,15-17 dedent lang=go'")
	box := fs.Bool("box", false, "print the link as a box, to be pasted as a paragraph of its own (the default)")
	inline := fs.Bool("inline", false, "print the link for running text")
	fs.BoolVar(&o.Quote, "quote", false, "with a character range, quote it in running text as an inline quotation (implies --inline)")
	fs.StringVar(&o.Format, "format", "text", "output `FORMAT`: text (the link), or json ({markdown, dest, fragment, path, label, form, name})")
	region := fs.String("region", "", "quote the lines between the comment lines \"textfrag:begin `NAME`\" and \"textfrag:end NAME\" of FILE (any language)")
	withDoc := fs.Bool("doc", false, "with FILE:NAME, start at the declaration's doc comment")
	o.files.register(fs)
	pos, ok := e.parseFlags(fs, args)
	if !ok {
		return nil, false
	}
	if len(pos) != 1 {
		if len(pos) == 0 {
			e.linkErrorf("no FILE:START[-END], FILE:NAME or FILE --region NAME to link to")
		} else {
			e.linkErrorf("link takes one FILE:RANGE, not %d", len(pos))
		}
		fs.Usage()
		return nil, false
	}
	ref := pos[0]
	o.Ref = ref
	usage := func(format string, args ...any) (*linkCmdOptions, bool) {
		e.linkErrorf(format, args...)
		return nil, false
	}
	var err error
	switch name, symRef := "", false; {
	case *region != "":
		o.File, name = ref, *region
		if *withDoc {
			return usage("--doc applies to symbols (FILE:NAME), not to --region")
		}
		if f, _, named := quotelink.ParseNameRef(ref, isFile); !isFile(ref) && named && isFile(f) {
			return usage("%s: --region takes the file alone: `textfrag link %s --region %s`; FILE:NAME names a declaration, without --region", ref, f, name)
		}
		o.Name, err = quotelink.NewSelector(name, true, false)
	default:
		if o.File, name, symRef = quotelink.ParseNameRef(ref, isFile); symRef {
			o.Name, err = quotelink.NewSelector(name, false, *withDoc)
			break
		}
		if *withDoc {
			return usage("--doc applies to a symbol: give FILE:NAME, such as src/server.go:Server.Handle")
		}
		o.File, o.Range, err = quotelink.ParseRef(ref, *chars)
		if err != nil {
			err = fmt.Errorf("%w, or FILE:NAME (src/server.go:Server.Handle), or FILE --region NAME", err)
		}
	}
	switch {
	case err != nil:
		return usage("%s: %v", ref, err)
	case o.Name.Kind != 0 && *chars:
		return usage("--char: a name quotes the whole lines it spans; give FILE:START-END --char for characters")
	case o.Name.Kind != 0 && o.Quote:
		return usage("--quote applies to character ranges only; a name quotes the whole lines it spans")
	case *box && (*inline || o.Quote):
		return usage("--box and --inline (or --quote) ask for different forms; give one")
	case o.Format != "text" && o.Format != "json":
		return usage("--format %q: want text or json", o.Format)
	}
	o.Form = "box"
	if *inline || o.Quote {
		o.Form = "inline"
	}
	return o, true
}

func runLink(e *env, args []string) int {
	o, ok := parseLink(e, args)
	if !ok {
		return exitUsage
	}
	return linkCmdRun(e, o)
}

// linkCmdRun composes the link o asks for, checks it as a build would, and
// prints it.
func linkCmdRun(e *env, o *linkCmdOptions) int {
	ref, file, sel, form := o.Ref, o.File, o.Name, o.Form
	usage := func(format string, args ...any) int {
		e.linkErrorf(format, args...)
		return exitUsage
	}
	proj, ok := e.findProject(o.flags)
	if !ok {
		return exitError
	}
	r, err := target.New(o.files.secrets.options(target.Options{Root: proj.Root, Charsets: o.files.charsets, Symbols: symbols.Set()}))
	if err != nil {
		e.linkErrorf("%v", err)
		return exitError
	}
	filePath := r.DocPath(file)
	if !filepath.IsLocal(filepath.FromSlash(filePath)) {
		e.linkErrorf("%s: outside the project root; %s", file, proj.RootAdvice())
		return exitError
	}
	page, doc := "", "." // without --from: rooted, resolved from the root
	if o.From != "" {
		if info, err := os.Stat(o.From); err == nil && info.IsDir() {
			return usage("--from %s: a directory; name the Markdown page the link goes in", o.From)
		}
		page = r.DocPath(o.From)
		if !filepath.IsLocal(filepath.FromSlash(page)) {
			e.linkErrorf("--from %s: outside the project root, so no build of the project reads it; %s", o.From, proj.RootAdvice())
			return exitError
		}
		doc = page
	}

	src := resolvedText{r: r, doc: doc, path: quotelink.Dest(page, filePath, "")}
	opts := quotelink.Options{Page: page, Caption: o.Caption, Title: o.Options, Quote: o.Quote}
	var link quotelink.Link
	var sel5147 *rfc5147.Selection
	if sel.Kind == 0 {
		link, sel5147, err = quotelink.Compose(filePath, o.Range, src, opts)
	} else {
		var span symbol.Span
		if span, err = src.findName(o.Options, sel); err == nil {
			link, sel5147, err = quotelink.ComposeName(filePath, sel, span, src, opts)
		} else if errors.As(err, new(*symbol.Error)) {
			e.linkErrorf("%s: %s", ref, oneLine(quotelink.ExplainName(file, err, symbols.Languages())))
			return exitError
		}
	}
	switch {
	case errors.Is(err, quotelink.ErrQuoteLines):
		return usage("--quote: %v", err)
	case errors.Is(err, quotelink.ErrName):
		e.linkErrorf("%s: %v", ref, err)
		return exitError
	case errors.Is(err, quotelink.ErrPastEnd):
		e.linkErrorf("%s: %v", ref, err)
		return exitError
	case err != nil:
		e.linkErrorf("%s: %s", file, oneLine(explainLinkTarget(err, proj, ref, file)))
		return exitError
	}
	if !e.verifyLink(r, doc, filePath, link, form) {
		return exitError
	}
	if o.Format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(linkJSON{
			Markdown: link.Markdown(), Dest: link.Dest, Fragment: target.SplitLink(link.Dest).Fragment,
			Path: filePath, Label: sel5147.Label(), Form: form, Name: sel.String(),
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

// findName finds sel in the file: first resolved as a whole (so that a
// missing file, one outside the root or not text fails as for a range),
// then looked up by the Resolver, with the lang= of the link's options.
func (t resolvedText) findName(options string, sel symbol.Selector) (symbol.Span, error) {
	res, err := t.r.Resolve(t.doc, t.path+"#line=0")
	if err != nil {
		return symbol.Span{}, err
	}
	_, lang, _, _ := quotelink.TitleName(options)
	return t.r.FindName(res.Path, lang, sel)
}

// isFile reports whether name is a file, as the shell finds it.
func isFile(name string) bool {
	info, err := os.Stat(name)
	return err == nil && !info.IsDir()
}

// linkErrorf is errorf for link's messages, one line each: a newline in
// the FILE given (a file name may hold one) is written as \n, not raw.
func (e *env) linkErrorf(format string, args ...any) {
	e.errorf("%s", termsafe.Escape(fmt.Sprintf(format, args...), ""))
}

// explainLinkTarget says why file, of the argument ref, cannot be quoted,
// and how to fix it.
func explainLinkTarget(err error, p *project.Project, ref, file string) string {
	msg := target.Explain(err, "")
	switch {
	case errors.Is(err, target.ErrNotFound):
		// FILE is the shell's path, not a link's: target.Explain's
		// remedy (links resolve against their page) does not apply.
		msg = err.Error() + "; FILE is a path from the current directory, as the shell completes it"
		if alt := strings.ReplaceAll(file, `\`, "/"); alt != file && isFile(alt) {
			msg += fmt.Sprintf("; directories are separated by /, not \\: `textfrag link %s`", strings.Replace(ref, file, alt, 1))
		}
	case errors.Is(err, target.ErrOutsideRoot):
		msg += "; " + p.RootAdvice()
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
		e.linkErrorf("%s: the link made does not quote %s as asked (%v); please report this", link.Dest, filePath, err)
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
			e.linkErrorf("%s: %s", link.Dest, oneLine(msg))
		} else {
			e.linkErrorf("warning: %s: %s", link.Dest, oneLine(p.Message))
		}
	}
	if !ok && len(textfrag.Problems(pc)) == 0 {
		e.linkErrorf("%s: %v", link.Dest, err)
	}
	return ok
}
