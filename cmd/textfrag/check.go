package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/migrate"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	// check keeps every quoted file for the whole run (one read each), so
	// its live heap is the site's sources, and it highlights nothing: at
	// 3× that heap (GOGC=200) instead of 5×, a 10,000-page site takes a
	// third less memory for the same CPU (BENCHMARKS.md, "Scale").
	register(command{name: "check", summary: "verify every RFC 5147 link without writing HTML: textfrag check docs --format github", run: runCheck, gcPercent: 200})
}

const checkHelp = `Usage: textfrag check [PATHS…] [flags]

Resolves and verifies every RFC 5147 link (#line=…, #char=…) in the Markdown
files under PATHS (default: see below), without writing HTML: the same checks
as build, so that CI can fail early and point at each broken link. Directories
are searched for *.md files, leaving out hidden and "_"-prefixed files and
directories, but for the pages Hugo renders: _index.md (.markdown, .mdown)
in every directory searched, and in a Hugo content directory (content/
beside hugo.toml, config.toml or config/_default/) every .md, .markdown and
.mdown file but those Hugo skips (names starting with "." or "#", ending in
"~"). A file named on the command line is always checked. Links in the
strings of YAML front matter (a summary Hugo renders as Markdown, a
description or title a theme markdownifies) are checked as the body's, from
the page's directory. A PATH of - is a page read from standard input (named
<stdin> in messages; its relative links resolve from the current
directory). On a terminal, a progress line on stderr counts the files
checked.

Links starting with / resolve against the project root, and only files
inside it can be quoted. Every command finds the same root: the directory of
the nearest textfrag.toml at or above the current directory, else the top of
the git work tree, else the current directory; --root overrides it.
textfrag.toml also sets defaults for the flags below (a flag given overrides
it), and its source key is the default for PATHS, else ".". Files are named
as given, relative to the current directory.

A link (or textfrag shortcode) without md5= is "unpinned": it quotes whatever
the lines hold now, so check warns about each one (an error with --strict),
naming the command that pins it. To require pins in CI, run "textfrag pin --check" too.

Formats (--format):
  text    "file:line:col: error: link: message" lines on stderr
  json    a JSON array of {file, line, column, severity, kind, link, message}
          on stdout; a name (sym=, region=) that fails is kind "symbol",
          with "symbol" saying how: mismatch, not-found, ambiguous, parse,
          unclosed, unsupported or options
  github  "::error file=…,line=…,col=…::message" workflow commands on stdout,
          which GitHub Actions shows as annotations on the pull request
          (titled "symbol not-found" and so on for a name that fails)
Every format ends with a summary line on stderr:
  checked N links in M files: E errors, W warnings

Large sites can split the work across the jobs of a CI matrix: with
--shard K/N, check takes only the files of part K of N (K = 1…N), picked by
a hash of each file's path from the project root, so that N jobs check
every file exactly once between them, and a file stays in its part when
others are added or removed. It says so first on stderr:
  shard K/N: M of T files

Exit status: 0 when no link has an error (warnings are printed), 1 on any error
(or warning, with --strict), 2 on bad usage.

Flags:`

// checkRecord is one problem in --format json.
type checkRecord struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Kind     string `json:"kind"`
	Link     string `json:"link"`
	Message  string `json:"message"`
	// Symbol is how a name failed, for kind "symbol" (symbol.ErrorKind).
	Symbol string `json:"symbol,omitempty"`
}

// newCheckRecord is the record of the problem q.
func newCheckRecord(q *textfrag.Problem) checkRecord {
	sub := ""
	if q.Kind == "symbol" {
		sub = symbol.ErrorKind(q.Err)
	}
	return checkRecord{
		File: filepath.ToSlash(q.Document), Line: q.Line, Column: q.Column,
		Severity: q.Severity.String(), Kind: q.Kind, Link: q.Link, Message: q.Message,
		Symbol: sub,
	}
}

// runCheck is the check command.
// checkOptions is check's command line.
type checkOptions struct {
	flags *flag.FlagSet // the flags, for textfrag.toml's defaults and pin's advice
	lf    linkFlags
	// Format is text, json or github.
	Format string
	// Jobs is how many files are checked at a time.
	Jobs  int
	Shard project.Shard
	// Paths are the files and directories named, "-" for standard input;
	// none: the project's default paths.
	Paths []string
}

// parseCheck reads check's command line. It reports false after printing
// the problem, or the usage -h asked for.
func parseCheck(e *env, args []string) (*checkOptions, bool) {
	o := &checkOptions{flags: newFlagSet("check", checkHelp), lf: linkFlags{unpinned: true}}
	o.flags.StringVar(&o.Format, "format", "text", "output `FORMAT`: text, json or github")
	o.flags.IntVar(&o.Jobs, "j", runtime.GOMAXPROCS(0), "check `N` files at a time")
	registerShard(o.flags, &o.Shard)
	o.lf.register(o.flags)
	paths, ok := e.parseFlags(o.flags, args)
	if !ok {
		return nil, false
	}
	switch {
	case !slices.Contains([]string{"text", "json", "github"}, o.Format):
		e.errorf("check: --format %s: the formats are text, json and github", termsafe.Escape(o.Format, ""))
	case o.Jobs < 1:
		e.errorf("check: -j %d: check at least 1 file at a time", o.Jobs)
	default:
		o.Paths = paths
		return o, true
	}
	o.flags.Usage()
	return nil, false
}

// runCheck is the check command.
func runCheck(e *env, args []string) int {
	o, ok := parseCheck(e, args)
	if !ok {
		return exitUsage
	}
	return checkRun(e, o)
}

// checkRun checks the pages o names and reports in o.Format.
func checkRun(e *env, o *checkOptions) int {
	lf, fset := &o.lf, o.flags
	if !lf.find(e, fset) {
		return exitError
	}
	paths, fromStdin := cutStdin(o.Paths)
	if len(paths) == 0 && !fromStdin {
		var err error
		if paths, err = defaultPaths(lf.proj); err != nil {
			e.errorf("%v", err)
			return exitError
		}
	}
	files, err := project.MarkdownFiles(paths)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	files, ok := e.shardFiles(o.Shard, lf.root, files)
	if !ok {
		return exitError
	}
	var stdinSrc []byte // the page on standard input ("-"), checked last
	if fromStdin {
		if stdinSrc, err = e.readStdinPage(); err != nil {
			e.errorf("%v", err)
			return exitError
		}
		files = append(files, stdinName)
	}
	r, err := lf.newResolver(lf.root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	md := lf.markdown(r)
	read, err := project.OpenPages(lf.root) // pages are read through the root
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	read.Secret = r.CheckSecret
	defer read.Close()

	pages := make([]*page.Page, len(files))
	readErrs := make([]error, len(files))
	var done atomic.Int64
	prog := e.startProgress("checking", len(files), &done)
	parallel(context.Background(), o.Jobs, len(files), &done, func(i int) {
		defer page.Recover(&readErrs[i], files[i])
		var src []byte
		var err error
		if fromStdin && i == len(files)-1 {
			src = stdinSrc
		} else {
			src, err = read.Read(files[i]) // a FIFO or a device fails at once
		}
		if err != nil {
			readErrs[i] = err
			return
		}
		pages[i], readErrs[i] = page.Check(md, r, files[i], src, page.CheckOptions{Lenient: lf.lenient, Unpinned: lf.unpinned})
		if pages[i] != nil {
			pages[i].Problems = append(pages[i].Problems, migrate.Foreign(files[i], src)...) // other tools' includes
		}
	})
	prog.finish()

	var problems []*textfrag.Problem
	var records []checkRecord
	links := 0
	pinArgs := checkPinArgs(fset)
	var found []*textfrag.Problem
	for i, p := range pages {
		if readErrs[i] == nil && p != nil {
			found = append(found, p.Problems...)
		}
	}
	stale := e.checkUnpinnedStale(lf.root, r, read, found, pinArgs) // unpinned links pin pins only when accepted
	for i, p := range pages {
		if err := readErrs[i]; err != nil {
			records = append(records, checkRecord{File: filepath.ToSlash(files[i]), Severity: "error", Kind: "read", Message: err.Error()})
			continue
		}
		links += p.Links
		lf.proj.AdviseRoot(p.Problems)
		for _, q := range p.Problems {
			checkPinRemedy(q, pinArgs)
		}
		if e.preCommit {
			for _, q := range p.Problems {
				q.Message = hookRemedy(q.Message, e.hookSelf)
			}
		}
		problems = append(problems, p.Problems...)
		for _, q := range p.Problems {
			records = append(records, newCheckRecord(q))
		}
	}
	switch o.Format {
	case "text":
		for _, rec := range records {
			if rec.Kind == "read" {
				e.errorf("%s: %s", termsafe.Escape(rec.File, ""), termsafe.Escape(rec.Message, ""))
			}
		}
		e.printProblems(problems)
	case "json":
		if records == nil {
			records = []checkRecord{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(records); err != nil {
			e.errorf("%v", err)
			return exitError
		}
	case "github":
		for _, rec := range records {
			fmt.Fprintln(e.stdout, githubAnnotation(rec))
		}
	}
	nErr, nWarn := countProblems(problems)
	nErr += countErrors(readErrs)
	e.checkSummary(checkClasses(lf.root, r, read, problems, stale), paths, pinArgs)
	fmt.Fprintf(e.stderr, "checked %d %s in %d %s: %d %s, %d %s\n",
		links, plural(links, "link", "links"), len(files), plural(len(files), "file", "files"),
		nErr, plural(nErr, "error", "errors"), nWarn, plural(nWarn, "warning", "warnings"))
	if nErr > 0 || lf.failed(problems) {
		return exitError
	}
	return exitOK
}

// githubAnnotation writes a problem as a GitHub Actions workflow command:
// "::error file=docs/a.md,line=3,col=1::link: message". Values are escaped
// as the runner expects: "%", CR and LF everywhere, and also ":" and ","
// in properties.
func githubAnnotation(r checkRecord) string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(r.Severity)
	b.WriteString(" file=")
	b.WriteString(escapeGitHubProperty(termsafe.Escape(r.File, "\r\n")))
	if r.Line > 0 {
		fmt.Fprintf(&b, ",line=%d,col=%d", r.Line, r.Column)
	}
	if r.Symbol != "" {
		b.WriteString(",title=" + escapeGitHubProperty(r.Kind+" "+r.Symbol))
	}
	b.WriteString("::")
	msg := r.Message
	if r.Link != "" {
		msg = r.Link + ": " + msg
	}
	b.WriteString(escapeGitHubData(termsafe.Escape(msg, "\r\n")))
	return b.String()
}

var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeGitHubData escapes the message of a workflow command.
func escapeGitHubData(s string) string { return githubData.Replace(s) }

// escapeGitHubProperty escapes a property value of a workflow command.
func escapeGitHubProperty(s string) string { return githubProperty.Replace(s) }
