package corpus

import (
	"html"
	"regexp"
	"strconv"
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
	// Title is the caption's title, unescaped; "" when there is none.
	Title string
	// Fragment is the box's data-textfrag-fragment, unescaped.
	Fragment string
	// Numbers are the line numbers the body shows, in order.
	Numbers []int
}

// Placement reads what a page made of its RFC 5147 links: the titles of its
// boxes and the texts of the links that stayed links (an <a> whose href has
// a line= or char= fragment, other than a box's source link), each in page
// order and unescaped.
func Placement(page string) (boxes, links []string) {
	for _, m := range boxTitleRE.FindAllStringSubmatch(page, -1) {
		boxes = append(boxes, html.UnescapeString(m[1]))
	}
	for _, m := range rfcLinkRE.FindAllStringSubmatch(page, -1) {
		links = append(links, html.UnescapeString(tagRE.ReplaceAllString(m[1], "")))
	}
	return boxes, links
}

var (
	labelRE  = regexp.MustCompile(`<span class="textfrag-range">([^<]*)</span>`)
	codeRE   = regexp.MustCompile(`(?s)<code[^>]*>(.*?)</code>`)
	lineNoRE = regexp.MustCompile(`<span class="ln"[^>]*>[^<]*</span>`)
	tagRE    = regexp.MustCompile(`<[^>]*>`)
	titleRE  = regexp.MustCompile(`^<span class="textfrag-title">([^<]*)</span>`)
	fragRE   = regexp.MustCompile(`^[^>]*data-textfrag-fragment="([^"]*)"`)

	boxTitleRE = regexp.MustCompile(`class="textfrag textfrag-[^>]*>\s*<(?:figcaption|span) class="textfrag-caption">(?:<span class="textfrag-title">([^<]*)</span>)?`)
	rfcLinkRE  = regexp.MustCompile(`<a href="[^"]*#(?:line|char)=[^"]*"[^>]*>(.*?)</a>`)
)

// FindBox reads the first box in page. ok is false when there is none.
func FindBox(page string) (b Box, ok bool) {
	start := strings.Index(page, `class="textfrag textfrag-`)
	if start < 0 {
		return Box{}, false
	}
	page = page[start:]
	if m := fragRE.FindStringSubmatch(page); m != nil {
		b.Fragment = html.UnescapeString(m[1])
	}
	if end := strings.Index(page, "</figure>"); end >= 0 {
		page = page[:end]
	}
	if _, caption, ok := strings.Cut(page, `class="textfrag-caption">`); ok {
		if m := titleRE.FindStringSubmatch(caption); m != nil {
			b.Title = html.UnescapeString(m[1])
		}
	}
	if m := labelRE.FindStringSubmatch(page); m != nil {
		b.Label = html.UnescapeString(m[1])
	}
	if m := codeRE.FindStringSubmatch(page); m != nil {
		for _, n := range lineNoRE.FindAllString(m[1], -1) {
			if k, err := strconv.Atoi(strings.TrimSpace(tagRE.ReplaceAllString(n, ""))); err == nil {
				b.Numbers = append(b.Numbers, k)
			}
		}
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
