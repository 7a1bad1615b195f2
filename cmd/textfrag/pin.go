package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "pin", summary: "add or refresh the md5 of RFC 5147 links, following moved text: textfrag pin --write docs", run: runPin})
}

const pinUsage = `Usage: textfrag pin [PATHS…] [--write] [--accept-changed] [--check] [-v] [--root DIR] [--charset GLOB=CHARSET] [--allow-host HOST]

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
with that md5 in git history and looks for the text the link quoted then:
  moved    the same text is elsewhere now: the range and checks are updated
  changed  the text was edited: shown, and re-pinned only with --accept-changed
  gone     no such version in history, or the target or the text is gone;
           with --accept-changed, a range that still fits the file is
           re-pinned as written, to the file as it is now
A link checked by length= alone names no version: when its length no longer
matches, it is "changed" (what it quotes now is shown), re-pinned, with an
md5 added, only with --accept-changed.
Other outcomes: pinned (md5 added), refreshed (checks updated, text unchanged
in place), ok (shown with -v), error.

Remote targets (http, https) are pinned too on the hosts --allow-host names,
from the bytes fetched now; other remote links are left alone. A remote
target has no history to search, so when its md5 no longer matches it is
"changed", re-pinned only with --accept-changed.

Without --write, prints the changes as a unified diff and writes nothing.
With --write, replaces each file atomically (temporary file, fsync, rename),
refusing if it changed meanwhile. Pages quoting pages that pin rewrote are
gone over again, so one run settles both.

Exit status: 0 when every link is pinned or can be (pending changes alone
do not fail, unless --check); 1 when a link is gone, changed and not
accepted, or in error, when a file could not be written, or with --check
when anything would change; 2 on bad usage.

Flags:`

// pinOptions are pin's flags.
type pinOptions struct {
	write, acceptChanged, check, verbose bool
	// flagArgs are the flags given that choose what links mean (--root,
	// --charset, remote options), each with a leading space, for the
	// commands messages advise.
	flagArgs string
}

func runPin(e *env, args []string) int {
	fset := flag.NewFlagSet("pin", flag.ContinueOnError)
	var o pinOptions
	fset.String("root", "", "project root `DIR`: links starting with / resolve there, and targets must lie inside it ("+rootHelp+")")
	fset.BoolVar(&o.write, "write", false, "rewrite the Markdown files instead of printing a diff")
	fset.BoolVar(&o.acceptChanged, "accept-changed", false, "also re-pin links whose quoted text changed, or whose pinned version is gone, to the file as it is now (review the changes first)")
	fset.BoolVar(&o.check, "check", false, "write nothing and exit 1 if any file would change (for CI)")
	fset.BoolVar(&o.verbose, "v", false, "also report links that are pinned and unchanged")
	var charsets charsetFlag
	fset.Var(&charsets, "charset", "declare that files matching `GLOB=CHARSET` are stored in CHARSET (repeatable), as for build")
	var secrets globsFlag
	fset.Var(&secrets, "allow-secret", "quote files matching `GLOB` although they look like secrets (repeatable), as for build")
	var remote remoteFlags
	remote.register(fset)
	fset.Usage = func() {
		fmt.Fprintln(fset.Output(), pinUsage)
		fset.PrintDefaults()
	}
	paths, ok := e.parseFlags(fset, args)
	if !ok {
		return exitUsage
	}
	if o.write && o.check {
		e.errorf("pin: --check and --write exclude each other: --check never writes")
		return exitUsage
	}
	proj, ok := e.findProject(fset) // the same root, and textfrag.toml, as every command
	if !ok {
		return exitError
	}
	if len(paths) == 0 {
		paths = defaultPaths(proj)
	}
	rem, err := remote.options()
	if err != nil {
		e.errorf("pin: %v", err)
		return exitUsage
	}
	ro := target.Options{Root: proj.Root, Charsets: charsets, Remote: rem, AllowSecrets: secrets}
	r, err := target.New(ro)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	o.flagArgs = pinFlagArgs(fset)
	p := &pinner{e: e, opt: o, res: r, resOptions: ro, hist: newPinHistory(proj.Root),
		current: map[string]*pinCurrentTarget{}, quotes: map[string]map[string]bool{}, reported: map[string]bool{}}
	return p.run(paths)
}

// pinFlagArgs writes the flags given on the command line that the
// commands pin advises must repeat: all but --write, --check,
// --accept-changed and -v.
func pinFlagArgs(fset *flag.FlagSet) string {
	var b strings.Builder
	fset.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "write", "check", "accept-changed", "v":
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
		default:
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
				b.WriteString(" --" + f.Name + "=" + f.Value.String())
				return
			}
			values = []string{f.Value.String()}
		}
		for _, v := range values {
			b.WriteString(" --" + f.Name + " " + pinShellWords([]string{v}))
		}
	})
	return b.String()
}

// pinShellWords joins words for a POSIX shell, quoting those that need it.
func pinShellWords(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@+-") == "" {
			quoted[i] = w
			continue
		}
		quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}

// pinner runs one pin command.
type pinner struct {
	e    *env
	opt  pinOptions
	res  *target.Resolver
	hist *pinHistory
	// current holds the targets read for relocation, by project path.
	current    map[string]*pinCurrentTarget
	resOptions target.Options
	// quotes holds, for each Markdown file, the real paths of its targets.
	quotes  map[string]map[string]bool
	curFile string
	// reported holds the report lines printed, so that a second pass over a
	// file does not repeat them.
	reported map[string]bool
	failed   bool
}

// pinCurrentTarget is a target file as it is now.
type pinCurrentTarget struct {
	osPath string
	text   *rfc5147.Text
	lines  *pinRfcText
	err    error
}

// pinOutcome is what pin makes of one link.
type pinOutcome struct {
	class   string // ok, pinned, refreshed, moved, changed, gone, error
	msg     string
	detail  []string // shown indented under the report line
	newDest string   // the destination to write, "" for none
	apply   bool     // newDest goes into the file
	failed  bool     // the link needs a person: exit status 1
}

func pinFailOutcome(class, msg string) pinOutcome {
	return pinOutcome{class: class, msg: msg, failed: true}
}

// pinMaxPasses bounds the passes of pin --write over files that quote
// Markdown files it rewrote (docs quoting docs); more means a cycle.
const pinMaxPasses = 4

func (p *pinner) run(paths []string) int {
	// The same files as check: *.md under directories, leaving out hidden
	// and "_"-prefixed names, and every file named on the command line.
	files, err := markdownFiles(paths)
	if err != nil {
		p.e.errorf("pin: %v", err)
		return exitError
	}
	written := map[string]bool{} // names of the files changed (or, without --write, to change)
	todo := files
	for pass := 1; len(todo) > 0; pass++ {
		rewritten := map[string]string{} // real path → name, this pass
		for _, name := range todo {
			src, newSrc, ok := p.file(name)
			if !ok || bytes.Equal(src, newSrc) {
				continue
			}
			written[name] = true
			if !p.opt.write {
				fmt.Fprint(p.e.stdout, pinUnifiedDiff(pinFileLabel(name), src, newSrc))
			} else if err := pinWriteAtomic(p.res.Root(), name, src, newSrc); err != nil {
				p.e.errorf("pin: %s: not written: %v", name, err)
				p.failed = true
				continue
			}
			if real, err := pinRealPath(name); err == nil {
				rewritten[real] = name
				// Links pinned to the file as it was find it here.
				p.hist.remember(real, src)
			}
		}
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
					p.e.errorf("pin: warning: %s quotes %s, which pin %s; run pin again afterwards", name, rewritten[real],
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
			p.current = map[string]*pinCurrentTarget{}
		}
	}
	pending := len(written)
	switch {
	case pending > 0 && p.opt.check:
		p.e.errorf("pin: %d %s not pinned up to date; run `textfrag pin --write%s %s`", pending, pinPlural(pending, "file is", "files are"), p.opt.flagArgs, pinShellWords(paths))
		return exitError
	case pending > 0 && !p.opt.write:
		p.e.errorf("pin: %d %s would change; run with --write to apply: `textfrag pin --write%s %s`", pending, pinPlural(pending, "file", "files"), p.opt.flagArgs, pinShellWords(paths))
	}
	if p.failed {
		return exitError
	}
	return exitOK
}

// pinRealPath returns the absolute path of name with symlinks followed.
func pinRealPath(name string) (string, error) {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
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
	src, err := realm.ReadFile(nil, name, 0) // a FIFO or a device fails at once
	if err != nil {
		p.e.errorf("pin: %v", err)
		p.failed = true
		return nil, nil, false
	}
	doc := p.res.DocPath(name)
	p.curFile = name
	var edits []pinTextEdit
	for _, l := range pinPageLinks(src) {
		var out pinOutcome
		if l.start < 0 && l.dest == "" {
			out = pinFailOutcome("error", l.err)
		} else if l.start < 0 {
			out = pinFailOutcome("error", fmt.Sprintf("%s: cannot find this destination in the file: %s; pin it by hand", l.dest, l.err))
		} else {
			out = p.link(doc, l.dest)
		}
		p.report(name, l, out)
		if out.failed {
			p.failed = true
		}
		if out.apply && out.newDest != "" && out.newDest != l.dest {
			edits = append(edits, pinTextEdit{l.start, l.end, out.newDest})
		}
	}
	return src, pinApplyEdits(src, edits), true
}

// pinPageLinks returns the RFC 5147 links of a page and the paths of its
// textfrag shortcodes (those that fail to name one included), in order.
func pinPageLinks(src []byte) []pinMdLink {
	links := pinFindLinks(src)
	nLinks := len(links)
	for _, sc := range pageShortcodeLinks(src) {
		if sc.dest != "" && !isPinCandidate(sc.dest) {
			continue // the Hugo module reports it; nothing to pin
		}
		l := pinMdLink{line: sc.line, col: sc.col, dest: sc.dest, start: sc.start, end: sc.end, err: sc.err}
		for _, m := range links[:nLinks] {
			if l.start >= 0 && m.start >= 0 && l.start < m.end && m.start < l.end {
				// A shortcode written inside a link: one rewrite would
				// spoil the other.
				l.start, l.end, l.err = -1, -1, "the shortcode's path is also part of a Markdown link"
			}
		}
		links = append(links, l)
	}
	sort.SliceStable(links, func(i, j int) bool {
		if links[i].line != links[j].line {
			return links[i].line < links[j].line
		}
		return links[i].col < links[j].col
	})
	return links
}

func (p *pinner) report(name string, l pinMdLink, out pinOutcome) {
	if out.class == "" || (out.class == "ok" && !p.opt.verbose) {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n", name, l.line, l.col, out.class, out.msg)
	for _, d := range out.detail {
		fmt.Fprintf(&b, "    %s\n", d)
	}
	if !p.reported[b.String()] {
		p.reported[b.String()] = true
		fmt.Fprint(p.e.stderr, termsafe.Escape(b.String(), "\n"))
	}
}

// link decides what to do with one link destination of the document at
// project path doc.
func (p *pinner) link(doc, dest string) pinOutcome {
	res, err := p.res.Resolve(doc, dest)
	if errors.Is(err, target.ErrNotOurs) {
		return pinOutcome{} // a remote host not allowed, or not a file: not pinned
	}
	var te *target.Error
	switch {
	case err == nil:
	case errors.As(err, &te) && te.Result != nil && errors.Is(err, rfc5147.ErrIntegrity):
		res = te.Result
	case errors.Is(err, target.ErrNotFound):
		what := dest
		if te != nil && te.Path != "" {
			what = te.Path
		}
		return pinFailOutcome("gone", fmt.Sprintf("%s: the target file no longer exists (%s); fix the link by hand", what, oneLine(err.Error())))
	default:
		return pinFailOutcome("error", fmt.Sprintf("%s: %s", dest, oneLine(explainTarget(err, p.res.Root()))))
	}
	p.noteQuoted(res.Path)
	sel := res.Selection
	label := res.Path + " " + sel.Label()

	values := map[int]string{} // new values of the checks that failed
	var hasMD5, md5Failed, lengthFailed bool
	var changes []string
	for i, c := range sel.Checks {
		if c.Check.Kind == rfc5147.Unknown {
			continue
		}
		hasMD5 = hasMD5 || c.Check.Kind == rfc5147.MD5
		if c.Status != rfc5147.Failed {
			continue
		}
		if c.Got == "" {
			return pinFailOutcome("error", fmt.Sprintf("%s: %s", label, c.Reason))
		}
		values[i] = c.Got
		changes = append(changes, fmt.Sprintf("%s → %s", c.Check.String(), pinWithValue(c.Check, c.Got).String()))
		if c.Check.Kind == rfc5147.MD5 {
			md5Failed = true
		} else {
			lengthFailed = true
		}
	}
	md5 := sel.Entity.MD5Hex()
	switch {
	case !md5Failed && !lengthFailed && hasMD5:
		return pinOutcome{class: "ok", msg: label}
	case !md5Failed && !lengthFailed:
		return p.verified(doc, pinOutcome{class: "pinned", msg: fmt.Sprintf("%s md5=%s", label, md5),
			newDest: pinRewriteDest(dest, "", nil, md5), apply: true})
	case !md5Failed && hasMD5:
		return p.verified(doc, pinOutcome{class: "refreshed",
			msg:     fmt.Sprintf("%s: %s (the md5 matches: the text is as pinned)", label, strings.Join(changes, ", ")),
			newDest: pinRewriteDest(dest, "", values, ""), apply: true})
	case !hasMD5:
		// A length names no version: pin cannot tell whether the quoted
		// text moved or changed, so it shows what the range quotes now.
		out := pinOutcome{class: "changed", newDest: pinRewriteDest(dest, "", values, md5), apply: p.opt.acceptChanged,
			msg:    fmt.Sprintf("%s: %s; without an md5 the version it was written for cannot be found, so the quoted text cannot be compared: it now quotes the text below", label, strings.Join(changes, ", ")),
			detail: pinQuoteNow(sel.Text, 40)}
		return p.verified(doc, p.acceptance(out))
	}
	if res.Remote != nil {
		// No history to find the pinned version in: the text may have
		// changed anywhere.
		out := pinOutcome{class: "changed", newDest: pinRewriteDest(dest, "", values, ""), apply: p.opt.acceptChanged,
			msg: fmt.Sprintf("%s: %s; the remote file changed since it was pinned, and pin cannot compare a remote file with its pinned version", label, strings.Join(changes, ", "))}
		return p.verified(doc, p.acceptance(out))
	}
	return p.relocate(doc, dest, res, values)
}

// pinWithValue returns c with its value replaced by got (an md5 or a length).
func pinWithValue(c rfc5147.Check, got string) rfc5147.Check {
	if f, err := rfc5147.Parse("char=0;" + c.Name + "=" + got); err == nil && len(f.Checks) == 1 {
		f.Checks[0].Charset = c.Charset
		return f.Checks[0]
	}
	return c
}

// acceptance finishes a "changed" outcome: applied with --accept-changed,
// otherwise reported and left for a person.
func (p *pinner) acceptance(out pinOutcome) pinOutcome {
	if p.opt.acceptChanged {
		out.msg += "; re-pinned (--accept-changed)"
		return out
	}
	out.msg += fmt.Sprintf("; review it, then re-pin with `%s`, or fix the link by hand", p.acceptCommand())
	out.failed = true
	return out
}

// acceptCommand is the command that re-pins the file being pinned with
// --accept-changed.
func (p *pinner) acceptCommand() string {
	return "textfrag pin --write --accept-changed" + p.opt.flagArgs + " " + pinShellWords([]string{p.curFile})
}

// gone finishes an outcome for a link whose pinned md5 is in no version pin
// can find, or whose quoted text was deleted, when the range as written
// still fits the file: with --accept-changed, the range is re-pinned as
// written to the file as it is now; otherwise what it quotes now is shown
// for review.
func (p *pinner) gone(doc, dest string, res *target.Result, values map[int]string, msg string) pinOutcome {
	if res.Selection.Clamped {
		return pinFailOutcome("gone", msg+"; the range now runs past the end of the file: fix the link by hand")
	}
	out := pinOutcome{class: "gone", newDest: pinRewriteDest(dest, "", values, ""), apply: p.opt.acceptChanged}
	if p.opt.acceptChanged {
		out.msg = msg + "; re-pinned the range as written to the file as it is now (--accept-changed)"
		return p.verified(doc, out)
	}
	out.msg = fmt.Sprintf("%s; the range as written now quotes the text below: if that is right, re-pin it with `%s`, or fix the link by hand", msg, p.acceptCommand())
	out.detail = pinQuoteNow(res.Selection.Text, 40)
	out.failed = true
	return p.verified(doc, out)
}

// pinQuoteNow shows quoted text for review, at most maxLines lines.
func pinQuoteNow(text []byte, maxLines int) []string {
	if len(text) == 0 {
		return []string{"(nothing)"}
	}
	lines := pinNewRFCText(text).contents()
	var out []string
	for i, l := range lines {
		if i == maxLines {
			out = append(out, fmt.Sprintf("| … %d more lines", len(lines)-maxLines))
			break
		}
		out = append(out, "| "+l)
	}
	return out
}

// verified checks that a rewritten destination resolves with every check
// passing before it is offered; pin never writes a link that fails.
func (p *pinner) verified(doc string, out pinOutcome) pinOutcome {
	if out.newDest == "" {
		return out
	}
	if _, err := p.res.Resolve(doc, out.newDest); err != nil {
		return pinFailOutcome("error", fmt.Sprintf("internal error: the re-pinned link %s does not verify (%s); the link was left as it is", out.newDest, oneLine(err.Error())))
	}
	return out
}

// noteQuoted remembers that the file being pinned quotes the file at
// project path proj.
func (p *pinner) noteQuoted(proj string) {
	if target.IsRemote(proj) {
		return
	}
	real, err := pinRealPath(filepath.Join(p.res.Root(), filepath.FromSlash(proj)))
	if err != nil {
		return
	}
	if p.quotes[p.curFile] == nil {
		p.quotes[p.curFile] = map[string]bool{}
	}
	p.quotes[p.curFile][real] = true
}

// currentText reads the target of res as it is now, for relocation.
func (p *pinner) currentText(res *target.Result) *pinCurrentTarget {
	if c, ok := p.current[res.Path]; ok {
		return c
	}
	c := &pinCurrentTarget{osPath: filepath.Join(p.res.Root(), filepath.FromSlash(res.Path))}
	p.current[res.Path] = c
	raw, err := os.ReadFile(c.osPath)
	if err != nil {
		c.err = err
		return c
	}
	c.text, c.err = rfc5147.NewText(raw, pinConfiguredCharset(res.Selection.Entity.Charset))
	if c.err == nil && c.text.Facts().MD5 != res.Selection.Entity.MD5 {
		c.err = fmt.Errorf("%s changed while pin was reading it", res.Path)
	}
	if c.err == nil {
		c.lines = pinNewRFCText(c.text.Bytes())
	}
	return c
}

// pinConfiguredCharset guesses the configured charset from the charset a file
// was read in: a UTF-16 byte order comes from the file's BOM, not from
// configuration, so old versions are read as UTF-8 unless they have one too.
func pinConfiguredCharset(cs rfc5147.Charset) rfc5147.Charset {
	if strings.HasPrefix(cs.Name, "UTF-16") {
		return rfc5147.UTF8
	}
	return cs
}

// relocate handles a link whose md5 no longer matches: it finds the pinned
// version in git history and where its quoted text went.
func (p *pinner) relocate(doc, dest string, res *target.Result, values map[int]string) pinOutcome {
	f, sel := res.Fragment, res.Selection
	label := res.Path + " " + sel.Label()
	pinnedMD5 := pinDescribeChecks(f, rfc5147.MD5)
	cur := p.currentText(res)
	if cur.err != nil {
		return pinFailOutcome("error", fmt.Sprintf("%s: the md5 no longer matches, and the file cannot be read to look for the quoted text: %v", label, cur.err))
	}
	md5Only, bare := f, f
	md5Only.Checks, bare.Checks = nil, nil
	for _, c := range f.Checks {
		if c.Kind == rfc5147.MD5 {
			md5Only.Checks = append(md5Only.Checks, c)
		}
	}
	cs := pinConfiguredCharset(cur.text.Facts().Charset)
	var old *rfc5147.Text
	ver, err := p.hist.find(cur.osPath, func(raw []byte) bool {
		t, err := rfc5147.NewText(raw, cs)
		if err != nil {
			return false
		}
		if _, err := t.Select(md5Only); err != nil {
			return false
		}
		old = t
		return true
	})
	switch {
	case err != nil:
		why := strings.TrimPrefix(err.Error(), pinErrNoHistory.Error()+": ")
		return p.gone(doc, dest, res, values, fmt.Sprintf("%s: the file no longer has %s, and no history is available to find the version that had it (%s)", label, pinnedMD5, why))
	case ver == nil:
		return p.gone(doc, dest, res, values, fmt.Sprintf("%s: no version of the file in git history has %s", label, pinnedMD5))
	}
	oldSel, err := old.Select(bare)
	if err != nil {
		return pinFailOutcome("error", fmt.Sprintf("%s: %v", label, err))
	}
	where := ver.describe()
	r := pinRelocate(f, oldSel, pinNewRFCText(old.Bytes()), cur.lines)
	switch {
	case r.ambiguous:
		return pinFailOutcome("error", fmt.Sprintf("%s: the quoted text (%s in %s) moved: %s; fix the link by hand", label, oldSel.Label(), where, r.note))
	case r.deleted:
		return p.gone(doc, dest, res, values, fmt.Sprintf("%s: the quoted text (%s in %s) was deleted", label, oldSel.Label(), where))
	}
	start, end := r.start, r.end
	if !r.moved && !r.located {
		// The region cannot be found by the lines around it: fall back on the
		// same numbers, if they still fit the file.
		if sel.Clamped && !oldSel.Clamped {
			return pinFailOutcome("gone", fmt.Sprintf("%s: the quoted text (%s in %s) changed and its place cannot be found; the range now runs past the end of the file", label, oldSel.Label(), where))
		}
		start, end = f.Start, f.End
	}
	newDest := pinRewriteDest(dest, pinPositionsText(f, start, end), values, "")
	newRes, err := p.res.Resolve(doc, newDest)
	if err != nil {
		return pinFailOutcome("error", fmt.Sprintf("internal error: the relocated link %s does not verify (%s); the link was left as it is", newDest, oneLine(err.Error())))
	}
	newLabel := newRes.Selection.Label()
	if r.moved {
		if !pinSameQuote(oldSel.Text, newRes.Selection.Text) {
			return pinFailOutcome("error", fmt.Sprintf("internal error: the relocated link %s does not quote the pinned text; the link was left as it is", newDest))
		}
		out := pinOutcome{newDest: newDest, apply: true}
		if pinPositionsText(f, start, end) == "" {
			out.class = "refreshed"
			out.msg = fmt.Sprintf("%s: the quoted text is unchanged in place; the file changed elsewhere since it was pinned (the md5 is of %s)", label, where)
		} else {
			out.class = "moved"
			out.msg = fmt.Sprintf("%s %s → %s", res.Path, oldSel.Label(), newLabel)
		}
		if r.note != "" {
			out.msg += " (" + r.note + ")"
		}
		return out
	}
	how := ""
	if !r.located {
		how = "; its place could not be found by the lines around it, so the range is kept"
	}
	out := pinOutcome{class: "changed", newDest: newDest, apply: p.opt.acceptChanged,
		msg:    fmt.Sprintf("%s %s → %s: the quoted text changed since it was pinned (the md5 is of %s)%s", res.Path, oldSel.Label(), newLabel, where, how),
		detail: pinQuoteDiff(oldSel.Text, newRes.Selection.Text, 40)}
	return p.acceptance(out)
}

// pinSameQuote reports whether relocated text is the pinned text: equal, or
// differing only in a final line ending present on one side.
func pinSameQuote(old, cur []byte) bool {
	if bytes.Equal(old, cur) {
		return true
	}
	a, b := old, cur
	if len(a) > len(b) {
		a, b = b, a
	}
	if !bytes.HasPrefix(b, a) || bytes.HasSuffix(a, []byte("\r")) {
		return false
	}
	rest := b[len(a):]
	return len(rest) > 0 && pinLineEndingAt(rest, 0) == len(rest)
}
