package quotelink_test

import (
	"fmt"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
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
