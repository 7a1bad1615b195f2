package textfrag_test

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// A page converted with the project in memory, so that it runs anywhere.
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
	// Output: index.md:1:1: error: notes.txt#line=0,1;md5=00000000000000000000000000000000: md5 mismatch: the file changed since the link was pinned; the file now has md5=401b30e3b8b5d629635a5c613cdb7919;length=2; re-pin with `textfrag pin --write index.md`: it follows quoted text that moved, and shows text that changed for review
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

// readmeExample is the README's goldmark example, a complete program.
const readmeExample = "testdata/readme-example/main.go"

// TestREADMEExample holds the README's goldmark example to
// testdata/readme-example/main.go, byte for byte, then builds that program
// and runs it on a project: it writes the page, and fails naming the link
// when the quote is stale.
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## The goldmark extension\n")
	if !ok {
		t.Fatal("README.md has no section \"The goldmark extension\"")
	}
	_, code, ok := strings.Cut(section, "\n```go\n")
	code, _, closed := strings.Cut(code, "\n```\n")
	if !ok || !closed {
		t.Fatal("the goldmark section of README.md has no ```go block")
	}
	program, err := os.ReadFile(readmeExample)
	if err != nil {
		t.Fatal(err)
	}
	if code+"\n" != string(program) {
		t.Fatalf("the README's example differs from %s:\n%s", readmeExample, code)
	}

	bin := filepath.Join(t.TempDir(), "guide")
	build := exec.Command("go", "build", "-o", bin, "./"+filepath.Dir(readmeExample))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the README's example does not build: %v\n%s", err, out)
	}
	hello := "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n"
	run := func(link string) (string, string, error) {
		root := writeProject(t, map[string]string{
			"src/hello.go":  hello,
			"docs/guide.md": "# Guide\n\n[The entry point](" + link + ")\n",
		})
		cmd := exec.Command(bin)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		page, _ := os.ReadFile(filepath.Join(root, "guide.html"))
		return string(page), stderr.String(), err
	}
	sum := md5.Sum([]byte(hello))
	page, stderr, err := run("../src/hello.go#line=2,5;md5=" + hex.EncodeToString(sum[:]))
	if err != nil || !strings.Contains(page, `<span class="textfrag-range">lines 3–5</span>`) {
		t.Errorf("the example: %v\n%s\npage:\n%s", err, stderr, page)
	}
	page, stderr, err = run("../src/hello.go#line=2,5;md5=" + strings.Repeat("0", 32))
	if err == nil || page != "" || !strings.HasPrefix(stderr, "docs/guide.md:3:1: error: ../src/hello.go#line=2,5;md5=") || !strings.Contains(stderr, "md5 mismatch") {
		t.Errorf("a stale quote: exit %v, stderr %q, page %q", err, stderr, page)
	}
}

// A link whose title names a symbol keeps the quote on it: once the
// function grew, the link's lines no longer match and the build says
// where it is now and how to re-pin.
func Example_symbol() {
	project := fstest.MapFS{
		"src/hello.go": {Data: []byte("package main\n\n// main greets.\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(\"again\")\n}\n")},
	}
	src := []byte("[main](../src/hello.go#line=3,6 \"sym=main\")\n")

	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithFS(project))))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "docs/guide.md")
	err := md.Convert(src, new(bytes.Buffer), parser.WithContext(pc))
	fmt.Println(err)
	// Output: docs/guide.md:1:1: error: ../src/hello.go#line=3,6: sym=main spans lines 4–7 of src/hello.go now (#line=3,7); the link quotes lines 4–6; run `textfrag pin --write docs/guide.md` to re-pin it
}
