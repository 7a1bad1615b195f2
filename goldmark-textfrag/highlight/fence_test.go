package highlight

import (
	"reflect"
	"testing"
)

func TestFenceOptions(t *testing.T) {
	for _, c := range []struct {
		info string
		want Options
	}{
		{"", Options{}},
		{"go", Options{Lang: "go"}},
		{"go extra words", Options{Lang: "go"}},
		{"go {linenos=inline}", Options{Lang: "go", LineNumbers: true}},
		{"go{linenos=table}", Options{Lang: "go", LineNumbers: true}},
		{"go {linenos=true, linenostart=11}", Options{Lang: "go", LineNumbers: true, FirstLine: 11}},
		{`go {LineNos="inline" LineNoStart="7" hl_lines="1 3-4"}`, Options{Lang: "go", LineNumbers: true, FirstLine: 7, Highlighted: [][2]int{{7, 7}, {9, 10}}}},
		{`py {linenos=false hl_lines=[2,"4-5"]}`, Options{Lang: "py", Highlighted: [][2]int{{2, 2}, {4, 5}}}},
		{"go {linenos=inline linenostart=0 hl_lines=\"x 3-1 0\"}", Options{Lang: "go", LineNumbers: true}},
		{"go {linenos=inline", Options{Lang: "go"}}, // unterminated: no attributes
		{"go {.class #id data-x=1}", Options{Lang: "go"}},
	} {
		got := FenceOptions([]byte(c.info))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("FenceOptions(%q) = %+v, want %+v", c.info, got, c.want)
		}
	}
}
