package highlight

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestOmitLines: omitted lines leave the block, the others keep their own
// numbers and highlighting, and the wrapper stays whole whichever line
// goes (the last one's span runs into the wrapper's end).
func TestOmitLines(t *testing.T) {
	code := "x := 1\n// textfrag:begin r\ny := \"s\"\n// textfrag:end r\n"
	numbers := regexp.MustCompile(`<span class="ln">\s*(\d+)</span>`)
	for _, tc := range []struct {
		omit []int
		want []string
		text string
	}{
		{nil, []string{"10", "11", "12", "13"}, ""},
		{[]int{11}, []string{"10", "12", "13"}, `y`},
		{[]int{11, 13}, []string{"10", "12"}, `y`},
		{[]int{10, 11, 12}, []string{"13"}, `textfrag:end`},
	} {
		var b strings.Builder
		err := Write(&b, code, Options{Lang: "go", LineNumbers: true, FirstLine: 10, Highlighted: [][2]int{{12, 12}}, Omit: tc.omit})
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		var got []string
		for _, m := range numbers.FindAllStringSubmatch(out, -1) {
			got = append(got, m[1])
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("omit %v: numbers %v, want %v\n%s", tc.omit, got, tc.want, out)
		}
		if !strings.HasPrefix(out, `<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-go" data-lang="go">`) || !strings.HasSuffix(out, "</code></pre></div>") {
			t.Errorf("omit %v: the wrapper is not whole:\n%s", tc.omit, out)
		}
		if strings.Count(out, "<span") != strings.Count(out, "</span>") {
			t.Errorf("omit %v: unbalanced spans:\n%s", tc.omit, out)
		}
		// Line 12 stays emphasized wherever it stands.
		if !slices.Contains(tc.omit, 12) && !strings.Contains(out, `<span class="line hl"><span class="ln">12</span>`) {
			t.Errorf("omit %v: line 12 lost its emphasis:\n%s", tc.omit, out)
		}
		if tc.text != "" && !strings.Contains(out, tc.text) {
			t.Errorf("omit %v: %q missing:\n%s", tc.omit, tc.text, out)
		}
	}
	// The cache tells blocks with and without omitted lines apart.
	a, _ := keyFor(code, Options{Lang: "go", LineNumbers: true})
	b, _ := keyFor(code, Options{Lang: "go", LineNumbers: true, Omit: []int{2}})
	if a == b {
		t.Error("one cache key for blocks that omit different lines")
	}
}
