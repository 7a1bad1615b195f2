package quotelink

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/textfrag/textfrag/internal/termsafe"
)

// Dest returns the link destination that a Markdown page at project path
// page writes for the file at project path file, with fragment (without
// "#") appended when not empty. Both paths are slash-separated, relative to
// the project root, and clean. The path is relative to the page's
// directory ("../src/a.go"); with page "" it starts with "/", from the
// project root, which resolves the same from every page.
//
// What a link destination cannot hold as it is, is percent-encoded, so that
// the destination needs no <…> and every renderer reads the same path:
// ASCII other than letters, digits and -._~!$'*+,;=:@ (so spaces,
// parentheses, '#', '%', '?', '&', '\'), control characters, and non-ASCII
// space, format and private-use characters. Other non-ASCII characters are
// kept as they are, readable, as IRIs allow (RFC 3987). A relative path
// whose first segment holds ':' starts with "./", so that it does not read
// as a URI scheme.
func Dest(page, file, fragment string) string {
	var p string
	if page == "" {
		p = "/" + encodePath(file)
	} else {
		p = encodePath(relative(path.Dir(page), file))
		if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ":") {
			p = "./" + p
		}
	}
	if fragment != "" {
		p += "#" + fragment
	}
	return p
}

// relative returns the slash path that leads from directory dir to file.
func relative(dir, file string) string {
	var from, to []string
	if dir != "." && dir != "" {
		from = strings.Split(dir, "/")
	}
	to = strings.Split(file, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	return strings.Repeat("../", len(from)-i) + strings.Join(to[i:], "/")
}

// encodePath percent-encodes each segment of a slash path (see Dest).
func encodePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == '/' || keepInPath(r) && (r != utf8.RuneError || size > 1):
			b.WriteString(p[i : i+size])
		default:
			for _, c := range []byte(p[i : i+size]) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		i += size
	}
	return b.String()
}

// keepInPath reports whether r stands in a path as it is.
func keepInPath(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
			strings.ContainsRune("-._~!$'*+,;=:@", r)
	}
	return unicode.IsGraphic(r) && !unicode.IsSpace(r) && !termsafe.IsBidiControl(r)
}
