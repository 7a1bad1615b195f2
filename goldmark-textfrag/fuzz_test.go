package textfrag_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// FuzzConvert feeds arbitrary Markdown through the whole extension: it must
// never panic, every error must be a located *Problem, and transcluded text
// must never reach the page unescaped.
func FuzzConvert(f *testing.F) {
	for _, seed := range []string{
		"[a](t.txt#line=0,1)\n",
		"![a](t.txt#char=1,3)\n",
		"x [a](t.txt#char=0,2 \"quote\") y\n",
		"[a](t.txt#line=1,0)\n",
		"[a](t.txt#line=0,1;md5=00000000000000000000000000000000)\n",
		"- [a](t.txt#line=0,9)\n\n> [b](/t.txt#line=,1 \"hl=1 dedent\")\n",
		"[a](<t.txt#line= 1>)\n[b](../t.txt#line=1)\n[c](%2e%2e/t.txt#line=1)\n",
		"[a][r]\n\n[r]: t.txt#line=0,2\n",
	} {
		f.Add(seed)
	}
	project := fstest.MapFS{
		"t.txt":    {Data: []byte("<script>x</script>\r\nline two\u0085three")},
		"dir/u.go": {Data: []byte("package u\n")},
	}
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithFS(project))))
	f.Fuzz(func(t *testing.T, src string) {
		pc := parser.NewContext()
		textfrag.SetDocument(pc, "dir/doc.md")
		var out bytes.Buffer
		err := md.Convert([]byte(src), &out, parser.WithContext(pc))
		if err != nil {
			var p *textfrag.Problem
			if !errors.As(err, &p) {
				t.Fatalf("error %T %v is not a Problem", err, err)
			}
			if p.Line < 1 || p.Column < 1 || p.Document != "dir/doc.md" {
				t.Fatalf("problem not located: %v", p)
			}
			return
		}
		if strings.Contains(src, "<script>") {
			return // raw HTML in the Markdown itself is goldmark's to handle
		}
		if strings.Contains(out.String(), "<script>") {
			t.Fatalf("target text unescaped in output:\n%s", out.String())
		}
	})
}
