package hugotest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A 1.2 MB file quoted forty times: the templates count with strings
// functions that pass over the text once, and read each file once per build.
func TestLargeFile(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "\tx%d := compute(%d) // a comment with é and ✓\r\n", i, i)
	}
	text := b.String()
	write(t, filepath.Join(root, "src", "big.go"), text)

	// Where character 900000 is, counted in Go: CR+LF is one character.
	lines := strings.SplitAfter(text, "\r\n")
	charLine, charCol, acc := 0, 0, 0
	for i, l := range lines {
		n := utf8.RuneCountInString(l) - 1
		if acc+n > 900000 {
			charLine, charCol = i+1, 900000-acc+1
			break
		}
		acc += n
	}

	var doc strings.Builder
	doc.WriteString("---\ntitle: t\n---\n\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&doc, "![x](src/big.go#line=%d,%d)\n\n![y](src/big.go#char=%d)\n\n", 15000+i, 15010+i, 900000+i)
	}
	start := time.Now()
	r := site{Root: root, Docs: map[string]string{"page.md": doc.String()}}.build(t)
	if r.Err != nil {
		t.Fatal(r.Err, r.Log)
	}
	t.Logf("40 links into a %d-byte, 20000-line file: %v", len(text), time.Since(start))
	mustContain(t, "the page", r.Pages["page.md"],
		`<span class="textfrag-range">lines 15001–15010</span>`,
		`<span class="ln">15010</span><span class="cl"><span class="w">	</span><span class="nx">x15009</span>`,
		fmt.Sprintf(`<span class="textfrag-range">before line %d, col %d</span>`, charLine, charCol),
		fmt.Sprintf(`<span class="textfrag-range">before line %d, col %d</span>`, charLine, charCol+19))
}
