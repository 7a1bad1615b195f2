package pin

import (
	"errors"
	"fmt"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// This file pins a link that names what it quotes (sym=NAME or
// region=NAME in its title): the name, not git history, says where the
// quote is now. History is searched only to learn the text the link quoted
// when it was pinned, so that a quote that moved is told from one whose
// text changed.

// name is what a link's title names, and the lang= it is looked up in.
type name struct {
	sel  symbol.Selector
	lang string
}

// named decides what to do with a link whose title names a symbol or a
// region, once it resolved (its md5 may have failed: values holds the
// new values of the checks that failed).
func (p *Planner) named(doc, dest string, res *target.Result, n name, values map[int]string, hasMD5, md5Failed bool) Change {
	f, sel := res.Fragment, res.Selection
	label := res.Path + " " + sel.Label()
	if err := target.NameOnFragment(n.sel, f); err != nil {
		return failure(Error, fmt.Sprintf("%s: %s", label, oneLine(err.Error())))
	}
	span, err := p.Resolver.FindName(res.Path, n.lang, n.sel)
	if err != nil {
		class := Error
		msg := fmt.Sprintf("%s: %s", label, oneLine(err.Error()))
		switch {
		case errors.Is(err, symbol.ErrNotFound):
			class = Gone
			if h := p.nameGoneHint(res, n); h != "" {
				msg += "; " + h
			}
		case errors.Is(err, symbol.ErrAmbiguous), errors.Is(err, symbol.ErrParse):
			// A name that now has several declarations, or is in a
			// file that does not parse, cannot be followed: review, as
			// refs --diff classes it (README's table), not an error in
			// the link.
			class = Review
		}
		// The lookup's own message: what is wrong and what a person can
		// do (pin cannot).
		c := failure(class, msg)
		c.Unfollowed = class == Review
		return c
	}
	if span.End <= span.Start {
		return failure(Error, fmt.Sprintf("%s: %s spans no line now (its markers are adjacent); put the lines to quote between them, or fix the link by hand", label, n.sel))
	}
	// The lines the link quotes are compared as the build compares them
	// (target.CheckName); when they differ, the name's lines are written
	// as a full range, whatever form the link used (line=,5 or line=5,).
	positions := ""
	if sel.Clamped || sel.Lines.Start != int64(span.Start) || sel.Lines.End != int64(span.End) {
		positions = span.Fragment()
	}
	lines := "lines " + span.Human()
	if span.End-span.Start == 1 {
		lines = "line " + span.Human()
	}
	now := fmt.Sprintf("%s spans %s now", n.sel, lines)
	if !hasMD5 {
		msg := fmt.Sprintf("%s md5=%s", label, sel.Entity.MD5Hex())
		if positions != "" {
			msg = fmt.Sprintf("%s → %s md5=%s (%s)", label, lines, sel.Entity.MD5Hex(), now)
		}
		return p.verified(doc, Change{Class: Pinned, Message: msg,
			NewDest: rewriteDest(dest, positions, values, sel.Entity.MD5Hex()), Apply: true})
	}
	newDest := rewriteDest(dest, positions, values, "")
	newRes, err := p.Resolver.Resolve(doc, newDest)
	if err != nil {
		return failure(Error, fmt.Sprintf("internal error: the re-pinned link %s does not verify (%s); the link was left as it is", newDest, oneLine(err.Error())))
	}
	newLabel := res.Path + " " + newRes.Selection.Label()
	if !md5Failed {
		switch {
		case positions == "" && len(values) == 0:
			return Change{Class: OK, Message: label}
		case positions == "":
			return Change{Class: Refreshed, Message: fmt.Sprintf("%s: the checks are updated (the md5 matches: the text is as pinned)", label), NewDest: newDest, Apply: true}
		case sameQuote(sel.Text, newRes.Selection.Text):
			return Change{Class: Moved, NewDest: newDest, Apply: true,
				Message: fmt.Sprintf("%s → %s (%s; the same text)", label, newLabel, now)}
		}
		// The file is as pinned, but the link's lines were never the
		// name's: what it shows changes.
		out := Change{Class: Changed, NewDest: newDest,
			Message: fmt.Sprintf("%s → %s: %s, not the lines the link quotes", label, newLabel, now),
			Detail:  quoteDiff(sel.Text, newRes.Selection.Text, 40)}
		return acceptance(out, p.AcceptChanged, p.acceptCommand())
	}
	// The md5 failed: learn the text the link quoted when it was pinned.
	cur := p.currentText(res)
	if cur.err != nil {
		return failure(Error, fmt.Sprintf("%s: the md5 no longer matches, and the file cannot be read: %v", label, cur.err))
	}
	bare := f
	bare.Checks = nil
	var oldSel *rfc5147.Selection
	pv := p.pinnedVersion(res.Path, cur, f)
	err = pv.err
	if pv.ver != nil {
		oldSel, err = pv.text.Select(bare)
	}
	if oldSel == nil {
		why := fmt.Sprintf("no version of the file git still has has %s", describeChecks(f, rfc5147.MD5))
		if err != nil {
			why = fmt.Sprintf("the version with %s cannot be found (%s)", describeChecks(f, rfc5147.MD5), strings.TrimPrefix(err.Error(), errNoHistory.Error()+": "))
		}
		// Nothing shows what the link quoted: review, never re-pinned (as
		// a link by lines whose version is lost, notFound).
		return Change{Class: Review, Failed: true,
			Message: fmt.Sprintf("%s → %s: %s, and %s, so the text it quoted cannot be compared: it now quotes the text below", label, newLabel, now, why),
			Remedy:  fmt.Sprintf("if that is the right text, remove the link's md5= and run `%s`, which pins it as it is (where the file differs from HEAD, it shows the text and asks you to accept it)", p.pinCommand()),
			Detail:  quoteNow(newRes.Selection.Text, 40)}
	}
	where := pv.ver.describe()
	// The name says where the quote is; the line map, where each of its
	// lines went (hl= follows it: Consistency).
	same := sameQuote(oldSel.Text, newRes.Selection.Text)
	moves := lineMove(oldSel, newRes.Selection, pv.lineMap(cur), same)
	if same {
		if positions == "" {
			return Change{Class: Refreshed, NewDest: newDest, Apply: true, Lines: moves,
				Message: fmt.Sprintf("%s: %s unchanged in place; the file changed elsewhere since it was pinned (the md5 is of %s)", label, n.sel, where)}
		}
		return Change{Class: Moved, NewDest: newDest, Apply: true, Lines: moves,
			Message: fmt.Sprintf("%s %s → %s (%s)", res.Path, oldSel.Label(), newRes.Selection.Label(), n.sel)}
	}
	out := Change{Class: Changed, NewDest: newDest, Lines: moves,
		Message: fmt.Sprintf("%s %s → %s: the text of %s changed since it was pinned (the md5 is of %s)", res.Path, oldSel.Label(), newRes.Selection.Label(), n.sel, where),
		Detail:  quoteDiff(oldSel.Text, newRes.Selection.Text, 40)}
	return acceptance(out, p.AcceptChanged, p.acceptCommand())
}

// nameGoneHint says, for a name that is gone, where the line diff from
// the pinned version carries most of the lines it quoted that say
// something (kept or edited), all into one declaration: the declaration
// around them now, which a rename the diff cannot show (requests'
// HTTPAdapter._get_connection, rewritten as
// get_connection_with_tls_context with a new signature) leaves as the one
// place to look, whatever names are spelled alike. A hint, never applied;
// "" when history, the diff or the parser cannot tell.
func (p *Planner) nameGoneHint(res *target.Result, n name) string {
	if n.sel.Kind != symbol.Symbol || res.Fragment.Checks == nil {
		return ""
	}
	cur := p.currentText(res)
	if cur.err != nil {
		return ""
	}
	bare := res.Fragment
	bare.Checks = nil
	pv := p.pinnedVersion(res.Path, cur, res.Fragment)
	if pv.ver == nil {
		return ""
	}
	old, err := pv.text.Select(bare)
	if err != nil {
		return ""
	}
	m := pv.lineMap(cur)
	s, e := int(old.Lines.Start), int(old.Lines.End)
	lo, hi, carried, all := -1, -1, 0, 0
	for i := s; i < e && i < len(m.fate); i++ {
		if !substantive(pv.lines.content(i)) {
			continue
		}
		all++
		if m.fate[i] != lineKept && m.fate[i] != lineEdited {
			continue
		}
		carried++
		if to := m.toNew[i]; lo < 0 || to < lo {
			lo = to
		}
		if to := m.toNew[i]; to > hi {
			hi = to
		}
	}
	if all == 0 || 2*carried <= all {
		return ""
	}
	d := p.declsOf(cur.decls, res.Path, n.lang, cur.text.Bytes())
	if d.err != nil {
		return ""
	}
	i := d.enclosing(lo, hi+1)
	if i < 0 {
		return ""
	}
	in := d.spans[i]
	return fmt.Sprintf("the diff carries %d of its %d lines (as they were or edited) into %s %s (lines %s): a hint, not its new name", carried, all, in.Kind, in.Name, humanLines([2]int{in.Start, in.End}))
}
