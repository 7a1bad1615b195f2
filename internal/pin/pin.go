package pin

import (
	"fmt"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
)

// Class is what pin makes of one link.
type Class string

const (
	None      Class = ""          // not pin's: a remote host not allowed, or not a file
	OK        Class = "ok"        // pinned and up to date
	Pinned    Class = "pinned"    // had no md5: NewDest adds it
	Refreshed Class = "refreshed" // the text is as pinned (in place): NewDest updates the checks
	Moved     Class = "moved"     // the pinned text is intact at other positions: NewDest points there
	Changed   Class = "changed"   // the quoted text changed: a person must review it
	Gone      Class = "gone"      // the file, or the pinned text or version, is gone
	Review    Class = "review"    // pin cannot tell where the quoted text is now: a person must look; never applied
	Error     Class = "error"     // cannot be pinned; Message says why
)

// Change is the plan for one link of a page.
type Change struct {
	Link  mdlink.Link
	Class Class
	// Message says what was found: the facts (no file name, line or
	// class: the caller adds them). An Error's message ends with what to do.
	Message string
	// Remedy is the one thing a person should do, when one must act and
	// the engine knows what: "" otherwise. A front end with a better
	// remedy for where its user is (the command's textfrag link) puts its
	// own in its place; Text joins the two.
	Remedy string
	// Detail holds lines shown under the message: the quoted text now, or a
	// diff of the quoted text.
	Detail []string
	// NewDest is the destination to write at Link.Start:Link.End, "" for
	// none; it always resolves with every check passing.
	NewDest string
	// Apply is true when NewDest should be written (for Changed and Gone,
	// only with AcceptChanged).
	Apply bool
	// Failed is true when the link needs a person: pin exits 1.
	Failed bool
	// Target is the project path of the quoted file, when the link resolved.
	Target string
	// Version names the version of the file the link was pinned to, where
	// relocation found it ("commit 1a2b3c4d5e6f (reached only from
	// ORIG_HEAD …)"), when it searched and found one.
	Version string
	// Lines says where the quote's lines went, for Consistency: set by
	// relocation for refreshed, moved and changed quotes; nil otherwise.
	Lines *LineMove
	// Unfollowed is set on a Review of a link whose sym=/region= name
	// cannot be looked up now (it matches several declarations).
	Unfollowed bool
}

// Text is the change's message with its remedy, as a person reads it.
func (c Change) Text() string {
	if c.Remedy == "" {
		return c.Message
	}
	return c.Message + "; " + c.Remedy
}

// LineMove is where relocation carried a quote's lines.
type LineMove struct {
	// Was and Now are the quote's range as a box's caption and textfrag
	// link's text state it (rfc5147.Selection.Label): in the version it
	// was pinned to, and at NewDest.
	Was, Now string
	// First is the human number of the quote's first line in the pinned
	// version.
	First int64
	// To holds, for each line the quote touched in the pinned version
	// (First, First+1, …), the human number of the line it became at
	// NewDest: 0 when it was deleted, or pin cannot tell where it went, or
	// it fell out of the quote.
	To []int64
	// Same reports that the quoted text is the pinned text: every line of
	// the file around it moved by the same offset, To[0]-First.
	Same bool
}

// Planner classifies the links of a page and computes their new
// destinations. It reads quoted files through Resolver and finds pinned
// versions through History (nil: no history, every moved or changed quote
// is Gone). A Planner is not safe for concurrent use; it caches quoted
// files until Resolver is replaced.
type Planner struct {
	Resolver *target.Resolver
	History  *History
	// AcceptChanged re-pins Changed links at their new place. Gone and
	// Review links are never re-pinned: a person fixes them.
	AcceptChanged bool
	// AcceptCommand returns the command that re-pins the page accepting
	// changes, which messages advise; default "textfrag pin --write
	// --accept-changed PAGE".
	AcceptCommand func(page string) string
	// PinCommand returns the command that pins a page's unpinned links,
	// which the remedy of review quotes advises (after the link's md5= is
	// removed by hand); default AcceptCommand's without --accept-changed.
	PinCommand func(page string) string
	// Explain words a resolver error; default target.Explain.
	Explain func(err error) string

	page      string
	quoted    string
	current   map[string]*currentFile
	currentOf *target.Resolver
	// pinned caches each pinned version found (by path and md5), decoded,
	// with its line map to the current file and its declarations, so that
	// many links pinned to one version cost one search, one decoding and
	// one line diff, not one each.
	pinned map[pinnedKey]*pinnedVersion
}

// pinnedKey names a pinned version: the file's project path and md5.
type pinnedKey struct {
	path string
	md5  [16]byte
}

// pinnedVersion is the version of a file a link was pinned to, decoded.
type pinnedVersion struct {
	ver   *oldVersion
	err   error // why it was not found (nil with ver nil: in no version)
	text  *rfc5147.Text
	lines *rfcText
	maps  map[*currentFile]*lineMap
	decls map[string]*declarations // by lang
	// counts counts the lines of the version by their characters, made on
	// first use (distinctive).
	counts map[string]int
}

// Plan returns a Change for each link of the page named page (a path as
// the caller names it; the Resolver's DocPath makes it a project path) whose
// contents are src, in source order (mdlink.Page).
func (p *Planner) Plan(page string, src []byte) []Change {
	p.page = page
	doc := p.Resolver.DocPath(page)
	var out []Change
	for _, l := range mdlink.Page(src) {
		out = append(out, p.PlanLink(doc, l))
	}
	return out
}

// ForPage names the page that the commands in PlanLink's messages re-pin
// (a path as the caller names it); Plan sets it itself.
func (p *Planner) ForPage(page string) { p.page = page }

// PlanLink returns the Change for one link of the document at project
// path doc; the commands in its messages name the page ForPage named.
func (p *Planner) PlanLink(doc string, l mdlink.Link) Change {
	var c Change
	p.quoted = ""
	switch {
	case l.Start < 0 && l.Dest == "":
		c = failure(Error, l.Err)
	case l.Start < 0:
		c = failure(Error, fmt.Sprintf("%s: cannot find this destination in the file: %s; pin it by hand", l.Dest, l.Err))
	default:
		c = p.link(doc, l.Dest, l.Title)
	}
	c.Link, c.Target = l, p.quoted
	return c
}

// Edits returns the edits that write the applicable changes.
func Edits(changes []Change) []Edit {
	var edits []Edit
	for _, c := range changes {
		if c.Apply && c.NewDest != "" && c.NewDest != c.Link.Dest {
			edits = append(edits, Edit{c.Link.Start, c.Link.End, c.NewDest})
		}
	}
	return edits
}

func (p *Planner) acceptCommand() string {
	if p.AcceptCommand != nil {
		return p.AcceptCommand(p.page)
	}
	return "textfrag pin --write --accept-changed " + p.page
}

func (p *Planner) explain(err error) string {
	if p.Explain != nil {
		return p.Explain(err)
	}
	return target.Explain(err, "")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
