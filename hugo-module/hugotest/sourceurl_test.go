package hugotest

import (
	"fmt"
	htmlpkg "html"
	"path/filepath"
	"strings"
	"testing"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// tomlString writes s as a TOML basic string, control characters, quotes
// and backslashes as escapes.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '"' || r == '\\':
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// params.textfrag.sourceURL is what every box's caption links to: Hugo takes
// exactly the templates the library's CheckSourceURL takes (http, https or
// relative, in any letter case, with no space, control character or
// backslash) and fails the build on any other, naming the setting, as the
// library and the command do; a taken one is the caption's link.
func TestSourceURLSchemeChecked(t *testing.T) {
	root := newProject(t)
	doc := "---\ntitle: t\n---\n\n![x](src/a.txt#line=0,1)\n"
	for _, c := range []struct {
		tmpl string
		ok   bool // what the library says: the test asserts both agree
	}{
		{"https://example.org/blob/main/{path}#L{start}-L{end}", true},
		{"HTTP://example.org/{path}", true},
		{"hTtPs://example.org/{path}", true},
		{"/browse/{path}?l={start}", true},
		{"../src/{path}", true},
		{"{path}", true},
		{"?f={path}", true},
		{"#L{start}", true},
		{"javascript:alert(document.domain)//{path}", false},
		{"JaVaScRiPt:alert(1)", false},
		{"data:text/html,<script>alert(1)</script>", false},
		{"vbscript:msgbox(1)", false},
		{"VBScript:x", false},
		{"file:///etc/passwd", false},
		{"mailto:a@example.org", false},
		{"blob:https://example.org/x", false},
		{"ftp://example.org/{path}", false},
		{" javascript:alert(1)", false},
		{"  https://example.org/{path}", false},
		{"\tjavascript:alert(1)", false},
		{"\x01javascript:alert(1)", false},
		{"\u0085javascript:alert(1)", false},
		{"java\tscript:alert(1)", false},
		{"java\nscript:alert(1)", false},
		{"javascript\x00:alert(1)", false},
		{"https://example.org/a b", false},
		{`https:\\example.org`, false},
		{`\\evil.example/{path}`, false},
		{"https://example.org/\x7f", false},
		// As the caption's href reads it: references decoded.
		{"javascript&colon;alert(1)//{path}", false},
		{"javascript&#58;alert(1)", false},
		{"javascript&#x3A;alert(1)", false},
		{"&#106;avascript:alert(1)", false},
		{"&#x64;ata:text/html,x", false},
		{"https://example.org/?a=1&b={start}", true},
		// A placeholder is not a scheme.
		{"{path}:alert(1)", false},
		{"java{path}:x", false},
		{"{path}#L{start}:{end}", true},
	} {
		if lib := textfrag.CheckSourceURL(c.tmpl) == nil; lib != c.ok {
			t.Fatalf("%q: the library says ok=%v, the table %v", c.tmpl, lib, c.ok)
		}
		r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: "sourceURL = " + tomlString(c.tmpl)}.build(t)
		if c.ok {
			if r.Err != nil {
				t.Errorf("%q: the build failed: %v\n%s", c.tmpl, r.Err, r.Log)
				continue
			}
			want := strings.NewReplacer("{path}", "src/a.txt", "{start}", "1", "{end}", "1", "&amp;", "&").Replace(c.tmpl)
			if got := sourceHref(r.Pages["page.md"]); got != want {
				t.Errorf("%q: the caption links to %q, want %q", c.tmpl, got, want)
			}
			continue
		}
		if r.Err == nil {
			t.Errorf("%q: the build succeeded, the caption linking to %q", c.tmpl, sourceHref(r.Pages["page.md"]))
			continue
		}
		mustContain(t, fmt.Sprintf("the log for %q", c.tmpl), r.Err.Error()+r.Log, "textfrag config error: params.textfrag.sourceURL = ", "http or https URL")
	}
}

// {path} makes no scheme, as in the library: a file named
// "javascript:alert(1)" quoted under a template that starts with {path} is a
// relative link, its ":" written %3A.
func TestSourceURLPathMakesNoScheme(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "javascript:alert(1)"), twoLines)
	doc := "---\ntitle: t\n---\n\n![y](./javascript:alert%281%29#line=0,1)\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: `sourceURL = "{path}"`}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	if got := sourceHref(r.Pages["page.md"]); got != "javascript%3Aalert%281%29" {
		t.Errorf("the caption links to %q:\n%s", got, r.Pages["page.md"])
	}
	if strings.Contains(strings.ToLower(r.Pages["page.md"]), `href="javascript:`) {
		t.Errorf("a javascript: link was published:\n%s", r.Pages["page.md"])
	}
}

// sourceHref is the href of the first box caption's source link.
func sourceHref(page string) string {
	_, rest, ok := strings.Cut(page, `class="textfrag-source" href="`)
	if !ok {
		return "no caption link in " + page
	}
	href, _, _ := strings.Cut(rest, `"`)
	return htmlpkg.UnescapeString(href)
}
