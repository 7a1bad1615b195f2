package main

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// pinMdLink is one RFC 5147 link destination of a Markdown file, located in
// the file's bytes.
type pinMdLink struct {
	// line and col locate the link's first character ('[' or '!'), 1-based,
	// counted as the goldmark extension counts them in its messages.
	line, col int
	// dest is the destination as goldmark parsed it; pin only rewrites a
	// destination whose raw bytes are exactly dest.
	dest string
	// start and end are dest's byte offsets in the file; start < 0 when the
	// destination could not be found there without guessing (then err says why).
	start, end int
	err        string
}

// pinMarkdown parses Markdown as the build does: CommonMark plus the GitHub
// extensions (tables, strikethrough, autolinks, task lists).
var pinMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// pinFindLinks returns the RFC 5147 link destinations of a Markdown file in
// source order: inline links and images, and link reference definitions.
// Links that use a definition ([text][ref]) are left to the definition. Code
// spans and code blocks hold no links, so nothing in them is ever returned.
func pinFindLinks(src []byte) []pinMdLink {
	doc := pinMarkdown.Parser().Parse(text.NewReader(src))
	var links []pinMdLink
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		var locate func(pos int, dest []byte) (int, string)
		switch l := n.(type) {
		case *ast.Link:
			if l.Reference != nil {
				return ast.WalkContinue, nil
			}
			dest = l.Destination
			locate = func(pos int, dest []byte) (int, string) { return pinLocateInline(src, pos, false, dest) }
		case *ast.Image:
			if l.Reference != nil {
				return ast.WalkContinue, nil
			}
			dest = l.Destination
			locate = func(pos int, dest []byte) (int, string) { return pinLocateInline(src, pos, true, dest) }
		case *ast.LinkReferenceDefinition:
			dest = l.Destination
			locate = func(pos int, dest []byte) (int, string) { return pinLocateDefinition(src, pos, dest) }
		default:
			return ast.WalkContinue, nil
		}
		if !isPinCandidate(string(dest)) {
			return ast.WalkContinue, nil
		}
		pos := n.Pos()
		m := pinMdLink{dest: string(dest), start: -1, end: -1}
		if pos < 0 || pos >= len(src) {
			m.line, m.col = 1, 1
			m.err = "goldmark gave no position for this link"
		} else {
			m.line, m.col = pinSourcePosition(src, pos)
			start, why := locate(pos, dest)
			if start < 0 {
				m.err = why
			} else {
				m.start, m.end = start, start+len(dest)
			}
		}
		links = append(links, m)
		return ast.WalkContinue, nil
	})
	sort.SliceStable(links, func(i, j int) bool {
		if links[i].line != links[j].line {
			return links[i].line < links[j].line
		}
		return links[i].col < links[j].col
	})
	return links
}

// isPinCandidate reports whether a destination has a fragment that claims
// to be RFC 5147 ("char=…" or "line=…").
func isPinCandidate(dest string) bool {
	l := target.SplitLink(dest)
	return l.HasFragment && rfc5147.IsCandidate(l.Fragment)
}

// pinSourcePosition returns the 1-based line and column (in characters) of the
// byte at pos, counting lines at '\n' as the goldmark extension does.
func pinSourcePosition(src []byte, pos int) (int, int) {
	line := 1 + bytes.Count(src[:pos], []byte{'\n'})
	start := bytes.LastIndexByte(src[:pos], '\n') + 1
	return line, utf8.RuneCount(src[start:pos]) + 1
}

// pinLocateInline finds the destination of the inline link or image whose '['
// (or '!') is at pos: past the link text's closing ']' and the '(', the
// destination must follow, optionally in <…>. It returns dest's offset, or
// -1 and why it is not where the link syntax puts it.
func pinLocateInline(src []byte, pos int, image bool, dest []byte) (int, string) {
	i := pos
	if image {
		if src[i] != '!' {
			return -1, "the image does not start where goldmark says"
		}
		i++
	}
	if i >= len(src) || src[i] != '[' {
		return -1, "the link does not start where goldmark says"
	}
	end := pinScanLabel(src, i)
	if end < 0 || end+1 >= len(src) || src[end+1] != '(' {
		return -1, "cannot find the end of the link text"
	}
	return pinDestAt(src, end+2, dest)
}

// pinLocateDefinition finds the destination of the link reference definition
// whose label starts at pos ("[ref]: dest").
func pinLocateDefinition(src []byte, pos int, dest []byte) (int, string) {
	i := pos
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] != '[' {
		return -1, "the reference definition does not start where goldmark says"
	}
	end := pinScanLabel(src, i)
	if end < 0 || end+1 >= len(src) || src[end+1] != ':' {
		return -1, "cannot find the end of the reference definition's label"
	}
	return pinDestAt(src, end+2, dest)
}

// pinDestAt checks that dest is the next thing at i, after spaces and at most
// one line break (with the '>' of block quotes), optionally inside <…>, and
// followed by what ends a destination.
func pinDestAt(src []byte, i int, dest []byte) (int, string) {
	i = pinSkipDestSpace(src, i)
	angle := i < len(src) && src[i] == '<'
	if angle {
		i++
	}
	if !bytes.HasPrefix(src[i:], dest) {
		return -1, fmt.Sprintf("the destination as parsed (%q) is not written that way in the file (escapes or entities?)", dest)
	}
	j := i + len(dest)
	switch {
	case angle && (j >= len(src) || src[j] != '>'):
		return -1, "the destination's closing '>' is not where expected"
	case !angle && j < len(src) && !util.IsSpace(src[j]) && src[j] != ')':
		return -1, "the destination continues past what goldmark parsed"
	}
	return i, ""
}

func pinSkipDestSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	switch {
	case i+1 < len(src) && src[i] == '\r' && src[i+1] == '\n':
		i += 2
	case i < len(src) && (src[i] == '\n' || src[i] == '\r'):
		i++
	default:
		return i
	}
	// The next line may carry block quote markers before the destination.
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '>') {
		i++
	}
	return i
}

// pinScanLabel returns the index of the ']' closing the '[' at i: brackets nest,
// a backslash escapes the next punctuation character, and code spans hide
// brackets. It returns -1 when there is none.
func pinScanLabel(src []byte, i int) int {
	depth := 0
	for i < len(src) {
		switch c := src[i]; c {
		case '\\':
			if i+1 < len(src) && util.IsPunct(src[i+1]) {
				i += 2
				continue
			}
		case '`':
			n := 0
			for i+n < len(src) && src[i+n] == '`' {
				n++
			}
			if close := pinClosingBackticks(src, i+n, n); close >= 0 {
				i = close + n
			} else {
				i += n
			}
			continue
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return -1
}

// pinClosingBackticks finds the next run of exactly n backticks at or after i.
func pinClosingBackticks(src []byte, i, n int) int {
	for i < len(src) {
		j := bytes.IndexByte(src[i:], '`')
		if j < 0 {
			return -1
		}
		start := i + j
		k := start
		for k < len(src) && src[k] == '`' {
			k++
		}
		if k-start == n {
			return start
		}
		i = k
	}
	return -1
}
