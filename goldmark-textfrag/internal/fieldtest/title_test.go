package fieldtest

import (
	"strings"
	"testing"

	emoji "github.com/yuin/goldmark-emoji"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// A box's title is the link text as goldmark renders it, as plain text
// (testdata/OUTPUT.md), emoji included: goldmark-emoji's nodes have no text
// of their own, and are what its renderer writes for them.
func TestBoxTitleKeepsEmoji(t *testing.T) {
	root := project(t)
	good := md5hex(helloGo)
	tests := []struct {
		name string
		ext  combination
		want string
	}{
		{"entities", combination{exts: with(emoji.Emoji)}, "🚀 Launch *it* — main"},
		{"unicode", combination{exts: with(emoji.New(emoji.WithRenderingMethod(emoji.Unicode)))}, "🚀 Launch *it* — main"},
		// Twemoji writes an image, and a title leaves images out.
		{"twemoji", combination{exts: with(emoji.New(emoji.WithRenderingMethod(emoji.Twemoji)))}, "Launch *it* — main"},
	}
	for _, tt := range tests {
		for _, o := range orders() {
			md := newMarkdown(tt.ext, o.first, textfrag.WithRoot(root))
			out, problems, err := convert(md, "[:rocket: Launch \\*it\\* --- `main`](../src/hello.go#line=4,7;md5="+good+")\n")
			if err != nil || len(problems) != 0 {
				t.Fatalf("%s, %s: err %v, problems %v", tt.name, o.name, err, problems)
			}
			want := `<span class="textfrag-title">` + tt.want + `</span>`
			if !strings.Contains(out, want) {
				t.Errorf("%s, %s: no %s in\n%s", tt.name, o.name, want, out)
			}
		}
	}
}
