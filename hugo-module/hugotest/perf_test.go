package hugotest

import (
	"crypto/md5"
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

// BenchmarkBoxes builds one site of 20 pages with 20 quotes each, quoted by
// the module (module) and pasted as numbered fences (pasted), as bench/run's
// Hugo rows do at a fifth of their size: the ratio of the two is what the
// module costs on top of Hugo. Compare runs with benchstat.
func BenchmarkBoxes(b *testing.B) {
	const pages, links, files, fileLines = 20, 20, 10, 400
	root := b.TempDir()
	srcs := make([][]string, files)
	sums := make([]string, files)
	for f := range files {
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n\n", f)
		for i := 2; i < fileLines; i++ {
			switch i % 4 {
			case 0:
				fmt.Fprintf(&src, "// F%d returns the sum of a and %d, as a string.\n", i, i)
			case 1:
				fmt.Fprintf(&src, "func F%d(a int) string { return strconv.Itoa(a + %d) }\n", i, i)
			case 2:
				fmt.Fprintf(&src, "var v%d = map[string]int{\"k%d\": %d, \"x\": 0x%x}\n", i, i, i, i)
			default:
				src.WriteString("\n")
			}
		}
		text := src.String()
		srcs[f] = strings.SplitAfter(text, "\n")
		sums[f] = fmt.Sprintf("%x", md5.Sum([]byte(text)))
		write(b, filepath.Join(root, "src", fmt.Sprintf("f%d.go", f)), text)
	}
	quoted, pasted := map[string]string{}, map[string]string{}
	for p := range pages {
		var q, v strings.Builder
		q.WriteString("---\ntitle: t\n---\n\n")
		v.WriteString("---\ntitle: t\n---\n\n")
		for l := range links {
			f := (p*links + l) % files
			start := (p*7 + l*13) % (fileLines - 40)
			end := start + 5 + (p+l)%30
			fmt.Fprintf(&q, "Some text.\n\n![Quote %d](../src/f%d.go#line=%d,%d;md5=%s)\n\n", l, f, start, end, sums[f])
			fmt.Fprintf(&v, "Some text.\n\n*Quote %d* — `src/f%d.go`, lines %d–%d\n\n```go {linenos=inline linenostart=%d}\n%s```\n\n",
				l, f, start+1, end, start+1, strings.Join(srcs[f][start:end], ""))
		}
		quoted[fmt.Sprintf("docs/p%d.md", p)] = q.String()
		pasted[fmt.Sprintf("docs/p%d.md", p)] = v.String()
	}
	for _, bc := range []struct {
		name string
		docs map[string]string
	}{{"module", quoted}, {"pasted", pasted}} {
		b.Run(bc.name, func(b *testing.B) {
			s := site{Root: root, Docs: bc.docs, Config: "[markup.highlight]\nnoClasses = false\n"}
			for b.Loop() {
				if r := s.build(b); r.Err != nil {
					b.Fatal(r.Err, r.Log)
				}
			}
		})
	}
}
