package textfrag_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// braceLinks is an extension with links of its own syntax, as wikilink
// extensions have: {{dest}} is a node with a Destination field, and
// {{target#fragment|}} (ending in "|") one with Target and Fragment fields,
// each rendered as a link; {{*}} is a star, a node without text or
// children that renders as a character reference, as an emoji.
type braceLinks struct{}

type destLink struct {
	ast.BaseInline
	Destination []byte
}

type pageLink struct {
	ast.BaseInline
	Target, Fragment []byte
}

type star struct{ ast.BaseInline }

var (
	kindDestLink = ast.NewNodeKind("TestDestLink")
	kindPageLink = ast.NewNodeKind("TestPageLink")
	kindStar     = ast.NewNodeKind("TestStar")
)

func (*destLink) Kind() ast.NodeKind           { return kindDestLink }
func (n *destLink) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }
func (*pageLink) Kind() ast.NodeKind           { return kindPageLink }
func (n *pageLink) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }
func (*star) Kind() ast.NodeKind               { return kindStar }
func (n *star) Dump(src []byte, level int)     { ast.DumpHelper(n, src, level, nil, nil) }

func (braceLinks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(braceLinks{}, 100)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(braceLinks{}, 100)))
}

func (braceLinks) Trigger() []byte { return []byte{'{'} }

func (braceLinks) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	end := strings.Index(string(line), "}}")
	if !strings.HasPrefix(string(line), "{{") || end < 0 {
		return nil
	}
	block.Advance(end + 2)
	inner := line[2:end]
	if string(inner) == "*" {
		return &star{}
	}
	if s, ok := strings.CutSuffix(string(inner), "|"); ok {
		target, fragment, _ := strings.Cut(s, "#")
		return &pageLink{Target: []byte(target), Fragment: []byte(fragment)}
	}
	return &destLink{Destination: inner}
}

func (braceLinks) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(kindDestLink, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			w.WriteString(`<a href="` + string(n.(*destLink).Destination) + `">link</a>`)
		}
		return ast.WalkContinue, nil
	})
	r.Register(kindStar, func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			w.WriteString(`<span class="star" title="a &lt;star&gt;">&#x2605;</span>`)
		}
		return ast.WalkContinue, nil
	})
	r.Register(kindPageLink, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			l := n.(*pageLink)
			w.WriteString(`<a href="` + string(l.Target) + "#" + string(l.Fragment) + `">page</a>`)
		}
		return ast.WalkContinue, nil
	})
}

// Another extension's link to a file with an RFC 5147 fragment is verified
// as written (foreign.go), where it stands, and left to that extension to
// render; its remedy gives the md5 to write, as textfrag pin rewrites only
// Markdown links.
func TestOtherExtensionsLinksVerified(t *testing.T) {
	const data = "one\ntwo\n"
	root := writeProject(t, map[string]string{"t.txt": data})
	for _, first := range []bool{true, false} {
		exts := []goldmark.Extender{braceLinks{}, textfrag.New(textfrag.WithRoot(root))}
		if first {
			exts[0], exts[1] = exts[1], exts[0]
		}
		md := goldmark.New(goldmark.WithExtensions(exts...))
		for _, tt := range []struct{ doc, link string }{
			{"See {{t.txt#line=0,1;md5=MD5}} here.\n", "t.txt#line=0,1;md5=MD5"},
			{"See {{t.txt#line=0,1;md5=MD5|}} here.\n", "t.txt#line=0,1;md5=MD5"},
		} {
			good := strings.ReplaceAll(tt.doc, "MD5", md5hex(data))
			out, problems, err := convert(t, md, "doc.md", good)
			if err != nil || len(problems) != 0 || !strings.Contains(out, `href="t.txt#line=0,1;md5=`) {
				t.Errorf("good %q: err %v, problems %v, out %s", good, err, problems, out)
			}
			bad := strings.ReplaceAll(tt.doc, "MD5", staleMD5)
			_, _, err = convert(t, md, "doc.md", bad)
			var p *textfrag.Problem
			if !errors.As(err, &p) || p.Kind != "integrity" || p.Line != 1 || p.Column != 5 || p.Link != strings.ReplaceAll(tt.link, "MD5", staleMD5) {
				t.Errorf("stale %q: Convert returned %v, want an integrity error at 1:5", bad, err)
				continue
			}
			if strings.Contains(p.Message, "textfrag pin") || !strings.Contains(p.Message, "md5="+md5hex(data)) {
				t.Errorf("stale %q: the remedy should give the md5 to write: %s", bad, p.Message)
			}
		}
		// Other destinations are left alone.
		if out, problems, err := convert(t, md, "doc.md", "{{t.txt#intro}} {{missing.txt}} {{Page#Intro|}}\n"); err != nil || len(problems) != 0 || strings.Count(out, "<a href") != 3 {
			t.Errorf("other destinations: err %v, problems %v, out %s", err, problems, out)
		}
	}
}

// A box's title holds what the renderer writes for another extension's
// node without text (an emoji), as plain text: the link text as goldmark
// renders it (testdata/OUTPUT.md). Its tags are left out, as are images.
func TestBoxTitleHoldsOtherExtensionsNodes(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n"})
	md := goldmark.New(goldmark.WithExtensions(braceLinks{}, textfrag.New(textfrag.WithRoot(root))))
	for _, tt := range []struct{ doc, title string }{
		{"[{{*}} Launch *it* ![{{*}} alt](p.png)](t.txt#line=0,1)\n", "★ Launch it"},
		{"![{{*}}{{*}} &amp; two](t.txt#line=0,1)\n", "★★ &amp; two"},
		{"- [`a` {{*}}](t.txt#line=0,1)\n", "a ★"},
	} {
		out, _, err := convert(t, md, "doc.md", tt.doc)
		want := `<span class="textfrag-title">` + tt.title + `</span>`
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("%q: err %v, want %s in\n%s", tt.doc, err, want, out)
		}
	}
	// PlainText itself knows no renderer: the star has no text there.
	doc := goldmark.New(goldmark.WithExtensions(braceLinks{})).Parser().Parse(text.NewReader([]byte("# A {{*}} b\n")))
	if got := textfrag.PlainText(doc.FirstChild(), []byte("# A {{*}} b\n")); got != "A b" {
		t.Errorf("PlainText = %q, want %q", got, "A b")
	}
}
