package quotelink_test

import (
	"fmt"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/quotelink"
)

// Lines 2 to 3 of src/a.go, quoted from docs/guide.md: the link the
// README's "Writing links" section describes, without counting from 0 or
// running pin.
func ExampleCompose() {
	src, _ := rfc5147.NewText([]byte("package a\n\nfunc A() {}\n"), rfc5147.UTF8)
	file, r, _ := quotelink.ParseRef("src/a.go:2-3", false)
	link, _, err := quotelink.Compose(file, r, src, quotelink.Options{Page: "docs/guide.md"})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The md5 is md5sum's: printf 'package a\n\nfunc A() {}\n' | md5sum
	fmt.Println(link.Markdown())
	// Output: [a.go lines 2–3](../src/a.go#line=1,3;md5=532325fc4cf07928a5684a9440c52d09)
}

// The link the README's "Quoting by name" section prints: the method
// Server.Handle of src/server.go, found by the Go parser, quoted from
// docs/guide.md with its name in the title.
func ExampleComposeName() {
	src := []byte("package server\n\nimport \"net/http\"\n\n// Server counts requests.\ntype Server struct{ n int }\n\n// Handle answers one request.\nfunc (s *Server) Handle(w http.ResponseWriter, r *http.Request) {\n\ts.n++\n\tw.WriteHeader(http.StatusNoContent)\n}\n")
	file, name, _ := quotelink.ParseNameRef("src/server.go:Server.Handle", nil)
	sel, _ := quotelink.NewSelector(name, false, false)
	span, err := symbol.Default().Find(file, "", src, sel)
	if err != nil {
		fmt.Println(err)
		return
	}
	text, _ := rfc5147.NewText(src, rfc5147.UTF8)
	link, _, err := quotelink.ComposeName(file, sel, span, text, quotelink.Options{Page: "docs/guide.md"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(link.Markdown())
	// Output: [server.go: Server.Handle](../src/server.go#line=8,12;md5=73e0849af2f1331b16cbb93dcb3b5ace "sym=Server.Handle")
}
