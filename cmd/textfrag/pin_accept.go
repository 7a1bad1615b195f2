package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// This file decides, per quote, what pin writes (pin.Decide): pinned,
// refreshed and moved quotes always; a changed quote whose new place is
// known only when a person accepted it (--accept-changed, --accept QUOTE,
// or y in pin -i); gone and review quotes never. It also words the
// remedies pin prints for each quote and the summary that ends every run.

// pinAcceptSentinel stands for the accept command in the Planner's
// messages (Planner.AcceptCommand); decideQuote replaces it with the
// command for that quote, or drops the clause for a quote that cannot be
// accepted.
const pinAcceptSentinel = "\x00accept\x00"

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

// linkCommand is the command that writes a new pinned link to the file
// at project path file for the page name, with the lines left for a
// person to choose.
func (p *pinner) linkCommand(name, file string) string {
	if file == "" || strings.Contains(file, "://") {
		return ""
	}
	shown := filepath.Join(p.res.Root(), filepath.FromSlash(file))
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, shown); err == nil && filepath.IsLocal(rel) {
			shown = rel
		}
	}
	return "textfrag link " + pinShellWords([]string{filepath.ToSlash(shown) + ":FIRST-LAST"}) + " --from " + pinShellWords([]string{name})
}

// decideQuote settles one planned change of the page name (whose links
// are links): whether it is written, and the remedy its message gives.
func (p *pinner) decideQuote(name string, links []mdlink.Link, c pin.Change) pin.Change {
	if p.e.preCommit && c.Class == pin.Pinned && p.hookUnpinnedStale(name, c) {
		c = hookUnpinned(c)
	}
	accepted := p.accepted(name, c.Link)
	if !accepted && p.opt.interactive && pin.Acceptable(c) {
		accepted = p.ask(name, c)
	}
	c, refused := pin.Decide(c, accepted)
	if pin.NeedsPerson(c) && !c.Apply {
		c.Failed = true // changed and not accepted, gone, review, error: pin (--check) fails
	}
	base, hadRemedy := c.Message, false
	if i := strings.Index(base, pinAcceptSentinel); i >= 0 {
		// The Planner's own remedy clause names the accept command: this
		// file words the remedy instead, for this quote.
		hadRemedy = true
		if j := strings.LastIndex(base[:i], "; "); j >= 0 {
			base = base[:j]
		} else {
			base = strings.ReplaceAll(base, pinAcceptSentinel, "")
		}
	}
	switch {
	case c.Apply && c.Class == pin.Changed:
		c.Message = base + "; re-pinned: accepted"
	case refused:
		c.Message = base + "; " + pin.Refusal(c, p.linkCommand(name, c.Target))
		c.Failed = true
	case pin.Acceptable(c):
		cmd := "textfrag pin --write" + p.opt.flagArgs + " --accept " + pinShellWords([]string{acceptRef(name, c.Link, links)})
		if p.e.preCommit {
			cmd = p.e.hookAccept(strings.TrimPrefix(cmd, "textfrag "))
		}
		c.Message = base + fmt.Sprintf("; review it, then accept it with `%s`, or fix the link by hand", cmd)
	case hadRemedy || c.Class == pin.Gone || c.Class == pin.Review || c.Class == pin.Changed:
		if !strings.Contains(base, "`textfrag link ") {
			c.Message = base + "; " + pin.FixByHand(p.linkCommand(name, c.Target))
		} else {
			c.Message = base
		}
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
	msg := c.Message
	if i := strings.Index(msg, pinAcceptSentinel); i >= 0 {
		if j := strings.LastIndex(msg[:i], "; "); j >= 0 {
			msg = msg[:j]
		}
	}
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
	args := p.opt.flagArgs + " " + pinShellWords(paths)
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
