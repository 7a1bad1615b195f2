package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/symbols"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "pin", summary: "add or refresh the md5 of RFC 5147 links, following moved text: textfrag pin --write docs", run: runPin, gcPercent: 200}) // as check
}

const pinUsage = `Usage: textfrag pin [PATHS…] [--write] [--accept QUOTE]… [--accept-changed] [-i] [--check] [-v] [--format FORMAT] [--shard K/N] [--root DIR] [--charset GLOB=CHARSET] [--allow-host HOST]

For every RFC 5147 link (#line=… or #char=…) in the Markdown files under
PATHS (default: source in textfrag.toml, else "."; directories are searched
for *.md files as check does; the project root is found as check finds it),
adds ";md5=…" where there is none and refreshes md5 and length checks that
no longer match, in the charset a check names. Unknown checks and the rest
of the fragment stay as written, and the rest of the file byte for byte.
A destination whose exact bytes cannot be found in the file (the link syntax
hides them) is reported, never guessed at. The path of the Hugo module's
shortcode, {{< textfrag "PATH#line=…" >}} or src="PATH#…" (also in the {{% %}}
form), is pinned like a link wherever Hugo expands it, code blocks included;
escaped shortcodes ({{</* … */>}}) and front matter are left alone. check
verifies these shortcodes too.

When a pinned md5 no longer matches, pin finds the version of the target
with that md5 in git history and follows the quoted lines from it to now:
  refreshed the quoted text is unchanged in place: the checks are updated
  moved     the same text, followed to other lines: the range is updated
  changed   the text was edited: its diff is shown; re-pinned only when a
            person accepts it, and only when its new place is known
  gone      the quoted text, the file or the pinned version is gone: a
            person writes the link anew (the message says how)
  review    pin cannot show that the text it would point at is the text
            quoted: a person looks, as for gone
A link whose title names what it quotes (sym=Server.Handle, region=setup;
see "textfrag link -h") is found by its name first, history serving only to
learn the text pinned; the link keeps its name. An unpinned link is pinned
(md5 added). A link checked by length= alone names no version: when its
length no longer matches, it is "changed".

Accepting is per quote and never blind. Each quote that needs a person is
printed with an id ("… (quote 1a2b3c4d)"); accept one with --accept ID or
--accept PAGE:LINE (repeatable; PATHS default to the pages named), all
changed quotes whose new place is known with --accept-changed, or go
through them with -i, which shows each diff and asks y/n/q/? on stdin, as
"git add -p" does, then writes. Gone and review quotes are refused, with
what to do. When a quote's lines move, hl= in its title moves with them
(dropped, with a warning, when pin cannot tell where they went), and link
text that states the range as "textfrag link" writes it ("a.go lines
11–20") states the new range.

Every run ends with counts by class (refreshed, moved, changed, gone,
review, unpinned) and the one command for each class found.

Remote targets (http, https) are pinned too on the hosts --allow-host names,
from the bytes fetched now; other remote links are left alone. A remote
target has no history to search, so when its md5 no longer matches it is
"changed", re-pinned only with --accept-changed.

Without --write, prints the changes as a unified diff and writes nothing.
With --write, replaces each file atomically (temporary file, fsync, rename),
refusing if it changed meanwhile. Pages quoting pages that pin rewrote are
gone over again, so one run settles both.

With --shard K/N, only the files of part K of N, picked as check --shard
picks them, so that the jobs of a CI matrix can each run
"pin --check --shard K/N" on their part.

Formats (--format):
  text    per-quote messages and the summary on stderr, the diff on stdout
  json    one JSON document on stdout:
            {"quotes": [{file, line, column, class, quote, link, message,
                         detail, written}],
             "files": [{path, diff}], "counts": {refreshed, moved, changed,
             gone, review, unpinned, accepted, error},
             "commands": [{classes, count, command, advice}]}
          "class" is as the text line says it ("pinned": an unpinned link
          pin adds md5= to); "quote" is the id to accept a quote by (for
          those that need a person), "detail" its diff lines, "written" whether pin writes it
          (or, without --write, would); "files" are the pages that change,
          each with its unified diff ("" with --write); "command" is the
          one command for those classes ("" when a person must fix each
          link, or the quotes were written). Other errors, warnings and
          the progress line stay on stderr, and the summary is printed
          there too.

Exit status: 0 when every link is pinned or can be (pending changes alone
do not fail, unless --check); 1 when a link is gone, in review, changed and
not accepted, or in error, when a quote named by --accept cannot be
accepted or names no quote, when a file could not be written, or with --check
when anything would change; 2 on bad usage.

Flags:`

// pinOptions are pin's command line.
type pinOptions struct {
	// flags are the flags, for textfrag.toml's defaults and the commands
	// pin advises; files and remote are set by them.
	flags  *flag.FlagSet
	files  fileFlags
	remote remoteFlags

	write, acceptChanged, check, verbose bool
	// accept names the quotes a person accepted (--accept); interactive
	// asks about each changed quote (-i).
	accept      pinQuoteFlag
	interactive bool
	// json is --format json: reports are kept for one JSON document on
	// stdout (pinJSON) instead of printed.
	json  bool
	shard project.Shard // --shard, with the project's root in root
	// paths are the files and directories named; none: the pages --accept
	// PAGE:LINE names, else the project's default paths.
	paths []string
	root  string
	proj  *project.Project // the project found: where links starting with / lead
	// flagArgs are the flags given that choose what links mean (--root,
	// --charset, remote options), each with a leading space, for the
	// commands messages advise.
	flagArgs string
}

// newPinOptions makes pin's flags, bound to the options it returns.
func newPinOptions() *pinOptions {
	o := &pinOptions{flags: newFlagSet("pin", pinUsage)}
	fset := o.flags
	fset.String("root", "", "project root `DIR`: links starting with / resolve there, and targets must lie inside it ("+rootHelp+")")
	fset.BoolVar(&o.write, "write", false, "rewrite the Markdown files instead of printing a diff")
	fset.BoolVar(&o.acceptChanged, "accept-changed", false, "also re-pin every quote whose text changed and whose new place is known (read the diffs first); gone and review quotes are refused")
	fset.Var(&o.accept, "accept", "re-pin the changed quote `QUOTE` (the id pin printed for it, or PAGE:LINE[:COL]) at its new place; repeatable")
	fset.BoolVar(&o.interactive, "i", false, "show each changed quote's diff and ask whether to re-pin it (y, n, q, ?; answers on stdin), then write")
	fset.BoolVar(&o.check, "check", false, "write nothing and exit 1 if any file would change (for CI)")
	fset.BoolVar(&o.verbose, "v", false, "also report links that are pinned and unchanged")
	fset.Var(&pinFormatFlag{&o.json}, "format", "output `FORMAT`: text or json (one JSON document on stdout)")
	registerShard(fset, &o.shard)
	o.files.register(fset)
	o.remote.register(fset)
	return o
}

// parsePin reads pin's command line. It reports false after printing the
// problem, or the usage -h asked for.
func parsePin(e *env, args []string) (*pinOptions, bool) {
	o := newPinOptions()
	paths, ok := e.parseFlags(o.flags, args)
	if !ok {
		return nil, false
	}
	if o.write && o.check {
		e.errorf("pin: --check and --write exclude each other: --check never writes")
		return nil, false
	}
	if o.interactive && (o.check || o.acceptChanged) {
		e.errorf("pin: -i asks about each quote: it goes with neither --check nor --accept-changed")
		return nil, false
	}
	if len(paths) == 0 {
		// --accept PAGE:LINE names the pages to go through.
		for _, r := range o.accept {
			if r.Page != "" && !slices.Contains(paths, r.Page) {
				paths = append(paths, r.Page)
			}
		}
	}
	o.paths = paths
	return o, true
}

func runPin(e *env, args []string) int {
	o, ok := parsePin(e, args)
	if !ok {
		return exitUsage
	}
	return pinRun(e, o)
}

// pinRun pins the links of the pages op names. op is a pointer because
// finding the project sets the flags that textfrag.toml gives defaults for.
func pinRun(e *env, op *pinOptions) int {
	proj, ok := e.findProject(op.flags) // the same root, and textfrag.toml, as every command
	if !ok {
		return exitError
	}
	o := *op                           // with textfrag.toml's defaults, set on the flags
	o.write = o.write || o.interactive // -i writes what it was told to
	fset, paths := o.flags, o.paths
	if len(paths) == 0 {
		var err error
		if paths, err = defaultPaths(proj); err != nil {
			e.errorf("pin: %v", err)
			return exitError
		}
	}
	rem, err := o.remote.options()
	if err != nil {
		e.errorf("pin: %v", err)
		return exitUsage
	}
	ro := o.files.secrets.options(target.Options{Root: proj.Root, Charsets: o.files.charsets, Remote: rem, Symbols: symbols.Set()})
	r, err := target.New(ro)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	o.flagArgs = pinFlagArgs(fset)
	o.root, o.proj = proj.Root, proj
	pages, err := project.OpenPages(proj.Root) // pages are read through the root
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	pages.Secret = r.CheckSecret
	defer pages.Close()
	var out *pinJSON
	if o.json {
		out = &pinJSON{Quotes: []pinJSONQuote{}, Files: []pinJSONFile{}, Counts: map[string]int{}, Commands: []pinJSONCommand{}}
	}
	p := &pinner{out: out, e: e, opt: o, res: r, resOptions: ro, hist: pin.NewHistory(proj.Root), pages: pages,
		quotes: map[string]map[string]bool{}, reported: map[string]bool{},
		tally: pinTally{}, answers: map[string]bool{}, asked: map[string]bool{}, acceptUsed: map[string]bool{}}
	// Acceptance is decided per quote (pin_accept.go), not by the Planner:
	// it plans every link as if nothing were accepted, and decideQuote
	// puts the command's remedy in place of the Planner's.
	p.plan = &pin.Planner{Resolver: r, History: p.hist,
		PinCommand: func(page string) string {
			if e.preCommit {
				return hookPin
			}
			return "textfrag pin --write" + o.flagArgs + " " + pinPathWords([]string{page})
		},
		Explain: func(err error) string { return project.ExplainTarget(err, p.res.Root()) }}
	return p.run(paths)
}

// pinFlagArgs writes the flags given on the command line that the
// commands pin advises must repeat: all but --write, --check,
// --accept-changed and -v.
func pinFlagArgs(fset *flag.FlagSet) string {
	return pinFlagArgsOf(fset, func(string) bool { return true })
}

// pinFlagArgsOf is pinFlagArgs for the flags keep accepts.
func pinFlagArgsOf(fset *flag.FlagSet, keep func(name string) bool) string {
	var b strings.Builder
	fset.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "write", "check", "accept-changed", "accept", "i", "v", "format":
			return
		}
		if !keep(f.Name) {
			return
		}
		var values []string
		switch v := f.Value.(type) {
		case *charsetFlag:
			for _, r := range *v {
				values = append(values, r.Glob+"="+r.Charset)
			}
		case *hostsFlag:
			values = *v
		case *secretGlobs:
			values = v.given // each glob its own flag; textfrag.toml's are not repeated
		default:
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
				b.WriteString(" --" + f.Name + "=" + f.Value.String())
				return
			}
			values = []string{f.Value.String()}
			if f.Name == "root" && filepath.IsAbs(values[0]) {
				// check and refs hold the root found, absolute: named from
				// where the command runs, as the paths beside it are.
				if cwd, err := os.Getwd(); err == nil {
					values[0] = argPath(cwd, values[0])
				}
			}
		}
		for _, v := range values {
			b.WriteString(" --" + f.Name + " " + pinShellWords([]string{v}))
		}
	})
	return b.String()
}

// pinShellWords joins words for a POSIX shell (termsafe.ShellWords).
func pinShellWords(words []string) string { return termsafe.ShellWords(words...) }

// pinPathWords joins file names as the arguments of a command advised,
// for a POSIX shell: a name starting with "-" (a page "-notes.md" named
// as given, or found in ".") starts with "./", so that it is not read as
// a flag.
func pinPathWords(paths []string) string {
	words := make([]string, len(paths))
	for i, p := range paths {
		if strings.HasPrefix(p, "-") {
			p = "." + string(filepath.Separator) + p
		}
		words[i] = filepath.ToSlash(p)
	}
	return termsafe.ShellWords(words...)
}

// pinner runs one pin command.
type pinner struct {
	e    *env
	opt  pinOptions
	res  *target.Resolver
	hist *pin.History
	// plan classifies links; its Resolver is res.
	plan       *pin.Planner
	resOptions target.Options
	// pages reads the Markdown files, through the project root.
	pages *project.Pages
	// quotes holds, for each Markdown file, the real paths of its targets.
	quotes  map[string]map[string]bool
	curFile string
	// realPaths caches the real path of each project path noteQuoted saw
	// in this pass ("": none), so that symbolic links are followed once
	// per target, not once per link.
	realPaths map[string]string
	// reported holds the report lines printed, so that a second pass over a
	// file does not repeat them.
	reported map[string]bool
	failed   bool
	// tally counts each file's quotes by class, for the summary.
	tally pinTally
	// out is the JSON document of --format json.
	out *pinJSON
	// answers holds -i's answers by quote id; quit is set by its q; in
	// reads the answers.
	answers map[string]bool
	asked   map[string]bool // shown with their diff by -i's question
	quit    bool
	in      *bufio.Reader
	// acceptUsed holds the --accept names that matched a quote.
	acceptUsed map[string]bool
	// head tells unpinned links pin does not pin unread (pin_hook.go).
	head headCompare
}

// noteQuoted remembers that the file being pinned quotes the file at
// project path proj.
func (p *pinner) noteQuoted(proj string) {
	if target.IsRemote(proj) {
		return
	}
	real, ok := p.realPaths[proj]
	if !ok {
		var err error
		if real, err = pin.RealPath(filepath.Join(p.res.Root(), filepath.FromSlash(proj))); err != nil {
			real = ""
		}
		if p.realPaths == nil {
			p.realPaths = map[string]string{}
		}
		p.realPaths[proj] = real
	}
	if real == "" {
		return
	}
	if p.quotes[p.curFile] == nil {
		p.quotes[p.curFile] = map[string]bool{}
	}
	p.quotes[p.curFile][real] = true
}

// pinMaxPasses bounds the passes of pin --write over files that quote
// Markdown files it rewrote (docs quoting docs); more means a cycle.
const pinMaxPasses = 4

func (p *pinner) run(paths []string) int {
	// The same files as check (project.MarkdownFiles: *.md under
	// directories without hidden and "_"-prefixed names, but Hugo's pages),
	// and every file named on the command line.
	files, err := project.MarkdownFiles(paths)
	if err != nil {
		p.e.errorf("pin: %s", termsafe.Escape(err.Error(), ""))
		return exitError
	}
	files, ok := p.e.shardFiles(p.opt.shard, p.opt.root, files)
	if !ok {
		return exitError
	}
	written := map[string]bool{} // names of the files changed (or, without --write, to change)
	todo := files
	for pass := 1; len(todo) > 0; pass++ {
		rewritten := map[string]string{} // real path → name, this pass
		var done atomic.Int64
		prog := p.e.startProgress("pinning", len(todo), &done)
		stderr := p.e.stderr
		p.e.stderr = prog.writer() // messages clear the progress line first
		for _, name := range todo {
			src, newSrc, ok := p.file(name)
			done.Add(1)
			if !ok || bytes.Equal(src, newSrc) {
				continue
			}
			written[name] = true
			if !p.opt.write {
				if p.out == nil { // --format json: the diff is in the document
					prog.clear() // the diff starts on a line of its own
					fmt.Fprint(p.e.stdout, pinShownDiff(pin.UnifiedDiff(termsafe.Escape(pinFileLabel(name), ""), src, newSrc)))
				}
			} else if err := pinWriteAtomic(p.res.Root(), name, src, newSrc); err != nil {
				p.e.errorf("pin: %s: not written: %s", termsafe.Escape(name, ""), termsafe.Escape(err.Error(), ""))
				p.failed = true
				continue
			}
			if p.out != nil {
				f := pinJSONFile{Path: filepath.ToSlash(name)}
				if !p.opt.write {
					f.Diff = pin.UnifiedDiff(pinFileLabel(name), src, newSrc)
				}
				p.out.addFile(f)
			}
			if real, err := pin.RealPath(name); err == nil {
				rewritten[real] = name
				// Links pinned to the file as it was find it here.
				p.hist.Remember(real, src)
			}
		}
		p.e.stderr = stderr
		prog.finish()
		// Files quoting a file just rewritten hold stale pins: with --write,
		// go over them again (a fresh resolver reads the new contents);
		// without, say so.
		todo = nil
		for _, name := range files {
			for real := range p.quotes[name] {
				if _, ok := rewritten[real]; !ok {
					continue
				}
				if !p.opt.write || pass == pinMaxPasses {
					p.e.errorf("pin: warning: %s quotes %s, which pin %s; run pin again afterwards", termsafe.Escape(name, ""), termsafe.Escape(rewritten[real], ""),
						map[bool]string{true: "rewrote (and the quotes do not settle)", false: "would rewrite"}[p.opt.write])
					continue
				}
				todo = append(todo, name)
				break
			}
		}
		if len(todo) > 0 {
			if p.res, err = target.New(p.resOptions); err != nil {
				p.e.errorf("%v", err)
				return exitError
			}
			p.plan.Resolver = p.res
			p.realPaths = nil // files were rewritten: look again
		}
	}
	for _, r := range p.opt.accept {
		if !p.acceptUsed[r.String()] {
			p.e.errorf("pin: --accept %s: no link there needs accepting; the ids and PAGE:LINE to accept are those pin printed for changed quotes (a link rewritten since has a new id)", termsafe.Escape(r.String(), ""))
			p.failed = true
		}
	}
	p.summary(paths)
	if p.out != nil {
		enc := json.NewEncoder(p.e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(p.out); err != nil {
			p.e.errorf("pin: %v", err)
			p.failed = true
		}
	}
	pending := len(written)
	switch {
	case pending > 0 && p.opt.check && p.e.preCommit:
		p.e.errorf("pin: %d %s not pinned up to date; run `%s`", pending, pinPlural(pending, "file is", "files are"), hookPin)
		return exitError
	case pending > 0 && p.opt.check:
		p.e.errorf("pin: %d %s not pinned up to date; run `textfrag pin --write%s %s`", pending, pinPlural(pending, "file is", "files are"), p.opt.flagArgs, pinPathWords(paths))
		return exitError
	case pending > 0 && !p.opt.write:
		p.e.errorf("pin: %d %s would change; run with --write to apply: `textfrag pin --write%s %s`", pending, pinPlural(pending, "file", "files"), p.opt.flagArgs, pinPathWords(paths))
	}
	if p.failed {
		return exitError
	}
	return exitOK
}

func pinPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// file pins the links of one Markdown file and returns its contents before
// and after. ok is false when the file could not be read.
func (p *pinner) file(name string) (src, newSrc []byte, ok bool) {
	src, err := p.pages.Read(name) // a FIFO or a device fails at once
	if err != nil {
		p.e.errorf("pin: %s: %s", termsafe.Escape(name, ""), termsafe.Escape(err.Error(), ""))
		p.failed = true
		return nil, nil, false
	}
	p.curFile = name
	// Each link is planned, then decided (pin_accept.go), then made
	// consistent: its title's hl= and a caption stating its range follow
	// its new lines.
	links := mdlink.Page(src)
	doc := p.res.DocPath(name)
	p.plan.ForPage(name)
	var changes []pin.Change
	var edits []pin.Edit
	counts := map[pin.Class]int{}
	for _, l := range links {
		c := p.decideQuote(name, links, p.plan.PlanLink(doc, l))
		changes = append(changes, c)
		if c.Target != "" {
			p.noteQuoted(c.Target)
		}
		counts[c.Class]++
		if c.Apply && c.Class == pin.Changed {
			counts[pinAccepted]++
		}
		p.report(name, c)
		if c.Failed {
			p.failed = true
		}
		if c.Apply && c.NewDest != c.Link.Dest {
			more, warnings := pin.Consistency(src, c)
			edits = append(edits, more...)
			for _, w := range warnings {
				p.report(name, pin.Change{Link: c.Link, Class: "warning", Message: w})
			}
		}
	}
	p.tally[name] = counts
	return src, pin.ApplyEdits(src, append(pin.Edits(changes), edits...)), true
}

func (p *pinner) report(name string, out pin.Change) {
	if out.Class == pin.None || (out.Class == pin.OK && !p.opt.verbose) {
		return
	}
	if p.out != nil {
		p.out.addQuote(name, out)
		return
	}
	// Each line is escaped whole, the page's name included: a name or a
	// message holding a line break must not start a line of its own.
	var b strings.Builder
	asked := p.asked[pin.QuoteID(name, out.Link)]
	if asked { // -i showed the diff already, with the question: above
		out.Remedy = strings.Replace(strings.Replace(out.Remedy, "read the diff below", "read the diff above", 1), "read the text below", "read the text above", 1)
	}
	msg := out.Text()
	if pin.NeedsPerson(out) && out.Link.Start >= 0 && !out.Apply {
		// The id to accept it by (pin --accept ID), or to find it again.
		msg += " (quote " + pin.QuoteID(name, out.Link) + ")"
	}
	b.WriteString(termsafe.Escape(fmt.Sprintf("%s:%d:%d: %s: %s", name, out.Link.Line, out.Link.Column, out.Class, msg), "") + "\n")
	if !asked {
		for _, d := range out.Detail {
			b.WriteString("    " + termsafe.Escape(d, "") + "\n")
		}
	}
	if !p.reported[b.String()] {
		p.reported[b.String()] = true
		fmt.Fprint(p.e.stderr, b.String())
	}
}

// pinShownDiff makes a unified diff safe for a terminal: each line's
// control characters but tab are escaped as every message escapes them
// (termsafe), so that a page's text cannot drive the terminal; the lines
// stay those of the diff. A CR that ends a line (CRLF files) is kept: it
// hides nothing, and the diff still applies. Names must be escaped before
// the diff is made, so that a line break in one cannot split its header.
func pinShownDiff(diff string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(diff, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		end := ""
		if nl {
			end = "\n"
			if trimmed, cr := strings.CutSuffix(body, "\r"); cr {
				body, end = trimmed, "\r\n"
			}
		}
		b.WriteString(termsafe.Escape(body, "") + end)
	}
	return b.String()
}
