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
	Error     Class = "error"     // cannot be pinned; Message says why
)

// Review: pin cannot show that the text the link would point at is the
// text it quoted; a person must look. It blocks, and is never applied.
const Review Class = "review"

// Change is the plan for one link of a page.
type Change struct {
	Link  mdlink.Link
	Class Class
	// Message says what was found, with a remedy when a person must act
	// (no file name, line or class: the caller adds them).
	Message string
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
}

// Planner classifies the links of a page and computes their new
// destinations. It reads quoted files through Resolver and finds pinned
// versions through History (nil: no history, every moved or changed quote
// is Gone). A Planner is not safe for concurrent use; it caches quoted
// files until Resolver is replaced.
type Planner struct {
	Resolver *target.Resolver
	History  *History
	// AcceptChanged re-pins Changed and Gone links to the file as it is now.
	AcceptChanged bool
	// AcceptCommand returns the command that re-pins the page accepting
	// changes, which messages advise; default "textfrag pin --write
	// --accept-changed PAGE".
	AcceptCommand func(page string) string
	// Explain words a resolver error; default target.Explain.
	Explain func(err error) string

	page      string
	quoted    string
	current   map[string]*pinCurrentTarget
	currentOf *target.Resolver
	// remembered caches, for each version given to History.Remember (by
	// its bytes' address), the text decoded and its line map to the
	// current file, so that many links into one file cost one decoding
	// and one line diff, not one each.
	remembered map[*byte]*pinRemembered
}

// pinRemembered is a remembered version of a file, decoded.
type pinRemembered struct {
	text  *rfc5147.Text
	lines *pinRfcText
	maps  map[*pinCurrentTarget]*pinLineMap
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

// PlanLink returns the Change for one link of the document at project
// path doc.
func (p *Planner) PlanLink(doc string, l mdlink.Link) Change {
	var c Change
	p.quoted = ""
	switch {
	case l.Start < 0 && l.Dest == "":
		c = pinFailOutcome(Error, l.Err)
	case l.Start < 0:
		c = pinFailOutcome(Error, fmt.Sprintf("%s: cannot find this destination in the file: %s; pin it by hand", l.Dest, l.Err))
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
