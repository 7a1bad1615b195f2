package pin

import (
	"fmt"
	"strings"
	"testing"
)

// sectioned returns two versions of a file of n sections of 8 lines each
// (Markdown sections, or Go functions), the second with 5 lines added at
// the top and one line edited in every tenth section, and a page quoting
// lines 2–5 of every section as pinned in the first version: every quote
// moves, one in ten is changed.
func sectioned(n int, goSource bool) (v1, v2, page string) {
	var a, b, p strings.Builder
	b.WriteString(strings.Repeat("// added at the top\n", 5))
	if goSource {
		a.WriteString("package p\n")
		b.WriteString("package p\n")
	}
	lineNo, starts := 0, []int{}
	if goSource {
		lineNo = 1
	}
	for i := range n {
		head := fmt.Sprintf("## Section %d\n", i)
		if goSource {
			head = fmt.Sprintf("func f%d() {\n", i)
		}
		body := make([]string, 7)
		for j := range body {
			body[j] = fmt.Sprintf("\tstep%d_%d := %d // what section %d does, step %d\n", i, j, i*j, i, j)
		}
		if goSource {
			body[6] = "}\n"
		}
		a.WriteString(head + strings.Join(body, ""))
		if i%10 == 0 {
			body[3] = fmt.Sprintf("\tstep%d_3 := %d // edited\n", i, i)
		}
		b.WriteString(head + strings.Join(body, ""))
		starts = append(starts, lineNo)
		lineNo += 8
	}
	v1 = a.String()
	sum := md5hex(v1) // md5= is the whole file's
	for _, s := range starts {
		fmt.Fprintf(&p, "[q](../f.txt#line=%d,%d;md5=%s)\n", s+2, s+5, sum)
	}
	return v1, b.String(), p.String()
}

// BenchmarkRelocateQuotes relocates one quote per section of a file
// through one commit: a file no symbol parser reads (the outline.go
// sections) and Go (the symbol parser), at two sizes. ns/quote at the two
// sizes shows the per-quote cost does not grow with the file.
func BenchmarkRelocateQuotes(b *testing.B) {
	for _, lang := range []string{"text", "go"} {
		for _, n := range []int{250, 2500, 10000} {
			b.Run(fmt.Sprintf("%s/quotes=%d", lang, n), func(b *testing.B) {
				v1, v2, page := sectioned(n, lang == "go")
				file := "f.txt"
				if lang == "go" {
					file = "f.go"
					page = strings.ReplaceAll(page, "../f.txt#", "../f.go#")
				}
				dir := importHistory(b, file, []string{v1, v2})
				for b.Loop() {
					moved, changed := 0, 0
					for _, c := range planWith(b, dir, NewHistory(dir), page) {
						switch c.Class {
						case Moved:
							moved++
						case Changed:
							changed++
						}
					}
					if moved+changed < n/2 {
						b.Fatalf("%d moved, %d changed of %d quotes", moved, changed, n)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/quote")
			})
		}
	}
}
