package textfrag_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// A caption links to WithSourceURL's template only when it is an http,
// https or relative URL: a library user who passes a setting from an
// untrusted file through gets an error, never a javascript: link on every
// box.
func TestWithSourceURLScheme(t *testing.T) {
	project := fstest.MapFS{"a.txt": {Data: []byte("one\ntwo\n")}}
	src := []byte("[a](a.txt#line=0,1)\n")
	for _, c := range []struct {
		tmpl string
		ok   bool
	}{
		{"https://example.com/{path}#L{start}-L{end}", true},
		{"HTTP://example.com/{path}", true},
		{"/source/{path}", true},
		{"{path}.html", true},
		{"javascript:alert(1)//{path}", false},
		{"JavaScript:alert(1)", false},
		{"java\tscript:alert(1)", false},
		{"data:text/html,x", false},
		{"https://example.com/a b", false},
		{`https:\\example.com`, false},
	} {
		md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithFS(project), textfrag.WithSourceURL(c.tmpl))))
		pc := parser.NewContext()
		textfrag.SetDocument(pc, "index.md")
		var out bytes.Buffer
		err := md.Convert(src, &out, parser.WithContext(pc))
		if c.ok != (err == nil) || c.ok != (textfrag.CheckSourceURL(c.tmpl) == nil) {
			t.Errorf("%q: Convert error %v, CheckSourceURL %v", c.tmpl, err, textfrag.CheckSourceURL(c.tmpl))
		}
		if !c.ok && (out.Len() != 0 || !strings.Contains(err.Error(), "index.md:1:1: error: ") || !strings.Contains(err.Error(), "http or https")) {
			t.Errorf("%q: wrote %q; error %v", c.tmpl, out.String(), err)
		}
	}
}
