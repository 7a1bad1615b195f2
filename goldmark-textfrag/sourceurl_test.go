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
		// As the caption's href reads it: references decoded.
		{"javascript&colon;alert(1)//{path}", false},
		{"javascript&#58;alert(1)", false},
		{"javascript&#x3A;alert(1)", false},
		{"&#106;avascript:alert(1)", false},
		{"&#x64;ata:text/html,x", false},
		{"https://example.com/?a=1&b={start}", true},
		{"https&colon;//example.com/{path}", true},
		// A placeholder is not a scheme.
		{"{path}:alert(1)", false},
		{"java{path}:x", false},
		{"{path}#L{start}:{end}", true},
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

// {path} makes no scheme: a file named "javascript:alert(1)" quoted under a
// template that starts with {path} is a relative link, its ":" written %3A.
func TestSourceURLPathMakesNoScheme(t *testing.T) {
	project := fstest.MapFS{"javascript:alert(1)": {Data: []byte("one\ntwo\n")}}
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithFS(project), textfrag.WithSourceURL("{path}"))))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "index.md")
	var out bytes.Buffer
	if err := md.Convert([]byte("[a](./javascript:alert%281%29#line=0,1)\n"), &out, parser.WithContext(pc)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `href="javascript%3Aalert%281%29"`) {
		t.Errorf("the caption's link:\n%s", out.String())
	}
}
