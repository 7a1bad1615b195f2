package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/style"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "build", summary: "render a Markdown site to HTML, failing on any broken quote: textfrag build docs -o public", run: runBuild})
}

const buildHelp = `Usage: textfrag build [SRC] [-o OUT] [flags]

Renders every Markdown file under SRC (default: source in textfrag.toml, else
".") to an HTML page under OUT (default: output in textfrag.toml, else
"./public", relative to the current directory): X.md becomes X.html,
README.md and index.md become index.html. Every other regular file under SRC is
copied as it is, except files a browser runs script in (.html, .htm, .xhtml,
.svg, .xml, .xsl, .js, .mjs, …): those are copied only from SRC/static/ (to
OUT/static/), so that a pull request cannot slip script into the site as a
picture. Left out, with a warning: hidden files and directories, files and
directories whose names start with "_", OUT itself, symbolic links leading
outside SRC, FIFOs and devices, and files that commonly hold secrets (.env,
*.pem, *.key, …; see --allow-secret). textfrag.toml is left out silently.

Each page's title is the "title" of its YAML front matter (between two lines of
---), else its first level-1 heading, else its file name. Relative links to
.md pages are rewritten to the .html pages; RFC 5147 links (#line=…, #char=…)
quote their target in a box instead. Fenced code is highlighted, and numbered
as Hugo numbers it when its info string asks, as in
go {linenos=inline linenostart=11 hl_lines="2 4-5"}.
The stylesheet for boxes and highlighted code is written to OUT/textfrag.css
(unless SRC has its own textfrag.css); it colours fenced code inside an
element of class "textfrag-highlight" (the built-in layout's <main>). Highlighted code is kept in the
highlight cache (see --cache-dir), so that a rebuild lexes only what changed.

Pages are laid out with a built-in layout, or with SRC/_layout.html if there
is one (a regular file inside SRC of at most 1 MiB, as is SRC/textfrag.css):
an html/template executed with
  .Title          the page title
  .Content        the page's HTML
  .StylesheetURL  the relative URL of textfrag.css
  .Path           the page's path in the site ("guide/setup.html")
  .Root           the relative prefix to the site root ("./", "../", …)
  .Home           the relative URL of the site's index.html, or ""
  .Source         the Markdown file, relative to SRC ("guide/setup.md")
  .Params         the front matter ({{.Params.author}})
  .LiveReload     the reload script under "textfrag serve"; put it before </body>

Links starting with / resolve against the project root, and only files
inside it can be quoted: the directory of the nearest textfrag.toml at or
above the current directory, else the top of the git work tree, else the
current directory; --root overrides it. textfrag.toml also sets defaults for
the flags below (a flag given overrides it). Each box's caption names the
quoted file by its path in the project and links to it: where the site has
it (an asset), else to a copy under OUT/_source/, or with --source-url to
that URL instead (nothing copied).

The build is all or nothing: it writes into a temporary directory beside OUT
and only when every page has succeeded replaces OUT with it. On any error,
OUT is left exactly as it was and the temporary directory is removed. OUT, if
it exists, must be empty or the output of an earlier build.

Formats (--format):
  text    "file:line:col: error: link: message" lines on stderr, and a last
          line "textfrag: built N pages …" (or "build failed …")
  json    one JSON document on stdout:
            {"built": true|false, "out", "pages", "files", "links",
             "errors", "warnings", "problems": [{file, line, column,
             severity, kind, link, message}]}
          problems as check --format json writes them (a file the build
          could not read, copy or write is kind "file"; a file left out
          is a warning of kind "skipped"); "pages" are the pages rendered,
          "files" the files copied, "links" the RFC 5147 links; "errors" and
          "warnings" are the last line's counts (files left out are not
          counted); "built" is whether OUT was replaced. The last line stays on stderr.

Exit status: 0 on success (warnings are printed), 1 on any error (or warning,
with --strict), 2 on bad usage.

Flags:`

// runBuild is the build command; Ctrl-C stops it, leaving OUT as it was.
func runBuild(e *env, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return e.build(ctx, args)
}

// buildSiteHook, when set (by tests), is called with the site a build is
// about to render, to look at its Resolver afterwards.
var buildSiteHook func(*site)

// buildOptions are build's command line.
type buildOptions struct {
	flags  *flag.FlagSet // the flags, for textfrag.toml's defaults
	lf     linkFlags
	styles styleFlags
	// Out is the output directory, replaced when the build succeeds.
	Out string
	// Jobs is how many pages are rendered at a time.
	Jobs int
	// Format is text or json.
	Format string
	// Highlight is false to write boxes and fenced code unhighlighted.
	Highlight bool
	// Src is SRC, none or one: none is the project's default source.
	Src []string
}

// parseBuild reads build's command line. It reports false after printing
// the problem, or the usage -h asked for.
func parseBuild(e *env, args []string) (*buildOptions, bool) {
	o := &buildOptions{flags: newFlagSet("build", buildHelp)}
	fset := o.flags
	fset.StringVar(&o.Out, "o", "public", "output directory `OUT`, replaced when the build succeeds")
	fset.IntVar(&o.Jobs, "j", runtime.GOMAXPROCS(0), "render `N` pages at a time")
	o.styles.register(fset)
	o.lf.register(fset)
	o.lf.registerRendering(fset)
	fset.StringVar(&o.Format, "format", "text", "output `FORMAT`: text or json (one JSON document on stdout)")
	fset.BoolVar(&o.Highlight, "highlight", true, "highlight boxes and fenced code with chroma (false: write them with the plain-text lexer)")
	pos, ok := e.parseFlags(fset, args)
	if !ok {
		return nil, false
	}
	if len(pos) > 1 || o.Jobs < 1 || o.Out == "" || !slices.Contains([]string{"text", "json"}, o.Format) {
		fset.Usage()
		return nil, false
	}
	o.Src = pos
	return o, true
}

// build runs the build command until done or ctx is cancelled.
func (e *env) build(ctx context.Context, args []string) int {
	o, ok := parseBuild(e, args)
	if !ok {
		return exitUsage
	}
	return buildRun(ctx, e, o)
}

// buildRun builds the site o names until done or ctx is cancelled.
func buildRun(ctx context.Context, e *env, o *buildOptions) int {
	lf := &o.lf // textfrag.toml's defaults are set on the flags, so in o
	if !lf.find(e, o.flags) {
		return exitError
	}
	lf.plain = !o.Highlight
	css, err := o.styles.stylesheet()
	if err != nil {
		e.errorf("%v", err)
		return exitUsage
	}
	src, ok := siteSource(e, lf.proj, o.Src)
	if !ok {
		return exitError
	}
	if err := checkOutput(o.Out, src); err != nil {
		e.errorf("%v", err)
		return exitError
	}
	start := time.Now()
	outAbs, err := filepath.Abs(o.Out)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	s, err := newSite(src, lf.root, lf, outAbs)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	s.targets = true // to publish the Markdown files that pages quote
	if buildSiteHook != nil {
		buildSiteHook(s)
	}
	report := &buildReport{Out: o.Out, Problems: []checkRecord{}}
	if o.Format != "json" {
		report = nil
	}
	for _, w := range s.files.Warnings {
		if report != nil {
			report.Problems = append(report.Problems, checkRecord{Severity: "warning", Kind: "skipped", Message: w})
			continue
		}
		e.errorf("warning: %s", w)
	}
	st, err := newStaging(o.Out)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	defer st.discard() // after a successful publish there is nothing left to remove

	pages, assets := s.files.Pages, s.files.Assets
	results := make([]*page.Page, len(pages))
	errs := make([]error, len(pages)+len(assets))
	var done atomic.Int64
	prog := e.startProgress("building", len(pages)+len(assets), &done)
	parallel(ctx, o.Jobs, len(pages)+len(assets), &done, func(i int) {
		if i >= len(pages) {
			errs[i] = copyFile(s.srcRoot, assets[i-len(pages)], s.pageName(assets[i-len(pages)]), st)
			return
		}
		p, html, err := s.renderPage(pages[i])
		if err == nil && html != nil {
			err = st.write(page.Output(pages[i]), html)
		}
		results[i], errs[i] = p, err
	})
	prog.finish()
	copyErrs := s.copyLinked(ctx, o.Jobs, results, st)
	if ctx.Err() != nil {
		e.errorf("build interrupted; %s left as it was", o.Out)
		return exitError
	}

	var problems []*textfrag.Problem
	for _, p := range results {
		if p != nil {
			problems = append(problems, p.Problems...)
		}
	}
	// fileError reports an error of a file the build read, copied or wrote.
	fileError := func(err error) {
		if report != nil {
			report.Problems = append(report.Problems, checkRecord{Severity: "error", Kind: "file", Message: err.Error()})
			return
		}
		// One line: a line break in a file's name could start a line of
		// its own (a CI log's workflow command).
		e.errorf("%s", termsafe.Escape(err.Error(), ""))
	}
	if report != nil {
		for _, q := range problems {
			report.Problems = append(report.Problems, newCheckRecord(q))
		}
		for _, p := range results {
			if p != nil {
				report.Links += p.Links
			}
		}
	} else {
		e.printProblems(problems)
	}
	for _, err := range errs {
		if err != nil {
			fileError(err)
		}
	}
	for _, err := range copyErrs {
		if err != nil {
			errs = append(errs, err)
			fileError(err)
		}
	}
	if !slices.Contains(assets, style.FileName) {
		if err := st.write(style.FileName, css); err != nil {
			errs = append(errs, err)
			fileError(err)
		}
	}
	nErr, nWarn := countProblems(problems)
	if report != nil {
		report.Errors, report.Warnings = nErr+countErrors(errs), nWarn
	}
	if nIO := countErrors(errs); nIO > 0 || lf.failed(problems) {
		e.writeBuildReport(report)
		e.errorf("build failed (%d errors, %d warnings); %s left as it was", nErr+nIO, nWarn, o.Out)
		return exitError
	}
	warning, err := st.publish()
	if err != nil {
		if report != nil {
			report.Errors++
			fileError(err)
			e.writeBuildReport(report)
			return exitError
		}
		e.errorf("%v", err)
		return exitError
	}
	if warning != "" {
		e.errorf("warning: %s", warning)
	}
	if report != nil {
		report.Built, report.Pages, report.Files = true, len(pages), len(assets)
		e.writeBuildReport(report)
	}
	fmt.Fprintf(e.stderr, "textfrag: built %d %s and copied %d %s into %s in %v (%d warnings)\n",
		len(pages), plural(len(pages), "page", "pages"), len(assets), plural(len(assets), "file", "files"),
		o.Out, time.Since(start).Round(time.Millisecond), nWarn)
	return exitOK
}

// buildReport is what build --format json writes: problems as check's
// records, and the counts of the last line.
type buildReport struct {
	// Built is whether OUT was replaced by the new site.
	Built bool   `json:"built"`
	Out   string `json:"out"`
	// Pages and Files are the pages rendered and the files copied (0
	// when the build failed); Links counts the RFC 5147 links.
	Pages    int           `json:"pages"`
	Files    int           `json:"files"`
	Links    int           `json:"links"`
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	Problems []checkRecord `json:"problems"`
}

// writeBuildReport writes r on stdout as one JSON document; nil writes
// nothing (--format text).
func (e *env) writeBuildReport(r *buildReport) {
	if r == nil {
		return
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		e.errorf("%v", err)
	}
}

// quotedPages returns the Markdown files under the site's source that its
// pages quote, to be copied as they are, so that the caption of a box
// quoting one links to a file that exists. Files the site leaves out
// (hidden, "_"-prefixed, under node_modules or vendor) stay out.
func (s *site) quotedPages(results []*page.Page) []string {
	srcAbs, err := filepath.Abs(s.src)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var quoted []string
	for _, p := range results {
		if p == nil {
			continue
		}
		for _, t := range p.Targets {
			rel, err := filepath.Rel(srcAbs, filepath.Join(s.resolver.Root(), filepath.FromSlash(t)))
			if err != nil || !project.IsMarkdownName(rel) || !filepath.IsLocal(rel) {
				continue
			}
			rel = filepath.ToSlash(rel)
			parts := strings.Split(rel, "/")
			if seen[rel] || slices.ContainsFunc(parts, project.Skipped) || slices.ContainsFunc(parts[:len(parts)-1], project.ThirdPartyDir) {
				continue
			}
			seen[rel] = true
			quoted = append(quoted, rel)
		}
	}
	slices.Sort(quoted)
	return quoted
}

// copyLinked copies the files the built pages link to besides their own:
// the quoted Markdown files under SRC, where they are (quotedPages), and
// the other quoted files under _source/ (sourceLinks), with jobs workers,
// the project root opened once. It returns one error per failed copy, in
// the order of the files.
func (s *site) copyLinked(ctx context.Context, jobs int, results []*page.Page, st *staging) []error {
	pages := s.quotedPages(results)
	var sources []string
	if s.sources != nil {
		sources = s.sources.sources()
	}
	if len(pages)+len(sources) == 0 {
		return nil
	}
	var root *os.Root
	if len(sources) > 0 {
		var err error
		if root, err = os.OpenRoot(s.resolver.Root()); err != nil {
			return []error{err}
		}
		defer root.Close()
	}
	errs := make([]error, len(pages)+len(sources))
	parallel(ctx, jobs, len(errs), nil, func(i int) {
		if i < len(pages) {
			errs[i] = copyFile(s.srcRoot, pages[i], s.pageName(pages[i]), st)
			return
		}
		errs[i] = s.copySource(root, sources[i-len(pages)], st)
	})
	return errs
}

// copySource writes the quoted file at project path p into the staging
// directory's _source/, where its boxes' captions link (sourceLinks): the
// bytes the boxes were taken from, as the resolver read them (so the copy
// shows what the boxes show, and the file is not opened again), else, for
// a file too large to keep, the file in the project root.
func (s *site) copySource(root *os.Root, p string, st *staging) error {
	// Judged again: the file may have become a link to a secret since
	// its box was made.
	if err := sourceInRealm(s.resolver, p); err != nil {
		return termsafeError(fmt.Errorf("%s: not copied to %s/: %w", p, sourceDir, err))
	}
	if b, ok := s.resolver.Stored(p); ok {
		return copyTo(bytes.NewReader(b), sourceCopy(p), st)
	}
	in, _, err := realm.Open(root, filepath.FromSlash(p))
	if err != nil {
		return err
	}
	defer in.Close()
	return copyTo(in, sourceCopy(p), st)
}

// copyTo copies in to the slash path rel in the staging directory.
func copyTo(in io.Reader, rel string, st *staging) (err error) {
	name := filepath.Join(st.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(out, in)
	return err
}

// styleFlags choose the chroma styles of the stylesheet.
type styleFlags struct{ light, dark string }

// register adds --style and --dark-style to fs.
func (f *styleFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.light, "style", "", "chroma `STYLE` for highlighting in the light color scheme (default "+style.DefaultLight+")")
	fs.StringVar(&f.dark, "dark-style", "", "chroma `STYLE` for the dark color scheme (default "+style.DefaultDark+"; none: no dark rules)")
}

// stylesheet returns textfrag.css with the chosen styles.
func (f *styleFlags) stylesheet() ([]byte, error) {
	if f.light == "" && f.dark == "" {
		return style.CSS(), nil
	}
	light, dark := f.light, f.dark
	if light == "" {
		light = style.DefaultLight
	}
	switch dark {
	case "":
		dark = style.DefaultDark
	case "none":
		dark = ""
	}
	return style.WithStyles(light, dark)
}

// printProblems writes each problem as "file:line:col: error: link: message".
func (e *env) printProblems(problems []*textfrag.Problem) {
	for _, p := range problems {
		fmt.Fprintln(e.stderr, p.Error())
	}
}

// countProblems counts errors and warnings.
func countProblems(problems []*textfrag.Problem) (errs, warnings int) {
	for _, p := range problems {
		if page.IsError(p) {
			errs++
		} else {
			warnings++
		}
	}
	return errs, warnings
}

// countErrors counts the errors that are not nil.
func countErrors(errs []error) int {
	n := 0
	for _, err := range errs {
		if err != nil {
			n++
		}
	}
	return n
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
