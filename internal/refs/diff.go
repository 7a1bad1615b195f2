package refs

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/pin"
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
	// Review: the pin engine cannot show where the quoted text went (a
	// name that cannot be followed, an uncertain relocation).
	Review Class = "review"
)

// Classes lists every class, in the order summaries list them.
var Classes = []Class{Changed, Review, Deleted, Renamed, Moved, Refresh}

// Title names a class for people ("quoted text changed").
func Title(c Class) string {
	return map[Class]string{
		Changed: "quoted text changed",
		Deleted: "quoted file deleted",
		Renamed: "quoted file renamed",
		Moved:   "quoted text moved",
		Refresh: "file changed elsewhere",
		Review:  "quote needs review",
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
	Path   string `json:"path"`
	Quoted string `json:"quoted"`
	// Unpinned is set for a link without md5: no check fails when its
	// lines change, so a change that shifts them is Changed.
	Unpinned bool   `json:"unpinned"`
	Message  string `json:"message"`
	// Fix is the link as it should read, when refs knows it.
	Fix string `json:"fix,omitempty"`
}

// Change is one changed file: its BASE version and its work tree one.
type Change struct {
	oldPath, newPath string // project paths; newPath "" when deleted
	old, cur         []byte
	// unreadable says why the work tree's file, which exists, cannot be
	// read (a FIFO, a directory, a symbolic link out of the root): newPath
	// is "" as for a deleted file, but it was not deleted.
	unreadable string
	// Made on first use, once for all the links into the file.
	decoded  bool
	oldText  *rfc5147.Text // nil: not text
	hunks    []pin.LineHunk
	newLines int
	oldMD5   string
}

// prepare decodes both versions and diffs them, once: each in the
// charset r reads its path in (--charset), as the resolver decodes the
// file now, so that a quote of a non-UTF-8 file keeps its lines.
func (c *Change) prepare(r *target.Resolver) {
	if c.decoded {
		return
	}
	c.decoded = true
	sum := md5.Sum(c.old)
	c.oldMD5 = hex.EncodeToString(sum[:])
	t, err := rfc5147.NewText(c.old, r.Charset(c.oldPath))
	if err != nil {
		return
	}
	c.oldText = t
	if c.cur == nil {
		return
	}
	if cur, err := rfc5147.NewText(c.cur, r.Charset(c.newPath)); err == nil {
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
// versions are remembered in it, for the pin engine's relocation. cmds
// words the commands the findings' messages advise.
func Affected(r *target.Resolver, h *pin.History, rootDir string, ch *Changes, links []*Link, cmds Commands) []*Finding {
	h.RememberedName = "the BASE version"
	for _, c := range ch.Files {
		if c.newPath != "" {
			if real, err := pin.RealPath(filepath.Join(rootDir, filepath.FromSlash(c.newPath))); err == nil {
				h.Remember(real, c.old)
			}
		}
	}
	perLine := map[string]int{}
	for _, l := range links {
		perLine[l.Page+"\x00"+strconv.Itoa(l.Line)]++
	}
	for _, l := range links {
		l.SharesLine = perLine[l.Page+"\x00"+strconv.Itoa(l.Line)] > 1
	}
	planner := &pin.Planner{Resolver: r, History: h}
	var out []*Finding
	for _, l := range links {
		if c := ch.Files[l.Path]; c != nil {
			if f := classify(r, planner, cmds, ch, c, l); f != nil {
				out = append(out, f)
			}
		} else if l.Unreadable {
			out = append(out, unreadable(l, cmds))
		}
	}
	unpinnedFirst(out)
	return out
}

// unpinnedFirst tells the other quotes of a page that has an affected
// link without md5 to fix that link first: pin writes every link of the
// page it is given, and would pin that one at the lines it shows now,
// which nobody read (and which, shifted, are other text).
func unpinnedFirst(findings []*Finding) {
	lines := map[string][]string{}
	for _, f := range findings {
		if f.Unpinned {
			lines[f.Page] = append(lines[f.Page], strconv.Itoa(f.PageLine))
		}
	}
	for _, f := range findings {
		if l := lines[f.Page]; len(l) > 0 && !f.Unpinned && strings.Contains(f.Message, "`textfrag pin ") {
			f.Message += fmt.Sprintf("; but first fix the link without md5 on line %s of the page, as its message says (pin --write would otherwise stop on it, or pin it)", strings.Join(l, ", "))
		}
	}
}

// unreadable is the finding for a link whose file cannot be read (a
// missing file, a path out of the root) and that no change names: which
// file it means is not known, so whether the change touched it cannot be
// told, and it must not pass as unaffected. The root is the usual cause:
// a project in a subdirectory of a git work tree, run without --root,
// resolves links starting with / at the top of the work tree. Review,
// shown on the page's link.
func unreadable(l *Link, cmds Commands) *Finding {
	msg := fmt.Sprintf("quoted in %s:%d: the quoted file cannot be read, so whether the change affects the quote cannot be told (%s)", cmds.Name(l.Page), l.Line, l.Error)
	if cmds.Root != nil {
		if advice := cmds.Root(l); advice != "" {
			msg += "; " + advice
		}
	}
	msg += "; fix the link (textfrag link writes a new one)"
	// Not Unpinned even without md5: pinning cannot settle it.
	return &Finding{Class: Review, Page: l.Page, PageLine: l.Line, PageColumn: l.Column, Link: l.Link, Path: l.Path,
		Quoted: l.Label, File: l.Page, Line: int64(l.Line), EndLine: int64(l.Line), Message: msg}
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
