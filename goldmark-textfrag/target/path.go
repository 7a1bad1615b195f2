package target

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/textfrag/textfrag/internal/termsafe"
)

// Link is a link destination split into its parts, before any file is read.
type Link struct {
	// Written is the destination exactly as written.
	Written string
	// Scheme is the URI scheme in lower case ("https", "file"), or "" for a
	// relative reference.
	Scheme string
	// RawPath is the path part as written: before '?' and '#', not decoded.
	RawPath string
	// Fragment is the fragment as written, without '#', not decoded.
	Fragment string
	// HasFragment reports whether the destination has a '#'.
	HasFragment bool
}

// SplitLink splits a link destination (RFC 3986 section 3) without decoding
// anything: the fragment is taken before the path is percent-decoded, so
// "%23" in a path and "%3D" in a fragment stay data.
func SplitLink(dest string) Link {
	l := Link{Written: dest}
	rest := dest
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		l.Fragment, l.HasFragment, rest = rest[i+1:], true, rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest = rest[:i]
	}
	if i := schemeEnd(rest); i > 0 {
		l.Scheme, rest = strings.ToLower(rest[:i]), rest[i+1:]
		if l.Scheme == "file" && strings.HasPrefix(rest, "//") {
			// file://host/path: only the local host (empty or "localhost").
			host, p, _ := strings.Cut(rest[2:], "/")
			if host == "" || strings.EqualFold(host, "localhost") {
				rest = "/" + p
			}
		}
	}
	l.RawPath = rest
	return l
}

// schemeEnd returns the index of the ':' ending a URI scheme
// (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )), or -1.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i
		default:
			return -1
		}
	}
	return -1
}

// projectPath resolves a link's raw path against the directory of the
// document (a project path), or against the project root when it starts with
// '/'. It decodes each segment as UTF-8 after splitting at '/', so "%2F"
// never becomes a separator, then removes dot segments (RFC 3986 section
// 5.2.4, as "%2E%2E" is ".." after decoding, as browsers treat it). The result
// is a cleaned slash path relative to the project root; it starts with "../"
// when it climbs above the root.
func projectPath(doc, raw string) (string, error) {
	if raw == "" {
		return path.Clean(doc), nil // "#line=1": the document itself
	}
	base := path.Dir(doc)
	if strings.HasPrefix(raw, "/") {
		base, raw = ".", raw[1:]
	}
	segs := strings.Split(raw, "/")
	for i, s := range segs {
		d, err := url.PathUnescape(s)
		if err != nil {
			return "", fmt.Errorf("%w: bad percent-encoding in %q", ErrBadPath, s)
		}
		switch {
		case strings.Contains(d, "/"):
			return "", fmt.Errorf("%w: %q decodes to a name with '/' in it; %%2F is not a path separator", ErrNotFound, s)
		case strings.ContainsRune(d, 0):
			return "", fmt.Errorf("%w: %q decodes to a NUL character", ErrBadPath, s)
		case !utf8.ValidString(d):
			return "", fmt.Errorf("%w: %q does not decode to valid UTF-8", ErrBadPath, s)
		case hasBidiControl(d):
			return "", fmt.Errorf("%w: %q holds a bidirectional control character (RFC 3987 section 4.1)", ErrBadPath, s)
		}
		segs[i] = d
	}
	return path.Join(base, path.Join(segs...)), nil
}

// hasBidiControl reports whether s holds a character RFC 3987 section 4.1
// forbids in IRIs.
func hasBidiControl(s string) bool { return strings.IndexFunc(s, termsafe.IsBidiControl) >= 0 }

// within reports whether p lies in the project directory dir (both project
// paths) and returns p relative to dir.
func within(dir, p string) (string, bool) {
	switch {
	case dir == ".":
		if p == ".." || strings.HasPrefix(p, "../") {
			return "", false
		}
		return p, true
	case p == dir:
		return ".", true
	case strings.HasPrefix(p, dir+"/"):
		return p[len(dir)+1:], true
	}
	return "", false
}
