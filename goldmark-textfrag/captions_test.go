package textfrag_test

// Captions are the link text as plain text, escaped once (issue 11, E13).

import (
	"regexp"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

var titleRE = regexp.MustCompile(`<span class="textfrag-title">([^<]*)</span>`)

func TestCaptionIsPlainTextEscapedOnce(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n"})
	plain := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	typo := goldmark.New(goldmark.WithExtensions(extension.Typographer, extension.GFM, textfrag.New(textfrag.WithRoot(root))))
	tests := []struct {
		name string
		md   goldmark.Markdown
		text string // the link text as written
		want string // the title span's content, as written in the HTML
	}{
		{"entity", plain, `Tom &amp; Jerry`, `Tom &amp; Jerry`},
		{"escapes", plain, `Tom &amp; Jerry \*star\*`, `Tom &amp; Jerry *star*`},
		{"numeric references", plain, `&#42;a&#x2A; &lt;b&gt; &quot;c&quot;`, `*a* &lt;b&gt; &#34;c&#34;`},
		{"escaped entity", plain, `\&amp; stays`, `&amp;amp; stays`},
		{"emphasis and code", plain, "*Tom* and `a\\*b &amp;` __c__", `Tom and a\*b &amp;amp; c`},
		{"raw html", plain, `a <b>bold</b> c`, `a bold c`},
		{"image in link text", plain, `![logo](l.png) Handler`, `Handler`},
		{"line break", plain, "one  \ntwo\nthree", `one two three`},
		{"typographer", typo, `Don't "quote" -- it...`, "Don’t “quote” – it…"},
		{"typographer, apostrophe only", typo, `Tom's`, "Tom’s"},
		{"strikethrough", typo, `~~old~~ new`, `old new`},
		{"nul", plain, "a\x00b", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, src := range []string{
				"[" + tt.text + "](t.txt#line=0,1)\n",
				"![" + tt.text + "](t.txt#line=0,1)\n",
			} {
				if tt.name == "image in link text" && src[0] == '!' {
					continue // an image's alt holds no image
				}
				out, _, err := convert(t, tt.md, "doc.md", src)
				if err != nil {
					t.Fatal(err)
				}
				m := titleRE.FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("%q: no title in\n%s", src, out)
				}
				if m[1] != tt.want {
					t.Errorf("%q: title %q, want %q", src, m[1], tt.want)
				}
			}
		})
	}
}

// PlainText gives the same text for a heading, which a page title takes.
func TestPlainTextOfHeading(t *testing.T) {
	src := []byte("# Tom &amp; Jerry \\*star\\* `x&amp;`\n")
	doc := goldmark.New().Parser().Parse(textReader(src))
	if got, want := textfrag.PlainText(doc.FirstChild(), src), "Tom & Jerry *star* x&amp;"; got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
}

func textReader(src []byte) text.Reader { return text.NewReader(src) }
