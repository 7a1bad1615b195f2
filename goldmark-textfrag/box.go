package textfrag

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// box builds the Box for a lone link, applying the per-link options and limits.
func (d *document) box(n ast.Node, res *target.Result, opts linkOptions, href string) (*Box, error) {
	sel := res.Selection
	b := &Box{
		Result:      res,
		Title:       PlainText(n, d.source),
		Href:        href,
		Lang:        d.lang(targetName(res), opts.lang),
		FirstLine:   int(sel.First.Line),
		Highlighted: opts.highlighted,
	}
	if hasOtherLeaf(n) {
		b.titleFrom = n // other extensions' nodes: the title is made while rendering
	}
	body := displayText(sel.Text)
	var markers []int // indexes of Body's lines that are region markers
	if res.Fragment.Scheme == rfc5147.Line {
		markers = markerLines(body)
	}
	if !opts.dedent && len(body) <= d.cfg.maxBytes && lineCount(body) <= d.cfg.maxLines {
		b.Body = body // within the limits, as it is: the common case
		b.Omitted = omitted(markers, b.FirstLine, lineCount(body))
		return b, nil
	}
	lines := strings.SplitAfter(body, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	keep, size := 0, 0
	for keep < len(lines) && keep < d.cfg.maxLines && size+len(lines[keep]) <= d.cfg.maxBytes {
		size += len(lines[keep])
		keep++
	}
	if keep < len(lines) {
		if !d.cfg.truncate {
			return nil, fmt.Errorf("the box would show %d lines (%d bytes), more than the limit of %d lines or %d bytes: narrow the range, raise the limit, or turn on truncation",
				len(lines), len(body), d.cfg.maxLines, d.cfg.maxBytes)
		}
		b.Hidden = len(lines) - keep
		lines = lines[:keep]
	}
	b.Omitted = omitted(markers, b.FirstLine, len(lines))
	if opts.dedent {
		dedent(lines, b.Omitted, b.FirstLine)
	}
	b.Body = strings.Join(lines, "")
	return b, nil
}

// lineCount is the number of lines of s, in which each line ends with "\n"
// but perhaps the last.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// lang picks the chroma lexer name: the title's lang=, else the file
// extension; "text" when highlighting is off or chroma has no such lexer.
func (d *document) lang(p, override string) string {
	lang := override
	if lang == "" {
		lang = strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
	}
	if !d.cfg.highlight || lang == "" || highlight.LexerCached(lang, d.cfg.cache) == nil {
		return "text"
	}
	return lang
}

// targetName is the path whose extension names the target's language: the
// project path, or a remote target's URL path.
func targetName(res *target.Result) string {
	if res.Remote != nil {
		if u, err := url.Parse(res.Path); err == nil {
			return u.Path
		}
	}
	return res.Path
}

// hasMD5 reports whether f has an md5= check.
func hasMD5(f rfc5147.Fragment) bool {
	for _, c := range f.Checks {
		if c.Kind == rfc5147.MD5 {
			return true
		}
	}
	return false
}

func (d *document) href(res *target.Result, dest string) string {
	if d.cfg.sourceURL == "" || res.Remote != nil {
		return dest // a remote target is its own source
	}
	sel := res.Selection
	return strings.NewReplacer(
		"{path}", escapePath(res.Path),
		"{start}", strconv.FormatInt(sel.First.Line, 10),
		"{end}", strconv.FormatInt(sel.Last.Line, 10),
	).Replace(d.cfg.sourceURL)
}

// escapePath URL-escapes a project path one segment at a time, so that a
// name holding "#", "?", "%" or spaces stays one path in a source URL, and
// writes ":" as %3A, so that a file named "javascript:x" makes no scheme
// where the template starts with {path}.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(seg), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// displayText writes each RFC 5147 line ending (CR+LF, CR+NEL, LF, CR, NEL)
// as LF, for display only.
func displayText(t []byte) string {
	if bytes.IndexByte(t, '\r') < 0 && !bytes.Contains(t, []byte("\u0085")) {
		return string(t)
	}
	return lineEndings.Replace(string(t))
}

var lineEndings = strings.NewReplacer("\r\n", "\n", "\r\u0085", "\n", "\r", "\n", "\u0085", "\n")
