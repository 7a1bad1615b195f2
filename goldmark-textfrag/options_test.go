package textfrag_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// numbered returns n lines "line 1\n" … "line n\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// Zero limits are the defaults, negative ones no limit: never "every box
// fails".
func TestLimitsZeroIsDefaultNegativeIsNone(t *testing.T) {
	root := writeProject(t, map[string]string{"small.txt": numbered(3), "big.txt": numbered(textfrag.DefaultMaxLines + 1)})
	for _, c := range []struct {
		name    string
		doc     string
		opts    []textfrag.Option
		wantErr bool
	}{
		{"max lines 0 is the default: 3 lines pass", "[](small.txt#line=0,3)", []textfrag.Option{textfrag.WithMaxLines(0)}, false},
		{"max bytes 0 is the default: 3 lines pass", "[](small.txt#line=0,3)", []textfrag.Option{textfrag.WithMaxBytes(0)}, false},
		{"max lines 0 is the default: one line more fails", "[](big.txt#line=0,501)", []textfrag.Option{textfrag.WithMaxLines(0)}, true},
		{"negative max lines: no limit", "[](big.txt#line=0,501)", []textfrag.Option{textfrag.WithMaxLines(-1)}, false},
		{"negative max bytes: no limit", "[](big.txt#line=0,501)", []textfrag.Option{textfrag.WithMaxLines(-1), textfrag.WithMaxBytes(-1)}, false},
		{"max bytes 0 is the default", "[](big.txt#line=0,501)", []textfrag.Option{textfrag.WithMaxLines(-1), textfrag.WithMaxBytes(0)}, false},
		{"a positive limit is a limit", "[](small.txt#line=0,3)", []textfrag.Option{textfrag.WithMaxLines(2)}, true},
	} {
		out, _, err := convertIn(root, c.doc, append(c.opts, textfrag.WithHighlighting(false))...)
		switch {
		case c.wantErr && err == nil:
			t.Errorf("%s: converted, want a limit error", c.name)
		case !c.wantErr && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.wantErr && !strings.Contains(out, `<figure class="textfrag`):
			t.Errorf("%s: no box in %s", c.name, out)
		}
	}
}

// baseURL is a transformer of the kind base-URL extensions add: it makes
// every relative link and image destination absolute under a site.
type baseURL struct{ site string }

func (b baseURL) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			l.Destination = b.rewrite(l.Destination)
		case *ast.Image:
			l.Destination = b.rewrite(l.Destination)
		}
		return ast.WalkContinue, nil
	})
}

func (b baseURL) rewrite(dest []byte) []byte {
	if bytes.Contains(dest, []byte("://")) || bytes.HasPrefix(dest, []byte("#")) {
		return dest
	}
	return append([]byte(b.site), bytes.TrimPrefix(bytes.TrimPrefix(dest, []byte("./")), []byte("/"))...)
}

// A transformer that makes links absolute never turns a quote into an
// unverified link, whichever runs first: textfrag runs first by default and
// verifies links as written; if the rewriter runs first (a lower priority
// than textfrag's), the links it rewrote fail the conversion.
func TestLinkRewritingTransformerOrder(t *testing.T) {
	root := writeProject(t, map[string]string{"a.txt": "one\ntwo\n"})
	const bad = "[](a.txt#line=0,1;md5=00000000000000000000000000000000)\n"
	const good = "See [two](a.txt#line=1,2) and [site](other.html).\n\n[](a.txt#line=0,1)\n"
	convertWith := func(src string, rewriterPriority int, opts ...textfrag.Option) (string, error) {
		md := goldmark.New(
			goldmark.WithExtensions(textfrag.New(append([]textfrag.Option{textfrag.WithRoot(root), textfrag.WithHighlighting(false)}, opts...)...)),
			goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(baseURL{"https://docs.example.com/"}, rewriterPriority))),
		)
		pc := parser.NewContext()
		textfrag.SetDocument(pc, "doc.md")
		var out bytes.Buffer
		err := md.Convert([]byte(src), &out, parser.WithContext(pc))
		return out.String(), err
	}

	// textfrag first (the default, before a rewriter at 500, a common
	// priority): links are verified as written, then rewritten.
	if _, err := convertWith(bad, 500); err == nil || !strings.Contains(err.Error(), "md5 mismatch") {
		t.Errorf("default order: err = %v, want the md5 mismatch", err)
	}
	out, err := convertWith(good, 500)
	if err != nil {
		t.Fatalf("default order: %v", err)
	}
	for _, want := range []string{
		`<a href="https://docs.example.com/a.txt#line=1,2">two</a>`, // verified, then rewritten
		`<a href="https://docs.example.com/other.html">site</a>`,    // not textfrag's
		`<figure class="textfrag textfrag-line" data-textfrag-fragment="line=0,1">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("default order: no %s in\n%s", want, out)
		}
	}

	// The rewriter first: every link it took from textfrag fails, the
	// mismatched one and the good ones alike, naming the fix.
	for _, src := range []string{bad, good} {
		_, err := convertWith(src, 500, textfrag.WithPriority(1000))
		var p *textfrag.Problem
		if !errors.As(err, &p) || p.Kind != "order" || !strings.Contains(p.Error(), "doc.md:1:") ||
			!strings.Contains(p.Message, `changed this link to "https://docs.example.com/a.txt#line=`) ||
			!strings.Contains(p.Message, "higher priority number than textfrag's 1000 (textfrag.WithPriority)") {
			t.Errorf("rewriter first, %q: err = %v, want an order problem", src, err)
		}
	}
	// Following the advice (textfrag before the rewriter) works.
	if _, err := convertWith(good, 500, textfrag.WithPriority(499)); err != nil {
		t.Errorf("textfrag at 499, rewriter at 500: %v", err)
	}
	// Links that were never textfrag's are rewritten in any order.
	if out, err := convertWith("[site](other.html#intro)\n", 500, textfrag.WithPriority(1000)); err != nil || !strings.Contains(out, "https://docs.example.com/other.html#intro") {
		t.Errorf("plain link, rewriter first: %v\n%s", err, out)
	}
}

// prepender is a transformer that puts a long block first in the document
// and moves the document's first block into a container, as tables of
// contents and section wrappers do.
type prepender struct{}

func (prepender) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	first := doc.FirstChild()
	quote := ast.NewBlockquote()
	doc.ReplaceChild(doc, first, quote)
	quote.AppendChild(quote, first)
	list := ast.NewList('-')
	for range 500 {
		item := ast.NewListItem(2)
		item.AppendChild(item, ast.NewString([]byte("an entry of a long table of contents")))
		list.AppendChild(list, item)
	}
	doc.InsertBefore(doc, doc.FirstChild(), list)
}

// A transformer that runs after textfrag's and changes what comes first in
// the document does not make Convert write anything before it fails, though
// what it wrote first is longer than goldmark's 4 KiB buffer.
func TestNothingWrittenBeforeTheErrorWhateverRunsLater(t *testing.T) {
	root := writeProject(t, map[string]string{"a.txt": "one\ntwo\n"})
	md := goldmark.New(
		goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(prepender{}, 100))),
	)
	out, _, err := convert(t, md, "doc.md", "# Guide\n\nText [x](a.txt#line=0,1;md5=00000000000000000000000000000000).\n")
	var p *textfrag.Problem
	if !errors.As(err, &p) || p.Kind != "integrity" || p.Line != 3 {
		t.Errorf("Convert returned %v, want the integrity error at line 3", err)
	}
	if out != "" {
		t.Errorf("Convert wrote %d bytes before failing: %.100s…", len(out), out)
	}
	// Without an error, the transformer's blocks are written.
	out, _, err = convert(t, md, "doc.md", "# Guide\n\nText [x](a.txt#line=0,1).\n")
	if err != nil || strings.Count(out, "an entry of a long") != 500 || !strings.Contains(out, "<blockquote>\n<h1>Guide</h1>") {
		t.Errorf("good link: err %v, out %.300s", err, out)
	}
}

// Title mistakes that do not stop the link are warnings, located and
// saying what to do, and errors under WithWarningsAsErrors.
func TestTitleMistakesWarn(t *testing.T) {
	root := writeProject(t, map[string]string{"a.txt": numbered(10), "a.go": "package a\n\nfunc F() {}\n"})
	for _, c := range []struct {
		doc  string
		want []string // one per problem, in order
	}{
		{"[](a.txt#line=2,4 \"hl=3\")", nil}, // lines 3 and 4 are shown: nothing to say
		{"[](a.txt#line=2,4 \"hl=3-4\")", nil},
		{"[](a.txt#line=2,4 \"hl=2\")", []string{`doc.md:1:1: warning: a.txt#line=2,4: link title: hl=2 emphasizes lines the box does not show (it shows lines 3 to 4)`}},
		{"[](a.txt#line=2,4 \"hl=4-5,9\")", []string{"hl=4-5 emphasizes lines the box does not show", "hl=9 emphasizes"}},
		{"[](a.txt#line=2,3 \"hl=2\")", []string{"(it shows line 3 only)"}},
		{"[](a.txt#line=2 \"hl=2\")", []string{"(it shows no lines)"}},
		{"[](a.go#line=0,3 \"lang=gooo\")", []string{`link title: lang=gooo names no language chroma knows (a box shows plain text)`}},
		{"See [](a.go#line=0,3 \"lang=gooo\").", []string{`doc.md:1:5: warning: a.go#line=0,3: link title: lang=gooo names no language`, `lang=gooo picks how a box's lines are highlighted`}},
		{"[](a.go#line=0,3 \"lang=golang\")", nil}, // an alias
		{"text [](a.txt#line=2,4 \"dedent dedent\")", []string{`doc.md:1:6: warning: a.txt#line=2,4: link title: "dedent" repeats an option given before; write it once`, `link title: dedent removes the indentation`}},
		{"[](a.txt#line=2,4 \"hl=3 hl=4\")", []string{`link title: "hl=4" repeats an option given before; write one list, as in hl=12,15-17`}},
		{"[](a.go#line=0,3 \"lang=go lang=c\")", []string{`"lang=c" repeats an option given before; write one lang=; the last one is used`}},
		{"[](a.txt#char=0,3 \"quote quote\")", []string{`"quote" repeats`}},
		// hl= on a link that stays a link in running text emphasizes nothing.
		{"See [](a.txt#line=2,4 \"hl=3\") here.", []string{`doc.md:1:5: warning: a.txt#line=2,4: link title: hl=3 emphasizes lines of a box, but this link is inside running text, where it stays a link and shows no lines; put the link alone in its paragraph to make it a box, or remove hl=`}},
		{"The RFC says [so](a.txt#char=0,3 \"quote hl=1,3-4\").", []string{`doc.md:1:14: warning: a.txt#char=0,3: link title: hl=1,3-4 emphasizes lines of a box`}},
		{"See ![x](a.txt#line=2,4 \"hl=3\").", []string{`doc.md:1:5: warning: a.txt#line=2,4: link title: hl=3 emphasizes lines of a box`}},
		// So do dedent and lang= (which only picks a box's highlighting,
		// unless sym= is looked up in that language), in a link or a quote.
		{"See [](a.txt#line=2,4 \"dedent\") here.", []string{`doc.md:1:5: warning: a.txt#line=2,4: link title: dedent removes the indentation a box's lines share, but this link is inside running text, where it makes no box; put the link alone in its paragraph to make it a box, or remove dedent`}},
		{"See [](a.go#line=0,3 \"lang=go\") here.", []string{`doc.md:1:5: warning: a.go#line=0,3: link title: lang=go picks how a box's lines are highlighted, but this link is inside running text, where it makes no box; put the link alone in its paragraph to make it a box, or remove lang=`}},
		{"The RFC says [so](a.txt#char=0,3 \"quote dedent lang=go hl=2\").", []string{"hl=2 emphasizes lines of a box", "dedent removes", "lang=go picks"}},
		{"See [F](a.go#line=2,3 \"sym=F lang=go\").", nil},
		{"[](a.go#line=0,3 \"lang=go dedent\")", nil}, // a box
	} {
		_, problems, err := convertIn(root, c.doc)
		if err != nil {
			t.Errorf("%s: %v", c.doc, err)
			continue
		}
		if len(problems) != len(c.want) {
			t.Errorf("%s: problems %v, want %d", c.doc, problems, len(c.want))
			continue
		}
		for i, w := range c.want {
			if p := problems[i]; p.Severity != textfrag.Warning || p.Kind != "title" || !strings.Contains(p.Error(), w) {
				t.Errorf("%s: problem %d is %v (%s, %s), want a title warning containing %q", c.doc, i, p, p.Severity, p.Kind, w)
			}
		}
		if len(c.want) > 0 {
			w := c.want[0]
			if _, after, ok := strings.Cut(w, "warning: "); ok {
				w = after
			}
			if _, _, err := convertIn(root, c.doc, textfrag.WithWarningsAsErrors(true)); err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s with warnings as errors: err = %v", c.doc, err)
			}
		}
	}
}

// A quoted file whose shape would take chroma minutes is shown as plain
// text, with a warning at the link; the page is the same on every machine.
func TestOverBudgetBoxIsPlainTextWithWarning(t *testing.T) {
	line := "s/" + strings.Repeat(`\/`, 60000)
	root := writeProject(t, map[string]string{"evil.pl": line + "\n", "ok.pl": "my $x = 1;\n"})
	out, problems, err := convertIn(root, "# Page\n\n[Evil](evil.pl#line=0,1)\n\n[](ok.pl#line=0,1)\n")
	if err != nil {
		t.Fatal(err)
	}
	want := `<code class="language-pl" data-lang="pl"><span class="line"><span class="ln">1</span><span class="cl">` + line + "\n</span></span></code>"
	if !strings.Contains(out, want) {
		t.Errorf("the evil box is not plain text: %.600s", out)
	}
	if !strings.Contains(out, `<span class="nv">$x</span>`) {
		t.Errorf("the ordinary box is not highlighted: %s", out[len(out)-600:])
	}
	if len(problems) != 1 {
		t.Fatalf("problems %v, want one", problems)
	}
	p := problems[0]
	if w := fmt.Sprintf("doc.md:3:1: warning: evil.pl#line=0,1: highlighting: line 1 of the block is 120002 bytes long, more than the %d bytes chroma's Perl lexer is given", highlight.MaxLineBytes); p.Severity != textfrag.Warning || p.Kind != "highlight" || !strings.HasPrefix(p.Error(), w) || !strings.Contains(p.Message, "add lang=text") {
		t.Errorf("problem %v (%s), want a highlight warning starting %q", p, p.Kind, w)
	}
	// lang=text shows it as plain text on purpose: no warning.
	if _, problems, err := convertIn(root, "[Evil](evil.pl#line=0,1 \"lang=text\")\n"); err != nil || len(problems) != 0 {
		t.Errorf("lang=text: %v %v", err, problems)
	}
	if _, _, err := convertIn(root, "[Evil](evil.pl#line=0,1)\n", textfrag.WithWarningsAsErrors(true)); err == nil || !strings.Contains(err.Error(), "highlighting: line 1") {
		t.Errorf("warnings as errors: err = %v", err)
	}
}
