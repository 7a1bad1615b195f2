package target

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/realm"
)

// Explain returns what is wrong with a failed link and how to fix it, for
// people. doc is the document's path as the user knows it, used in the
// re-pin command; when empty the re-pin advice names the values instead.
func Explain(err error, doc string) string {
	msg := err.Error()
	switch {
	case errors.Is(err, ErrEscaped):
		var ee *EscapedError
		if errors.As(err, &ee) {
			return fmt.Sprintf("%s; write the link plainly, as %s", msg, ee.Plain)
		}
		return msg
	case errors.Is(err, symbol.ErrMismatch):
		var se *symbol.Error
		if errors.As(err, &se) && doc == "" {
			return fmt.Sprintf("%s; if the name's lines are the ones to quote, write #%s in the link with the md5 of those lines", msg, se.Now.Fragment())
		}
		return fmt.Sprintf("%s; run `textfrag pin --write %s` to re-pin it", msg, doc)
	case symbol.ErrorKind(err) != "":
		return msg // symbol's messages say how to fix them
	case errors.Is(err, rfc5147.ErrIntegrity):
		if doc != "" {
			return fmt.Sprintf("%s; re-pin with `textfrag pin --write %s`: it follows quoted text that moved, and shows text that changed for review", msg, doc)
		}
		return msg + "; if the quoted text is still right, put the file's current value in the link"
	case errors.Is(err, rfc5147.ErrSyntax), errors.Is(err, rfc5147.ErrMisordered):
		return msg + "; RFC 5147 fragments look like line=10,20 or char=0,80;md5=…"
	case errors.Is(err, ErrNotFound):
		return msg + "; check the path: relative links resolve against the document's directory, links starting with / against the project root"
	case errors.Is(err, ErrSecret):
		return msg // it says how to allow the file
	case errors.Is(err, ErrOutsideRoot):
		return msg + "; only files inside the allowed roots are read: move the file, or allow its directory"
	case errors.Is(err, ErrIsDirectory):
		return msg + "; link to a file, not a directory"
	case errors.Is(err, ErrBadPath):
		return msg + "; write the path as a plain relative path, percent-encoding only spaces and reserved characters"
	case errors.Is(err, ErrRemote):
		return msg + "; the host is allowed, so this fails the build: check that the URL serves the file (200 OK, within the size limit and timeout, redirecting only to allowed hosts); once fetched, a target is cached and builds can run offline"
	case errors.Is(err, realm.ErrNotRegular):
		return msg + "; link to a regular file: a FIFO, device or socket is never read"
	case errors.Is(err, rfc5147.ErrNotText):
		return msg + "; RFC 5147 fragments apply to text files only (configure the charset if it is not UTF-8)"
	}
	return msg
}

// Warnings returns the warnings of a resolved link: clamping, integrity
// checks ignored as unknown, and for a remote target a cached copy used
// because the fetch failed, or a copy that could not be cached.
func Warnings(res *Result) []string {
	var ws []string
	if ri := res.Remote; ri != nil {
		if ri.Stale != "" {
			ws = append(ws, fmt.Sprintf("%s; used the copy cached on %s", ri.Stale, ri.FetchedAt.UTC().Format(time.RFC3339)))
		}
		if ri.CacheError != "" {
			ws = append(ws, fmt.Sprintf("%s could not be stored in the cache: %s", ri.URL, ri.CacheError))
		}
	}
	s := res.Selection
	if s.Clamped {
		unit, size := "character", s.Entity.Length
		if res.Fragment.Scheme == rfc5147.Line {
			unit, size = "line", s.TotalLines
		}
		if size != 1 {
			unit += "s"
		}
		ws = append(ws, fmt.Sprintf("%s goes past the end of %s (%d %s); selected %s", writtenRange(res), res.Path, size, unit, s.Label()))
	}
	for _, c := range s.Checks {
		if c.Status == rfc5147.Ignored {
			ws = append(ws, c.Reason)
		}
	}
	return ws
}

// writtenRange is the fragment's scheme and range as the link writes them
// ("line=1,99999999999999999999"), so that a number too large for an int64
// shows as written, not as the largest int64 it was read as; the canonical
// form when the link is not at hand. Parse accepted the fragment, so the
// range holds only the scheme, '=', digits and ','.
func writtenRange(res *Result) string {
	written := res.Link.Fragment
	if i := strings.IndexByte(written, ';'); i >= 0 {
		written = written[:i]
	}
	if written == "" {
		f := res.Fragment
		f.Checks = nil
		return f.String()
	}
	return written
}

// Kind names the outcome class of a link error as SEMANTICS.md §4 and the
// conformance corpus do: "syntax", "misordered", "integrity", "missing",
// "escaped" (ErrEscaped), "outside" (also for ErrSecret: SEMANTICS.md §5 puts such files outside
// the realm), "directory", "not-text", and "remote" for remote targets on
// allowed hosts that cannot be fetched; "symbol" for a sym= or region=
// name that does not hold (symbol.ErrorKind says how); "" for other errors.
func Kind(err error) string {
	if symbol.ErrorKind(err) != "" {
		return "symbol"
	}
	for _, k := range []struct {
		err  error
		name string
	}{
		{ErrEscaped, "escaped"},
		{rfc5147.ErrMisordered, "misordered"},
		{rfc5147.ErrSyntax, "syntax"},
		{rfc5147.ErrIntegrity, "integrity"},
		{ErrRemote, "remote"},
		{ErrNotFound, "missing"},
		{ErrBadPath, "missing"},
		{ErrOutsideRoot, "outside"},
		{ErrSecret, "outside"},
		{ErrIsDirectory, "directory"},
		{rfc5147.ErrNotText, "not-text"},
	} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return ""
}

// Lenient reports whether SEMANTICS.md §4 lets lenient mode turn err into a
// warning and a plain link: syntax errors and misordered ranges only.
func Lenient(err error) bool {
	return errors.Is(err, rfc5147.ErrSyntax) || errors.Is(err, rfc5147.ErrMisordered)
}
