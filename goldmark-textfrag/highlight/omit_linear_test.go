package highlight

import (
	"strconv"
	"strings"
	"testing"
)

// TestOmitLinesLinear: omitLines looks at each line and each omitted
// number a bounded number of times (omitSteps), not at every omitted number
// for every line: doubling a block of lines and omitted lines doubles the
// work. Counted, not timed.
func TestOmitLinesLinear(t *testing.T) {
	steps := func(n int) int64 {
		// 2n lines as chroma writes them, every other one omitted.
		var b strings.Builder
		b.WriteString(`<pre tabindex="0" class="chroma"><code>`)
		omit := make([]int, 0, n)
		for i := range 2 * n {
			b.WriteString(`<span class="line"><span class="ln">` + strconv.Itoa(1+i) + `</span><span class="cl">x` + "\n</span></span>")
			if i%2 == 1 {
				omit = append(omit, 1+i)
			}
		}
		b.WriteString(`</code></pre>`)
		before := omitSteps.Load()
		out := omitLines(b.String(), 1, omit)
		if got := strings.Count(out, lineStart); got != n || !strings.HasSuffix(out, "</code></pre>") || strings.Contains(out, `"ln">2<`) {
			t.Fatalf("%d lines kept of %d, want %d:\n%.300s", got, 2*n, n, out)
		}
		return omitSteps.Load() - before
	}
	const n = 2000
	small, large := steps(n), steps(2*n)
	t.Logf("%d lines, %d omitted: %d steps; doubled: %d (×%.2f)", 2*n, n, small, large, float64(large)/float64(small))
	if large > small*5/2 || large > 2*(4*n+2*n) {
		t.Errorf("steps %d → %d for twice the lines and omitted lines (linear: ×2, at most 2 a line and omitted number)", small, large)
	}
}
