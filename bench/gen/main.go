// Command gen writes the benchmark corpus: N pages, each quoting K line
// ranges drawn from F generated source files, as a site for every tool that
// bench/run measures. The same flags always give the same bytes.
//
//	go run ./bench/gen -o bench/.work/corpus -pages 200 -links 20 -files 40
//
// Under OUT it writes one directory per site (-sites picks some):
//
//	textfrag/      docs/*.md with [title](../src/f.go#line=a,b;md5=…), and src/
//	pasted/        docs/*.md, the same pages with each quote pasted as a numbered fenced block
//	mkdocs/        mkdocs.yml, docs/*.md with --8<-- "src/f.go:a:b" in fenced blocks, src/
//	asciidoctor/   docs/*.adoc with include::../src/f.go[lines=a..b] in [source] blocks, src/
//	sphinx/        docs/conf.py, docs/*.rst with .. literalinclude:: and :lines: a-b, src/
//	*-plain/       the peers' sites with every quote in the "text" language, to
//	               compare with textfrag --highlight=false
//	hugo/          a Hugo site importing the textfrag module (-hugo-module), src/
//	hugo-pasted/   the same Hugo site with each quote pasted as a numbered fenced block
//	hugo-book/     the Hugo site on a small documentation theme written here ("book":
//	               a page tree menu, a table of contents, and link and image render
//	               hooks of its own, as hugo-book has), composed with the module as
//	               the module's README says (site hooks calling textfrag/hook.html)
//	hugo-book-pasted/  the same themed site without the module, each quote pasted
//	hugo-book-plain/   hugo-book-pasted with the module set up as in hugo-book (hooks,
//	               head partial): a site without quotes that imports the module
//	hugo-ananke/   the Hugo site on Ananke, a widely used blog theme nobody here
//	               wrote (-ananke: a checkout of it, which bench/run fetches),
//	               its pages as posts, the module set up as its README tells an
//	               Ananke site's owner (the head partial in head-additions.html,
//	               the module's own render hooks: Ananke has none)
//	hugo-ananke-pasted/, hugo-ananke-plain/  its twins, as for hugo-book
//
// and manifest.json with the corpus's counts.
//
// -scale writes the scale corpus of bench/scale instead of the defaults:
// 10,000 pages of 10 links each (100,000 links) into 2,000 files, the
// textfrag site only, its pages in 100 sections (docs/s001/ …) of 100;
// flags given as well override each of these. Every quote shows the same
// human lines, in the same language, with line numbers where the tool can
// number from the file's own line: the pasted twins' fences say
// {linenos=inline linenostart=N}, as an author pasting a quote would to
// show the file's numbers.
package main

import (
	"bytes"
	"crypto/md5"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

//go:embed snippet_lines.py
var snippetLinesPy []byte

var allSites = []string{"textfrag", "pasted", "mkdocs", "asciidoctor", "sphinx", "mkdocs-plain", "asciidoctor-plain", "sphinx-plain", "hugo", "hugo-pasted", "hugo-book", "hugo-book-pasted", "hugo-book-plain", "hugo-ananke", "hugo-ananke-pasted", "hugo-ananke-plain"}

func main() {
	out := flag.String("o", "", "output `DIR` (replaced)")
	pages := flag.Int("pages", 200, "number of pages `N`")
	links := flag.Int("links", 20, "transclusions per page `K`")
	files := flag.Int("files", 40, "number of source files `F` (about one in eight is a text file)")
	seed := flag.Uint64("seed", 1, "random `SEED`")
	sites := flag.String("sites", strings.Join(allSites, ","), "comma-separated `LIST` of sites to write")
	sections := flag.Int("sections", 0, "put the textfrag site's pages in `S` directories docs/s001/… (0: all in docs/)")
	scale := flag.Bool("scale", false, "the scale corpus: -pages 10000 -links 10 -files 2000 -sites textfrag -sections 100, each overridden by the flag if given")
	hugoModule := flag.String("hugo-module", "", "`DIR` of the textfrag Hugo module, for the Hugo sites' module replacement (default: ../../hugo-module from this file's package, found from the current directory)")
	ananke := flag.String("ananke", "", "`DIR` of a checkout of the Ananke theme (module "+anankeModule+"), for the hugo-ananke sites' module replacement; bench/run fetches the release it pins")
	flag.Parse()
	if *scale {
		given := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
		for name, v := range map[string]string{"pages": "10000", "links": "10", "files": "2000", "sites": "textfrag", "sections": "100"} {
			if !given[name] {
				flag.Set(name, v)
			}
		}
	}
	if *out == "" || *pages < 1 || *links < 0 || *files < 1 || *sections < 0 {
		flag.Usage()
		os.Exit(2)
	}
	want := map[string]bool{}
	for _, s := range strings.Split(*sites, ",") {
		if !slices.Contains(allSites, s) {
			fail(fmt.Errorf("unknown site %q; want some of %s", s, strings.Join(allSites, ",")))
		}
		want[s] = true
	}
	if want["hugo-ananke"] || want["hugo-ananke-pasted"] || want["hugo-ananke-plain"] {
		abs, err := anankeDir(*ananke)
		if err != nil {
			fail(err)
		}
		*ananke = abs
	}
	if want["hugo"] || want["hugo-pasted"] || want["hugo-book"] || want["hugo-book-plain"] || want["hugo-ananke"] || want["hugo-ananke-plain"] {
		if *hugoModule == "" {
			*hugoModule = findHugoModule()
		}
		abs, err := filepath.Abs(*hugoModule)
		if err != nil {
			fail(err)
		}
		*hugoModule = abs
	}

	c := generate(*seed, *pages, *links, *files)
	if err := os.RemoveAll(*out); err != nil {
		fail(err)
	}
	w := &writer{root: *out}
	for _, s := range allSites {
		if !want[s] {
			continue
		}
		switch s {
		case "textfrag":
			c.writeTextfrag(w, "textfrag", *sections)
		case "pasted":
			c.writePasted(w, "pasted")
		case "mkdocs", "mkdocs-plain":
			c.writeMkdocs(w, s, s == "mkdocs-plain")
		case "asciidoctor", "asciidoctor-plain":
			c.writeAsciidoctor(w, s, s == "asciidoctor-plain")
		case "sphinx", "sphinx-plain":
			c.writeSphinx(w, s, s == "sphinx-plain")
		case "hugo":
			c.writeHugo(w, "hugo", *hugoModule, false)
		case "hugo-pasted":
			c.writeHugo(w, "hugo-pasted", *hugoModule, true)
		case "hugo-book", "hugo-book-pasted", "hugo-book-plain":
			c.writeHugoBook(w, s, *hugoModule, s != "hugo-book", s != "hugo-book-pasted")
		case "hugo-ananke", "hugo-ananke-pasted", "hugo-ananke-plain":
			c.writeHugoAnanke(w, s, *hugoModule, *ananke, s != "hugo-ananke", s != "hugo-ananke-pasted")
		}
	}
	m, err := json.MarshalIndent(c.manifest(*seed), "", "  ")
	if err != nil {
		fail(err)
	}
	w.file("manifest.json", string(m)+"\n")
	if w.err != nil {
		fail(w.err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

// findHugoModule finds hugo-module/ in the current directory or a parent.
func findHugoModule() string {
	dir, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	for {
		p := filepath.Join(dir, "hugo-module")
		if _, err := os.Stat(filepath.Join(p, "hugo.toml")); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			fail(fmt.Errorf("no hugo-module directory here or above; give -hugo-module"))
		}
		dir = parent
	}
}

// writer writes files under root, keeping the first error.
type writer struct {
	root string
	err  error
}

func (w *writer) file(rel, content string) {
	if w.err != nil {
		return
	}
	name := filepath.Join(w.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		w.err = err
		return
	}
	w.err = os.WriteFile(name, []byte(content), 0o644)
}

// corpus is the content every site is written from.
type corpus struct {
	files []*srcFile
	pages []*page
}

// srcFile is one quoted file, at slash path "src/…" in every site.
type srcFile struct {
	path  string
	lang  string // the fence language, the file's extension: "go" or "txt"
	data  []byte
	lines []string // with their LF
	md5   string
}

// page is a page's title and blocks, in order.
type page struct {
	name   string // "p001"
	title  string
	blocks []block
}

// block is a heading (level 2), a paragraph of prose, or a quote.
type block struct {
	heading string
	prose   string
	quote   *quote
}

// quote is human lines start+1 to end of file: line=start,end in RFC 5147
// positions.
type quote struct {
	file       *srcFile
	start, end int
	title      string
}

// text returns the quoted lines, each with its LF.
func (q *quote) text() string { return strings.Join(q.file.lines[q.start:q.end], "") }

// pastedInfo is the info string of q's fence in the pasted twins: its
// language, numbered from the file's line as a box is numbered (Hugo's
// fence attributes, which textfrag build also reads).
func (q *quote) pastedInfo() string {
	return fmt.Sprintf("%s {linenos=inline linenostart=%d}", q.file.lang, q.start+1)
}

// caption is how the pasted twins label a pasted block.
func (q *quote) caption() string {
	return fmt.Sprintf("*%s* — `%s`, lines %d–%d", q.title, q.file.path, q.start+1, q.end)
}

func generate(seed uint64, nPages, nLinks, nFiles int) *corpus {
	rng := rand.New(rand.NewPCG(seed, 0x7465787466726167))
	c := &corpus{}
	for i := range nFiles {
		pkg := fmt.Sprintf("pkg%02d", i/4)
		var f *srcFile
		if i%8 == 7 {
			// Text files: 2 to 20 KB of prose.
			size := logUniform(rng, 2<<10, 20<<10)
			f = &srcFile{path: fmt.Sprintf("src/%s/%s.txt", pkg, ident(rng, false)), lang: "txt", data: proseFile(rng, size)}
		} else {
			// Go-like files: 2 to 60 KB.
			size := logUniform(rng, 2<<10, 60<<10)
			f = &srcFile{path: fmt.Sprintf("src/%s/%s_%d.go", pkg, strings.ToLower(ident(rng, false)), i), lang: "go", data: goFile(rng, pkg, size)}
		}
		if f.lang == "txt" {
			f.path = strings.TrimSuffix(f.path, ".txt") + fmt.Sprintf("_%d.txt", i)
		}
		f.lines = strings.SplitAfter(string(f.data), "\n")
		if f.lines[len(f.lines)-1] == "" {
			f.lines = f.lines[:len(f.lines)-1]
		}
		sum := md5.Sum(f.data)
		f.md5 = hex.EncodeToString(sum[:])
		c.files = append(c.files, f)
	}
	for i := range nPages {
		p := &page{name: fmt.Sprintf("p%03d", i+1)}
		p.title = fmt.Sprintf("Page %d: %s", i+1, phrase(rng, 2, 4))
		p.blocks = append(p.blocks, block{prose: paragraph(rng)}, block{prose: paragraph(rng)})
		for k := range nLinks {
			if k%3 == 0 {
				p.blocks = append(p.blocks, block{heading: capitalize(phrase(rng, 2, 4))})
			}
			p.blocks = append(p.blocks, block{prose: paragraph(rng)})
			f := c.files[rng.IntN(len(c.files))]
			n := 5 + rng.IntN(36) // 5 to 40 lines of code
			if f.lang == "txt" {
				n = 3 + rng.IntN(13)
			}
			n = min(n, len(f.lines))
			start := rng.IntN(len(f.lines) - n + 1)
			p.blocks = append(p.blocks, block{quote: &quote{file: f, start: start, end: start + n, title: capitalize(phrase(rng, 2, 5))}})
		}
		c.pages = append(c.pages, p)
	}
	return c
}

// logUniform returns a size between lo and hi, uniform in its logarithm, as
// file sizes in a repository roughly are.
func logUniform(rng *rand.Rand, lo, hi int) int {
	l, h := math.Log(float64(lo)), math.Log(float64(hi))
	return int(math.Exp(l + rng.Float64()*(h-l)))
}

type manifest struct {
	Seed        uint64 `json:"seed"`
	Pages       int    `json:"pages"`
	LinksPer    int    `json:"links_per_page"`
	Links       int    `json:"links"`
	Files       int    `json:"files"`
	GoFiles     int    `json:"go_files"`
	TextFiles   int    `json:"text_files"`
	SourceBytes int    `json:"source_bytes"`
	QuotedLines int    `json:"quoted_lines"`
	QuotedBytes int    `json:"quoted_bytes"`
}

func (c *corpus) manifest(seed uint64) manifest {
	m := manifest{Seed: seed, Pages: len(c.pages), Files: len(c.files)}
	for _, f := range c.files {
		m.SourceBytes += len(f.data)
		if f.lang == "go" {
			m.GoFiles++
		} else {
			m.TextFiles++
		}
	}
	for _, p := range c.pages {
		for _, b := range p.blocks {
			if q := b.quote; q != nil {
				m.Links++
				m.QuotedLines += q.end - q.start
				m.QuotedBytes += len(q.text())
			}
		}
	}
	if len(c.pages) > 0 {
		m.LinksPer = m.Links / len(c.pages)
	}
	return m
}

func (c *corpus) writeSources(w *writer, site string) {
	for _, f := range c.files {
		w.file(site+"/"+f.path, string(f.data))
	}
}

// markdownPage writes a page's blocks as Markdown, with quote writing each quote.
func markdownPage(b *strings.Builder, p *page, quote func(*quote) string) {
	for _, bl := range p.blocks {
		switch {
		case bl.heading != "":
			fmt.Fprintf(b, "## %s\n\n", bl.heading)
		case bl.prose != "":
			fmt.Fprintf(b, "%s\n\n", bl.prose)
		default:
			b.WriteString(quote(bl.quote))
			b.WriteString("\n")
		}
	}
}

// fence returns a fenced code block holding text, with an info string.
func fence(info, text string) string {
	return "```" + info + "\n" + text + "```\n"
}

func (c *corpus) markdownIndex(title string, link func(p *page) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	for _, p := range c.pages {
		fmt.Fprintf(&b, "- [%s](%s)\n", p.title, link(p))
	}
	return b.String()
}

// writeTextfrag writes the textfrag site, its pages in docs/ or, with
// sections > 0, spread in order over that many directories docs/s001/….
func (c *corpus) writeTextfrag(w *writer, site string, sections int) {
	c.writeSources(w, site)
	dir := func(i int) string {
		if sections == 0 {
			return ""
		}
		return fmt.Sprintf("s%03d/", i*sections/len(c.pages)+1)
	}
	index := map[*page]int{}
	for i, p := range c.pages {
		index[p] = i
	}
	w.file(site+"/docs/index.md", c.markdownIndex("Benchmark corpus", func(p *page) string { return dir(index[p]) + p.name + ".md" }))
	up := "../"
	if sections > 0 {
		up = "../../"
	}
	for i, p := range c.pages {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", p.title)
		markdownPage(&b, p, func(q *quote) string {
			return fmt.Sprintf("[%s](%s%s#line=%d,%d;md5=%s)\n", q.title, up, q.file.path, q.start, q.end, q.file.md5)
		})
		w.file(site+"/docs/"+dir(i)+p.name+".md", b.String())
	}
}

func (c *corpus) writePasted(w *writer, site string) {
	w.file(site+"/docs/index.md", c.markdownIndex("Benchmark corpus", func(p *page) string { return p.name + ".md" }))
	for _, p := range c.pages {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", p.title)
		markdownPage(&b, p, func(q *quote) string {
			return q.caption() + "\n\n" + fence(q.pastedInfo(), q.text())
		})
		w.file(site+"/docs/"+p.name+".md", b.String())
	}
}

// lang is the language a peer's site gives q: its own, or "text" when plain.
func lang(q *quote, plain bool) string {
	if plain || q.file.lang == "txt" {
		return "text"
	}
	return q.file.lang
}

func (c *corpus) writeMkdocs(w *writer, site string, plain bool) {
	c.writeSources(w, site)
	w.file(site+"/snippet_lines.py", string(snippetLinesPy))
	w.file(site+"/mkdocs.yml", `# mkdocs with pymdownx.snippets line ranges ("file:start:end"), highlighted
# by Pygments with line numbers. Build from this directory, with it on
# PYTHONPATH for snippet_lines.py: mkdocs build -q -d OUT
site_name: textfrag benchmark corpus
docs_dir: docs
use_directory_urls: false
theme:
  name: mkdocs
plugins: []
nav:
  - index.md
markdown_extensions:
  - pymdownx.highlight:
      use_pygments: true
      linenums_style: pymdownx-inline
  - pymdownx.superfences
  - snippet_lines:
      base_path: ["."]
      check_paths: true
`)
	w.file(site+"/docs/index.md", c.markdownIndex("Benchmark corpus", func(p *page) string { return p.name + ".md" }))
	for _, p := range c.pages {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", p.title)
		markdownPage(&b, p, func(q *quote) string {
			return q.caption() + "\n\n" + fence(fmt.Sprintf("%s linenums=\"%d\"", lang(q, plain), q.start+1),
				fmt.Sprintf("--8<-- \"%s:%d:%d\"\n", q.file.path, q.start+1, q.end))
		})
		w.file(site+"/docs/"+p.name+".md", b.String())
	}
}

func (c *corpus) writeAsciidoctor(w *writer, site string, plain bool) {
	c.writeSources(w, site)
	var idx strings.Builder
	idx.WriteString("= Benchmark corpus\n\n")
	for _, p := range c.pages {
		fmt.Fprintf(&idx, "* link:%s.html[%s]\n", p.name, p.title)
	}
	w.file(site+"/docs/index.adoc", idx.String())
	for _, p := range c.pages {
		var b strings.Builder
		fmt.Fprintf(&b, "= %s\n\n", p.title)
		for _, bl := range p.blocks {
			switch {
			case bl.heading != "":
				fmt.Fprintf(&b, "== %s\n\n", bl.heading)
			case bl.prose != "":
				fmt.Fprintf(&b, "%s\n\n", bl.prose)
			default:
				q := bl.quote
				fmt.Fprintf(&b, ".%s -- %s, lines %d–%d\n[source,%s,linenums,start=%d]\n----\ninclude::../%s[lines=%d..%d]\n----\n\n",
					q.title, q.file.path, q.start+1, q.end, lang(q, plain), q.start+1, q.file.path, q.start+1, q.end)
			}
		}
		w.file(site+"/docs/"+p.name+".adoc", b.String())
	}
}

func (c *corpus) writeSphinx(w *writer, site string, plain bool) {
	c.writeSources(w, site)
	w.file(site+"/docs/conf.py", `# Sphinx with its defaults (alabaster, Pygments), but no sidebars, so that
# the time goes to the pages rather than to an N-page navigation on each.
project = "textfrag benchmark corpus"
extensions = []
html_sidebars = {"**": []}
`)
	var idx strings.Builder
	idx.WriteString(rstTitle("Benchmark corpus", "=") + "\n.. toctree::\n   :maxdepth: 1\n\n")
	for _, p := range c.pages {
		fmt.Fprintf(&idx, "   %s\n", p.name)
	}
	w.file(site+"/docs/index.rst", idx.String())
	for _, p := range c.pages {
		var b strings.Builder
		b.WriteString(rstTitle(p.title, "="))
		for _, bl := range p.blocks {
			switch {
			case bl.heading != "":
				b.WriteString(rstTitle(bl.heading, "-"))
			case bl.prose != "":
				fmt.Fprintf(&b, "%s\n\n", bl.prose)
			default:
				q := bl.quote
				fmt.Fprintf(&b, ".. literalinclude:: ../%s\n   :language: %s\n   :lines: %d-%d\n   :lineno-match:\n   :caption: %s\n\n",
					q.file.path, lang(q, plain), q.start+1, q.end, q.title)
			}
		}
		w.file(site+"/docs/"+p.name+".rst", b.String())
	}
}

func rstTitle(t, under string) string {
	return t + "\n" + strings.Repeat(under, len([]rune(t))) + "\n\n"
}

func (c *corpus) writeHugo(w *writer, site, module string, pasted bool) {
	if !pasted {
		c.writeSources(w, site)
	}
	w.file(site+"/hugo.toml", fmt.Sprintf(`# A Hugo site quoting files with the textfrag module (or, in the pasted
# twin, with the same text pasted); fenced code and boxes are highlighted
# with CSS classes, as the module's boxes are.
baseURL = "https://example.org/"
title = "textfrag benchmark corpus"
disableKinds = ["taxonomy", "term", "rss", "sitemap", "404"]

[module]
  replacements = "github.com/textfrag/textfrag/hugo-module -> %s"
  [[module.imports]]
    path = "github.com/textfrag/textfrag/hugo-module"

[markup.goldmark.parser]
  wrapStandAloneImageWithinParagraph = false

[markup.highlight]
  noClasses = false
`, module))
	w.file(site+"/layouts/baseof.html", `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ .Title }} – {{ site.Title }}</title>
{{ partial "textfrag/head.html" . }}
</head>
<body>
<main>
<h1>{{ .Title }}</h1>
{{ block "main" . }}{{ end }}
</main>
</body>
</html>
`)
	w.file(site+"/layouts/home.html", `{{ define "main" }}
{{ .Content }}
<ul>
{{ range site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}</ul>
{{ end }}
`)
	w.file(site+"/layouts/single.html", `{{ define "main" }}
{{ .Content }}
{{ end }}
`)
	w.file(site+"/content/_index.md", "---\ntitle: Benchmark corpus\n---\n")
	for _, p := range c.pages {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: %q\n---\n\n", p.title)
		markdownPage(&b, p, func(q *quote) string {
			if pasted {
				return q.caption() + "\n\n" + fence(q.pastedInfo(), q.text())
			}
			return fmt.Sprintf("![%s](../%s#line=%d,%d;md5=%s)\n", q.title, q.file.path, q.start, q.end, q.file.md5)
		})
		w.file(site+"/content/"+p.name+".md", b.String())
	}
}

// writeHugoBook writes the Hugo site on "book", a documentation theme of a
// few files written for this benchmark that renders what such themes render
// on every page (a menu of all pages, a table of contents) and has its own
// render hooks (portable links to pages, external links in a new tab, lazy
// images). The module's site composes the theme's hooks with textfrag's
// (the module's README, "Themes with their own render hooks") and links the
// stylesheet from the theme's head injection partial; the pasted twin is the
// themed site without the module; the plain twin is the pasted one with the
// module set up as in the module's site (no page quotes).
func (c *corpus) writeHugoBook(w *writer, site, module string, pasted, withModule bool) {
	var cfg strings.Builder
	cfg.WriteString(`# A Hugo site on a documentation theme with its own render hooks, quoting
# files with the textfrag module (or, in the pasted twin, without the module,
# the same text pasted); code is highlighted with CSS classes.
baseURL = "https://example.org/"
title = "textfrag benchmark corpus"
disableKinds = ["taxonomy", "term", "rss", "sitemap", "404"]

[module]
`)
	if withModule {
		fmt.Fprintf(&cfg, "  replacements = \"github.com/textfrag/textfrag/hugo-module -> %s\"\n", module)
	}
	cfg.WriteString("  [[module.imports]]\n    path = \"book\"\n")
	writeHugoConfigTail(&cfg, withModule)
	w.file(site+"/hugo.toml", cfg.String())
	theme := site + "/themes/book/layouts/"
	w.file(theme+"baseof.html", `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} | {{ site.Title }}</title>
{{ with .Description }}<meta name="description" content="{{ . }}">{{ end }}
{{ partial "docs/inject/head.html" . }}
</head>
<body>
<input type="checkbox" class="hidden" id="menu-control">
<main class="container">
<aside class="book-menu"><nav>
<h2 class="book-brand"><a href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a></h2>
<ul>
{{- $current := . }}
{{- range site.RegularPages.ByTitle }}
<li><a href="{{ .RelPermalink }}"{{ if eq . $current }} class="active"{{ end }}>{{ .LinkTitle }}</a></li>
{{- end }}
</ul>
</nav></aside>
<div class="book-page">
<header class="book-header"><label for="menu-control">Menu</label> <strong>{{ .Title }}</strong></header>
<article class="markdown book-article">{{ block "main" . }}{{ end }}</article>
<footer class="book-footer">{{ with .Lastmod }}{{ if not .IsZero }}Last modified {{ .Format "January 2, 2006" }}{{ end }}{{ end }}</footer>
</div>
<aside class="book-toc">{{ .TableOfContents }}</aside>
</main>
</body>
</html>
`)
	w.file(theme+"home.html", `{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
`)
	w.file(theme+"single.html", `{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
`)
	w.file(theme+"_partials/docs/inject/head.html", "")
	link := `{{- $dest := .Destination -}}
{{- $external := findRE "^[a-zA-Z][a-zA-Z0-9+.-]*:" $dest 1 -}}
{{- $href := $dest -}}
{{- if and (not $external) (strings.HasSuffix (index (split $dest "#") 0) ".md") -}}
  {{- with .PageInner.GetPage (strings.TrimSuffix ".md" (index (split $dest "#") 0)) }}{{ $href = .RelPermalink }}{{ end -}}
{{- end -}}
<a href="{{ $href | safeURL }}"{{ with .Title }} title="{{ . }}"{{ end }}{{ if $external }} target="_blank" rel="noopener"{{ end }}>{{ .Text }}</a>`
	image := `{{- $src := .Destination -}}
{{- if not (findRE "^[a-zA-Z][a-zA-Z0-9+.-]*:|^/" $src 1) }}{{ with .PageInner.Resources.Get $src }}{{ $src = .RelPermalink }}{{ end }}{{ end -}}
<img src="{{ $src | safeURL }}" alt="{{ .PlainText }}"{{ with .Title }} title="{{ . }}"{{ end }} loading="lazy">`
	w.file(theme+"_markup/render-link.html", link)
	w.file(theme+"_markup/render-image.html", image)
	if !pasted {
		c.writeSources(w, site)
	}
	if withModule {
		// The recipe of the module's README: the theme's hooks as partials, and
		// site hooks that call textfrag first.
		w.file(site+"/layouts/_partials/theme/render-link.html", link)
		w.file(site+"/layouts/_partials/theme/render-image.html", image)
		w.file(site+"/layouts/_markup/render-link.html", `{{- $tf := partial "textfrag/hook.html" (dict "ctx" . "kind" "link") -}}
{{- if $tf.handled }}{{ $tf.html | safeHTML }}{{ else }}{{ partial "theme/render-link.html" . }}{{ end -}}
`)
		w.file(site+"/layouts/_markup/render-image.html", `{{- $tf := partial "textfrag/hook.html" (dict "ctx" . "kind" "image") -}}
{{- if $tf.handled }}{{ $tf.html | safeHTML }}{{ else }}{{ partial "theme/render-image.html" . }}{{ end -}}
`)
		w.file(site+"/layouts/_partials/docs/inject/head.html", `{{ partial "textfrag/head.html" . }}
`)
	}
	w.file(site+"/content/_index.md", "---\ntitle: Benchmark corpus\n---\n")
	for _, p := range c.pages {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: %q\n---\n\n", p.title)
		markdownPage(&b, p, func(q *quote) string {
			if pasted {
				return q.caption() + "\n\n" + fence(q.pastedInfo(), q.text())
			}
			return fmt.Sprintf("![%s](../%s#line=%d,%d;md5=%s)\n", q.title, q.file.path, q.start, q.end, q.file.md5)
		})
		w.file(site+"/content/"+p.name+".md", b.String())
	}
}

// anankeModule is the module path of the Ananke theme, as its go.mod has
// it since v2.13 (the repository moved from theNewDynamic/gohugo-theme-ananke).
const anankeModule = "github.com/gohugo-ananke/ananke/v2"

// anankeDir checks that dir is a checkout of Ananke (its go.mod names
// anankeModule) and returns it absolute.
func anankeDir(dir string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("the hugo-ananke sites need -ananke DIR, a checkout of the Ananke theme (bench/run fetches the release it pins)")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	mod, err := os.ReadFile(filepath.Join(abs, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("-ananke %s: %w", dir, err)
	}
	first, _, _ := strings.Cut(string(mod), "\n")
	if strings.TrimSpace(first) != "module "+anankeModule {
		return "", fmt.Errorf("-ananke %s: its go.mod says %q, want \"module %s\"", dir, strings.TrimSpace(first), anankeModule)
	}
	return abs, nil
}

// writeHugoAnanke writes the Hugo site on Ananke, a blog theme nobody here
// wrote, imported as a Hugo module (its path replaced by the checkout at
// theme, as hugo mod get would leave it in the module cache), with the
// same pages as hugo-book: as posts (content/posts/, with a date each, as
// Ananke's quick start writes them), so that the home page shows the
// recent ones and the posts' section lists them all. Ananke has no render
// hooks, so the module's own render the quotes (its README: "on Docsy skip
// this step", and Ananke is the same); head.html is called from Ananke's
// head-additions.html with the light colour scheme line the README gives
// for Ananke, which has no dark mode. The pasted twin is the site without
// the module; the plain twin is the pasted one with the module set up.
// Everything else is Hugo's and Ananke's defaults, the same in all three.
func (c *corpus) writeHugoAnanke(w *writer, site, module, theme string, pasted, withModule bool) {
	var cfg strings.Builder
	cfg.WriteString(`# A Hugo site on the Ananke theme, quoting files with the textfrag module
# (or, in the pasted twin, without the module, the same text pasted); code
# is highlighted with CSS classes, as the module's boxes are.
baseURL = "https://example.org/"
languageCode = "en-us"
title = "textfrag benchmark corpus"

[module]
`)
	repl := anankeModule + " -> " + theme
	if withModule {
		repl += ", github.com/textfrag/textfrag/hugo-module -> " + module
	}
	fmt.Fprintf(&cfg, "  replacements = %q\n", repl)
	fmt.Fprintf(&cfg, "  [[module.imports]]\n    path = %q\n", anankeModule)
	writeHugoConfigTail(&cfg, withModule)
	w.file(site+"/hugo.toml", cfg.String())
	if withModule {
		w.file(site+"/layouts/_partials/head-additions.html", `{{ partial "textfrag/head.html" . }}
<style>:root { --textfrag-color-scheme: light; }</style>
`)
	}
	if !pasted {
		c.writeSources(w, site)
	}
	w.file(site+"/content/_index.md", "---\ntitle: Benchmark corpus\n---\n")
	for i, p := range c.pages {
		var b strings.Builder
		// One post an hour, the first page the oldest: the same dates each run.
		fmt.Fprintf(&b, "---\ntitle: %q\ndate: %s\n---\n\n", p.title, anankeEpoch.Add(time.Duration(i)*time.Hour).Format(time.RFC3339))
		markdownPage(&b, p, func(q *quote) string {
			if pasted {
				return q.caption() + "\n\n" + fence(q.pastedInfo(), q.text())
			}
			return fmt.Sprintf("![%s](../../%s#line=%d,%d;md5=%s)\n", q.title, q.file.path, q.start, q.end, q.file.md5)
		})
		w.file(site+"/content/posts/"+p.name+".md", b.String())
	}
}

var anankeEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Text.

var words = strings.Fields(`cache entry request handler buffer stream token parser value index
	record table column query result window frame packet signal worker queue batch limit
	offset range line page file path root node tree graph edge weight score count total
	state event source target reader writer encoder decoder config option flag status
	error retry timeout deadline context session client server store layer block chunk
	naïve café résumé façade`)

var verbs = strings.Fields(`reads writes checks counts parses builds sorts merges splits
	returns holds keeps drops sends takes makes finds walks loads saves marks clears`)

func pick(rng *rand.Rand, list []string) string { return list[rng.IntN(len(list))] }

func phrase(rng *rand.Rand, lo, hi int) string {
	n := lo + rng.IntN(hi-lo+1)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = pick(rng, words)
	}
	return strings.Join(ws, " ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func sentence(rng *rand.Rand) string {
	return capitalize(fmt.Sprintf("the %s %s the %s, then %s %s.", phrase(rng, 1, 2), pick(rng, verbs), phrase(rng, 1, 3), pick(rng, verbs), phrase(rng, 1, 3)))
}

// paragraph is two to five sentences on one line.
func paragraph(rng *rand.Rand) string {
	n := 2 + rng.IntN(4)
	s := make([]string, n)
	for i := range s {
		s[i] = sentence(rng)
	}
	return strings.Join(s, " ")
}

// proseFile is paragraphs wrapped at 72 columns, about size bytes.
func proseFile(rng *rand.Rand, size int) []byte {
	var b bytes.Buffer
	for b.Len() < size {
		col := 0
		for _, w := range strings.Fields(paragraph(rng) + " " + paragraph(rng)) {
			if col > 0 && col+1+len(w) > 72 {
				b.WriteByte('\n')
				col = 0
			}
			if col > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += len(w)
		}
		b.WriteString("\n\n")
	}
	return b.Bytes()
}

// Go-like source.

var identWords = strings.Fields(`cache entry request handle buffer stream token parse value index
	record table column query result window frame packet signal worker queue batch limit
	offset span line page file path root node tree edge weight score count total state
	event source target reader writer config option status retry timeout session client
	store layer block chunk key name size width depth`)

// ident returns a Go identifier of one to three words, exported or not.
func ident(rng *rand.Rand, exported bool) string {
	n := 1 + rng.IntN(3)
	var b strings.Builder
	for i := range n {
		w := pick(rng, identWords)
		if i > 0 || exported {
			w = capitalize(w)
		}
		b.WriteString(w)
	}
	return b.String()
}

var goTypes = []string{"int", "int64", "string", "[]byte", "bool", "error", "[]string", "map[string]int", "*Node", "time.Duration", "float64", "io.Reader"}

var imports = []string{"bufio", "bytes", "context", "errors", "fmt", "io", "os", "sort", "strconv", "strings", "sync", "time"}

// goFile returns Go-like source of about size bytes, formatted: a package clause,
// imports, then types, constants and functions with doc comments.
func goFile(rng *rand.Rand, pkg string, size int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Package %s %s the %s.\npackage %s\n\nimport (\n", pkg, pick(rng, verbs), phrase(rng, 1, 3), pkg)
	var imps []string
	for _, imp := range imports {
		if rng.IntN(2) == 0 {
			imps = append(imps, imp)
		}
	}
	for _, imp := range imps {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString(")\n")
	for b.Len() < size {
		b.WriteByte('\n')
		switch r := rng.IntN(10); {
		case r < 2:
			goStruct(&b, rng)
		case r < 3:
			goConsts(&b, rng)
		default:
			goFunc(&b, rng)
		}
	}
	// gofmt's layout, as real source has (and so that gofmt -l finds
	// nothing to say about a corpus inside the repository).
	src, err := format.Source(b.Bytes())
	if err != nil {
		panic(fmt.Sprintf("generated Go does not parse: %v", err))
	}
	return src
}

func goStruct(b *bytes.Buffer, rng *rand.Rand) {
	name := ident(rng, true)
	fmt.Fprintf(b, "// %s %s the %s.\ntype %s struct {\n", name, pick(rng, verbs), phrase(rng, 1, 3), name)
	for range 2 + rng.IntN(6) {
		fmt.Fprintf(b, "\t%s %s", ident(rng, rng.IntN(2) == 0), pick(rng, goTypes))
		if rng.IntN(3) == 0 {
			fmt.Fprintf(b, " // %s", phrase(rng, 2, 5))
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
}

func goConsts(b *bytes.Buffer, rng *rand.Rand) {
	b.WriteString("const (\n")
	for i := range 2 + rng.IntN(5) {
		if i == 0 {
			fmt.Fprintf(b, "\t%s = %d // %s\n", ident(rng, true), rng.IntN(1<<16), phrase(rng, 1, 4))
		} else {
			fmt.Fprintf(b, "\t%s = %q\n", ident(rng, false), phrase(rng, 1, 2))
		}
	}
	b.WriteString(")\n")
}

func goFunc(b *bytes.Buffer, rng *rand.Rand) {
	name := ident(rng, rng.IntN(3) > 0)
	fmt.Fprintf(b, "// %s %s the %s and %s the %s.\n", name, pick(rng, verbs), phrase(rng, 1, 2), pick(rng, verbs), phrase(rng, 1, 3))
	if rng.IntN(3) == 0 {
		fmt.Fprintf(b, "// It %s %s, so callers %s the %s.\n", pick(rng, verbs), phrase(rng, 2, 4), pick(rng, verbs[:6]), phrase(rng, 1, 2))
	}
	recv := ""
	if rng.IntN(2) == 0 {
		recv = fmt.Sprintf("(s *%s) ", ident(rng, true))
	}
	fmt.Fprintf(b, "func %s%s(ctx context.Context, %s %s, %s %s) (%s, error) {\n",
		recv, name, ident(rng, false), pick(rng, goTypes), ident(rng, false), pick(rng, goTypes), pick(rng, goTypes))
	goStmts(b, rng, 1, 3+rng.IntN(12))
	b.WriteString("\treturn " + zero(rng) + ", nil\n}\n")
}

func zero(rng *rand.Rand) string {
	return []string{"0", `""`, "nil", "false", "total", "n"}[rng.IntN(6)]
}

func goStmts(b *bytes.Buffer, rng *rand.Rand, depth, n int) {
	ind := strings.Repeat("\t", depth)
	for range n {
		switch r := rng.IntN(12); {
		case r < 3:
			fmt.Fprintf(b, "%s%s := %s(%s, %d)\n", ind, ident(rng, false), ident(rng, rng.IntN(2) == 0), ident(rng, false), rng.IntN(100))
		case r < 4:
			fmt.Fprintf(b, "%s// %s %s the %s; é and ✓ are fine here.\n", ind, capitalize(pick(rng, words)), pick(rng, verbs), phrase(rng, 1, 3))
		case r < 6 && depth < 4:
			fmt.Fprintf(b, "%sif err := %s.%s(ctx); err != nil {\n", ind, ident(rng, false), ident(rng, true))
			fmt.Fprintf(b, "%s\treturn %s, fmt.Errorf(\"%s %%s: %%w\", %s, err)\n%s}\n", ind, zero(rng), phrase(rng, 1, 3), ident(rng, false), ind)
		case r < 8 && depth < 4:
			fmt.Fprintf(b, "%sfor i, %s := range %s {\n", ind, ident(rng, false), ident(rng, false))
			goStmts(b, rng, depth+1, 1+rng.IntN(4))
			fmt.Fprintf(b, "%s\t_ = i\n%s}\n", ind, ind)
		case r < 9 && depth < 4:
			v := ident(rng, false)
			fmt.Fprintf(b, "%sswitch %s {\n", ind, v)
			for range 1 + rng.IntN(3) {
				fmt.Fprintf(b, "%scase %q:\n", ind, pick(rng, words))
				goStmts(b, rng, depth+1, 1+rng.IntN(2))
			}
			fmt.Fprintf(b, "%sdefault:\n%s\ttotal += len(%s) * %d\n%s}\n", ind, ind, v, rng.IntN(9)+1, ind)
		case r < 10:
			fmt.Fprintf(b, "%sfmt.Fprintf(w, \"%%s: %%d %s\\n\", %s, len(%s))\n", ind, pick(rng, words), ident(rng, false), ident(rng, false))
		default:
			fmt.Fprintf(b, "%s%s.%s = append(%s.%s, %s[%d:])\n", ind, ident(rng, false), ident(rng, true), ident(rng, false), ident(rng, true), ident(rng, false), rng.IntN(8))
		}
	}
}

// writeHugoConfigTail ends a themed site's hugo.toml, after the theme's
// import: the textfrag module's import last (so its hooks win over a
// theme's, as the module's README sets a site up), and the markup settings
// every themed site shares (standalone images as blocks, highlighting with
// CSS classes, as the module's boxes are).
func writeHugoConfigTail(cfg *strings.Builder, withModule bool) {
	if withModule {
		cfg.WriteString("  [[module.imports]]\n    path = \"github.com/textfrag/textfrag/hugo-module\"\n")
	}
	cfg.WriteString(`
[markup.goldmark.parser]
  wrapStandAloneImageWithinParagraph = false

[markup.highlight]
  noClasses = false
`)
}
