package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/quotelink"
	"github.com/textfrag/textfrag/internal/refs"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// This file decides, per quote, what pin writes (pin.Decide): pinned,
// refreshed and moved quotes always; a changed quote whose new place is
// known only when a person accepted it (--accept-changed, --accept QUOTE,
// or y in pin -i); gone and review quotes never. It also words the
// remedies pin prints for each quote and the summary that ends every run.

// pinQuoteFlag is --accept: repeatable, each a quote's id or PAGE:LINE.
type pinQuoteFlag []pin.QuoteRef

func (f *pinQuoteFlag) String() string {
	var s []string
	for _, r := range *f {
		s = append(s, r.String())
	}
	return strings.Join(s, ",")
}

func (f *pinQuoteFlag) Set(v string) error {
	r, err := pin.ParseQuoteRef(v)
	if err != nil {
		return err
	}
	*f = append(*f, r)
	return nil
}

// pinTally counts the quotes of each class a run found, per file (the
// last pass over a file counts).
type pinTally map[string]map[pin.Class]int

// pinAccepted counts, in a tally, the changed quotes a person accepted.
const pinAccepted pin.Class = "accepted"

// pinSummaryClasses are the classes the summary counts, in its order;
// pin.Pinned is shown as "unpinned": the links that had no md5.
var pinSummaryClasses = []pin.Class{pin.Refreshed, pin.Moved, pin.Changed, pin.Gone, pin.Review, pin.Pinned}

func pinClassName(c pin.Class) string {
	if c == pin.Pinned {
		return "unpinned"
	}
	return string(c)
}

// totals adds up the counts of every file.
func (t pinTally) totals() map[pin.Class]int {
	out := map[pin.Class]int{}
	for _, m := range t {
		for c, n := range m {
			out[c] += n
		}
	}
	return out
}

// pinCounts writes counts by class: "2 refreshed, 1 moved, 0 changed, 0
// gone, 0 review, 3 unpinned" (errors, when any, last).
func pinCounts(n map[pin.Class]int) string {
	var parts []string
	for _, c := range pinSummaryClasses {
		parts = append(parts, fmt.Sprintf("%d %s", n[c], pinClassName(c)))
	}
	if n[pinAccepted] > 0 {
		parts = append(parts, fmt.Sprintf("%d accepted", n[pinAccepted]))
	}
	if n[pin.Error] > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", n[pin.Error], plural(n[pin.Error], "error", "errors")))
	}
	return strings.Join(parts, ", ")
}

// pinClassAdvice returns, for the classes counted in n, one line each
// saying what to do, with the one command that does it. write is the
// command that writes refreshed, moved and unpinned quotes ("" when they
// were written); changed is the line for changed quotes still pending
// ("" for none). The line with a command that settles most comes last.
func pinClassAdvice(n map[pin.Class]int, write, changed string) []string {
	var out []string
	if k := n[pin.Gone] + n[pin.Review] + n[pin.Error]; k > 0 {
		out = append(out, fmt.Sprintf("  gone, review, error (%d): a person fixes each link, as its message says (textfrag link writes a new one); pin never re-pins them", k))
	}
	if changed != "" {
		out = append(out, changed)
	}
	if k := n[pin.Refreshed] + n[pin.Moved] + n[pin.Pinned]; k > 0 {
		if write == "" {
			out = append(out, fmt.Sprintf("  refreshed, moved, unpinned (%d): written", k))
		} else {
			out = append(out, fmt.Sprintf("  refreshed, moved, unpinned (%d): the same text, nothing to review: `%s`", k, write))
		}
	}
	return out
}

// acceptRef is how the accept command names the quote l of the page
// name: PAGE:LINE, or PAGE:LINE:COL when another link of the page starts
// on that line.
func acceptRef(name string, l mdlink.Link, links []mdlink.Link) string {
	for _, o := range links {
		if o.Line == l.Line && o.Column != l.Column {
			return fmt.Sprintf("%s:%d:%d", name, l.Line, l.Column)
		}
	}
	return fmt.Sprintf("%s:%d", name, l.Line)
}

// accepted reports whether a person accepted the quote l of the page
// name before this run asked anything: --accept-changed, or --accept
// naming it.
func (p *pinner) accepted(name string, l mdlink.Link) bool {
	if p.opt.acceptChanged {
		return true
	}
	for _, r := range p.opt.accept {
		if r.Matches(name, l) {
			p.acceptUsed[r.String()] = true
			return true
		}
	}
	return false
}

// linkCommand is the command that writes a new pinned link for the quote
// of c on the page name, run as written where pin runs (both named from
// there: argPath), with the flags given to pin that link takes too: by the name its title gives (sym=, region=),
// or with the lines left for a person to choose; the title's other options
// and the author's link text (authorTitle) are kept. "" when the quoted
// file is unknown or remote, or the link names a position, not text
// (#line=5), which link does not write.
func (p *pinner) linkCommand(name string, c pin.Change) string {
	file := c.Target
	if file == "" || strings.Contains(file, "://") {
		return ""
	}
	positions, _, _ := strings.Cut(target.SplitLink(c.Link.Dest).Fragment, ";")
	if f, err := rfc5147.Parse(positions); err != nil || f.IsZeroLength() {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = ""
	}
	shown := argPath(wd, filepath.Join(p.res.Root(), filepath.FromSlash(file)))
	page := name
	if abs, err := filepath.Abs(name); err == nil {
		page = argPath(wd, abs)
	}
	ref, args := shown+":FIRST-LAST", []string{}
	sel, named, err := symbol.ParseSelector(c.Link.Title)
	if err == nil && named {
		switch sel.Kind {
		case symbol.Symbol:
			ref = shown + ":" + sel.Name
			if sel.Doc {
				args = append(args, "--doc")
			}
		case symbol.Region:
			ref = shown
			args = append(args, "--region", sel.Name)
		}
	}
	var options []string
	for _, w := range strings.Fields(c.Link.Title) {
		key, _, _ := strings.Cut(w, "=")
		switch {
		case named && (key == "sym" || key == "region" || w == "doc"):
		case w == "quote":
			args = append(args, "--quote")
		default:
			options = append(options, w)
		}
	}
	if len(options) > 0 {
		args = append(args, "--options", strings.Join(options, " "))
	}
	if t := authorTitle(c.Link, file, sel, named); t != "" {
		args = append(args, "--title", t)
	}
	cmd := "textfrag link" + linkFlagArgs(p.opt.flags) + " " + pinShellWords([]string{ref})
	if len(args) > 0 {
		cmd += " " + pinShellWords(args)
	}
	return cmd + " --from " + pinShellWords([]string{page})
}

// defaultRange matches the range textfrag link states in the text it
// writes (rfc5147.Selection.Label) after the file's base name.
var defaultRange = regexp.MustCompile(`^(lines \d+–\d+|line \d+(, col \d+( – line \d+, col \d+)?)?)$`)

// maxAuthorTitle bounds the link text authorTitle gives as --title: a
// command line holds at most 128 KiB in one argument (Linux's
// MAX_ARG_STRLEN) and less in all, so a longer text would make the
// remedy fail ("Argument list too long"); no text a person reads as a
// link's comes near it.
const maxAuthorTitle = 1024

// authorTitle is the --title that makes textfrag link write the text of
// the link l (which quotes the project path file, by the name sel when
// named) as its author wrote it, so that the link written anew keeps it.
// It is "" where link's own text serves: l has none (a definition, a
// shortcode), its text is the one link writes (the base name and the
// range, which the person chooses anew, or the name), or --title cannot
// write it so that it reads the same (a code span's backticks written
// escaped) or cannot be given as written (a bidirectional control, a text
// longer than maxAuthorTitle bytes, which a command line may not hold).
// --title writes plain words and code spans (quotelink.EscapeCaption):
// emphasis in the author's text is not kept, its words are.
func authorTitle(l mdlink.Link, file string, sel symbol.Selector, named bool) string {
	t := l.Text
	base := path.Base(file)
	switch {
	case t == "", len(t) > maxAuthorTitle, termsafe.Escape(t, "") != t:
		// none, or one with bidirectional controls (which reorder what a
		// reader sees) or bytes that are not UTF-8: no --title that a
		// shell (sh has no $'…') and a terminal take as written
		return ""
	case named && t == quotelink.Caption(file, sel):
		return ""
	case strings.HasPrefix(t, base+" ") && defaultRange.MatchString(strings.TrimPrefix(t, base+" ")):
		return ""
	}
	// Read back as a build reads the link link writes: the same text.
	if !l.ReadsAs(quotelink.EscapeCaption(t)) {
		return ""
	}
	return t
}

// rootedAdvice is what pin says of a gone quote whose link starts with /
// and whose file is missing under the root: where such links resolve
// (fact, for the message) and, when a directory between the page (or the
// working directory) and the root holds the file, the one remedy: the
// --root, named from the working directory, that finds it (as check and
// refs --diff name it: project.SlashAdvice). Both "" otherwise; remedy ""
// leaves the Planner's.
func (p *pinner) rootedAdvice(name, dest string) (fact, remedy string) {
	file, ok := project.RootedPath(dest)
	if !ok || p.opt.proj == nil || !filepath.IsLocal(filepath.FromSlash(file)) {
		return "", ""
	}
	if _, err := os.Stat(filepath.Join(p.opt.proj.Root, filepath.FromSlash(file))); !errors.Is(err, fs.ErrNotExist) {
		return "", ""
	}
	fact = fmt.Sprintf("; links starting with / resolve at the project root, %s (%s)", p.opt.proj.Root, p.opt.proj.Origin)
	wd, err := os.Getwd()
	if err != nil {
		return fact, ""
	}
	dirs := []string{wd}
	if abs, err := filepath.Abs(name); err == nil {
		dirs = []string{filepath.Dir(abs), wd}
	}
	dir := p.opt.proj.Holding(file, dirs...)
	if dir == "" {
		return fact, ""
	}
	dir = pinShellWords([]string{argPath(wd, dir)})
	return fmt.Sprintf("%s; %s holds %s", fact, dir, file),
		fmt.Sprintf("if links starting with / mean that directory, give `--root %s`, or set root = \"DIR\" in %s", dir, project.ConfigName)
}

// decideQuote settles one planned change of the page name (whose links
// are links): whether it is written, and the remedy its message gives.
func (p *pinner) decideQuote(name string, links []mdlink.Link, c pin.Change) pin.Change {
	shown := "the diff" // what the message shows a person to read: the old text against the new
	if c.Class == pin.Pinned && p.unpinnedStale(name, c, !p.e.preCommit) {
		shown = "the text" // no old text to compare with: the lines it would pin
		who := "pin"
		if p.e.preCommit {
			who = "the hook"
		}
		c = p.unpinnedChanged(name, c, who)
	}
	accepted := p.accepted(name, c.Link)
	if !accepted && p.opt.interactive && pin.Acceptable(c) {
		accepted = p.ask(name, c)
	}
	c, refused := pin.Decide(c, accepted)
	if pin.NeedsPerson(c) && !c.Apply {
		c.Failed = true // changed and not accepted, gone, review, error: pin (--check) fails
	}
	// One remedy per message, the command's: the Planner's Message holds
	// the facts, and its Remedy (worded for any front end) gives way to
	// one for this quote, from where the user runs pin. A message whose
	// remedy is its own (an error, a name not found) keeps it.
	if c.Class == pin.Gone {
		fact, remedy := p.rootedAdvice(name, c.Link.Dest)
		c.Message += fact
		if remedy != "" {
			c.Remedy = remedy
		}
	}
	fix := c.Remedy // the Planner's, kept where link cannot write the quote
	if lc := p.linkCommand(name, c); fix != "" && lc != "" {
		fix = refs.FixByHand(lc) // set off by two backticks when it holds one
	}
	switch {
	case c.Apply && c.Class == pin.Changed:
		c.Message, c.Remedy = c.Message+"; re-pinned: accepted", ""
	case refused:
		c.Remedy = pin.Refusal(c, fix)
		c.Failed = true
	case pin.Acceptable(c):
		cmd := "textfrag pin --write" + p.opt.flagArgs + " --accept " + pinShellWords([]string{acceptRef(name, c.Link, links)})
		if p.e.preCommit {
			cmd = p.e.hookAccept(strings.TrimPrefix(cmd, "textfrag "))
		}
		c.Remedy = fmt.Sprintf("read %s below, then accept it with `%s`", shown, cmd)
	default:
		c.Remedy = fix
	}
	return c
}

// ask shows one changed quote and asks whether to accept it, as git add
// -p asks about a hunk: y, n, q (no to this and the rest), ? (help). The
// answers are read from stdin, a line each; its end is q.
func (p *pinner) ask(name string, c pin.Change) bool {
	id := pin.QuoteID(name, c.Link)
	if a, ok := p.answers[id]; ok {
		return a // asked in an earlier pass over the file
	}
	if p.quit {
		return false
	}
	if p.in == nil {
		p.in = bufio.NewReader(p.e.stdin)
	}
	w := p.e.stderr
	msg := c.Message // the facts: the question is the remedy
	fmt.Fprintf(w, "%s\n", termsafe.Escape(fmt.Sprintf("%s:%d:%d: %s: %s (quote %s)", name, c.Link.Line, c.Link.Column, c.Class, msg, id), ""))
	for _, d := range c.Detail {
		fmt.Fprintf(w, "    %s\n", termsafe.Escape(d, ""))
	}
	p.asked[id] = true
	for {
		fmt.Fprintf(w, "Re-pin this quote to the text above? [y,n,q,?] ")
		line, err := p.in.ReadString('\n')
		answer := strings.TrimSpace(line)
		if err != nil && answer == "" {
			fmt.Fprintln(w)
			answer = "q"
		}
		switch answer {
		case "y", "Y":
			p.answers[id] = true
			return true
		case "n", "N":
			p.answers[id] = false
			return false
		case "q", "Q":
			p.quit = true
			p.answers[id] = false
			return false
		default:
			fmt.Fprint(w, "y - re-pin this quote: the page shows the new text\n"+
				"n - leave it (pin keeps failing on it)\n"+
				"q - leave it and every quote not yet answered\n"+
				"? - print this help\n")
		}
	}
}

// summary ends a run: counts by class, and what to do for each class
// found. paths are the paths the run was given.
func (p *pinner) summary(paths []string) {
	n := p.tally.totals()
	total := 0
	for _, c := range pinSummaryClasses {
		total += n[c]
	}
	if p.out != nil {
		p.out.setCounts(n)
	}
	if total+n[pin.Error] == 0 {
		return
	}
	args := p.opt.flagArgs + " " + pinPathWords(paths)
	write := "textfrag pin --write" + args
	review := "textfrag pin -i" + args
	acceptAll := "textfrag pin --write --accept-changed" + args
	if p.e.preCommit {
		write, review, acceptAll = hookPin, p.e.hookAccept("pin -i"+args), p.e.hookAccept("pin --write --accept-changed"+args)
		if p.e.hookSelf == "" {
			acceptAll = "" // review is the manual hook, which accepts all
		}
	}
	if p.opt.write || p.opt.interactive {
		write = ""
	}
	changed := ""
	if k := n[pin.Changed] - n[pinAccepted]; k > 0 {
		changed = fmt.Sprintf("  changed (%d): read each diff above, then accept them one by one with `%s`", k, review)
		if acceptAll != "" {
			changed += fmt.Sprintf(", or all whose new place is known with `%s`", acceptAll)
		}
	}
	if p.out != nil {
		p.out.setCommands(n, write, review, changed)
	}
	fmt.Fprintf(p.e.stderr, "pin: %s\n", pinCounts(n))
	for _, line := range pinClassAdvice(n, write, changed) {
		fmt.Fprintln(p.e.stderr, termsafe.Escape(line, ""))
	}
}
