package page

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// NewMarkdown returns the goldmark instance every command renders pages
// with: GitHub-flavoured Markdown, heading ids, the textfrag extension
// reading targets through r, fenced code highlighted with the chroma classes
// that textfrag.css styles (as textfrag's boxes are), and relative links to
// .md pages rewritten to the .html pages the build writes. Unless
// highlighted, fenced code is written with chroma's plain-text lexer, as
// boxes are under textfrag.WithHighlighting(false). Boxes and fenced code
// once written are kept in cache (nil: none). One instance serves every
// page of a build, concurrently.
func NewMarkdown(r *target.Resolver, highlighted bool, cache highlight.Cache, transformers []util.PrioritizedValue, opts ...textfrag.Option) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(
			extension.GFM,
			textfrag.New(append([]textfrag.Option{textfrag.WithResolver(r), textfrag.WithHighlightCache(cache)}, opts...)...),
		),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			// Rewrites .md links to .html; it leaves RFC 5147 links alone
			// for textfrag's transformer, which runs before it
			// (textfrag.DefaultPriority, 50).
			parser.WithASTTransformers(util.Prioritized(pageLinkRewriter{}, 500)),
			parser.WithASTTransformers(transformers...),
		),
		goldmark.WithRendererOptions(
			// Before goldmark's own renderer (1000) for fenced code blocks.
			renderer.WithNodeRenderers(util.Prioritized(codeBlockRenderer{plain: !highlighted, cache: cache}, 200)),
		),
	)
}

// codeBlockRenderer writes fenced code blocks as Hugo's highlighter does
// with CSS classes, and as a textfrag box's body is written, so that one
// stylesheet styles both:
//
//	<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-go" data-lang="go">…</code></pre></div>
//
// As in Hugo, attributes after the language number and emphasize lines:
// ```go {linenos=inline linenostart=11 hl_lines="2 4-5"} (highlight.FenceOptions).
// A language chroma does not know is written with its plain-text lexer, and
// so is every block when plain is set.
type codeBlockRenderer struct {
	plain bool
	cache highlight.Cache // nil: none
}

// RegisterFuncs implements renderer.NodeRenderer.
func (c codeBlockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, c.renderFencedCode)
}

// renderFencedCode writes one fenced code block, highlighted.
func (c codeBlockRenderer) renderFencedCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	var info []byte
	if n.Info != nil {
		info = n.Info.Segment.Value(src)
	}
	o := highlight.FenceOptions(info)
	if c.plain && o.Lang != "" {
		o.Lang = "text"
	}
	var code strings.Builder
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		code.Write(seg.Value(src))
	}
	if err := highlight.WriteCached(w, code.String(), o, c.cache); err != nil {
		return ast.WalkStop, err
	}
	w.WriteString("\n")
	return ast.WalkSkipChildren, nil
}

// Page is one Markdown document, parsed and, unless it failed, rendered.
type Page struct {
	// Name is the document's path as messages show it (as given, or under SRC).
	Name string
	// Front is the front matter, or nil.
	Front map[string]any
	// Title comes from the front matter's title, else the first level-1
	// heading, else the file name.
	Title string
	// Body is the rendered HTML, without layout; nil when Problems hold an
	// error or rendering was not asked for.
	Body []byte
	// Problems are the page's errors and warnings, in document order, the
	// front matter's first.
	Problems []*textfrag.Problem
	// Links counts the RFC 5147 links in the page.
	Links int
	// Targets are the project paths of the files the page's RFC 5147 links
	// resolve to (or would, when missing), sorted; only with withTargets.
	Targets []string
}

// Convert parses the Markdown document src, named name (an OS path,
// relative to the current directory, as messages show it), collects every
// problem of every link, and renders the body when there is no error and
// render is set. withTargets records the files the links point at, for
// rebuilding on change.
func Convert(md goldmark.Markdown, r *target.Resolver, name string, src []byte, render, withTargets bool) (_ *Page, err error) {
	defer Recover(&err, name)
	p := &Page{Name: name}
	front, body, fmErr := SplitFrontMatter(src)
	if fmErr != nil {
		p.Problems = append(p.Problems, fmErr.problem(name))
	}
	p.Front = front
	// The extension takes a relative document path as relative to the
	// project root; ours are relative to the current directory, as users
	// name them. So it gets the absolute path, and reports the name.
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	pc := parser.NewContext()
	textfrag.SetDocument(pc, abs)
	textfrag.SetDocumentName(pc, name)
	doc := md.Parser().Parse(text.NewReader(body), parser.WithContext(pc))
	p.Problems = append(p.Problems, textfrag.Problems(pc)...)
	p.Title = pageTitle(front, doc, body, name)
	p.Links, p.Targets = linkTargets(doc, r, r.DocPath(abs), withTargets)
	if !render || slices.ContainsFunc(p.Problems, IsError) {
		return p, nil
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, body, doc); err != nil {
		var prob *textfrag.Problem
		if errors.As(err, &prob) {
			// Unreachable: an error Problem is also in Problems(pc).
			p.Problems = append(p.Problems, prob)
			return p, nil
		}
		return nil, fmt.Errorf("%s: rendering: %w", name, err)
	}
	p.Body = buf.Bytes()
	return p, nil
}

// IsError reports whether p is an error, not a warning.
func IsError(p *textfrag.Problem) bool { return p.Severity == textfrag.Error }

// linkTargets counts the RFC 5147 links left in doc after textfrag's
// transformer, and with withTargets returns the project paths of the files
// they point at. Boxes and quotes carry their resolved path; a link that
// stayed a link (inline, or failed) is resolved again, which costs no read:
// the Resolver has the file cached from the first time.
func linkTargets(doc ast.Node, r *target.Resolver, docPath string, withTargets bool) (int, []string) {
	n := 0
	seen := map[string]bool{}
	add := func(p string) {
		if withTargets && p != "" && !target.IsRemote(p) { // files only: serve watches them
			seen[p] = true
		}
	}
	_ = ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		switch node := node.(type) {
		case *textfrag.Box:
			n++
			add(node.Result.Path)
			return ast.WalkContinue, nil
		case *textfrag.Quote:
			n++
			add(node.Result.Path)
			return ast.WalkContinue, nil
		case *ast.Link:
			dest = node.Destination
		case *ast.Image:
			dest = node.Destination
		default:
			return ast.WalkContinue, nil
		}
		if !target.MayQuote(string(dest)) {
			return ast.WalkContinue, nil
		}
		n++
		if withTargets {
			res, err := r.Resolve(docPath, string(dest))
			var te *target.Error
			switch {
			case err == nil:
				add(res.Path)
			case errors.As(err, &te):
				add(te.Path)
			}
		}
		return ast.WalkContinue, nil
	})
	targets := make([]string, 0, len(seen))
	for p := range seen {
		targets = append(targets, p)
	}
	slices.Sort(targets)
	return n, targets
}

// pageTitle picks a page's title: the front matter's title, else the text
// of the first level-1 heading, else the file name without its extension.
func pageTitle(front map[string]any, doc ast.Node, src []byte, name string) string {
	if t, ok := front["title"]; ok && t != nil {
		if s := strings.TrimSpace(fmt.Sprint(t)); s != "" {
			return s
		}
	}
	var title string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering && h.Level == 1 {
			title = textfrag.PlainText(h, src)
			if title != "" {
				return ast.WalkStop, nil
			}
		}
		return ast.WalkContinue, nil
	})
	if title != "" {
		return title
	}
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	return strings.TrimSuffix(base, path.Ext(base))
}

// Recover turns a panic into an error naming what was being done, so that
// one bad page fails the build with a message instead of crashing it (or
// the preview server).
func Recover(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v\n%s", what, r, debug.Stack())
	}
}
