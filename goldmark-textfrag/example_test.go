package textfrag_test

import (
	"bytes"
	"fmt"
	"os"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// The README's example, with the project in memory so that it runs anywhere.
func Example() {
	project := fstest.MapFS{
		"src/hello.go": {Data: []byte("package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n")},
	}
	src := []byte("# Guide\n\n[The entry point](../src/hello.go#line=2,5)\n")

	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithFS(project))))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "docs/guide.md")
	var html bytes.Buffer
	if err := md.Convert(src, &html, parser.WithContext(pc)); err != nil {
		fmt.Fprintln(os.Stderr, err) // docs/guide.md:3:1: error: … and how to fix it
		return
	}
	fmt.Println(bytes.Contains(html.Bytes(), []byte(`<span class="textfrag-range">lines 3–5</span>`)))
	// Output: true
}

// A stale integrity check fails the conversion, naming the place and the fix.
func Example_staleMD5() {
	project := fstest.MapFS{"notes.txt": {Data: []byte("x\n")}}
	src := []byte("[note](notes.txt#line=0,1;md5=00000000000000000000000000000000)\n")

	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithFS(project))))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "index.md")
	err := md.Convert(src, new(bytes.Buffer), parser.WithContext(pc))
	fmt.Println(err)
	// Output: index.md:1:1: error: notes.txt#line=0,1;md5=00000000000000000000000000000000: md5 mismatch: the link says 00000000000000000000000000000000, the file has 401b30e3b8b5d629635a5c613cdb7919; the file now has md5=401b30e3b8b5d629635a5c613cdb7919;length=2; re-pin with `textfrag pin --write index.md`: it follows quoted text that moved, and shows text that changed for review
}

// A highlight cache in a directory makes later builds copy the boxes whose
// lines, language and numbering they wrote before, instead of lexing them
// again; the pages are the same either way.
func ExampleWithHighlightCache() {
	project := fstest.MapFS{"src/hello.go": {Data: []byte("package main\n\nfunc main() {}\n")}}
	cacheDir, err := os.MkdirTemp("", "textfrag-highlight-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(cacheDir)

	var pages []string
	for range 2 { // two builds, the second served from the cache
		md := goldmark.New(goldmark.WithExtensions(textfrag.New(
			textfrag.WithFS(project),
			textfrag.WithHighlightCache(highlight.DirCache(cacheDir)),
		)))
		var html bytes.Buffer
		if err := md.Convert([]byte("[main](src/hello.go#line=2,3)\n"), &html); err != nil {
			fmt.Println(err)
			return
		}
		pages = append(pages, html.String())
	}
	fmt.Println(pages[0] == pages[1])
	// Output: true
}
