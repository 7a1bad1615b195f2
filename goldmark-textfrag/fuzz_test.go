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
	"github.com/textfrag/textfrag/internal/htmlsafe"
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
		"[x](%22%3E%3Cimg%20src=x%20onerror=y%3E#line=,1;x=%22'&)\n",
		"> > - 1. [x](t.txt#line=0,1 \"hl=1 lang=go\")\n",
		"[x](t.txt#line=,1;x=\xff\xfe)\n[y\x00](t.txt#char=0,1)\n",
		"![x](data:image/png;base64,AAAA)\n[j](javascript:alert(1)#line=1)\n",
		"[u](u.go#line=2,5 \"sym=U.M doc\")\n[r](t.txt#line=1,2 \"region=r\")\n",
		"[u](u.go#line=0,1 \"sym=a::b region=x quote\")\n",
	} {
		f.Add(seed)
	}
	project := fstest.MapFS{
		"t.txt":                       {Data: []byte("<script>x</script>\r\nline two\u0085three")},
		"dir/u.go":                    {Data: []byte("package u\n\n// U is u.\ntype U struct{}\n\nfunc (U) M() {}\n// textfrag:begin r\n// textfrag:end r\n")},
		`dir/"><img src=x onerror=y>`: {Data: []byte("<img src=x onerror=alert(1)>\n")},
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
		if !strings.ContainsAny(src, "<&") {
			// No raw HTML and no entities in the Markdown: whatever the links
			// and targets, the page holds no active markup but images.
			if problems := htmlsafe.Check(out.String(), htmlsafe.Options{Allow: map[string]int{"img": len(src)}}); len(problems) > 0 {
				t.Fatalf("active markup in the output: %s\n%s", problems[0], out.String())
			}
		}
	})
}
