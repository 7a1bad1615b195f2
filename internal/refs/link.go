package refs

import (
	"errors"
	"fmt"
	"math"
	"strings"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// Link is a link of a page that quotes a local file (resolved, or named
// by a link that failed to resolve), as refs lists it.
type Link struct {
	Page   string `json:"page"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Kind   string `json:"kind"`
	Link   string `json:"link"`
	Path   string `json:"path"`
	// FirstLine and LastLine are the human lines quoted (both included);
	// for a position, LastLine is FirstLine-1. 0 when unknown.
	FirstLine int64  `json:"first_line"`
	LastLine  int64  `json:"last_line"`
	Label     string `json:"label"`
	Pinned    bool   `json:"pinned"`
	// Status is ok, stale (an integrity check fails) or broken.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Unreadable is set for a broken link whose file cannot be read where
	// the link leads (missing, or outside the root, not a secret): the
	// file it means is not known, so no change can be ruled out.
	Unreadable bool `json:"-"`
	// SharesLine is set (by Affected) when another link of the page starts
	// on its line: a command that names it by PAGE:LINE names both, so the
	// column is given too.
	SharesLine bool `json:"-"`
	// Name is the name the link's title gives its lines, as a title
	// writes it ("sym=Server.Handle", "region=setup"); "" for none.
	Name string `json:"name,omitempty"`

	// Selector and Lang are the name (nil: none) and the title's lang=.
	Selector *symbol.Selector `json:"-"`
	Lang     string           `json:"-"`

	// MD is the link as found in the page.
	MD mdlink.Link `json:"-"`
	// EntityMD5 is the MD5 of the quoted file as read (the work tree's),
	// when Resolved. Only this is kept of the resolution, not the Result:
	// refs --diff holds every link of the project at once.
	EntityMD5 [16]byte `json:"-"`
	Resolved  bool     `json:"-"`
}

// QuotesLines reports whether l quotes any of the human lines first..last:
// a range touches one of them, a position lies in them or at their edge.
// A link whose lines are unknown (a broken fragment, a missing file
// quoted by characters) may quote them, so it does.
func (l *Link) QuotesLines(first, last int64) bool {
	if l.FirstLine == 0 {
		return true
	}
	if l.LastLine < l.FirstLine { // a position before line FirstLine
		return first-1 <= l.LastLine && l.LastLine <= last
	}
	return l.FirstLine <= last && first <= l.LastLine
}

// Resolve resolves one link of the page at project path doc, or returns
// nil for a link that names no local file (a remote one, or none).
func Resolve(r *target.Resolver, doc string, ml mdlink.Link) *Link {
	if ml.Dest == "" {
		return nil
	}
	l := &Link{Page: doc, Line: ml.Line, Column: ml.Column, Kind: ml.Kind.String(), Link: ml.Dest, MD: ml}
	// A title the build refuses (textfrag.CheckTitle, the build's own
	// reader) names nothing here: the link is listed by its lines, marked
	// stale with the build's message when it resolves.
	titleErr := textfrag.CheckTitle(ml.Title)
	if sel, lang, named, err := quotelink.TitleName(ml.Title); named && err == nil && titleErr == nil {
		l.Selector, l.Lang, l.Name = &sel, lang, sel.String()
	}
	res, err := r.Resolve(doc, ml.Dest)
	var te *target.Error
	switch {
	case errors.Is(err, target.ErrNotOurs):
		return nil
	case err == nil:
		l.Status = "ok"
	case errors.As(err, &te) && te.Result != nil && errors.Is(err, rfc5147.ErrIntegrity):
		res, l.Status, l.Error = te.Result, "stale", oneLine(target.Explain(err, ""))
	case errors.As(err, &te) && te.Path != "":
		l.Path, l.Status, l.Error = te.Path, "broken", oneLine(target.Explain(err, ""))
		if target.IsRemote(te.Path) {
			return nil
		}
		k := target.Kind(err)
		l.Unreadable = k == "missing" || k == "outside" && !errors.Is(err, target.ErrSecret)
		l.linesFromFragment()
		return l
	default:
		return nil
	}
	if res.Remote != nil {
		return nil
	}
	l.Path, l.Resolved, l.EntityMD5 = res.Path, true, res.Selection.Entity.MD5
	for _, c := range res.Fragment.Checks {
		l.Pinned = l.Pinned || c.Kind == rfc5147.MD5
	}
	sel := res.Selection
	l.FirstLine, l.LastLine, l.Label = sel.Lines.Start+1, sel.Lines.End, sel.Label()
	if sel.Lines.End == sel.Lines.Start {
		l.LastLine = sel.Lines.Start
	}
	if titleErr != nil && l.Status == "ok" {
		l.Status, l.Error = "stale", oneLine(titleErr.Error())
	}
	if l.Selector != nil && l.Status == "ok" {
		// The name must still span exactly the linked lines, as the build
		// checks.
		if msg := NameProblem(r, doc, res, *l.Selector, l.Lang); msg != "" {
			l.Status, l.Error = "stale", msg
		}
	}
	return l
}

// NameProblem returns what is wrong with the name sel of a link of the
// page at project path doc that resolved to res, as the build finds it
// (target.CheckName): the name cannot be looked up, or no longer spans
// exactly the linked lines; "" when it does.
func NameProblem(r *target.Resolver, doc string, res *target.Result, sel symbol.Selector, lang string) string {
	if err := r.CheckName(doc, res, lang, sel); err != nil {
		return oneLine(target.Explain(err, ""))
	}
	return ""
}

// linesFromFragment sets the lines of a link whose file could not be read
// from its line= fragment as written: what it would quote in a file long
// enough.
func (l *Link) linesFromFragment() {
	f, err := rfc5147.Parse(target.SplitLink(l.Link).Fragment)
	if err != nil {
		return
	}
	for _, c := range f.Checks {
		l.Pinned = l.Pinned || c.Kind == rfc5147.MD5
	}
	if f.Scheme != rfc5147.Line {
		return
	}
	start, end := f.Start, f.End
	switch f.Form {
	case rfc5147.Position:
		end = start
	case rfc5147.FromStart:
		start = 0
	case rfc5147.ToEnd:
		end = math.MaxInt64
	}
	l.FirstLine, l.LastLine = start+1, end
	switch {
	case end == start:
		l.Label = fmt.Sprintf("before line %d", start+1)
	case end == math.MaxInt64:
		l.Label = fmt.Sprintf("lines %d– (to the end)", start+1)
	case end == start+1:
		l.Label = fmt.Sprintf("line %d", end)
	default:
		l.Label = fmt.Sprintf("lines %d–%d", start+1, end)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
