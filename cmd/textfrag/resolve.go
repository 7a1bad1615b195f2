package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/quotelink"
	"github.com/textfrag/textfrag/internal/symbols"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "resolve", summary: "print what one reference selects: textfrag resolve src/a.go#line=10,20", run: runResolve})
}

const resolveHelp = `Usage: textfrag resolve [--root DIR] [--format text|json] [--options OPTS] REF

Writes the characters REF selects, as stored, to standard output (on a
terminal, with control characters but tab and newline escaped). A relative
REF is relative to the current directory (or to the project root when the
current directory is outside it); one starting with / to the project root.
The root is found as for every command (see "textfrag check -h"), and the
textfrag.toml there sets defaults for the flags below.

--options takes the link's title: when it names a symbol or a region
(sym=Server.Handle, region=setup), REF must quote exactly the lines the
name spans, as a build checks.

--format json prints spans, line numbers, checks and the text as JSON
(--json is the same).

Exit status: 0 on success (clamping is a warning), 1 on any error, 2 on bad
usage.

Flags:`

// resolveOptions is resolve's command line.
type resolveOptions struct {
	// flags holds the flags below, for textfrag.toml's defaults
	// (findProject sets those the command line left unset).
	flags  *flag.FlagSet
	files  fileFlags
	remote remoteFlags

	Format  string // "text" or "json"
	Options string // the link's title (--options)
	Ref     string
}

// parseResolve reads resolve's command line. It reports false after
// printing the problem, or the usage -h asked for (e.helped).
func parseResolve(e *env, args []string) (*resolveOptions, bool) {
	o := &resolveOptions{flags: newFlagSet("resolve", resolveHelp)}
	fs := o.flags
	fs.String("root", "", "project root `DIR`: a REF starting with / resolves there, and only files inside it are read ("+rootHelp+")")
	o.files.register(fs)
	fs.StringVar(&o.Format, "format", "text", "output `FORMAT`: text (the selected characters) or json (spans, line numbers, checks and text)")
	asJSON := fs.Bool("json", false, "the same as --format json")
	fs.StringVar(&o.Options, "options", "", "the link's title `OPTS`; with sym=NAME or region=NAME, REF must quote the lines the name spans")
	o.remote.register(fs)
	pos, ok := e.parseFlags(fs, args)
	if !ok {
		return nil, false
	}
	if len(pos) != 1 {
		if len(pos) == 0 {
			e.errorf("resolve: no REF (a file and an RFC 5147 fragment, such as src/a.go#line=10,20)")
		} else {
			e.errorf("resolve takes one REF, not %d (quote a REF that holds spaces or ;)", len(pos))
		}
		fs.Usage()
		return nil, false
	}
	o.Ref = pos[0]
	if *asJSON {
		if flagGiven(fs, "format") && o.Format != "json" {
			e.errorf("--json and --format %s say different things", o.Format)
			return nil, false
		}
		o.Format = "json"
	}
	if o.Format != "text" && o.Format != "json" {
		e.errorf("--format must be text or json, not %q", o.Format)
		return nil, false
	}
	return o, true
}

// flagGiven reports whether the command line set the flag name.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func runResolve(e *env, args []string) int {
	o, ok := parseResolve(e, args)
	if !ok {
		return exitUsage
	}
	return resolveRun(e, o)
}

// resolveRun resolves o.Ref and prints what it selects.
func resolveRun(e *env, o *resolveOptions) int {
	ref := o.Ref
	asJSON := o.Format == "json"
	// The title as a build reads it: an unknown word fails here as there.
	err := textfrag.CheckTitle(o.Options)
	var sel symbol.Selector
	var lang string
	var named bool
	if err == nil {
		sel, lang, named, err = quotelink.TitleName(o.Options)
	}
	if err != nil {
		e.errorf("--options %q: %v", o.Options, err)
		return exitUsage
	}
	proj, ok := e.findProject(o.flags)
	if !ok {
		return exitError
	}
	rem, err := o.remote.options()
	if err != nil {
		e.errorf("%v", err)
		return exitUsage
	}
	r, err := target.New(o.files.secrets.options(target.Options{Root: proj.Root, Charsets: o.files.charsets, Remote: rem, Symbols: symbols.Set()}))
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	res, err := r.Resolve(refBase(r), ref)
	if errors.Is(err, target.ErrNotOurs) {
		e.errorf("%s: %s", ref, notOursReason(ref))
		return exitError
	}
	var te *target.Error
	if errors.As(err, &te) && te.Result != nil && asJSON {
		e.writeJSON(ref, te.Result, false)
	}
	if err != nil {
		msg := target.Explain(err, "")
		if target.Kind(err) == "outside" {
			msg += "; " + proj.RootAdvice()
		}
		e.errorf("%s: %s", ref, oneLine(msg))
		return exitError
	}
	if named {
		if err := r.CheckName(refBase(r), res, lang, sel); err != nil {
			e.errorf("%s: %s", ref, oneLine(target.Explain(err, "")))
			return exitError
		}
	}
	e.warnSelection(ref, res)
	if asJSON {
		e.writeJSON(ref, res, true)
		return exitOK
	}
	text := res.Selection.Text
	if f, ok := e.stdout.(*os.File); ok && isTerminal(f) {
		// On a terminal the file's control characters would drive it (clear
		// the screen, set the title, hide text behind a bare CR): they are
		// shown escaped. Redirected, the text is exact.
		text = []byte(termsafe.Escape(string(text), "\n"))
	}
	e.stdout.Write(text)
	return exitOK
}

// refBase returns the project path of a document beside which REF
// resolves: one in the current directory, as a shell names files, when that
// directory is inside the root; else one at the root (--root elsewhere).
func refBase(r *target.Resolver) string {
	cwd, err := os.Getwd()
	if err != nil {
		return "."
	}
	doc := r.DocPath(filepath.Join(cwd, "REF"))
	if !filepath.IsLocal(filepath.FromSlash(doc)) {
		return "."
	}
	return doc
}

// notOursReason says why a reference is not a local RFC 5147 reference.
func notOursReason(ref string) string {
	l := target.SplitLink(ref)
	switch {
	case !l.HasFragment:
		return "no fragment: add #line=… or #char=… to say what to select"
	case l.Scheme == "http" || l.Scheme == "https" || (l.Scheme == "" && strings.HasPrefix(l.RawPath, "//")):
		return "remote targets are fetched only from hosts allowed with --allow-host HOST (and written with http: or https:)"
	case l.Scheme != "" && l.Scheme != "file":
		return fmt.Sprintf("%s: targets are read from local files, or over http and https", l.Scheme)
	}
	if _, err := rfc5147.Parse(l.Fragment); err != nil {
		return err.Error()
	}
	return "not an RFC 5147 reference"
}

// warnSelection prints the warnings a resolved link carries: clamping and
// ignored integrity checks.
func (e *env) warnSelection(ref string, res *target.Result) {
	for _, w := range target.Warnings(res) {
		fmt.Fprintf(e.stderr, "textfrag: warning: %s: %s\n", termsafe.Escape(ref, ""), termsafe.Escape(w, ""))
	}
}

type jsonResult struct {
	Ref      string        `json:"ref"`
	Path     string        `json:"path"`
	Fragment string        `json:"fragment"`
	Scheme   string        `json:"scheme"`
	Label    string        `json:"label"`
	Chars    rfc5147.Span  `json:"chars"`
	Lines    rfc5147.Span  `json:"lines"`
	Bytes    rfc5147.Span  `json:"bytes"`
	First    rfc5147.Point `json:"first"`
	Last     rfc5147.Point `json:"last"`
	Clamped  bool          `json:"clamped"`
	Empty    bool          `json:"empty"`
	AtEnd    bool          `json:"at_end"`
	Entity   jsonEntity    `json:"entity"`
	Checks   []jsonCheck   `json:"checks"`
	Text     *string       `json:"text,omitempty"`
}

type jsonEntity struct {
	Charset string `json:"charset"`
	Length  int64  `json:"length"`
	Lines   int64  `json:"lines"`
	MD5     string `json:"md5"`
}

type jsonCheck struct {
	Check string `json:"check"`
	rfc5147.CheckResult
}

func (e *env) writeJSON(ref string, res *target.Result, withText bool) {
	s := res.Selection
	out := jsonResult{
		Ref: ref, Path: res.Path, Fragment: res.Fragment.String(), Scheme: res.Fragment.Scheme.String(),
		Label: s.Label(), Chars: s.Chars, Lines: s.Lines, Bytes: s.Bytes, First: s.First, Last: s.Last,
		Clamped: s.Clamped, Empty: s.Empty(), AtEnd: s.AtEnd,
		Entity: jsonEntity{Charset: s.Entity.Charset.Name, Length: s.Entity.Length, Lines: s.TotalLines, MD5: s.Entity.MD5Hex()},
		Checks: []jsonCheck{},
	}
	for _, c := range s.Checks {
		out.Checks = append(out.Checks, jsonCheck{Check: c.Check.String(), CheckResult: c})
	}
	if withText {
		t := string(s.Text)
		out.Text = &t
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
