package migrate

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// tree is a project in memory.
type tree map[string]string

func (t tree) read(p string) ([]byte, error) {
	s, ok := t[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return []byte(s), nil
}

func plan(t *testing.T, files tree, pages ...string) *Plan {
	t.Helper()
	var sources []string
	for f := range files {
		if !strings.HasSuffix(f, ".md") {
			sources = append(sources, f)
		}
	}
	p, err := Make(Options{Pages: pages, Sources: sources, Read: files.read})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newText(p *Plan, path string) string {
	for _, f := range p.Files {
		if f.Path == path {
			return string(f.New)
		}
	}
	return ""
}

// TestMarkersOneLineForOne: each peer's markers become textfrag markers
// with the comment around them kept, every other byte as it was.
func TestMarkersOneLineForOne(t *testing.T) {
	for _, c := range []struct{ file, in, out string }{
		{"a.rs", "x\n    // ANCHOR: main\ny\n    // ANCHOR_END: main\n", "x\n    // textfrag:begin main\ny\n    // textfrag:end main\n"},
		{"a.html", "<!-- ANCHOR: nav -->\n<nav/>\n<!-- ANCHOR_END: nav -->\n", "<!-- textfrag:begin nav -->\n<nav/>\n<!-- textfrag:end nav -->\n"},
		{"a.py", "# --8<-- [start:f]\ndef f(): pass\n# --8<-- [end:f]\n", "# textfrag:begin f\ndef f(): pass\n# textfrag:end f\n"},
		{"a.c", "/* tag::t[] */\nint x;\n/* end::t[] */\n", "/* textfrag:begin t */\nint x;\n/* textfrag:end t */\n"},
		{"a.cs", "// begin-snippet: Conn\nvoid C() {}\n// end-snippet\n", "// textfrag:begin Conn\nvoid C() {}\n// textfrag:end Conn\n"},
		// Go gets the directive form, which gofmt leaves alone.
		{"a.go", "package a\n\n\t// ANCHOR: x\nvar x = 1\n/* tag::y[] */\nvar y = 2\n/* end::y[] */\n\t// ANCHOR_END: x\n", "package a\n\n\t//textfrag:begin x\nvar x = 1\n//textfrag:begin y\nvar y = 2\n//textfrag:end y\n\t//textfrag:end x\n"},
		// CR+LF endings stay.
		{"b.py", "a\r\n# --8<-- [start:s]\r\nb\r\n# --8<-- [end:s]\r\n", "a\r\n# textfrag:begin s\r\nb\r\n# textfrag:end s\r\n"},
		// MarkdownSnippets' nameless end closes the snippet begun last.
		{"n.cs", "// begin-snippet: outer\n// begin-snippet: inner\nx\n// end-snippet\n// end-snippet\n", "// textfrag:begin outer\n// textfrag:begin inner\nx\n// textfrag:end inner\n// textfrag:end outer\n"},
	} {
		p := plan(t, tree{c.file: c.in})
		if got := newText(p, c.file); got != c.out {
			t.Errorf("%s:\n got %q\nwant %q", c.file, got, c.out)
		}
		if len(p.Problems) > 0 {
			t.Errorf("%s: problems %v", c.file, p.Problems)
		}
	}
}

// TestMarkersNotConverted: markers migrate leaves as they are, each listed
// with its line and why, and the rest of the file still converted.
func TestMarkersNotConverted(t *testing.T) {
	src := "fn a() {} // ANCHOR: inline\n// ANCHOR_END: inline\n" + // after code on its line
		"// tag::rep[]\nx\n// end::rep[]\n// tag::rep[]\ny\n// end::rep[]\n" + // repeated: two stretches
		"// ANCHOR_END: late\n// ANCHOR: late\n" + // end before begin
		"// end-snippet\n" + // closes nothing
		"// textfrag:begin have\n// textfrag:end have\n// ANCHOR: have\n// ANCHOR_END: have\n" + // a textfrag region of that name
		"# --8<-- [start:ok]\nz\n# --8<-- [end:ok]\n"
	p := plan(t, tree{"a.rs": src})
	want := []string{
		`a.rs:1: mdBook: fn a() {} // ANCHOR: inline: the marker does not stand alone`,
		`a.rs:3: Asciidoctor: // tag::rep[]: "rep" has 2 begin and 2 end markers`,
		`a.rs:9: mdBook: // ANCHOR_END: late: "late" ends (line 9) before it begins`,
		`a.rs:11: MarkdownSnippets: // end-snippet: end-snippet closes no begin-snippet`,
		`a.rs:14: mdBook: // ANCHOR: have: the file already has a textfrag region "have"`,
	}
	if len(p.Problems) != len(want) {
		t.Fatalf("problems:\n%v", p.Problems)
	}
	for i, w := range want {
		if got := p.Problems[i].String(); !strings.HasPrefix(got, w) {
			t.Errorf("problem %d:\n got %s\nwant %s…", i, got, w)
		}
	}
	got := newText(p, "a.rs")
	if !strings.HasSuffix(got, "# textfrag:begin ok\nz\n# textfrag:end ok\n") || !strings.HasPrefix(got, "fn a() {} // ANCHOR: inline\n// ANCHOR_END: inline\n// tag::rep[]\n") {
		t.Errorf("a.rs:\n%s", got)
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Error("lines moved")
	}
}

// TestIncludesNotConverted: includes left as they are, with the reason.
func TestIncludesNotConverted(t *testing.T) {
	files := tree{
		"src/a.rs": "fn main() {}\n// ANCHOR: x\nfn x() {}\n// ANCHOR_END: x\n",
		"docs/p.md": "# P\n\n{{#include ../src/a.rs:x}}\n\n" + // outside a code block
			"```rust\n// setup\n{{#include ../src/a.rs:x}}\n```\n\n" + // with other lines
			"```rust\n{{#include ../src/missing.rs}}\n```\n\n" +
			"```rust\n{{#include ../../outside.rs}}\n```\n\n" +
			"```rust\n{{#rustdoc_include ../src/a.rs:x}}\n```\n\n" +
			"```rust\n{{#include ../src/a.rs:nope}}\n```\n\n" +
			"```python\n--8<-- \"src/a.rs:1:2,4:5\"\n```\n\n" +
			"--8<--\nsrc/a.rs\n--8<--\n\n" +
			"```{literalinclude} ../src/a.rs\n:lines: 1,3\n```\n\n" +
			"```{literalinclude} ../src/a.rs\n:prepend: // x\n```\n\n" +
			"```{literalinclude} ../src/a.rs\n:start-after: nothing like it\n```\n\n" +
			"snippet: Missing\n\n" +
			"\\{{#include ../src/a.rs:x}} is how mdBook writes it.\n" +
			";--8<-- \"src/a.rs\"\n",
	}
	p := plan(t, files, "docs/p.md")
	want := []string{
		"docs/p.md:3: mdBook: {{#include ../src/a.rs:x}}: outside a code block",
		"docs/p.md:7: mdBook: {{#include ../src/a.rs:x}}: its code block holds other lines",
		"docs/p.md:10: mdBook: {{#include ../src/missing.rs}}: ../src/missing.rs not found (looked for src/missing.rs)",
		"docs/p.md:14: mdBook: {{#include ../../outside.rs}}: ../../outside.rs is outside the project",
		"docs/p.md:18: mdBook: {{#rustdoc_include ../src/a.rs:x}}: {{#rustdoc_include}} runs or hides code",
		"docs/p.md:22: mdBook: {{#include ../src/a.rs:nope}}: src/a.rs has no region \"nope\"",
		"docs/p.md:26: pymdownx.snippets: --8<-- \"src/a.rs:1:2,4:5\": several line ranges",
		"docs/p.md:30: pymdownx.snippets: --8<--: the block form",
		"docs/p.md:32: pymdownx.snippets: --8<--: the block form",
		"docs/p.md:34: Sphinx/MyST literalinclude: ```{literalinclude} ../src/a.rs: :lines: 1,3 is not one range",
		"docs/p.md:38: Sphinx/MyST literalinclude: ```{literalinclude} ../src/a.rs: :prepend: has no textfrag equivalent",
		"docs/p.md:42: Sphinx/MyST literalinclude: ```{literalinclude} ../src/a.rs: :start-after: \"nothing like it\" is in no line",
		"docs/p.md:46: MarkdownSnippets: snippet: Missing: no file given to migrate defines the snippet \"Missing\"",
	}
	var got []string
	for _, pr := range p.Problems {
		if pr.File == "docs/p.md" {
			got = append(got, pr.String())
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d:\n got %s\nwant %s…", i, got[i], want[i])
		}
	}
	if len(p.Links) != 0 {
		t.Errorf("links: %v", p.Links)
	}
	// The escaped include and the page are untouched; the source's markers
	// are converted all the same.
	for _, f := range p.Files {
		if f.Path == "docs/p.md" {
			t.Errorf("the page changed:\n%s", f.Diff())
		}
	}
}

// TestIncludeLinks: what each include becomes, written as "textfrag link"
// writes it; the fence goes, blank lines keep the link alone in its
// paragraph, a list item's indentation stays.
func TestIncludeLinks(t *testing.T) {
	files := tree{
		"src/a.py":  "import os\n\n# --8<-- [start:main]\ndef main():\n    pass\n# --8<-- [end:main]\n",
		"conf.py":   "",
		"docs/p.md": "Text\n```python\n--8<-- \"src/a.py:main\"\n```\nMore\n\n- item\n\n  ```{literalinclude} /src/a.py\n  :lines: 4-5\n  :emphasize-lines: 2\n  :dedent:\n  ```\n",
	}
	p := plan(t, files, "docs/p.md")
	if len(p.Problems) > 0 {
		t.Fatalf("problems: %v", p.Problems)
	}
	want := "Text\n\n[a.py: region main](../src/a.py#line=3,5;md5=" + md5Of(t, p, "src/a.py") + " \"region=main\")\n\nMore\n\n- item\n\n  [a.py lines 4–5](../src/a.py#line=3,5;md5=" + md5Of(t, p, "src/a.py") + " \"dedent hl=5\")\n"
	if got := newText(p, "docs/p.md"); got != want {
		t.Errorf("page:\n got %q\nwant %q", got, want)
	}
	diff := ""
	for _, f := range p.Files {
		diff += f.Diff()
	}
	for _, w := range []string{"--- a/docs/p.md\n+++ b/docs/p.md\n@@ -1,13 +1,9 @@\n Text\n-```python\n", "-# --8<-- [start:main]\n+# textfrag:begin main\n"} {
		if !strings.Contains(diff, w) {
			t.Errorf("diff lacks %q:\n%s", w, diff)
		}
	}
}

func md5Of(t *testing.T, p *Plan, path string) string {
	t.Helper()
	for _, l := range p.Links {
		if i := strings.Index(l.Link, "md5="); i >= 0 && strings.Contains(l.Link, path[strings.LastIndex(path, "/")+1:]) {
			return l.Link[i+4 : i+36]
		}
	}
	t.Fatalf("no link to %s", path)
	return ""
}

// TestForeign: check's warning names the tool, the line and the command;
// examples of the syntax (with other lines, or in a Markdown block) and a
// page without includes give none.
func TestForeign(t *testing.T) {
	page := "Use `{{#include f.rs:name}}` in mdBook.\n\n```rust\n{{#include a.rs:x}}\n```\n\n```markdown\n{{#include a.rs:x}}\n```\n\n```text\nsee:\n--8<-- \"a.py\"\n```\n\n  snippet: Conn\n"
	ws := Foreign("docs/p.md", []byte(page))
	if len(ws) != 2 {
		t.Fatalf("%d warnings: %+v", len(ws), ws)
	}
	if w := ws[0]; w.Line != 3 || w.Column != 1 || !strings.Contains(w.Message, "mdBook include") || !strings.Contains(w.Message, "textfrag migrate docs/p.md") {
		t.Errorf("%+v", w)
	}
	if w := ws[1]; w.Line != 16 || w.Column != 3 || !strings.Contains(w.Message, "MarkdownSnippets include") {
		t.Errorf("%+v", w)
	}
	if ws := Foreign("a.md", []byte("# nothing to see\n")); ws != nil {
		t.Errorf("%+v", ws)
	}
}

// TestPageMarkersKept: a page that shows a marker in an example keeps it;
// a Markdown file a page includes is converted.
func TestPageMarkersKept(t *testing.T) {
	files := tree{
		"docs/howto.md": "Mark it:\n\n```rust\n// ANCHOR: main\nfn main() {}\n// ANCHOR_END: main\n```\n",
		"docs/user.md":  "```markdown\n{{#include parts.md:intro}}\n```\n",
		"docs/parts.md": "<!-- ANCHOR: intro -->\nHello.\n<!-- ANCHOR_END: intro -->\n",
	}
	p, err := Make(Options{Pages: []string{"docs/howto.md", "docs/user.md", "docs/parts.md"}, Read: files.read})
	if err != nil {
		t.Fatal(err)
	}
	if got := newText(p, "docs/howto.md"); got != "" {
		t.Errorf("the example changed:\n%s", got)
	}
	if got := newText(p, "docs/parts.md"); got != "<!-- textfrag:begin intro -->\nHello.\n<!-- textfrag:end intro -->\n" {
		t.Errorf("parts.md: %q", got)
	}
	if got := newText(p, "docs/user.md"); !strings.Contains(got, "[parts.md: region intro](parts.md#line=1,2;md5=") || strings.Contains(got, "lang=") {
		t.Errorf("user.md: %q (%v)", got, p.Problems)
	}
}

// TestMakeNeedsRead: Options.Read is required.
func TestMakeNeedsRead(t *testing.T) {
	if _, err := Make(Options{}); err == nil {
		t.Fatal("no error")
	}
	p, err := Make(Options{Pages: []string{"x.md"}, Read: func(string) ([]byte, error) { return nil, errors.New("boom") }})
	if err != nil || len(p.Problems) != 1 || !strings.Contains(p.Problems[0].Reason, "boom") {
		t.Fatalf("%v %+v", err, p)
	}
}
