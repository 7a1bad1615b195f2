package refs

import (
	"bytes"
	"fmt"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// What a change does to one quote is found in three steps:
//
//	gather   (I/O: the pin engine, the resolver, the line diff) ─ facts
//	decide   (pure)  facts ─ a class and the case that gave it
//	describe (pure)  facts + case ─ the message, the fix
//
// decide and describe are table-tested (classify_test.go).

// facts are what gather learns about a quote in a changed file.
type facts struct {
	page       string
	pageLine   int
	path       string // the quoted file as the link names it
	oldPath    string // its name at BASE
	newPath    string // its name now; "" when deleted
	name       string // sym=…/region=… from the title; "" for none
	quoted     string // the BASE lines' label ("lines 10–12"), "" unknown
	pinned     bool
	renamed    bool
	newInPage  bool // unpinned and not in BASE's page: written for the work tree
	current    bool // pinned and resolving against the work tree: re-pinned, or never affected
	engine     pin.Class
	unfollowed bool // the engine could not look the link's name up (pin.Change.Unfollowed)
	engineMsg  string
	followed   bool   // the engine's destination (or the link) resolves now
	followedAt string // its label, when followed
	followedLn [2]int64
	fix        string // the destination the link should have, when known
	// hunk: where the change touched the quoted lines (human lines in
	// the work tree); touched false when no hunk meets them.
	touched      bool
	hunk         [2]int64
	linesDeleted bool   // every quoted line deleted, nothing added
	nameSpansNow string // for a named link: the lines its name spans now
	// cmds words the commands the message advises.
	cmds Commands
	// title is the link's text as textfrag link's --title writes it
	// again (Commands.Title), "" for link's own.
	title string
	// unreadable says why the file, not deleted, cannot be read now
	// (Change.unreadable).
	unreadable string
	// pageColumn is the link's column when another link of the page
	// starts on its line (Link.SharesLine), else 0.
	pageColumn int
}

// verdict is decide's answer: the class, and which case gave it.
type verdict struct {
	class Class
	why   string // a case name, for describe: see decide
}

// The cases decide tells apart.
const (
	caseNone           = ""                // nothing to report
	caseFileDeleted    = "file deleted"    // Deleted
	caseRenamed        = "renamed"         // Renamed, text intact
	caseMoved          = "moved"           // Moved, pinned
	caseRefresh        = "refresh"         // Refresh, pinned, in place
	caseUnpinnedMoved  = "unpinned moved"  // Changed: an unpinned quote shifted
	caseChanged        = "changed"         // Changed, text edited
	caseRenamedChanged = "renamed changed" // Changed, renamed and edited
	caseNameGone       = "name gone"       // Deleted: sym=/region= not found
	caseNameStuck      = "name stuck"      // Review: the name cannot be followed
	caseReview         = "review"          // Review: the engine cannot show it
	caseLinesGone      = "lines gone"      // Changed: every quoted line deleted
	caseBug            = "bug"             // Review: an offered destination does not resolve
)

// decide classes a quote from its facts. It is pure.
//
// An unpinned quote has no md5 to fail when its lines change, so a change
// that edits, removes or shifts the lines it shows makes it Changed
// (SEMANTICS.md §4): its page shows other text now, silently. A pinned
// quote that moved intact is Moved, one whose file changed elsewhere
// Refresh; what the engine cannot show to be the same text is Review.
func decide(f facts) verdict {
	switch {
	case f.newPath == "":
		return verdict{Deleted, caseFileDeleted}
	case !f.pinned && f.newInPage && !f.renamed:
		return verdict{"", caseNone} // written for the work tree
	case f.pinned && f.current && !f.renamed && f.name == "":
		return verdict{"", caseNone}
	case f.name != "" && f.pinned && !f.renamed && f.engine == pin.OK:
		return verdict{"", caseNone} // the name still spans exactly the lines
	}
	switch f.engine {
	case pin.OK, pin.Refreshed, pin.Moved:
		switch {
		case !f.followed:
			return verdict{Review, caseBug}
		case f.renamed && !f.pinned && f.engine == pin.Moved:
			return verdict{Changed, caseUnpinnedMoved}
		case f.renamed:
			return verdict{Renamed, caseRenamed}
		case f.engine == pin.Moved && f.pinned:
			return verdict{Moved, caseMoved}
		case f.engine == pin.Moved:
			return verdict{Changed, caseUnpinnedMoved}
		case !f.pinned:
			return verdict{"", caseNone} // in place, and no md5 to refresh
		}
		return verdict{Refresh, caseRefresh}
	}
	if f.name != "" {
		switch {
		case f.engine == pin.Gone:
			return verdict{Deleted, caseNameGone}
		case (f.engine == pin.Error || f.engine == pin.Review && f.unfollowed) && !f.renamed:
			return verdict{Review, caseNameStuck}
		}
	}
	switch {
	case f.renamed:
		return verdict{Changed, caseRenamedChanged}
	case f.engine == pin.Review || f.engine == pin.Error || f.engine == pin.Gone && !f.linesDeleted:
		return verdict{Review, caseReview}
	case f.engine == pin.Gone:
		return verdict{Changed, caseLinesGone}
	}
	return verdict{Changed, caseChanged}
}

// describe words a verdict: the finding's message and fix. It is pure.
func describe(v verdict, f facts) (message, fix string) {
	// Files are named as the commands name them (from where refs runs);
	// the commands take project paths.
	oldPath, newPath := f.cmds.Name(f.oldPath), f.cmds.Name(f.newPath)
	where := fmt.Sprintf("quoted in %s:%d", f.cmds.Name(f.page), f.pageLine)
	if f.quoted != "" {
		where += fmt.Sprintf(" (%s %s)", oldPath, f.quoted)
	}
	// An unpinned link's file changed: pin pins it only when accepted
	// (pin's unpinnedStale), so its remedy is the accept command too.
	accept := "`" + f.cmds.Accept(f.page, f.pageLine, f.pageColumn) + "`"
	pinPage := f.cmds.Pin(" --write", f.page)
	what := "the quoted text changed"
	if f.linesDeleted {
		what = "the quoted lines were deleted"
	}
	if f.nameSpansNow != "" {
		what += fmt.Sprintf(" (%s spans %s now)", f.name, f.nameSpansNow)
	}
	switch v.why {
	case caseFileDeleted:
		if f.unreadable != "" {
			return fmt.Sprintf("%s: %s cannot be read now (%s): the page needs review", where, oldPath, f.unreadable), ""
		}
		return fmt.Sprintf("%s: %s was deleted: the page needs review", where, oldPath), ""
	case caseBug:
		return fmt.Sprintf("%s: the quote cannot be followed (%s does not resolve); please report this", where, f.fix), ""
	case caseRenamed:
		return fmt.Sprintf("%s: %s was renamed to %s with the quoted text intact: change the link to %s", where, oldPath, newPath, f.fix), f.fix
	case caseMoved:
		return fmt.Sprintf("%s: the quoted text is intact at %s: `%s` updates the link", where, f.followedAt, pinPage), f.fix
	case caseRefresh:
		return fmt.Sprintf("%s: the quoted text is unchanged in place, the file changed elsewhere: `%s` refreshes the link's md5", where, pinPage), f.fix
	case caseUnpinnedMoved:
		return fmt.Sprintf("%s: the link has no md5 and the change shifted its lines: it shows other lines now; the quoted text moved to %s: change the link to %s, then pin it with %s", where, f.followedAt, f.fix, accept), f.fix
	case caseNameGone:
		return fmt.Sprintf("%s: %s is no longer in %s: review the page, then fix the name or quote by lines (%s)", where, f.name, newPath, f.engineMsg), ""
	case caseNameStuck:
		return fmt.Sprintf("%s: %s cannot be followed in %s now, and pin will not re-pin it: %s", where, f.name, newPath, f.engineMsg), ""
	case caseRenamedChanged:
		return fmt.Sprintf("%s: %s was renamed to %s and %s: review the page and change the link", where, oldPath, newPath, what), ""
	case caseReview:
		// Not "changed": the text may be intact (pyproject.toml's table
		// in requests, lines carried but the context around them new).
		return fmt.Sprintf("%s: pin cannot show where the quoted text is now: review the page and fix the link by hand (%s)", where, f.engineMsg), ""
	case caseLinesGone:
		return fmt.Sprintf("%s: %s: review the page, then %s", where, what, FixByHand(f.cmds.Link(f.newPath, f.page, f.title))), ""
	case caseChanged:
		if !f.pinned {
			return fmt.Sprintf("%s: %s, and the link has no md5, so its page shows the new text unreviewed: review the page, fix the link's lines if need be, then pin it with %s", where, what, accept), ""
		}
		return fmt.Sprintf("%s: %s: review the page, then accept the new text with %s", where, what, accept), ""
	}
	return "", ""
}

// gather learns the facts of the quote l in the changed file c: it runs
// the pin engine (planner) on the link as it would read at BASE, resolves
// what the engine offers, and locates the change on the quoted lines.
func gather(r *target.Resolver, planner *pin.Planner, cmds Commands, src *Changes, c *Change, l *Link) facts {
	f := facts{page: l.Page, pageLine: l.Line, path: l.Path, oldPath: c.oldPath, newPath: c.newPath,
		name: l.Name, pinned: l.Pinned, cmds: cmds, unreadable: c.unreadable, title: cmds.title(l)}
	if l.SharesLine {
		f.pageColumn = l.Column
	}
	c.prepare(r)
	oldSel := selectLines(c.oldText, l.Link)
	if oldSel != nil {
		f.quoted = oldSel.Label()
	}
	if c.newPath == "" {
		return f
	}
	f.renamed = l.Path == c.oldPath && c.newPath != c.oldPath
	dest := l.Link
	if f.renamed {
		dest = quotelink.Dest(l.Page, c.newPath, target.SplitLink(l.Link).Fragment)
	}
	if !l.Pinned {
		// A link without md5 was written for BASE if BASE's page had it;
		// otherwise for the work tree, which it quotes as its author meant.
		if old := src.BasePage(l.Page); old == nil || !bytes.Contains(old, []byte(l.Link)) {
			f.newInPage = true
			if !f.renamed {
				return f
			}
		}
		dest = pin.AddMD5(dest, c.oldMD5)
	} else if !f.renamed && l.Selector == nil {
		if _, err := r.Resolve(l.Page, dest); err == nil {
			f.current = true
			return f
		}
	}
	ml := l.MD
	ml.Dest = dest
	if ml.Start < 0 {
		ml.Start, ml.End = 0, len(dest) // only planned, never written
	}
	// The engine's own remedy, quoted in a message, goes through the quotes
	// one by one: accepting is per quote.
	planner.AcceptCommand = func(string) string { return cmds.Pin(" -i", l.Page) }
	planner.ForPage(l.Page)
	ch := planner.PlanLink(l.Page, ml)
	f.engine, f.engineMsg, f.unfollowed = ch.Class, oneLine(ch.Message), ch.Unfollowed
	resolve := func(d string) *rfc5147.Selection {
		if d == "" {
			return nil
		}
		res, err := r.Resolve(l.Page, d)
		if err != nil {
			return nil
		}
		return res.Selection
	}
	switch ch.Class {
	case pin.OK, pin.Refreshed, pin.Moved:
		fix := ch.NewDest
		if fix == "" {
			fix = dest
		}
		f.fix = fix
		sel := resolve(fix)
		if sel == nil {
			return f
		}
		f.followed, f.followedAt = true, sel.Label()
		first, last := span(sel)
		f.followedLn = [2]int64{first, last}
		if !l.Pinned {
			// No md5 to write: the link as it should read, its checks none.
			f.fix = l.Link
			if f.renamed {
				f.fix = quotelink.Dest(l.Page, c.newPath, target.SplitLink(l.Link).Fragment)
			}
			if ch.Class == pin.Moved {
				f.fix = withPositions(f.fix, l.Link, sel)
			}
		}
		return f
	}
	// Changed, gone, review or an error: where did the change touch it?
	if oldSel != nil {
		f.touched, f.hunk, f.linesDeleted = locate(c.hunks, c.newLines, int(oldSel.Lines.Start), int(oldSel.Lines.End))
	}
	if sel := resolve(ch.NewDest); sel != nil {
		first, last := span(sel)
		f.followedLn = [2]int64{first, last}
		if l.Selector != nil {
			f.nameSpansNow = sel.Label()
		}
	}
	return f
}

// locate finds where hunks (of a file of newLines lines now) touch the
// quoted old lines [qs, qe): the first touching hunk's new lines, in human
// numbers (for lines deleted, the line after them), and whether every
// quoted line was deleted with nothing added. It is pure.
func locate(hunks []pin.LineHunk, newLines, qs, qe int) (touched bool, at [2]int64, deleted bool) {
	covered, added := 0, 0 // quoted lines the hunks remove, lines they add
	for _, h := range hunks {
		inside := h.OldStart < qe && qs < h.OldEnd || h.OldStart == h.OldEnd && qs < h.OldStart && h.OldStart < qe
		if !inside {
			continue
		}
		covered += min(h.OldEnd, qe) - max(h.OldStart, qs)
		added += h.NewEnd - h.NewStart
		if touched {
			continue
		}
		if h.NewEnd > h.NewStart {
			at = [2]int64{int64(h.NewStart + 1), int64(h.NewEnd)}
		} else { // lines deleted: the line after them
			line := int64(max(1, min(h.NewStart+1, newLines)))
			at = [2]int64{line, line}
		}
		touched = true
	}
	return touched, at, touched && qe > qs && covered == qe-qs && added == 0
}

// classify decides what the change c does to the quote l, read from the
// work tree's page: nil when nothing (the link was re-pinned in the change,
// or was written for the work tree, or its text is untouched and there is
// nothing to refresh).
func classify(r *target.Resolver, planner *pin.Planner, cmds Commands, src *Changes, c *Change, l *Link) *Finding {
	f := gather(r, planner, cmds, src, c, l)
	v := decide(f)
	if v.class == "" {
		return nil
	}
	out := &Finding{Class: v.class, Page: l.Page, PageLine: l.Line, PageColumn: l.Column, Link: l.Link, Path: l.Path,
		Quoted: f.quoted, Unpinned: !l.Pinned, File: l.Page, Line: int64(l.Line), EndLine: int64(l.Line)}
	out.Message, out.Fix = describe(v, f)
	switch {
	case v.why == caseFileDeleted:
		// Shown on the page's link: the file has no lines now.
	case v.class == Renamed || v.class == Moved || v.class == Refresh || v.why == caseUnpinnedMoved:
		out.File, out.Line, out.EndLine = c.newPath, f.followedLn[0], f.followedLn[1]
	case f.touched:
		out.File, out.Line, out.EndLine = c.newPath, f.hunk[0], f.hunk[1]
	case f.followedLn[0] > 0:
		out.File, out.Line, out.EndLine = c.newPath, f.followedLn[0], f.followedLn[1]
	default:
		out.File, out.Line, out.EndLine = c.newPath, 1, 1
	}
	if v.why == caseBug {
		out.File, out.Line, out.EndLine = c.newPath, int64(l.Line), int64(l.Line)
	}
	return out
}
