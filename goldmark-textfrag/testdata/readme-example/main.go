// Command guide writes docs/guide.md as guide.html, with the code it quotes
// transcluded and checked: it fails, naming the link, when a quote no
// longer matches its file. Run it at the project root.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

func main() {
	log.SetFlags(0)
	src, err := os.ReadFile("docs/guide.md")
	if err != nil {
		log.Fatal(err)
	}
	md := goldmark.New(goldmark.WithExtensions(
		extension.GFM,
		textfrag.New(), // links may reach any file under the current directory
	))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "docs/guide.md") // links resolve against its directory
	var html bytes.Buffer
	if err := md.Convert(src, &html, parser.WithContext(pc)); err != nil {
		log.Fatal(err) // docs/guide.md:3:1: error: ../src/hello.go#line=2,5;md5=…: md5 mismatch: …
	}
	for _, p := range textfrag.Problems(pc) {
		fmt.Fprintln(os.Stderr, p) // warnings, such as a range clamped to the end of the file
	}
	if err := os.WriteFile("guide.html", html.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
