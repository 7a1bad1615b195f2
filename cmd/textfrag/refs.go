package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/quotelink"
	"github.com/textfrag/textfrag/internal/refs"
	"github.com/textfrag/textfrag/internal/symbols"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "refs", summary: "list the links that quote a file or lines, or the quotes a change affects: textfrag refs src/a.go:10-20, textfrag refs --diff", run: runRefs, gcPercent: 200}) // as check
}

const refsHelp = `Usage: textfrag refs PATH[:LINES] [--format text|json]
       textfrag refs PATH:NAME | --region NAME PATH [--format text|json]
       textfrag refs --diff [BASE | -] [--format text|json|github] [--fail-on CLASSES]

Reverse citations: which documentation quotes this code.

textfrag refs PATH lists every RFC 5147 link (and textfrag shortcode) in the
project's Markdown files that quotes PATH; PATH:LINES (human line numbers,
src/a.go:10-20 or src/a.go:14) only those that quote any of those lines. A
character range (char=…) counts the lines it touches; a position (line=5)
counts when it lies in or at the edge of LINES. PATH is named as the shell
names it, relative to the current directory; each link is resolved as a
build resolves it, so ../src/a.go from docs/ and /src/a.go both match.
Links that name PATH but fail to resolve (a bad fragment, a stale md5, a
missing file) are listed too, marked broken or stale; when their lines
cannot be known they are listed whatever LINES says. Every Markdown file
under the project root (or the source directory textfrag.toml names) is
searched, as check searches a directory.

  $ textfrag refs src/a.go:14
  docs/guide.md:3:1: src/a.go lines 11–20, pinned

PATH:NAME names a declaration instead of lines (src/server.go:Server.Handle,
a method Type.Method; "::" means "."), and --region NAME the lines between
the marker comments textfrag:begin NAME and textfrag:end NAME of PATH:
listed are the links that name it in their title (sym=NAME, region=NAME)
and those whose lines overlap the lines it spans now, looked up as the
build looks it up. A link that names it but no longer spans exactly its
lines is marked stale. When the name cannot be looked up (gone, ambiguous,
a file that does not parse) the links that name it are still listed, and
the exit status is 1.

  $ textfrag refs src/server.go:Server.Handle
  docs/guide.md:7:1: src/server.go lines 12–30 (sym=Server.Handle), pinned

textfrag refs --diff lists the quotes that the changes between BASE and the
work tree affect, each classed:
  changed   a change touches the quoted lines: the docs need review; so
            does a change that shifts the lines of an unpinned quote (one
            without md5=, which no check guards: its page would show
            other lines, silently)
  review    pin cannot show where the quoted text went (a name that cannot
            be followed, an uncertain relocation): a person fixes the link;
            also a link whose file cannot be read (missing, outside the
            root), whatever changed: which file it means is not known (a
            link starting with / that misses because --root was not given
            is told the --root that finds its file)
  moved     the quoted text is intact at other lines: pin --write fixes it
  refresh   the file changed elsewhere, the quoted text is in place, the
            md5 is stale: pin --write refreshes it
  renamed   the quoted file was renamed (as git finds renames) with the
            quoted text intact: the link's path needs updating
  deleted   the quoted file was deleted, or the name a link quotes by
            (sym=, region=) is no longer in it
A link that quotes by name follows the name, as pin does: its declaration
or region moved with its text intact is moved (or refresh), a changed body
or a name that now spans other lines is changed.
BASE is a commit (default: the merge base of HEAD and the default branch:
origin/HEAD, else origin/main, origin/master, main, master). Links are read
from the work tree, so a quote re-pinned in the same change counts as
reviewed; a link is compared with the BASE version of the file it quotes.
Renames are followed among committed and staged changes. With --diff -, a
unified diff (git diff BASE, diff -u) is read on stdin instead of running
git, and the BASE version of each file is rebuilt from the work tree and
the diff. A quoted file's lines are counted as builds count them (CR+LF,
CR, LF, NEL).

Formats (--format):
  text    "src/a.go:14: changed: quoted in docs/guide.md:3 (…): …" lines on
          stdout (refs PATH: "docs/guide.md:3:1: src/a.go lines 11–20, pinned")
  json    a JSON array on stdout: refs PATH {page, line, column, kind, link,
          path, first_line, last_line, label, pinned, status, error,
          name};
          --diff {class, blocking, file, line, end_line, page, page_line,
          page_column, link, path, quoted, message, fix}
  github  "::error file=src/a.go,line=14,title=quoted text changed::quoted in
          docs/guide.md:3 …" workflow commands on stdout (--diff only),
          placed on the changed source lines
          (on the page, for a deleted file); blocking classes are errors,
          others warnings
--diff's text and github formats name files from the current directory, as
the commands they advise do; json's fields name them from the project root.
--diff ends on stderr with the quotes counted by class as pin counts them
(refreshed, moved, changed, gone, review, unpinned: every unpinned quote
affected, whatever its class; renamed when any) and, for each class
found, the one command that settles it.

Exit status: 0 when nothing was found or nothing blocks; with --diff, 1
when a quote of a class in --fail-on (default changed,review,deleted) is
affected;
1 also when the project cannot be read (PATH outside the root, git fails)
or a NAME cannot be looked up;
2 on bad usage.

Flags:`

// refsOptions is refs' command line.
type refsOptions struct {
	flags *flag.FlagSet
	lf    linkFlags
	// Format is text or json, with Diff also github.
	Format string
	// Diff lists the quotes a change affects: since Base (the merge base
	// with the default branch when ""), or a diff on stdin when Base is -.
	Diff bool
	Base string
	// Fail is what --fail-on names: the classes that make --diff exit 1.
	Fail map[string]bool
	// Jobs is how many pages are read at a time.
	Jobs int
	// Region lists the links that quote the region of that name of Ref.
	Region string
	// Ref is PATH, PATH:LINES or PATH:NAME, without --diff.
	Ref string
}

// parseRefs reads refs' command line. It reports false after printing the
// problem, or the usage -h asked for.
func parseRefs(e *env, args []string) (*refsOptions, bool) {
	o := &refsOptions{flags: newFlagSet("refs", refsHelp)}
	fset := o.flags
	fset.StringVar(&o.Format, "format", "text", "output `FORMAT`: text or json (with --diff also github)")
	fset.BoolVar(&o.Diff, "diff", false, "list the quotes affected by the changes since BASE (the argument; default the merge base with the default branch), or by a unified diff on stdin (argument -)")
	failOn := fset.String("fail-on", "changed,review,deleted", "with --diff, exit 1 when a quote of one of these `CLASSES` is affected (comma-separated: changed, review, deleted, renamed, moved, refresh; or none)")
	fset.IntVar(&o.Jobs, "j", runtime.GOMAXPROCS(0), "read `N` pages at a time")
	fset.StringVar(&o.Region, "region", "", "list the links that quote the region `NAME` of PATH (the lines between textfrag:begin NAME and textfrag:end NAME)")
	fset.StringVar(&o.lf.root, "root", "", "project root `DIR` ("+rootHelp+")")
	o.lf.fileFlags.register(fset)
	pos, ok := e.parseFlags(fset, args)
	if !ok {
		return nil, false
	}
	refused := func(format string, args ...any) (*refsOptions, bool) {
		e.errorf(format, args...)
		return nil, false
	}
	formats := []string{"text", "json"}
	if o.Diff {
		formats = append(formats, "github")
	}
	switch {
	case o.Jobs < 1:
		return refused("-j %d: want at least 1", o.Jobs)
	case !slices.Contains(formats, o.Format):
		return refused("--format %q: want one of %s", o.Format, strings.Join(formats, ", "))
	case o.Diff && len(pos) > 1:
		return refused("--diff takes one BASE at most, or -")
	case !o.Diff && len(pos) != 1:
		fset.Usage()
		return nil, false
	case o.Diff && o.Region != "":
		return refused("--region names what refs PATH lists; --diff lists every quote a change affects")
	}
	fail, err := parseFailOn(*failOn)
	if err != nil {
		return refused("--fail-on: %v", err)
	}
	o.Fail = fail
	if o.Diff {
		if len(pos) == 1 {
			o.Base = pos[0]
		}
	} else {
		o.Ref = pos[0]
	}
	return o, true
}

// refsQuery is what refs PATH lists: the links into file, those quoting
// lines of it, or those naming a declaration or region of it.
type refsQuery struct {
	file     string
	lines    quotelink.Range
	hasLines bool
	name     *symbol.Selector
}

// parseRefsQuery reads PATH, PATH:LINES or PATH:NAME (a file whose name
// holds a colon is the file), or PATH with --region NAME.
func parseRefsQuery(ref, region string) (refsQuery, error) {
	q := refsQuery{file: ref}
	if region != "" {
		sel, err := quotelink.NewSelector(region, true, false)
		if err != nil {
			return q, fmt.Errorf("--region: %w", err)
		}
		q.name = &sel
		return q, nil
	}
	if info, err := os.Stat(ref); err == nil && info.Mode().IsRegular() {
		return q, nil
	}
	if f, r, err := quotelink.ParseRef(ref, false); err == nil {
		q.file, q.lines, q.hasLines = f, r, true
	} else if i := strings.LastIndexByte(ref, ':'); i >= 0 && i+1 < len(ref) && '0' <= ref[i+1] && ref[i+1] <= '9' {
		return q, fmt.Errorf("%s: %w", ref, err)
	} else if f, n, ok := quotelink.ParseNameRef(ref, isRegularFile); ok {
		sel, err := quotelink.NewSelector(n, false, false)
		if err != nil {
			return q, fmt.Errorf("%s: %w", ref, err)
		}
		q.file, q.name = f, &sel
	}
	return q, nil
}

// runRefs is the refs command.
func runRefs(e *env, args []string) int {
	o, ok := parseRefs(e, args)
	if !ok {
		return exitUsage
	}
	return refsRun(e, o)
}

// refsRun lists the links that quote o.Ref, or with o.Diff the quotes a
// change affects.
func refsRun(e *env, o *refsOptions) int {
	lf, fset := &o.lf, o.flags
	usage := func(format string, args ...any) int {
		e.errorf(format, args...)
		return exitUsage
	}
	if !lf.find(e, fset) {
		return exitError
	}
	r, err := target.New(lf.secrets.options(target.Options{Root: lf.root, Charsets: lf.charsets, Symbols: symbols.Set()}))
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	if o.Diff {
		return e.refsDiff(lf, r, o.Base, o.Format, o.Fail, o.Jobs, refsCommands(fset, lf.proj))
	}

	q, err := parseRefsQuery(o.Ref, o.Region)
	if err != nil {
		return usage("%v", err)
	}
	file, rng, hasRange, name := q.file, q.lines, q.hasLines, q.name
	want := r.DocPath(file)
	if !filepath.IsLocal(filepath.FromSlash(want)) {
		e.errorf("%s: outside the project root, so no link of the project quotes it; %s", file, lf.proj.RootAdvice())
		return exitError
	}
	code := exitOK
	var span *symbol.Span
	what := want
	if name != nil {
		sp, err := r.FindName(want, "", *name)
		if err != nil {
			msg := oneLineOf(project.ExplainTarget(err, lf.root))
			var se *symbol.Error
			if errors.As(err, &se) && errors.Is(err, symbol.ErrNotFound) && len(se.Candidates) > 0 {
				var names []string
				for _, c := range se.Candidates {
					names = append(names, c.Name)
				}
				msg += "; close names: " + strings.Join(names, ", ")
			}
			e.errorf("%s; listing the links that name it", msg)
			code = exitError
		} else {
			span = &sp
		}
		what = want + ":" + name.Name
		if name.Kind == symbol.Region {
			what = want + " region " + name.Name
		}
		if span != nil {
			lines := "lines "
			if span.End-span.Start == 1 {
				lines = "line "
			}
			what += fmt.Sprintf(" (%s, %s%s)", span.Kind, lines, span.Human())
		}
	}
	links, ok := e.scanRefs(lf, r, o.Jobs, func(p string) bool { return p == want })
	if !ok {
		return exitError
	}
	var found []*refs.Link
	for _, l := range links {
		switch {
		case name != nil:
			if l.QuotesName(*name, span) {
				found = append(found, l)
			}
		case !hasRange || l.QuotesLines(rng.Start, rng.End):
			found = append(found, l)
		}
	}
	if hasRange {
		what += ":" + rng.String()
	}
	if o.Format == "json" {
		if found == nil {
			found = []*refs.Link{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(found); err != nil {
			e.errorf("%v", err)
			return exitError
		}
	} else {
		for _, l := range found {
			fmt.Fprintln(e.stdout, termsafe.Escape(refsText(l), ""))
		}
	}
	pages := map[string]bool{}
	for _, l := range found {
		pages[l.Page] = true
	}
	fmt.Fprintf(e.stderr, "%d %s %s in %d %s\n", len(found), plural(len(found), "link quotes", "links quote"),
		termsafe.Escape(what, ""), len(pages), plural(len(pages), "page", "pages"))
	return code
}

// isRegularFile reports whether p names a regular file.
func isRegularFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// oneLineOf joins a message's lines into one.
func oneLineOf(s string) string { return strings.Join(strings.Fields(s), " ") }

// refsText is the line refs prints for l.
func refsText(l *refs.Link) string {
	what := l.Path + " " + l.Label
	if l.Label == "" {
		what = l.Path + " (range unknown)"
	}
	if l.Name != "" {
		what += " (" + l.Name + ")"
	}
	state := "unpinned"
	if l.Pinned {
		state = "pinned"
	}
	switch l.Status {
	case "stale":
		state += ", stale: " + l.Error
	case "broken":
		state = "broken: " + l.Error
	}
	return fmt.Sprintf("%s:%d:%d: %s, %s", l.Page, l.Line, l.Column, what, state)
}

// scanRefs reads every Markdown page of the project and returns, in page
// order, the links whose target (resolved, or named by a link that failed
// to resolve) is a project path for which match reports true.
func (e *env) scanRefs(lf *linkFlags, r *target.Resolver, jobs int, match func(path string) bool) ([]*refs.Link, bool) {
	pages, err := refsPages(lf.proj)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	files, err := project.MarkdownFiles(pages)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	read, err := project.OpenPages(lf.root) // pages are read through the root
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	read.Secret = r.CheckSecret
	defer read.Close()
	found := make([][]*refs.Link, len(files))
	readErrs := make([]error, len(files))
	var done atomic.Int64
	prog := e.startProgress("reading pages", len(files), &done)
	parallel(context.Background(), jobs, len(files), &done, func(i int) {
		defer page.Recover(&readErrs[i], files[i])
		src, err := read.Read(files[i])
		if err != nil {
			readErrs[i] = err
			return
		}
		doc := r.DocPath(files[i])
		for _, ml := range mdlink.Page(src) {
			if l := refs.Resolve(r, doc, ml); l != nil && match(l.Path) {
				found[i] = append(found[i], l)
			}
		}
	})
	prog.finish()
	var out []*refs.Link
	ok := true
	for i := range files {
		if readErrs[i] != nil {
			// One line: a line break in the page's name is escaped too.
			e.errorf("%s", termsafe.Escape(fmt.Sprintf("%s: %v", files[i], readErrs[i]), ""))
			ok = false
		}
		out = append(out, found[i]...)
	}
	return out, ok
}

// refsPages is where refs looks for Markdown pages: the source directory
// textfrag.toml names, else the whole project root. A source that leads
// out of the root is an error (defaultPaths).
func refsPages(p *project.Project) ([]string, error) {
	if src := p.Source(); src != "" {
		if _, err := defaultPaths(p); err != nil {
			return nil, err
		}
		return []string{src}, nil
	}
	return []string{p.Root}, nil
}
