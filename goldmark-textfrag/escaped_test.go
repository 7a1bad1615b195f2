package textfrag_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// A destination that Markdown decodes into an RFC 5147 link is never
// rendered as a plain link: wherever it stands (an image, a link, a
// reference definition used or not, another extension's link), in lenient
// mode too, Convert fails with the escaped error at its position, the
// link as written, and its plain spelling.
func TestEscapedDestinationsFail(t *testing.T) {
	const data = "one\ntwo\n"
	root := writeProject(t, map[string]string{"t.txt": data})
	for _, c := range []struct {
		name, doc, link string
		line, col       int
	}{
		{"image", "![x](t.txt&#35;line=0,1;md5=" + staleMD5 + ")\n", "t.txt&#35;line=0,1;md5=" + staleMD5, 1, 1},
		{"link", "# H\n\n[w](t.txt#&#108;ine=0,1)\n", "t.txt#&#108;ine=0,1", 3, 1},
		{"inline", "See [y](t.txt\\#line=0,1) here.\n", `t.txt\#line=0,1`, 1, 5},
		{"used-definition", "[r][ref]\n\n[ref]: t.txt&num;line=0,1\n", "t.txt&num;line=0,1", 1, 1},
		{"unused-definition", "Text.\n\n[ref]: t.txt&#x23;line=0,1\n", "t.txt&#x23;line=0,1", 3, 1},
		{"foreign-destination", "See {{t.txt&#35;line=0,1}} here.\n", "t.txt&#35;line=0,1", 1, 5},
		{"foreign-fragment", "See {{t.txt#&#108;ine=0,1|}} here.\n", "t.txt#&#108;ine=0,1", 1, 5},
	} {
		for _, lenient := range []bool{false, true} {
			md := goldmark.New(goldmark.WithExtensions(braceLinks{}, textfrag.New(textfrag.WithRoot(root), textfrag.WithLenient(lenient))))
			out, _, err := convert(t, md, "doc.md", c.doc)
			var p *textfrag.Problem
			if !errors.As(err, &p) || p.Kind != "escaped" || p.Line != c.line || p.Column != c.col || p.Link != c.link {
				t.Errorf("%s (lenient %v): Convert = %q, %v; want an escaped error at %d:%d for %q", c.name, lenient, out, err, c.line, c.col, c.link)
				continue
			}
			if out != "" {
				t.Errorf("%s: wrote %q before failing", c.name, out)
			}
			if !strings.Contains(p.Message, "textfrag verifies only links written plainly; write the link plainly, as t.txt#line=0,1") {
				t.Errorf("%s: message %q", c.name, p.Message)
			}
		}
	}
	// The plain spelling is verified: a box.
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	if out, _, err := convert(t, md, "doc.md", "[w](t.txt#line=0,1;md5="+md5hex(data)+")\n"); err != nil || !strings.Contains(out, `class="textfrag`) {
		t.Errorf("plain spelling: %v\n%s", err, out)
	}
	// A destination Markdown reads as another fragment is left alone.
	if out, problems, err := convert(t, md, "doc.md", "[w](t.txt&#35;intro) [v](t.txt#line%3D1)\n"); err != nil || len(problems) != 0 || !strings.Contains(out, `href="t.txt#intro"`) {
		t.Errorf("other fragments: %v %v\n%s", err, problems, out)
	}
}
