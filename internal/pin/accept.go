package pin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/internal/mdlink"
)

// This file decides which planned changes are written, for every tool that
// rewrites a quote (pin, its pre-commit hook, the editor's code actions):
//
//	pinned, refreshed, moved ─────────── Automatic: written by pin --write
//	changed, new place known ─────────── Acceptable: written only when a
//	                                      person accepted that quote
//	changed with no new place, gone,
//	review, error ────────────────────── never written: a person fixes the
//	                                      link (Refusal says how)

// Automatic reports whether c is written without anyone's say: an md5
// added to an unpinned link, checks refreshed over text unchanged in place,
// a range moved to where the same text is now.
func Automatic(c Change) bool {
	switch c.Class {
	case Pinned, Refreshed, Moved:
		return c.NewDest != ""
	}
	return false
}

// Acceptable reports whether a person may accept c: a quote whose text
// changed and whose new place is known (NewDest). Gone and review quotes,
// and changed ones with no new place, are never acceptable: there is
// nothing shown to be the quote's place to re-pin it to.
func Acceptable(c Change) bool { return c.Class == Changed && c.NewDest != "" }

// NeedsPerson reports whether c is a quote only a person can settle.
func NeedsPerson(c Change) bool {
	switch c.Class {
	case Changed, Gone, Review, Error:
		return true
	}
	return c.Failed
}

// QuoteID is the short id pin prints for a quote that needs a person, so
// that one quote can be accepted by it (pin --accept ID): eight hex digits
// of a hash of the page's path, the link's line and column and its
// destination as written. It changes when the link or its place does, so
// an id never accepts a quote other than the one it was printed for.
func QuoteID(page string, l mdlink.Link) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d:%d\x00%s", filepath.ToSlash(filepath.Clean(page)), l.Line, l.Column, l.Dest)))
	return hex.EncodeToString(sum[:4])
}

// QuoteRef names one quote: by its QuoteID, or by the page and the line
// (and column) of the link, "docs/guide.md:12" or "docs/guide.md:12:3".
type QuoteRef struct {
	ID           string
	Page         string
	Line, Column int // Column 0: any link on the line
}

// ParseQuoteRef reads a quote's name as pin --accept takes it: an id of
// eight hex digits, or PAGE:LINE[:COL].
func ParseQuoteRef(s string) (QuoteRef, error) {
	if len(s) == 8 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == "" {
		return QuoteRef{ID: strings.ToLower(s)}, nil
	}
	rest, last, ok := cutLastNumber(s)
	if !ok {
		return QuoteRef{}, fmt.Errorf("%q names no quote: give the id pin printed for it (8 hex digits) or PAGE:LINE, e.g. docs/guide.md:12", s)
	}
	if page, line, ok := cutLastNumber(rest); ok && strings.HasSuffix(strings.ToLower(page), ".md") {
		return QuoteRef{Page: page, Line: line, Column: last}, nil
	}
	if rest == "" {
		return QuoteRef{}, fmt.Errorf("%q names no page: give PAGE:LINE, e.g. docs/guide.md:12", s)
	}
	return QuoteRef{Page: rest, Line: last}, nil
}

// cutLastNumber splits "a:12" into "a" and 12.
func cutLastNumber(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return s[:i], n, true
}

// Matches reports whether r names the link l of the page named page (as
// the caller names it; both names are compared as absolute, cleaned paths).
func (r QuoteRef) Matches(page string, l mdlink.Link) bool {
	if r.ID != "" {
		return QuoteID(page, l) == r.ID
	}
	if l.Line != r.Line || r.Column != 0 && l.Column != r.Column {
		return false
	}
	return samePath(page, r.Page)
}

// String writes r as ParseQuoteRef reads it.
func (r QuoteRef) String() string {
	switch {
	case r.ID != "":
		return r.ID
	case r.Column != 0:
		return fmt.Sprintf("%s:%d:%d", r.Page, r.Line, r.Column)
	}
	return fmt.Sprintf("%s:%d", r.Page, r.Line)
}

func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// Decide sets c.Apply as the rules above say, given whether a person
// accepted the quote. refused is true when the quote was accepted but
// cannot be: the caller reports it (Refusal) and fails.
func Decide(c Change, accepted bool) (out Change, refused bool) {
	switch {
	case Automatic(c):
		c.Apply = true
	case Acceptable(c) && accepted:
		c.Apply, c.Failed = true, false
	default:
		c.Apply = false
		refused = accepted && NeedsPerson(c)
	}
	return c, refused
}

// Refusal says why the quote c cannot be accepted, then what a person can
// do instead: remedy (FixByHand's words, or c's own Remedy), "" when c's
// message says it itself.
func Refusal(c Change, remedy string) string {
	var why string
	switch c.Class {
	case Gone:
		why = "its quoted text is gone, so there is no place to re-pin it to"
	case Review:
		why = "pin cannot show that the text it would point at is the text it quoted"
	case Changed:
		why = "the new place of its quoted text is not known"
	default:
		why = "it cannot be pinned as it is"
	}
	if remedy == "" {
		return "not accepted: " + why
	}
	return "not accepted: " + why + "; " + remedy
}

// FixByHand is the advice for a quote only a person can fix: read the
// file, then write the link anew (with link, the command that does so) or
// delete the quote.
func FixByHand(link string) string {
	if link == "" {
		return "fix the link by hand, or delete the quote"
	}
	return fmt.Sprintf("read the file, run `%s` with the lines to quote now, and put the link it prints in this one's place (or delete the quote)", link)
}
