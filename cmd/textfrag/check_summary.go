package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// This file ends check's output with the stale and unpinned quotes counted
// by class, as pin classes them (refreshed, moved, changed, gone, review,
// unpinned), and the one command for each class found: so that a log
// tells "only needs a refresh" from "read this".
//
// Only the links check found stale (an md5 or length mismatch, a name
// whose lines moved) are classed with the pin engine, so a passing site
// costs nothing more; unpinned links are counted as check found them. Without git history a stale md5 names
// no version to compare with: those quotes are counted apart ("cannot
// tell"), with the way to get history, instead of being called changed.

// checkClassed is what checkClasses found.
type checkClassed struct {
	counts map[pin.Class]int
	// noHistory counts the stale quotes that no history could class.
	noHistory int
	// unpinnedChanged counts the changed quotes that are unpinned links
	// whose file changed since HEAD.
	unpinnedChanged int
}

// checkClasses classes the quotes behind problems (stale, or unpinned)
// with the pin engine. pages reads the pages, r resolves as check did.
// An unpinned link in unpinnedStale is changed, as pin classes it: it
// pins it only when a person accepts it.
func checkClasses(root string, r *target.Resolver, pages *project.Pages, problems []*textfrag.Problem, unpinnedStale map[*textfrag.Problem]bool) checkClassed {
	out := checkClassed{counts: map[pin.Class]int{}}
	type at struct {
		line, column int
	}
	wanted := map[string]map[at]bool{} // page → the links to class
	var order []string
	for _, q := range problems {
		if q.Kind == "unpinned" {
			if unpinnedStale[q] {
				out.counts[pin.Changed]++
				out.unpinnedChanged++
			} else {
				out.counts[pin.Pinned]++ // pin adds the md5: no need to plan it
			}
			continue
		}
		if q.Kind != "integrity" && !(q.Kind == "symbol" && q.Reason == "mismatch") {
			continue
		}
		if wanted[q.Document] == nil {
			wanted[q.Document] = map[at]bool{}
			order = append(order, q.Document)
		}
		wanted[q.Document][at{q.Line, q.Column}] = true
	}
	if len(order) == 0 {
		return out
	}
	hist := pin.NewHistory(root)
	_, gitErr := hist.Top()
	planner := &pin.Planner{Resolver: r, History: hist}
	for _, name := range order {
		src, err := pages.Read(name)
		if err != nil {
			continue
		}
		for _, c := range planner.Plan(name, src) {
			if !wanted[name][at{c.Link.Line, c.Link.Column}] {
				continue
			}
			if gitErr != nil && (c.Class == pin.Gone || c.Class == pin.Changed || c.Class == pin.Review) {
				out.noHistory++
				continue
			}
			out.counts[c.Class]++
		}
	}
	return out
}

// checkSummary prints the classes and their commands on stderr, before
// check's last line ("checked N links …"), which stays last. paths are
// the paths check was given; flagArgs the flags pin must repeat.
func (e *env) checkSummary(c checkClassed, paths []string, flagArgs string) {
	n := c.counts
	total := c.noHistory
	for _, k := range pinSummaryClasses {
		total += n[k]
	}
	if total+n[pin.Error] == 0 {
		return
	}
	args := flagArgs + " " + pinPathWords(paths)
	write, review := "textfrag pin --write"+args, "textfrag pin -i"+args
	if e.preCommit {
		write, review = hookPin, e.hookAccept("pin -i"+args)
	}
	line := "quotes by class: " + pinCounts(n)
	if c.noHistory > 0 {
		line += fmt.Sprintf(", %d stale that cannot be classed without git history", c.noHistory)
	}
	fmt.Fprintln(e.stderr, line)
	if c.noHistory > 0 {
		fmt.Fprintf(e.stderr, "  without history (%d): the md5 names a version of the file that only git history holds; run check in a clone with history (CI: actions/checkout with fetch-depth: 0) to tell moved and refreshed quotes from changed ones, or run `%s` there\n", c.noHistory, "textfrag pin"+args)
	}
	changedLine := ""
	if k := n[pin.Changed]; k > 0 {
		what, see := "the quoted text changed", "see each diff"
		switch {
		case c.unpinnedChanged == k:
			what, see = "links without md5= whose file changed since HEAD: the lines they show may be other text than was quoted", "read each"
		case c.unpinnedChanged > 0:
			what += fmt.Sprintf(", or (%d) the file of a link without md5= changed since HEAD", c.unpinnedChanged)
		}
		changedLine = fmt.Sprintf("  changed (%d): %s; %s and accept it or not with `%s`", k, what, see, review)
	}
	for _, l := range pinClassAdvice(n, write, changedLine) {
		fmt.Fprintln(e.stderr, termsafe.Escape(l, ""))
	}
}

// checkPinRemedy words the pin command in a problem's message (the
// library's "pin it with `textfrag pin --write PAGE`" for an unpinned
// link, "re-pin with …" for a stale one) so that it runs as written where
// check ran: the page as check named it, quoted for the shell ("./"
// before a name starting with -), and the flags given to check that pin
// takes (flagArgs, checkPinArgs) repeated.
func checkPinRemedy(q *textfrag.Problem, flagArgs string) {
	if q.Document == "" || q.Document == stdinName {
		return
	}
	doc := filepath.ToSlash(q.Document)
	if strings.HasPrefix(doc, "-") {
		doc = "./" + doc
	}
	written := "`textfrag pin --write " + q.Document + "`"
	q.Message = strings.Replace(q.Message, written, "`textfrag pin --write"+flagArgs+" "+pinShellWords([]string{doc})+"`", 1)
}

// checkPinArgs writes the flags given to check that pin takes too (--root,
// --charset, remote options…), for the pin commands check advises; check's
// own (--format, --strict, -j…) are left out.
func checkPinArgs(fset *flag.FlagSet) string {
	known := newPinOptions().flags
	return pinFlagArgsOf(fset, func(name string) bool { return known.Lookup(name) != nil })
}
