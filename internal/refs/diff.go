package refs

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// Class is what a change did to a quote.
type Class = string

// The classes, in the order summaries list them.
const (
	Changed Class = "changed" // a change touches the quoted lines: the page needs review
	Deleted Class = "deleted" // the quoted file was deleted
	Renamed Class = "renamed" // the quoted file was renamed, the quoted text intact
	Moved   Class = "moved"   // the quoted text is intact at other lines
	Refresh Class = "refresh" // the file changed elsewhere; the md5 is stale
)

// Classes lists every class, in the order summaries list them.
var Classes = []Class{Changed, Deleted, Renamed, Moved, Refresh}

// Title names a class for people ("quoted text changed").
func Title(c Class) string {
	return map[Class]string{
		Changed: "quoted text changed",
		Deleted: "quoted file deleted",
		Renamed: "quoted file renamed",
		Moved:   "quoted text moved",
		Refresh: "file changed elsewhere",
	}[c]
}

// Finding is one quote a change affects.
type Finding struct {
	Class Class `json:"class"`
	// Blocking is set by the caller: the class fails the run.
	Blocking bool `json:"blocking"`
	// File, Line and EndLine are where the finding is shown: the changed
	// source lines (human numbers, in the work tree), or the page's link
	// for a deleted file.
	File    string `json:"file"`
	Line    int64  `json:"line"`
	EndLine int64  `json:"end_line"`
	Page    string `json:"page"`
	// PageLine and PageColumn locate the link in the page.
	PageLine   int    `json:"page_line"`
	PageColumn int    `json:"page_column"`
	Link       string `json:"link"`
	// Path is the quoted file as the link names it, Quoted the range it
	// quoted in the BASE version.
	Path    string `json:"path"`
	Quoted  string `json:"quoted"`
	Message string `json:"message"`
	// Fix is the link as it should read, when refs knows it.
	Fix string `json:"fix,omitempty"`
}

// Change is one changed file: its BASE version and its work tree one.
type Change struct {
	oldPath, newPath string // project paths; newPath "" when deleted
	old, cur         []byte
	// Made on first use, once for all the links into the file.
	decoded  bool
	oldText  *rfc5147.Text // nil: not text
	hunks    []pin.LineHunk
	newLines int
	oldMD5   string
}

// prepare decodes both versions and diffs them, once.
func (c *Change) prepare() {
	if c.decoded {
		return
	}
	c.decoded = true
	sum := md5.Sum(c.old)
	c.oldMD5 = hex.EncodeToString(sum[:])
	t, err := rfc5147.NewText(c.old, rfc5147.UTF8)
	if err != nil {
		return
	}
	c.oldText = t
	if c.cur == nil {
		return
	}
	if cur, err := rfc5147.NewText(c.cur, rfc5147.UTF8); err == nil {
		c.hunks, _, c.newLines = pin.LineHunks(t.Bytes(), cur.Bytes())
	}
}

// Changes are the changed files, from git (FromGit) or a unified diff
// (FromDiff).
type Changes struct {
	// Name says where they come from: "changes since 1a2b3c4d5e6f", "the
	// diff on stdin".
	Name string
	// Files holds each changed file by its project paths, old and new.
	Files map[string]*Change
	// BasePage returns a page as it was at BASE (nil: it did not exist).
	BasePage func(page string) []byte
}

// Affected returns the findings for the links (read from the work tree's
// pages, resolved with r under the project root rootDir) that quote a
// changed file, in the links' order. h is the project's history: the BASE
// versions are remembered in it, for the pin engine's relocation.
func Affected(r *target.Resolver, h *pin.History, rootDir string, ch *Changes, links []*Link) []*Finding {
	h.RememberedName = "the BASE version"
	for _, c := range ch.Files {
		if c.newPath != "" {
			if real, err := pin.RealPath(filepath.Join(rootDir, filepath.FromSlash(c.newPath))); err == nil {
				h.Remember(real, c.old)
			}
		}
	}
	planner := &pin.Planner{Resolver: r, History: h}
	var out []*Finding
	for _, l := range links {
		if c := ch.Files[l.Path]; c != nil {
			if f := classify(r, planner, ch, c, l); f != nil {
				out = append(out, f)
			}
		}
	}
	return out
}

// classify decides what the change c does to the quote l, read from the
// work tree's page: nil when nothing (the link was re-pinned in the change,
// or was written for the work tree, or its text is untouched and there is
// nothing to refresh).
func classify(r *target.Resolver, planner *pin.Planner, src *Changes, c *Change, l *Link) *Finding {
	f := &Finding{Page: l.Page, PageLine: l.Line, PageColumn: l.Column, Link: l.Link, Path: l.Path,
		File: l.Page, Line: int64(l.Line), EndLine: int64(l.Line)}
	where := fmt.Sprintf("quoted in %s:%d", l.Page, l.Line)
	c.prepare()
	oldSel := selectLines(c.oldText, l.Link)
	if oldSel != nil {
		f.Quoted = oldSel.Label()
		where += fmt.Sprintf(" (%s %s)", c.oldPath, f.Quoted)
	}
	if c.newPath == "" {
		f.Class = Deleted
		f.Message = fmt.Sprintf("%s: %s was deleted: the page needs review", where, c.oldPath)
		return f
	}
	renamed := l.Path == c.oldPath && c.newPath != c.oldPath
	dest := l.Link
	if renamed {
		dest = quotelink.Dest(l.Page, c.newPath, target.SplitLink(l.Link).Fragment)
	}
	if !l.Pinned {
		// A link without md5 was written for BASE if BASE's page had it;
		// otherwise for the work tree, which it quotes as its author meant.
		if old := src.BasePage(l.Page); old == nil || !bytes.Contains(old, []byte(l.Link)) {
			if !renamed {
				return nil
			}
		}
		dest = pin.AddMD5(dest, c.oldMD5)
	} else if !renamed && l.Selector == nil {
		if _, err := r.Resolve(l.Page, dest); err == nil {
			return nil // pinned to the work tree: re-pinned in this change, or never affected
		}
	}
	ml := l.MD
	ml.Dest = dest
	if ml.Start < 0 {
		ml.Start, ml.End = 0, len(dest) // only planned, never written
	}
	planner.AcceptCommand = func(string) string { return "textfrag pin --write --accept-changed " + l.Page }
	ch := planner.PlanLink(l.Page, ml)
	newSel := func(d string) *rfc5147.Selection {
		if d == "" {
			return nil
		}
		res, err := r.Resolve(l.Page, d)
		if err != nil {
			return nil
		}
		return res.Selection
	}
	f.File = c.newPath
	if l.Selector != nil && l.Pinned && !renamed && ch.Class == pin.OK {
		// The pin engine follows the name (sym=, region=): it still spans
		// exactly the linked lines, pinned to the work tree.
		return nil
	}
	switch ch.Class {
	case pin.OK, pin.Refreshed, pin.Moved:
		fix := ch.NewDest
		if fix == "" {
			fix = dest
		}
		sel := newSel(fix)
		if sel == nil {
			// The pin engine verifies every destination it offers: this is
			// a bug, and the quote needs a person.
			f.Class = Changed
			f.Message = fmt.Sprintf("%s: the quote cannot be followed (%s does not resolve); please report this", where, fix)
			return f
		}
		f.Line, f.EndLine = span(sel)
		switch {
		case renamed:
			f.Class = Renamed
			if !l.Pinned {
				fix = quotelink.Dest(l.Page, c.newPath, target.SplitLink(l.Link).Fragment)
				if ch.Class == pin.Moved {
					fix = withPositions(fix, l.Link, sel)
				}
			}
			f.Fix = fix
			f.Message = fmt.Sprintf("%s: %s was renamed to %s with the quoted text intact: change the link to %s", where, c.oldPath, c.newPath, fix)
		case ch.Class == pin.Moved:
			f.Class = Moved
			if l.Pinned {
				f.Fix = fix
				f.Message = fmt.Sprintf("%s: the quoted text is intact at %s: `textfrag pin --write %s` updates the link", where, sel.Label(), l.Page)
			} else {
				f.Fix = withPositions(l.Link, l.Link, sel)
				f.Message = fmt.Sprintf("%s: the quoted text moved to %s, and the link has no md5 to follow it: change it to %s", where, sel.Label(), f.Fix)
			}
		case !l.Pinned:
			return nil // in place, and no md5 to refresh
		default:
			f.Class = Refresh
			f.Fix = fix
			f.Message = fmt.Sprintf("%s: the quoted text is unchanged in place, the file changed elsewhere: `textfrag pin --write %s` refreshes the link's md5", where, l.Page)
		}
		return f
	}
	// Changed, gone (the quoted text deleted, or no version found) or an
	// error (an ambiguous move): a person must look.
	f.Class = Changed
	f.Line, f.EndLine = 1, 1
	located, deleted := false, false
	if oldSel != nil {
		hunks, nNew := c.hunks, c.newLines
		qs, qe := int(oldSel.Lines.Start), int(oldSel.Lines.End)
		covered, added := 0, 0 // quoted lines the hunks remove, lines they add
		for _, h := range hunks {
			inside := h.OldStart < qe && qs < h.OldEnd || h.OldStart == h.OldEnd && qs < h.OldStart && h.OldStart < qe
			if !inside {
				continue
			}
			covered += min(h.OldEnd, qe) - max(h.OldStart, qs)
			added += h.NewEnd - h.NewStart
			if located {
				continue
			}
			if h.NewEnd > h.NewStart {
				f.Line, f.EndLine = int64(h.NewStart+1), int64(h.NewEnd)
			} else { // lines deleted: the line after them
				f.Line = int64(max(1, min(h.NewStart+1, nNew)))
				f.EndLine = f.Line
			}
			located = true
		}
		deleted = located && qe > qs && covered == qe-qs && added == 0
	}
	if !located {
		if sel := newSel(ch.NewDest); sel != nil {
			f.Line, f.EndLine = span(sel)
		}
	}
	what := "the quoted text changed"
	if deleted {
		what = "the quoted lines were deleted"
	}
	if l.Selector != nil {
		// The pin engine looked the name up in the work tree: gone (Gone),
		// or found at the lines its NewDest quotes.
		switch sel := newSel(ch.NewDest); {
		case ch.Class == pin.Gone:
			f.Class = Deleted
			f.Message = fmt.Sprintf("%s: %s is no longer in %s: review the page, then fix the name or quote by lines (%s)", where, l.Name, c.newPath, oneLine(ch.Message))
			return f
		case ch.Class == pin.Error && !renamed:
			// The name matches two declarations now, or the file does
			// not parse: no re-pin follows it, --accept-changed neither.
			f.Message = fmt.Sprintf("%s: %s cannot be followed in %s now, and pin will not re-pin it: %s", where, l.Name, c.newPath, oneLine(ch.Message))
			return f
		case sel != nil:
			what += fmt.Sprintf(" (%s spans %s now)", l.Name, sel.Label())
		}
	}
	f.Message = fmt.Sprintf("%s: %s: review the page, then re-pin it with `textfrag pin --write --accept-changed %s`", where, what, l.Page)
	if renamed {
		f.Message = fmt.Sprintf("%s: %s was renamed to %s and %s: review the page and change the link", where, c.oldPath, c.newPath, what)
	}
	if ch.Class == pin.Error || ch.Class == pin.Gone && !deleted {
		f.Message += " (" + oneLine(ch.Message) + ")"
	}
	return f
}

// span returns the human lines a selection shows on: its first and
// last line (a position: the line it stands before).
func span(sel *rfc5147.Selection) (int64, int64) {
	first, last := sel.Lines.Start+1, sel.Lines.End
	if last < first {
		first = max(1, min(first, sel.TotalLines))
		last = first
	}
	return first, last
}

// withPositions returns dest with the positions of written (a link
// destination) replaced by those of sel, in written's scheme.
func withPositions(dest, written string, sel *rfc5147.Selection) string {
	f, err := rfc5147.Parse(target.SplitLink(written).Fragment)
	if err != nil {
		return dest
	}
	span := sel.Lines
	if f.Scheme == rfc5147.Char {
		span = sel.Chars
	}
	f.Start, f.End = span.Start, span.End
	if f.Form != rfc5147.Position {
		f.Form = rfc5147.Range
	}
	head, _, _ := strings.Cut(dest, "#")
	return head + "#" + f.String()
}

// selectLines applies the fragment of dest, without its checks, to t.
func selectLines(t *rfc5147.Text, dest string) *rfc5147.Selection {
	if t == nil {
		return nil
	}
	f, err := rfc5147.Parse(target.SplitLink(dest).Fragment)
	if err != nil {
		return nil
	}
	f.Checks = nil
	sel, err := t.Select(f)
	if err != nil {
		return nil
	}
	return sel
}
