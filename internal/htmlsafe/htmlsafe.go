// Package htmlsafe reads HTML back the way a browser tokenizes it, for tests
// that feed hostile input through textfrag and must show that none of it
// became markup: no script or other active element, no event-handler
// attribute, no script URL.
package htmlsafe

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// activeElements run code or load other documents.
var activeElements = map[string]bool{
	"script": true, "iframe": true, "frame": true, "frameset": true, "object": true,
	"embed": true, "applet": true, "base": true, "form": true, "svg": true, "math": true,
	"img": true, "video": true, "audio": true, "link": true, "meta": true, "style": true,
}

// urlAttributes hold URLs.
var urlAttributes = map[string]bool{
	"href": true, "src": true, "cite": true, "action": true, "formaction": true,
	"data": true, "poster": true, "background": true, "xlink:href": true,
}

// Options allow what a page may legitimately hold.
type Options struct {
	// Allow names active elements the page may hold, and how many of each
	// (a layout's <meta>, <link> and <style>).
	Allow map[string]int
}

// Check tokenizes page and returns what in it is active markup beyond what
// o allows: one message per element, attribute or URL.
func Check(page string, o Options) []string {
	var problems []string
	seen := map[string]int{}
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				problems = append(problems, fmt.Sprintf("tokenizer: %v", z.Err()))
			}
			for name, n := range seen {
				if n > o.Allow[name] {
					problems = append(problems, fmt.Sprintf("%d <%s> elements, %d allowed", n, name, o.Allow[name]))
				}
			}
			return problems
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if activeElements[tok.Data] {
				seen[tok.Data]++
			}
			for _, a := range tok.Attr {
				name := strings.ToLower(a.Key)
				if strings.HasPrefix(name, "on") {
					problems = append(problems, fmt.Sprintf("<%s %s=%q>: an event handler attribute", tok.Data, a.Key, a.Val))
				}
				if name == "style" || name == "srcdoc" {
					problems = append(problems, fmt.Sprintf("<%s %s=%q>: an attribute textfrag never writes", tok.Data, a.Key, a.Val))
				}
				if urlAttributes[name] && scriptURL(a.Val) {
					problems = append(problems, fmt.Sprintf("<%s %s=%q>: a script URL", tok.Data, a.Key, a.Val))
				}
			}
		}
	}
}

// scriptURL reports URLs a browser would run or render as a document:
// javascript:, vbscript:, and data: but for the raster images goldmark
// lets through.
func scriptURL(u string) bool {
	u = strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1 // browsers ignore these inside a scheme
		}
		return r
	}, strings.ToLower(u))
	for _, img := range []string{"data:image/png;", "data:image/gif;", "data:image/jpeg;", "data:image/webp;"} {
		if strings.HasPrefix(u, img) {
			return false
		}
	}
	for _, s := range []string{"javascript:", "vbscript:", "data:"} {
		if strings.HasPrefix(u, s) {
			return true
		}
	}
	return false
}

// Text returns the text of page as a browser would show it (entities
// decoded, tags dropped), with the text of each element's attributes named
// in attrs appended on lines of their own.
func Text(page string, attrs ...string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				for _, want := range attrs {
					if a.Key == want {
						b.WriteString("\n" + a.Val + "\n")
					}
				}
			}
		}
	}
}
