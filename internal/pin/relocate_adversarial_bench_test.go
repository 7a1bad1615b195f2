package pin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// adversarial returns two versions of a file of n sections (Markdown
// sections of 8 lines, or Go functions of 8 lines) and a page with one
// quote per section pinned in the first, shaped so that every quote asks
// one of the questions that once looked over the whole file:
//
//   - "deleted": each section's quoted lines, a block every section
//     has, are deleted, and three copies appended (deletedLines looks
//     for them in the whole file now, and finds them many times);
//   - "moved": each section's quoted lines move to the end of the file,
//     in reverse order (deletedLines, and occursTwice over the pinned
//     version for each block found);
//   - "hunks": each section's first quoted line is rewritten, so the new
//     range starts with an inserted line in one of n runs of changes
//     (rewrittenInQuote's hunk);
//   - "outside" (Go): each quote spans the end of one function and the
//     start of the next, in no declaration (overlapped, both versions).
func adversarial(kind string, n int) (file, v1, v2, page string) {
	common := []string{"\tif err != nil {\n", "\t\treturn err\n", "\t}\n"}
	goSource := kind == "outside"
	var a, b, tail, p strings.Builder
	b.WriteString(strings.Repeat("// added at the top\n", 5))
	if goSource {
		a.WriteString("package p\n")
		b.WriteString("package p\n")
	}
	var ranges [][2]int
	lineNo := 0
	if goSource {
		lineNo = 1
	}
	var moved []string
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
		if kind == "deleted" {
			// The quoted lines are a block the file repeats, once per
			// section; deleted from every section, three copies appended.
			copy(body[1:4], common)
		}
		a.WriteString(head + strings.Join(body, ""))
		switch kind {
		case "deleted":
			b.WriteString(head + strings.Join(body[:1], "") + strings.Join(body[4:], ""))
		case "moved":
			b.WriteString(head + strings.Join(body[:1], "") + strings.Join(body[4:], ""))
			moved = append(moved, strings.Join(body[1:4], ""))
		case "hunks":
			body[1] = fmt.Sprintf("rewritten %x entirely\n", i*7919)
			b.WriteString(head + strings.Join(body, ""))
		default:
			b.WriteString(head + strings.Join(body, ""))
		}
		if goSource {
			ranges = append(ranges, [2]int{lineNo + 6, lineNo + 9}) // "}" of f(i) .. f(i+1)'s first body line
		} else {
			ranges = append(ranges, [2]int{lineNo + 2, lineNo + 5})
		}
		lineNo += 8
	}
	if kind == "deleted" {
		tail.WriteString(strings.Repeat("\n"+strings.Join(common, ""), 3))
	}
	for i := len(moved) - 1; i >= 0; i-- {
		tail.WriteString("\n" + moved[i])
	}
	b.WriteString(tail.String())
	v1, v2 = a.String(), b.String()
	file = "f.md"
	if goSource {
		file = "f.go"
		ranges = ranges[:n-1]
	}
	sum := md5hex(v1)
	for _, r := range ranges {
		fmt.Fprintf(&p, "[q](../%s#line=%d,%d;md5=%s)\n", file, r[0], r[1], sum)
	}
	return file, v1, v2, p.String()
}

// BenchmarkRelocateAdversarial relocates one quote per section of a file
// through one commit that makes every quote ask a question about the whole
// file (adversarial), at three sizes: ns/quote stays flat when each
// question is answered from what is built once per version or diff, and
// grows with the file when a question looks at every line, hunk or
// declaration again.
func BenchmarkRelocateAdversarial(b *testing.B) {
	for _, kind := range []string{"deleted", "moved", "hunks", "outside"} {
		for _, n := range []int{1000, 4000, 16000} {
			b.Run(fmt.Sprintf("%s/quotes=%d", kind, n), func(b *testing.B) {
				file, v1, v2, page := adversarial(kind, n)
				dir := importHistory(b, file, []string{v1, v2})
				classes := map[Class]int{}
				for b.Loop() {
					clear(classes)
					for _, c := range planWith(b, dir, NewHistory(dir), page) {
						classes[c.Class]++
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/quote")
				if testing.Verbose() {
					b.Logf("%v", classes)
				}
			})
		}
	}
}

// TestRelocationQuestionsBounded: what the questions that once looked
// over the whole file per quote (deletedLines, occursTwice,
// rewrittenInQuote's run and its lines, overlapped) look at, counted
// (questionWork), grows per quote by no more than a logarithm when the
// file and its quotes grow fourfold: a look over the file per quote would
// grow fourfold. Each workload asks its question of every quote.
func TestRelocationQuestionsBounded(t *testing.T) {
	for _, c := range []struct {
		kind string
		want []Class // what most quotes are
	}{
		{"deleted", []Class{Gone}},
		{"moved", []Class{Review}}, // moved blocks, in no section to tell where they belong
		{"hunks", []Class{Changed, Review}},
		{"outside", []Class{Moved}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			perQuote := map[int]float64{}
			for _, n := range []int{300, 1200} {
				file, v1, v2, page := adversarial(c.kind, n)
				dir := importHistory(t, file, []string{v1, v2})
				before := questionWork.Load()
				classes := map[Class]int{}
				for _, ch := range planWith(t, dir, NewHistory(dir), page) {
					classes[ch.Class]++
				}
				work := questionWork.Load() - before
				most := 0
				for _, w := range c.want {
					most += classes[w]
				}
				if most < n*9/10 {
					t.Fatalf("%d quotes: %v, want most %s", n, classes, c.want)
				}
				if work < int64(n) {
					t.Fatalf("%d quotes: %d steps: the question was not asked of each", n, work)
				}
				perQuote[n] = float64(work) / float64(n)
			}
			if growth := perQuote[1200] / perQuote[300]; growth > 1.5 {
				t.Errorf("steps per quote %.0f at 300 quotes, %.0f at 1200 (×%.2f): grows with the file", perQuote[300], perQuote[1200], growth)
			} else {
				t.Logf("steps per quote %.0f at 300 quotes, %.0f at 1200 (×%.2f)", perQuote[300], perQuote[1200], growth)
			}
		})
	}
}

// BenchmarkRelocationQuestions times each question that once looked over
// the whole file, alone, asked of every quote of the adversarial
// workloads, as answered now (indexed) and as it was (scan, the
// references in occurs_test.go): ns/question flat against growing with
// the file. The indexes are built inside the timed loop, once per round,
// as relocation builds them once per version or line map.
func BenchmarkRelocationQuestions(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		for _, way := range []string{"indexed", "scan"} {
			indexed := way == "indexed"
			b.Run(fmt.Sprintf("deletedLines/%s/quotes=%d", way, n), func(b *testing.B) {
				_, v1, v2, _ := adversarial("deleted", n)
				old, cur := newRFCText([]byte(v1)), newRFCText([]byte(v2))
				m := newLineMap(old, cur)
				f := rfc5147.Fragment{Scheme: rfc5147.Line, Form: rfc5147.Range}
				for b.Loop() {
					m.occurs, m.deletedScans = nil, 0
					for i := range n {
						s := 8*i + 2
						out := quoteMapping{said: 3}
						if indexed {
							out = deletedLines(f, s, s+3, old, cur, m, out)
						} else {
							out = deletedLinesScan(f, s, s+3, old, cur, m, out)
						}
						if out.fate != quoteDeleted || len(out.elsewhere) != maxHints {
							b.Fatalf("quote %d: %+v", i, out)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/question")
			})
			b.Run(fmt.Sprintf("occursTwice/%s/quotes=%d", way, n), func(b *testing.B) {
				_, v1, _, _ := adversarial("moved", n)
				old := newRFCText([]byte(v1))
				for b.Loop() {
					old.occurs = nil
					for i := range n {
						quoted := []byte(strings.Join(old.contents()[8*i+2:8*i+5], "\n") + "\n")
						var twice bool
						if indexed {
							twice = old.occursTwice(quoted)
						} else {
							twice = occursTwiceScan(old.data, quoted)
						}
						if twice {
							b.Fatalf("quote %d occurs twice", i)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/question")
			})
			b.Run(fmt.Sprintf("rewrittenInQuote/%s/quotes=%d", way, n), func(b *testing.B) {
				_, v1, v2, _ := adversarial("hunks", n)
				old, cur := newRFCText([]byte(v1)), newRFCText([]byte(v2))
				a, bl := old.contents(), cur.contents()
				m := newLineMap(old, cur)
				z := m.slides(a, bl, old.regions(outlineMarkdown))
				// Once before timing: what likeDeleted remembers (and its
				// budget) is the same for both ways, and not timed.
				for i := range n {
					s := 8*i + 2
					rewrittenInQuoteScan(m.toNew[s+1]-1, s, s+3, false, a, bl, m, z)
				}
				for b.Loop() {
					for i := range n {
						s := 8*i + 2
						j := m.toNew[s+1] - 1 // the rewritten line, at the quote's first edge
						if indexed {
							rewrittenInQuote(j, s, s+3, false, a, bl, m, z)
						} else {
							rewrittenInQuoteScan(j, s, s+3, false, a, bl, m, z)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/question")
			})
			b.Run(fmt.Sprintf("overlapped/%s/quotes=%d", way, n), func(b *testing.B) {
				spans := make([]symbol.Span, n)
				for i := range spans {
					spans[i] = symbol.Span{Start: 8*i + 1, End: 8*i + 9, Kind: "func", Name: fmt.Sprintf("f%d", i)}
				}
				for b.Loop() {
					d := &declarations{spans: spans}
					for i := range n - 1 {
						s := 8*i + 7 // the end of one function and the start of the next
						var got string
						if indexed {
							got = d.overlapped(s, s+3)
						} else {
							got = overlappedScan(spans, s, s+3)
						}
						if got == "" {
							b.Fatal("no declaration touched")
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/question")
			})
		}
	}
}
