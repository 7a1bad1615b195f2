package page

import (
	"path"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/project"
)

// pageLinkRewriter points relative links to Markdown pages at the HTML
// pages the build writes: "guide.md#setup" becomes "guide.html#setup" and
// "docs/README.md" becomes "docs/index.html". RFC 5147 links
// ("guide.md#line=3,5") are left to textfrag: they quote the Markdown file
// itself.
type pageLinkRewriter struct{}

// Transform implements parser.ASTTransformer.
func (pageLinkRewriter) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			if dest, ok := pageLink(string(l.Destination)); ok {
				l.Destination = []byte(dest)
			}
		}
		return ast.WalkContinue, nil
	})
}

// pageLink rewrites a link destination to a .md page into one to its .html
// page, keeping the query and fragment. It reports false for destinations
// it leaves alone: URLs with a scheme or host, links to other files, and
// RFC 5147 links.
func pageLink(dest string) (string, bool) {
	l := target.SplitLink(dest)
	if l.Scheme != "" || strings.HasPrefix(dest, "//") || target.MayQuote(dest) {
		return "", false
	}
	p := dest[:strings.IndexAny(dest+"?#", "?#")]
	if !project.IsMarkdownName(p) {
		return "", false
	}
	return Output(p) + dest[len(p):], true
}

// Output maps a Markdown page's slash path to its HTML page's:
// X.md to X.html, README.md and index.md (in any case) to index.html.
func Output(p string) string {
	dir, base := path.Split(p)
	stem := base[:len(base)-len(path.Ext(base))]
	if strings.EqualFold(stem, "readme") || strings.EqualFold(stem, "index") {
		stem = "index"
	}
	return dir + stem + ".html"
}
