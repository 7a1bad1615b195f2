package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
	"github.com/textfrag/textfrag/internal/page"
)

// defaultLayout is the page layout built into the command; SRC/_layout.html
// replaces it.
//
//go:embed layout.html
var defaultLayout string

// layoutData is what a page layout is executed with (html/template). A
// custom layout, SRC/_layout.html, may use every field:
//
//	.Title          the page title: front matter "title", else the first
//	                level-1 heading, else the file name
//	.Content        the page's HTML (template.HTML: write it as {{.Content}})
//	.StylesheetURL  the relative URL of textfrag.css, to put in
//	                <link rel="stylesheet" href="{{.StylesheetURL}}">
//	.Path           the page's output path in the site ("guide/setup.html")
//	.Root           the relative prefix to the site root ("./", "../", …),
//	                for links such as {{.Root}}img/logo.png
//	.Home           the relative URL of the site's index.html, "" without one
//	.Source         the Markdown file, relative to SRC ("guide/setup.md")
//	.Params         the front matter, as a map ({{.Params.author}})
//	.LiveReload     under "textfrag serve", the script that reloads the page
//	                when a file changes; empty otherwise. Put {{.LiveReload}}
//	                before </body>, or serve cannot reload the page.
type layoutData struct {
	Title         string
	Content       template.HTML
	StylesheetURL string
	Path          string
	Root          string
	Home          string
	Source        string
	Params        map[string]any
	LiveReload    template.HTML
}

// loadLayout returns SRC/_layout.html parsed as an html/template, or the
// built-in layout when there is none. The layout is read through root (SRC):
// a regular file inside it, in the realm (inRealm), of at most
// maxSiteFileBytes.
func loadLayout(root *os.Root, src string, inRealm func(rel string) error) (*template.Template, error) {
	name := filepath.Join(src, layoutName)
	if _, err := root.Lstat(layoutName); errors.Is(err, fs.ErrNotExist) {
		return template.New("layout.html").Parse(defaultLayout)
	}
	if err := inRealm(layoutName); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	text, err := readSiteFile(root, layoutName, name, maxSiteFileBytes)
	if err != nil {
		return nil, err
	}
	t, err := template.New(layoutName).Option("missingkey=zero").Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// applyLayout writes the page p, whose output path in the site is out, into
// the layout. hasIndex tells whether the site has an index.html.
func applyLayout(t *template.Template, p *page.Page, source, out string, hasIndex bool, liveReload template.HTML) ([]byte, error) {
	root := relRoot(out)
	d := layoutData{
		Title:         p.Title,
		Content:       template.HTML(p.Body),
		StylesheetURL: root + style.FileName,
		Path:          out,
		Root:          root,
		Source:        source,
		Params:        p.Front,
		LiveReload:    liveReload,
	}
	if hasIndex {
		d.Home = root + "index.html"
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("%s: layout: %w", p.Name, err)
	}
	return b.Bytes(), nil
}

// relRoot returns the relative prefix from the page at slash path out to
// the site root: "./" at the top, "../" one directory down, and so on.
func relRoot(out string) string {
	depth := strings.Count(out, "/")
	if depth == 0 {
		return "./"
	}
	return strings.Repeat("../", depth)
}
