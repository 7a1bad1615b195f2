package migrate

import (
	"strings"
	"testing"
)

// TestScanPageLinearInUnclosedSnippets: a page of n MarkdownSnippets
// blocks opened and never closed ("<!-- snippet: x -->" with no
// "<!-- endSnippet -->" after it) is scanned in lines read linear in n: the
// search for a close runs once, not once per open (which read n²/2 lines).
// Counted (lineReads), not timed.
func TestScanPageLinearInUnclosedSnippets(t *testing.T) {
	pages := map[string]func(n int) string{
		"opens alone": func(n int) string { return strings.Repeat("<!-- snippet: s -->\n", n) },
		"opens and prose": func(n int) string {
			return strings.Repeat("<!-- snippet: s -->\nsome text\n\n", n)
		},
		// A close early on does not end the search for the opens after it.
		"a close first": func(n int) string {
			return "<!-- snippet: a -->\n<!-- endSnippet -->\n" + strings.Repeat("<!-- snippet: s -->\ntext\n", n)
		},
	}
	for name, page := range pages {
		t.Run(name, func(t *testing.T) {
			reads := func(n int) int64 {
				l := newLines([]byte(page(n)))
				before := lineReads.Load()
				incs := scanPage(l)
				if len(incs) < n {
					t.Fatalf("%d opens: %d includes found", n, len(incs))
				}
				for _, inc := range incs[len(incs)-n:] {
					if inc.problem == "" {
						t.Fatalf("an open without a close converted: %+v", inc)
					}
				}
				return lineReads.Load() - before
			}
			const n = 1000
			small, large := reads(n), reads(2*n)
			lines := int64(newLines([]byte(page(2 * n))).count())
			t.Logf("%d opens: %d lines read; %d opens: %d (×%.2f); %d lines", n, small, 2*n, large, float64(large)/float64(small), lines)
			if large > small*5/2 {
				t.Errorf("doubling the opens multiplied the lines read by %.2f (linear: 2)", float64(large)/float64(small))
			}
			if large > 4*lines {
				t.Errorf("%d lines read for a page of %d lines", large, lines)
			}
		})
	}
}
