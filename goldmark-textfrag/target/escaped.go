package target

import (
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/util"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

// Destinations Markdown decodes. CommonMark reads backslash escapes and
// character references in a link destination, so that
// "a.txt&#35;line=0,1" links to a.txt#line=0,1, and goldmark's renderer
// (Hugo's too) writes it so. textfrag classifies a destination as written
// (SEMANTICS.md §1), where it has no RFC 5147 fragment: such a link would
// be published as a live "#line=" link that nothing verified. So a
// destination that Markdown reads differently from how it is written fails
// when either spelling is one textfrag reads: textfrag verifies only
// destinations written plainly, and the error gives the plain spelling.
// Percent-encoding is not Markdown's and stays out of this: "line%3D1" is
// data (SEMANTICS.md §1).

// ErrEscaped: the destination is written with a backslash escape or a
// character reference that Markdown decodes, and as Markdown reads it, or
// as written, it is an RFC 5147 link. Kind calls it "escaped".
var ErrEscaped = errors.New("written with a character reference or escape")

// EscapedError is the ErrEscaped of one destination.
type EscapedError struct {
	// Written is the destination as written; Read is what Markdown reads.
	Written, Read string
	// Ref is the first escape or reference that Markdown decodes, as
	// written ("&#35;", "\#"), and Means what it decodes to.
	Ref, Means string
	// Plain is a spelling of Read without escapes or references, which
	// Markdown reads as Read: the remedy.
	Plain string
}

func (e *EscapedError) Error() string {
	return fmt.Sprintf("the link is written with a character reference or escape (%s) that Markdown reads as %q, so it links to %s; textfrag verifies only links written plainly",
		e.Ref, e.Means, e.Read)
}

// Unwrap returns ErrEscaped.
func (e *EscapedError) Unwrap() error { return ErrEscaped }

// MarkdownDecoded returns dest as goldmark reads a link destination, with
// backslash escapes of ASCII punctuation and entity and numeric character
// references decoded, exactly as its HTML renderer does before it writes
// an href or src (Hugo's too). Percent-encoding is kept.
func MarkdownDecoded(dest string) string {
	if !strings.ContainsAny(dest, `&\`) {
		return dest
	}
	b := []byte(dest)
	b = util.UnescapePunctuations(b)
	b = util.ResolveNumericReferences(b)
	b = util.ResolveEntityNames(b)
	return string(b)
}

// commonMarkDecoded returns dest as CommonMark reads it. It differs from
// MarkdownDecoded where goldmark departs from CommonMark: goldmark reads a
// decimal reference with a leading zero as octal ("&#043;" is "#"), and
// none of more than 7 digits. A destination either reading makes an RFC
// 5147 link is one textfrag must see. The Hugo module reads the same way
// (partials/textfrag/escaped.txt).
func commonMarkDecoded(dest string) string {
	if !strings.ContainsAny(dest, `&\`) {
		return dest
	}
	s := string(util.UnescapePunctuations([]byte(dest)))
	return referenceRE.ReplaceAllStringFunc(s, html.UnescapeString)
}

// referenceRE matches a character reference: numeric, or a name that
// html.UnescapeString reads only when it is an HTML5 entity.
var referenceRE = regexp.MustCompile(`&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z0-9]+);`)

// escapeRE matches what MarkdownDecoded may decode: a backslash escape, a
// numeric reference or a named one.
var escapeRE = regexp.MustCompile(`\\[!-/:-@\[-` + "`" + `{-~]|&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z0-9]+);`)

// escaped returns the EscapedError of dest when Markdown reads dest as
// something else, and nil when it reads it as written. Read is the first
// of goldmark's and CommonMark's readings that claims (see Resolver.claims)
// a link, or goldmark's when none does.
func escaped(dest string, claims func(string) bool) *EscapedError {
	if !strings.ContainsAny(dest, `&\`) {
		return nil
	}
	read := MarkdownDecoded(dest)
	cm := commonMarkDecoded(dest)
	if read == dest && cm == dest {
		return nil
	}
	decode := MarkdownDecoded
	if !claims(read) && claims(cm) {
		read, decode = cm, commonMarkDecoded
	}
	e := &EscapedError{Written: dest, Read: read, Plain: plainSpelling(read)}
	for _, m := range escapeRE.FindAllString(dest, -1) {
		if d := decode(m); d != m {
			e.Ref, e.Means = m, d
			break
		}
	}
	return e
}

// plainSpelling writes the destination read as a Markdown destination
// without escapes or references: characters of its path that a plain
// destination cannot hold, or that would read as an escape or reference,
// are percent-encoded (the path is percent-decoded when resolved, so it
// names the same file); the fragment is kept, since percent-encoding
// would change it (SEMANTICS.md §1).
func plainSpelling(read string) string {
	p, frag, hasFrag := strings.Cut(read, "#")
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c <= ' ' || c == 0x7f || strings.IndexByte(`<>()\&"'`, c) >= 0:
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	if hasFrag {
		b.WriteByte('#')
		b.WriteString(frag)
	}
	return b.String()
}

// MayQuote reports whether dest has a fragment that claims to be RFC 5147
// ("char=…" or "line=…", in any letter case) as written or as Markdown
// reads it: the links a front end must hand to Resolve, which verifies
// the one and fails the other (ErrEscaped).
func MayQuote(dest string) bool {
	l := SplitLink(dest)
	if l.HasFragment && rfc5147.IsCandidate(l.Fragment) {
		return true
	}
	for _, read := range []string{MarkdownDecoded(dest), commonMarkDecoded(dest)} {
		if l = SplitLink(read); read != dest && l.HasFragment && rfc5147.IsCandidate(l.Fragment) {
			return true
		}
	}
	return false
}
