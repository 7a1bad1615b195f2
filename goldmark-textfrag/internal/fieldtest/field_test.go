package fieldtest

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	emoji "github.com/yuin/goldmark-emoji"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"go.abhg.dev/goldmark/anchor"
	"go.abhg.dev/goldmark/mermaid"
	"go.abhg.dev/goldmark/toc"
	"go.abhg.dev/goldmark/wikilink"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// helloGo is the quoted file, src/hello.go; lines 3-5 are main.
const helloGo = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n"

const stale = "0123456789abcdef0123456789abcdef"

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// project writes src/hello.go under a new root and returns the root.
func project(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, "src/hello.go", helloGo)
	return root
}

func write(t testing.TB, root, name, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// remoteServer serves hello.go at /src/hello.go, for links that GFM's
// linkify makes of bare URLs (it links only http, https, ftp and www.).
func remoteServer(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/src/hello.go" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, helloGo)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// remoteHost is the test server's name in links: linkify links only names
// with a dot and a top-level domain, not IP addresses.
const remoteHost = "http://code.example.com"

// remoteOptions allow remoteHost, which srv serves.
func remoteOptions(srv *httptest.Server) target.RemoteOptions {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	return target.RemoteOptions{AllowHosts: []string{"code.example.com"}, Client: &http.Client{Transport: tr}}
}

// combination is a set of goldmark extensions used with textfrag.
type combination struct {
	name    string
	exts    func() []goldmark.Extender
	options []parser.Option
	// frontMatter is put before each document (goldmark-meta reads it).
	frontMatter string
}

// base are goldmark's own extensions, which the positions need (tables,
// footnotes, definition lists, linkify).
func base() []goldmark.Extender {
	return []goldmark.Extender{extension.GFM, extension.Footnote, extension.Typographer, extension.DefinitionList}
}

// with returns base and more.
func with(more ...goldmark.Extender) func() []goldmark.Extender {
	return func() []goldmark.Extender { return append(base(), more...) }
}

// ids are the parser options that give headings IDs and attributes.
func ids() []parser.Option {
	return []parser.Option{parser.WithAutoHeadingID(), parser.WithAttribute()}
}

func combinations() []combination {
	ids := ids()
	return []combination{
		{name: "goldmark", exts: with()},
		{name: "heading ids", exts: with(), options: ids},
		{name: "highlighting", exts: with(highlighting.NewHighlighting(highlighting.WithStyle("github")))},
		{name: "meta", exts: with(meta.Meta), frontMatter: "---\ntitle: Guide\ntags: [a, b]\n---\n"},
		{name: "meta table", exts: with(meta.New(meta.WithTable())), frontMatter: "---\ntitle: Guide\n---\n"},
		{name: "anchor", exts: with(&anchor.Extender{}), options: ids},
		{name: "toc", exts: with(&toc.Extender{}), options: ids},
		{name: "mermaid", exts: with(&mermaid.Extender{})},
		{name: "wikilink", exts: with(&wikilink.Extender{})},
		{name: "emoji", exts: with(emoji.Emoji)},
		{name: "all", exts: with(highlighting.Highlighting, meta.Meta, &anchor.Extender{}, &toc.Extender{},
			&mermaid.Extender{}, &wikilink.Extender{}, emoji.Emoji), options: ids, frontMatter: "---\ntitle: Guide\n---\n"},
	}
}

// newMarkdown makes the Markdown of c with textfrag first or last among
// its extensions.
func newMarkdown(c combination, textfragFirst bool, opts ...textfrag.Option) goldmark.Markdown {
	tf := textfrag.New(opts...)
	exts := c.exts()
	if textfragFirst {
		exts = append([]goldmark.Extender{tf}, exts...)
	} else {
		exts = append(exts, tf)
	}
	return goldmark.New(goldmark.WithExtensions(exts...), goldmark.WithParserOptions(c.options...))
}

func orders() []struct {
	name  string
	first bool
} {
	return []struct {
		name  string
		first bool
	}{{"textfrag first", true}, {"textfrag last", false}}
}

// mdConverter is what convert needs of a goldmark.Markdown.
type mdConverter interface {
	Convert(source []byte, w io.Writer, opts ...parser.ParseOption) error
}

// convert converts src as docs/guide.md.
func convert(md mdConverter, src string) (string, []*textfrag.Problem, error) {
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "docs/guide.md")
	var out bytes.Buffer
	err := md.Convert([]byte(src), &out, parser.WithContext(pc))
	return out.String(), textfrag.Problems(pc), err
}

// A position is a document holding LINK once; line and col locate the
// link's first character, counted without front matter.
type position struct {
	name, doc string
	line, col int
	box       bool // a good link becomes a box; else it stays a link
	// remote: URL stands for an absolute URL on the test server (linkify).
	remote bool
	// unrendered: nothing renders the link (it is verified all the same).
	unrendered bool
}

func positions() []position {
	return []position{
		{name: "alone in a paragraph", doc: "Intro.\n\n[main](LINK)\n", line: 3, col: 1, box: true},
		{name: "running text", doc: "See [main](LINK) for it.\n", line: 1, col: 5},
		{name: "table cell", doc: "| what | where |\n|---|---|\n| main | [main](LINK) |\n", line: 3, col: 10},
		{name: "footnote", doc: "Text.[^1]\n\n[^1]: See [main](LINK).\n", line: 3, col: 11},
		{name: "footnote, alone", doc: "Text.[^n]\n\n[^n]: [main](LINK)\n", line: 3, col: 7},
		{name: "heading", doc: "# The [main](LINK) function\n\nText.\n", line: 1, col: 7},
		{name: "heading, alone", doc: "## [main](LINK)\n", line: 1, col: 4},
		{name: "heading with attribute", doc: "## [main](LINK) {#entry .x}\n", line: 1, col: 4},
		{name: "definition list", doc: "main\n: the entry point, [main](LINK)\n", line: 2, col: 20},
		{name: "definition list, alone", doc: "main\n: [main](LINK)\n", line: 2, col: 3},
		{name: "list item", doc: "- one\n- [main](LINK)\n- three\n", line: 2, col: 3, box: true},
		{name: "loose list item", doc: "1. one\n\n2. [main](LINK)\n", line: 3, col: 4, box: true},
		{name: "task list item", doc: "- [x] [main](LINK)\n", line: 1, col: 7},
		{name: "block quote", doc: "> [main](LINK)\n", line: 1, col: 3, box: true},
		{name: "block quote, running text", doc: "> Quoted: [main](LINK) here.\n", line: 1, col: 11},
		{name: "reference link", doc: "[main][m]\n\n[m]: LINK\n", line: 1, col: 1, box: true},
		{name: "collapsed reference in text", doc: "See [main][] here.\n\n[main]: LINK \"sym=main\"\n", line: 1, col: 5},
		{name: "emphasis and code in text", doc: "[*the* `main` **func** :wave:](LINK)\n", line: 1, col: 1, box: true},
		{name: "typographer quotes in text", doc: "\"Quoted\" -- see [Don't](LINK)...\n", line: 1, col: 17},
		{name: "strikethrough", doc: "~~[main](LINK)~~\n", line: 1, col: 3},
		{name: "image", doc: "![main](LINK)\n", line: 1, col: 1, box: true},
		{name: "image inline", doc: "An ![main](LINK) image.\n", line: 1, col: 4},
		{name: "autolink", doc: "See <URL>.\n", line: 1, col: 5, remote: true},
		{name: "linkify bare URL", doc: "See URL there.\n", line: 1, col: 5, remote: true},
		{name: "linkify bare URL alone", doc: "URL\n", line: 1, col: 1, remote: true},
		{name: "linkify in table", doc: "| a |\n|---|\n| URL |\n", line: 3, col: 3, remote: true},
		{name: "unused definition", doc: "Text.\n\n[m]: LINK\n", line: 3, col: 1, unrendered: true},
		{name: "unused footnote", doc: "Text.\n\n[^u]: See [main](LINK).\n", line: 3, col: 11, unrendered: true},
		{name: "after a mermaid block", doc: "```mermaid\ngraph TD; A-->B\n```\n\nSee [main](LINK).\n", line: 5, col: 5},
		{name: "after fenced code", doc: "```go\nfunc x() {}\n```\n\n[main](LINK)\n", line: 5, col: 1, box: true},
	}
}

// TestCombinationsFailClosed: in each combination, textfrag first or last,
// a good link in each position renders (a box alone in its paragraph,
// else a verified link), and a stale one fails Convert, named at its file,
// line and column, with nothing written.
func TestCombinationsFailClosed(t *testing.T) {
	root := project(t)
	srv := remoteServer(t)
	const rel = "../src/hello.go#line=4,7;md5="
	good := md5hex(helloGo) // RFC 5147's md5= is of the whole file
	for _, c := range combinations() {
		for _, o := range orders() {
			md := newMarkdown(c, o.first, textfrag.WithRoot(root),
				textfrag.WithRemote(remoteOptions(srv)))
			for _, p := range positions() {
				t.Run(c.name+"/"+o.name+"/"+p.name, func(t *testing.T) {
					link := func(sum string) string {
						if p.remote {
							return strings.ReplaceAll(p.doc, "URL", remoteHost+"/src/hello.go#line=4,7;md5="+sum)
						}
						return strings.ReplaceAll(p.doc, "LINK", rel+sum)
					}
					fm := c.frontMatter
					out, problems, err := convert(md, fm+link(good))
					if err != nil {
						t.Fatalf("good link: %v\n%s", err, out)
					}
					for _, q := range problems {
						t.Errorf("good link: %v", q)
					}
					checkGood(t, p, out)

					bad := link(stale)
					out, problems, err = convert(md, fm+bad)
					var pr *textfrag.Problem
					if !errors.As(err, &pr) {
						t.Fatalf("stale link: Convert returned %v, want the integrity error; output:\n%s", err, out)
					}
					line := p.line + strings.Count(fm, "\n")
					if pr.Kind != "integrity" || pr.Line != line || pr.Column != p.col || pr.Document != "docs/guide.md" || !strings.Contains(pr.Link, "md5="+stale) {
						t.Errorf("stale link: got %v (kind %s), want an integrity error at docs/guide.md:%d:%d", pr, pr.Kind, line, p.col)
					}
					if !strings.Contains(pr.Error(), "textfrag pin") && !strings.Contains(pr.Error(), "md5=") {
						t.Errorf("stale link: no remedy in %q", pr.Error())
					}
					if out != "" {
						t.Errorf("stale link: Convert wrote output before failing:\n%s", out)
					}
					if len(problems) == 0 || problems[0] != pr {
						t.Errorf("Problems = %v, want the returned error first", problems)
					}
				})
			}
		}
	}
}

// checkGood checks what a good link in p became: a box holding lines 5-7,
// or a link to the target.
func checkGood(t *testing.T, p position, out string) {
	t.Helper()
	boxes := strings.Count(out, `<figure class="textfrag textfrag-line"`)
	switch {
	case p.unrendered:
		if boxes != 0 || strings.Contains(out, "hello.go") {
			t.Errorf("want the link left out, as goldmark leaves it out:\n%s", out)
		}
	case p.box && boxes != 1:
		t.Errorf("want one box, got %d:\n%s", boxes, out)
	case p.box:
		for _, want := range []string{`<span class="textfrag-range">lines 5–7</span>`, `<span class="ln">5</span>`, `<span class="ln">7</span>`, `hello`} {
			if !strings.Contains(out, want) {
				t.Errorf("box lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "<p><figure") {
			t.Errorf("box inside a paragraph:\n%s", out)
		}
	case boxes != 0:
		t.Errorf("want a link, got a box:\n%s", out)
	case !strings.Contains(out, `hello.go#line=4,7;md5=`):
		t.Errorf("the link is gone:\n%s", out)
	}
}
