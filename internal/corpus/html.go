package corpus

import (
	"html"
	"regexp"
	"strings"
)

// Box is what a front end's HTML says about one transclusion box, read back
// so that every front end can be held to the same corpus.
type Box struct {
	// Label is the caption's range text ("lines 11–20").
	Label string
	// Text is the body's text, without line numbers or markup, unescaped.
	// Line endings are LF, as testdata/OUTPUT.md specifies for display.
	Text string
	// HasBody is false for a zero-length box.
	HasBody bool
}

var (
	labelRE  = regexp.MustCompile(`<span class="textfrag-range">([^<]*)</span>`)
	codeRE   = regexp.MustCompile(`(?s)<code[^>]*>(.*?)</code>`)
	lineNoRE = regexp.MustCompile(`<span class="ln"[^>]*>[^<]*</span>`)
	tagRE    = regexp.MustCompile(`<[^>]*>`)
)

// FindBox reads the first box in page. ok is false when there is none.
func FindBox(page string) (b Box, ok bool) {
	start := strings.Index(page, `class="textfrag textfrag-`)
	if start < 0 {
		return Box{}, false
	}
	page = page[start:]
	if end := strings.Index(page, "</figure>"); end >= 0 {
		page = page[:end]
	}
	if m := labelRE.FindStringSubmatch(page); m != nil {
		b.Label = html.UnescapeString(m[1])
	}
	if m := codeRE.FindStringSubmatch(page); m != nil {
		body := lineNoRE.ReplaceAllString(m[1], "")
		b.Text = html.UnescapeString(tagRE.ReplaceAllString(body, ""))
		b.HasBody = true
	}
	return b, true
}

// DisplayText writes each RFC 5147 line ending of s as LF, as boxes show text.
func DisplayText(s string) string {
	return strings.NewReplacer("\r\n", "\n", "\r\u0085", "\n", "\r", "\n", "\u0085", "\n").Replace(s)
}
