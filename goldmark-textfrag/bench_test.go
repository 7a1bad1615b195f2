package textfrag_test

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// Benchmarks of one page of benchBoxes boxes (BenchmarkConvertBox) against
// the same page with each quote pasted as a fenced code block numbered as
// the box is (BenchmarkConvertPasted), both highlighted through package highlight as
// the textfrag command does it, with highlighting on and off. Compare them
// with benchstat:
//
//	go test -run '^$' -bench 'Convert(Box|Pasted)' -count 10 ./goldmark-textfrag > new.txt
//
// The Resolver is shared across iterations, as across the pages of a build:
// each file is read once, before the timer starts.

const (
	benchBoxes = 20 // boxes on the page
	benchFiles = 4  // files they quote
	benchLines = 20 // lines per box
)

// benchSource returns about n bytes of Go-like source: functions with
// comments, loops and conditionals, so that chroma's Go lexer has real work.
func benchSource(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	names := []string{"cache", "entry", "request", "buffer", "stream", "token", "index", "record", "value", "window"}
	name := func() string { return names[rng.IntN(len(names))] + names[rng.IntN(len(names))] }
	var b strings.Builder
	b.WriteString("// Package bench is generated.\npackage bench\n\nimport (\n\t\"fmt\"\n\t\"io\"\n)\n")
	for b.Len() < n {
		fmt.Fprintf(&b, "\n// %s reads the %s and writes the %s; é ✓.\nfunc %s(w io.Writer, %s []string) (int, error) {\n", name(), name(), name(), name(), name())
		for range 3 + rng.IntN(8) {
			v := name()
			switch rng.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "\t%s := len(%s) + %d\n\t_ = %s\n", v, name(), rng.IntN(100), v)
			case 1:
				fmt.Fprintf(&b, "\tfor i, %s := range %s {\n\t\tfmt.Fprintf(w, \"%%d: %%s\\n\", i, %s)\n\t}\n", v, name(), v)
			case 2:
				fmt.Fprintf(&b, "\tif %s == nil {\n\t\treturn 0, fmt.Errorf(\"no %s\")\n\t}\n", name(), name())
			default:
				fmt.Fprintf(&b, "\t// %s is %d bytes long.\n", v, rng.IntN(1000))
			}
		}
		b.WriteString("\treturn 0, nil\n}\n")
	}
	return b.String()
}

// benchPages returns the files, the page with boxes and the page with the
// same text pasted as fenced code blocks.
func benchPages() (fstest.MapFS, string, string) {
	fsys := fstest.MapFS{}
	var lines [benchFiles][]string
	var sums [benchFiles]string
	for i := range benchFiles {
		src := benchSource(uint64(i), 32<<10)
		fsys[fmt.Sprintf("src/f%d.go", i)] = &fstest.MapFile{Data: []byte(src)}
		lines[i] = strings.SplitAfter(src, "\n")
		sum := md5.Sum([]byte(src))
		sums[i] = hex.EncodeToString(sum[:])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var boxes, pasted strings.Builder
	boxes.WriteString("# A page\n\n")
	pasted.WriteString("# A page\n\n")
	for k := range benchBoxes {
		prose := fmt.Sprintf("Paragraph %d says what the code below does, in a sentence or two of prose.\n\n", k)
		boxes.WriteString(prose)
		pasted.WriteString(prose)
		f := rng.IntN(benchFiles)
		start := rng.IntN(len(lines[f]) - benchLines - 1)
		fmt.Fprintf(&boxes, "[Quote %d](../src/f%d.go#line=%d,%d;md5=%s)\n\n", k, f, start, start+benchLines, sums[f])
		fmt.Fprintf(&pasted, "*Quote %d* — `src/f%d.go`\n\n```go {linenos=inline linenostart=%d}\n%s```\n\n", k, f, start+1, strings.Join(lines[f][start:start+benchLines], ""))
	}
	return fsys, boxes.String(), pasted.String()
}

// fencedRenderer writes fenced code as the textfrag command does: through
// highlight.WriteCached with the fence's Hugo attributes (numbered as a box
// is), with the "text" lexer when highlighting is off.
type fencedRenderer struct {
	plain bool
	cache highlight.Cache
}

func (f fencedRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, func(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*ast.FencedCodeBlock)
		o := highlight.FenceOptions(n.Info.Segment.Value(src))
		if f.plain {
			o.Lang = "text"
		}
		var code strings.Builder
		for i := range n.Lines().Len() {
			seg := n.Lines().At(i)
			code.Write(seg.Value(src))
		}
		if err := highlight.WriteCached(w, code.String(), o, f.cache); err != nil {
			return ast.WalkStop, err
		}
		w.WriteString("\n")
		return ast.WalkSkipChildren, nil
	})
}

func benchMarkdown(b *testing.B, fsys fstest.MapFS, on bool, cache highlight.Cache) goldmark.Markdown {
	r, err := target.New(target.Options{FS: fsys})
	if err != nil {
		b.Fatal(err)
	}
	return goldmark.New(
		goldmark.WithExtensions(textfrag.New(textfrag.WithResolver(r), textfrag.WithHighlighting(on), textfrag.WithHighlightCache(cache))),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(fencedRenderer{plain: !on, cache: cache}, 200))),
	)
}

func benchConvert(b *testing.B, md goldmark.Markdown, page string, want int) {
	src := []byte(page)
	convert := func(w io.Writer) error {
		pc := parser.NewContext()
		textfrag.SetDocument(pc, "docs/page.md")
		return md.Convert(src, w, parser.WithContext(pc))
	}
	var out bytes.Buffer
	if err := convert(&out); err != nil {
		b.Fatal(err)
	}
	if n := strings.Count(out.String(), `<div class="highlight">`); n != want {
		b.Fatalf("%d highlighted blocks, want %d", n, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := convert(&out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkConvertBox(b *testing.B) {
	fsys, boxes, _ := benchPages()
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("highlight=%v", on), func(b *testing.B) {
			benchConvert(b, benchMarkdown(b, fsys, on, nil), boxes, benchBoxes)
		})
	}
}

func BenchmarkConvertPasted(b *testing.B) {
	fsys, _, pasted := benchPages()
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("highlight=%v", on), func(b *testing.B) {
			benchConvert(b, benchMarkdown(b, fsys, on, nil), pasted, benchBoxes)
		})
	}
}

// BenchmarkConvertBoxCached and BenchmarkConvertPastedCached are the
// highlighted benchmarks with a highlight cache that an earlier build filled
// (benchConvert's first, untimed conversion): every box is still resolved
// and verified, and every body copied from the cache.
func BenchmarkConvertBoxCached(b *testing.B) {
	fsys, boxes, _ := benchPages()
	benchCached(b, fsys, boxes)
}

func BenchmarkConvertPastedCached(b *testing.B) {
	fsys, _, pasted := benchPages()
	benchCached(b, fsys, pasted)
}

func benchCached(b *testing.B, fsys fstest.MapFS, page string) {
	for name, cache := range map[string]func() highlight.Cache{
		"memory": highlight.MemoryCache,
		"dir":    func() highlight.Cache { return highlight.DirCache(b.TempDir()) },
	} {
		b.Run("cache="+name, func(b *testing.B) {
			benchConvert(b, benchMarkdown(b, fsys, true, cache()), page, benchBoxes)
		})
	}
}

// benchLinks is how many links BenchmarkManyLinks puts in one paragraph.
const benchLinks = 50000

// BenchmarkManyLinks converts one paragraph of benchLinks links on a single
// line: RFC 5147 links (each verified, staying links) against the same
// number of ordinary links, the baseline. The cost per link must not grow
// with the number of links before it on the line (issue 11, B7):
//
//	go test -run '^$' -bench ManyLinks -benchtime 5x ./goldmark-textfrag
func BenchmarkManyLinks(b *testing.B) {
	fsys := fstest.MapFS{"src/t.txt": {Data: []byte("one\ntwo\nthree\n")}}
	for _, kind := range []struct{ name, link string }{
		{"plain", "[a](../src/t.txt)"},
		{"rfc5147", "[a](../src/t.txt#line=0,1)"},
		{"rfc5147-clamped", "[a](../src/t.txt#line=0,9)"}, // a warning for every link
	} {
		b.Run(kind.name, func(b *testing.B) {
			page := strings.TrimSuffix(strings.Repeat(kind.link+" ", benchLinks), " ") + "\n"
			r, err := target.New(target.Options{FS: fsys})
			if err != nil {
				b.Fatal(err)
			}
			md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithResolver(r))))
			src := []byte(page)
			var out bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				pc := parser.NewContext()
				textfrag.SetDocument(pc, "docs/page.md")
				if err := md.Convert(src, &out, parser.WithContext(pc)); err != nil {
					b.Fatal(err)
				}
			}
			if n := strings.Count(out.String(), "<a href="); n != benchLinks {
				b.Fatalf("%d links in the page, want %d", n, benchLinks)
			}
		})
	}
}
