package mdlink

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// Kind says how a link is written.
type Kind int

const (
	Inline     Kind = iota // [text](dest)
	Image                  // ![alt](dest)
	Definition             // [ref]: dest
	Shortcode              // {{< textfrag "dest" >}}
)

func (k Kind) String() string {
	switch k {
	case Inline:
		return "inline"
	case Image:
		return "image"
	case Definition:
		return "definition"
	case Shortcode:
		return "shortcode"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Link is one RFC 5147 link destination of a page, located in its bytes.
type Link struct {
	Kind Kind
	// Line and Column locate the link's first character ('[' or '!', or the
	// "{{" of a shortcode), 1-based, the column in characters: the position
	// check and pin print in their messages.
	Line, Column int
	// Dest is the destination as goldmark parsed it (the path argument, for
	// a shortcode); "" for a shortcode that names no path.
	Dest string
	// Start and End are Dest's byte offsets in the page: src[Start:End] is
	// exactly Dest. Start and End are -1 when the destination is not written
	// so in the page (escapes, entities) or could not be found without
	// guessing: then Err says why, and nothing may rewrite it.
	Start, End int
	// DestLine and DestColumn locate Start like Line and Column (0 when
	// Start < 0).
	DestLine, DestColumn int
	// Err is why the destination cannot be located or used; "" when it can.
	Err string
	// Title is the link's title as goldmark parsed it, as the build reads
	// its options ("sym=Server.Handle lang=go"; backslash escapes kept):
	// where a name (sym=, region=) is read from. For a shortcode, its
	// options argument (options=, else the third positional one).
	Title string
	// Text is the link's text (an image's alt text) as a reader reads it:
	// escapes and character references resolved, emphasis and inline HTML
	// left out, code spans kept as code spans; "" for a definition or a
	// shortcode. It is what textfrag link --title takes to write it again.
	Text string
	// shape is Text with its code spans told from backticks (textShape).
	shape string
}

// markdown parses Markdown as the build does: CommonMark plus the GitHub
// extensions (tables, strikethrough, autolinks, task lists).
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// Find returns the RFC 5147 link destinations (those whose fragment claims
// to be "line=…" or "char=…", see IsCandidate) of a Markdown page in source
// order: inline links and images, and link reference definitions. Links
// that use a definition ([text][ref]) are left to the definition. Code
// spans and code blocks hold no links, so nothing in them is ever returned.
// Front matter is not skipped: give the page as goldmark sees it.
func Find(src []byte) []Link {
	return find(src, newPositions(src))
}

func find(src []byte, ps *positions) []Link {
	doc := markdown.Parser().Parse(text.NewReader(src))
	var links []Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest, title []byte
		var kind Kind
		switch l := n.(type) {
		case *ast.Link:
			if l.Reference != nil {
				return ast.WalkContinue, nil
			}
			dest, title, kind = l.Destination, l.Title, Inline
		case *ast.Image:
			if l.Reference != nil {
				return ast.WalkContinue, nil
			}
			dest, title, kind = l.Destination, l.Title, Image
		case *ast.LinkReferenceDefinition:
			dest, title, kind = l.Destination, l.Title, Definition
		default:
			return ast.WalkContinue, nil
		}
		if !IsCandidate(string(dest)) {
			return ast.WalkContinue, nil
		}
		pos := n.Pos()
		m := Link{Kind: kind, Dest: string(dest), Title: string(title), Start: -1, End: -1}
		if kind != Definition {
			m.Text, m.shape = linkText(n, src), textShape(n, src)
		}
		if pos < 0 || pos >= len(src) {
			m.Line, m.Column = 1, 1
			m.Err = "goldmark gave no position for this link"
		} else {
			m.Line, m.Column = ps.at(pos)
			var start int
			var why string
			if kind == Definition {
				start, why = locateDefinition(src, pos, dest)
			} else {
				start, why = locateInline(src, pos, kind == Image, dest)
			}
			if start < 0 {
				m.Err = why
			} else {
				m.Start, m.End = start, start+len(dest)
				m.DestLine, m.DestColumn = ps.at(start)
			}
		}
		links = append(links, m)
		return ast.WalkContinue, nil
	})
	sortLinks(links)
	return links
}

// sortLinks orders links by their position, stably.
func sortLinks(links []Link) {
	sort.SliceStable(links, func(i, j int) bool {
		if links[i].Line != links[j].Line {
			return links[i].Line < links[j].Line
		}
		return links[i].Column < links[j].Column
	})
}

// IsCandidate reports whether a destination has a fragment that claims to
// be RFC 5147 ("char=…" or "line=…"), as written or as Markdown reads it
// (target.MayQuote): "a.txt&#35;line=1" is found, so that check reports it
// (target.ErrEscaped) and pin leaves it alone, as the build fails it.
func IsCandidate(dest string) bool {
	return target.MayQuote(dest)
}

// locateInline finds the destination of the inline link or image whose '['
// (or '!') is at pos: past the link text's closing ']' and the '(', the
// destination must follow, optionally in <…>. It returns dest's offset, or
// -1 and why it is not where the link syntax puts it.
func locateInline(src []byte, pos int, image bool, dest []byte) (int, string) {
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
	end := scanLabel(src, i)
	if end < 0 || end+1 >= len(src) || src[end+1] != '(' {
		return -1, "cannot find the end of the link text"
	}
	return destAt(src, end+2, dest)
}

// locateDefinition finds the destination of the link reference definition
// whose label starts at pos ("[ref]: dest").
func locateDefinition(src []byte, pos int, dest []byte) (int, string) {
	i := pos
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] != '[' {
		return -1, "the reference definition does not start where goldmark says"
	}
	end := scanLabel(src, i)
	if end < 0 || end+1 >= len(src) || src[end+1] != ':' {
		return -1, "cannot find the end of the reference definition's label"
	}
	return destAt(src, end+2, dest)
}

// destAt checks that dest is the next thing at i, after spaces and at most
// one line break (with the '>' of block quotes), optionally inside <…>, and
// followed by what ends a destination.
func destAt(src []byte, i int, dest []byte) (int, string) {
	i = skipDestSpace(src, i)
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

func skipDestSpace(src []byte, i int) int {
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

// scanLabel returns the index of the ']' closing the '[' at i: brackets nest,
// a backslash escapes the next punctuation character, and code spans hide
// brackets. It returns -1 when there is none.
func scanLabel(src []byte, i int) int {
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
			if close := closingBackticks(src, i+n, n); close >= 0 {
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

// closingBackticks finds the next run of exactly n backticks at or after i.
func closingBackticks(src []byte, i, n int) int {
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
