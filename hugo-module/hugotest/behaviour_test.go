package hugotest

import (
	"crypto/md5"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
)

const twoLines = "one\ntwo <&>\n"

// newProject returns a project root holding src/a.txt.
func newProject(t *testing.T) string {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.txt"), twoLines)
	return root
}

func mustContain(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s lacks %q:\n%s", what, sub, s)
		}
	}
}

func TestMD5MismatchFailsTheBuild(t *testing.T) {
	root := newProject(t)
	sum := md5.Sum([]byte(twoLines))
	current := hex.EncodeToString(sum[:])
	link := "../src/a.txt#line=0,1;md5=0123456789abcdef0123456789ABCDEF"
	doc := "---\ntitle: t\n---\n\nIntro.\n\n![First line](" + link + ")\n"
	r := site{Root: root, Docs: map[string]string{"docs/page.md": doc}}.build(t)
	if r.Err == nil {
		t.Fatal("the build succeeded")
	}
	mustContain(t, "the log", r.Log,
		filepath.Join(root, "docs", "page.md")+":7:1: textfrag integrity error: image \""+link+"\"",
		"md5 mismatch: the link says 0123456789abcdef0123456789abcdef, the file has "+current,
		"src/a.txt now has md5 "+current+" and length 12",
		"textfrag pin --write docs/page.md",
	)
}

func TestErrorsInRunningTextFailTheBuild(t *testing.T) {
	root := newProject(t)
	doc := "---\ntitle: t\n---\n\nSee [the file](src/a.txt#line=1;length=3) for details.\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err == nil {
		t.Fatal("the build succeeded")
	}
	mustContain(t, "the log", r.Log,
		filepath.Join(root, "page.md")+":5:5: textfrag integrity error: link \"src/a.txt#line=1;length=3\": length mismatch: the link says 3 characters, the text has 12")
}

func TestLenient(t *testing.T) {
	root := newProject(t)
	doc := "---\ntitle: t\n---\n\n[backwards](src/a.txt#line=2,1)\n\n![bad](src/a.txt#line=one)\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: "lenient = true"}.build(t)
	if r.Err != nil {
		t.Fatalf("lenient build failed: %v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the log", r.Log,
		":5:1: textfrag misordered warning: link \"src/a.txt#line=2,1\"",
		":7:1: textfrag syntax warning: image \"src/a.txt#line=one\"")
	mustContain(t, "the page", r.Pages["page.md"],
		`<p><a href="src/a.txt#line=2,1">backwards</a></p>`,
		`<img src="src/a.txt#line=one" alt="bad">`)

	// Integrity and file errors are never lenient.
	doc = "---\ntitle: t\n---\n\n![x](src/nope.txt#line=1)\n"
	r = site{Root: newProject(t), Docs: map[string]string{"page.md": doc}, Params: "lenient = true"}.build(t)
	if r.Err == nil || !strings.Contains(r.Log, "textfrag missing error") {
		t.Errorf("a missing file must fail a lenient build: %v\n%s", r.Err, r.Log)
	}
}

func TestClampingWarnsOrFails(t *testing.T) {
	doc := "---\ntitle: t\n---\n\n![x](src/a.txt#line=1,9)\n"
	r := site{Root: newProject(t), Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the log", r.Log, "WARN", `:5:1: textfrag: image "src/a.txt#line=1,9": line=1,9 is past the end of src/a.txt, which has 2 lines; clamped to line 2 (line=1,2)`)

	r = site{Root: newProject(t), Docs: map[string]string{"page.md": doc}, Params: "warningsAsErrors = true"}.build(t)
	if r.Err == nil {
		t.Fatal("warningsAsErrors: the build succeeded")
	}
	mustContain(t, "the log", r.Log, `:5:1: textfrag clamped error: image "src/a.txt#line=1,9"`)
}

func TestUnknownCheckWarns(t *testing.T) {
	doc := "---\ntitle: t\n---\n\n![x](src/a.txt#line=0,1;sha256=abc)\n"
	r := site{Root: newProject(t), Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the log", r.Log, `unknown integrity check "sha256=abc" ignored`)
	mustContain(t, "the page", r.Pages["page.md"], `data-textfrag-fragment="line=0,1;sha256=abc"`)
}

func TestBoxMarkup(t *testing.T) {
	doc := "---\ntitle: t\n---\n\n![x < y & z](src/a.txt#line=1,2)\n\n![](src/a.txt#line=1)\n"
	r := site{Root: newProject(t), Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	want := "<figure class=\"textfrag textfrag-line\" data-textfrag-fragment=\"line=1,2\">\n" +
		"<figcaption class=\"textfrag-caption\"><span class=\"textfrag-title\">x &lt; y &amp; z</span> <a class=\"textfrag-source\" href=\"src/a.txt#line=1,2\">src/a.txt</a> <span class=\"textfrag-range\">line 2</span></figcaption>\n" +
		"<div class=\"highlight\"><pre tabindex=\"0\" class=\"chroma\"><code class=\"language-txt\" data-lang=\"txt\"><span class=\"line\"><span class=\"ln\">2</span><span class=\"cl\">two &lt;&amp;&gt;\n</span></span></code></pre></div>\n" +
		"</figure>\n" +
		"<figure class=\"textfrag textfrag-line textfrag-position\" data-textfrag-fragment=\"line=1\">\n" +
		"<figcaption class=\"textfrag-caption\"><a class=\"textfrag-source\" href=\"src/a.txt#line=1\">src/a.txt</a> <span class=\"textfrag-range\">before line 2</span></figcaption>\n" +
		"</figure>\n"
	if r.Pages["page.md"] != want {
		t.Errorf("got:\n%s\nwant:\n%s", r.Pages["page.md"], want)
	}
}

func TestSourceURLAndHighlightOff(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, "src", "main.go"), "package main\n\nfunc main() {}\n")
	doc := "---\ntitle: t\n---\n\n![x](src/main.go#line=2,3)\n\n![y](src/main.go#char=14,18)\n"
	params := `sourceURL = "https://example.org/blob/main/{path}#L{start}-L{end}"` + "\nhighlight = false"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: params}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the page", r.Pages["page.md"],
		`<a class="textfrag-source" href="https://example.org/blob/main/src/main.go#L3-L3">src/main.go</a>`,
		`<a class="textfrag-source" href="https://example.org/blob/main/src/main.go#L3-L3">src/main.go</a> <span class="textfrag-range">line 3, col 1 – line 3, col 4</span>`,
		`<code class="language-text" data-lang="text">`)

	r = site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
	mustContain(t, "the page", r.Pages["page.md"], `<code class="language-go" data-lang="go"><span class="line"><span class="ln">3</span><span class="cl"><span class="kd">func</span>`)
}

func TestLinkAloneInItsParagraph(t *testing.T) {
	root := newProject(t)
	doc := strings.Join([]string{
		"---", "title: t", "---", "",
		"[alone](src/a.txt#line=0,1)", "",
		"  [indented](src/a.txt#line=0,1 \"dedent\")",
		"## A heading right after",
		"[after a heading](src/a.txt#line=0,1)", "",
		"[followed by text](src/a.txt#line=0,1)", "more text", "",
		"Text, then", "[on the next line](src/a.txt#line=0,1)", "",
		"- [in a list](src/a.txt#line=0,1)", "",
		"> [in a quote](src/a.txt#line=0,1)", "",
		"[two](src/a.txt#line=0,1) [links](src/a.txt#line=1,2)", "",
		"[same link][ref]", "",
		"[ref]: src/a.txt#line=0,1", "",
	}, "\r\n")
	r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	page := r.Pages["page.md"]
	// The placement rule of OUTPUT.md: alone in its paragraph, list item or
	// block quote, inline or reference-style (testdata/conformance/12-placement.json).
	for _, boxed := range []string{"alone", "indented", "after a heading", "in a list", "in a quote", "same link"} {
		mustContain(t, "the page", page, `<span class="textfrag-title">`+boxed+`</span>`)
	}
	for _, link := range []string{"followed by text", "on the next line", "two", "links"} {
		mustContain(t, "the page", page, `">`+link+`</a>`)
		if strings.Contains(page, `<span class="textfrag-title">`+link+`</span>`) {
			t.Errorf("%q became a box", link)
		}
	}
	// The box inside <p> holds phrasing content only.
	mustContain(t, "the page", page, "<p><span class=\"textfrag textfrag-line\" role=\"figure\" data-textfrag-fragment=\"line=0,1\">\n"+
		"<span class=\"textfrag-caption\"><span class=\"textfrag-title\">alone</span> <a class=\"textfrag-source\" href=\"src/a.txt#line=0,1\">src/a.txt</a> <span class=\"textfrag-range\">line 1</span></span>\n"+
		"<code class=\"textfrag-body chroma language-txt\" data-lang=\"txt\"><span class=\"line\"><span class=\"ln\">1</span><span class=\"cl\">one\n</span></span></code>\n"+
		"</span></p>")
	for _, tag := range []string{"<div", "<pre", "<figure", "<figcaption"} {
		if strings.Contains(page, tag) {
			t.Errorf("flow content %s in a paragraph:\n%s", tag, page)
		}
	}
}

func TestShortcode(t *testing.T) {
	root := newProject(t)
	doc := "---\ntitle: t\n---\n\n{{< textfrag \"../src/a.txt#line=1,2\" >}}\n\n{{< textfrag src=\"/src/a.txt#char=0,3\" title=\"The word\" >}}\n"
	r := site{Root: root, Docs: map[string]string{"docs/page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	page := r.Pages["docs/page.md"]
	mustContain(t, "the page", page,
		"<figure class=\"textfrag textfrag-line\" data-textfrag-fragment=\"line=1,2\">\n<figcaption class=\"textfrag-caption\"><a class=\"textfrag-source\" href=\"../src/a.txt#line=1,2\">src/a.txt</a> <span class=\"textfrag-range\">line 2</span></figcaption>",
		"<figure class=\"textfrag textfrag-char\" data-textfrag-fragment=\"char=0,3\">\n<figcaption class=\"textfrag-caption\"><span class=\"textfrag-title\">The word</span> <a class=\"textfrag-source\" href=\"/src/a.txt#char=0,3\">src/a.txt</a> <span class=\"textfrag-range\">line 1, col 1 – line 1, col 3</span></figcaption>")
	if strings.Contains(page, "<p><figure") {
		t.Errorf("the shortcode's figure is inside a paragraph:\n%s", page)
	}

	doc = "---\ntitle: t\n---\n\n{{< textfrag \"../src/a.txt#line=3,2\" >}}\n"
	r = site{Root: root, Docs: map[string]string{"docs/other.md": doc}}.build(t)
	if r.Err == nil {
		t.Fatal("a misordered range in a shortcode: the build succeeded")
	}
	mustContain(t, "the log", r.Log, filepath.Join(root, "docs", "other.md")+":5:1: textfrag misordered error: shortcode \"../src/a.txt#line=3,2\"")

	doc = "---\ntitle: t\n---\n\n{{< textfrag \"../src/a.txt\" >}}\n"
	r = site{Root: root, Docs: map[string]string{"docs/third.md": doc}}.build(t)
	if r.Err == nil || !strings.Contains(r.Log, "needs a fragment") {
		t.Errorf("a shortcode without a fragment must fail: %v\n%s", r.Err, r.Log)
	}
}

func TestLinkOptions(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, "src", "main.go"), "package main\n\nfunc main() {\n\tif true {\n\t\tprintln(1)\n\t}\n}\n")
	doc := strings.Join([]string{
		"---", "title: t", "---", "",
		`![hl](src/main.go#line=3,6 "hl=5,2-4")`, "",
		`![dedent](src/main.go#line=4,6 "dedent lang=text")`, "",
		`A word: [the word](src/a.txt#char=4,7 "quote") and [not char](src/a.txt#line=1 "quote").`, "",
		`Inline ![an image](src/a.txt#line=1) stays an image.`, "",
	}, "\n")
	r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	page := r.Pages["page.md"]
	mustContain(t, "the page", page,
		// hl: lines 4 and 5 (human numbers) are emphasized, line 2 is not shown.
		`<span class="line hl"><span class="ln">4</span><span class="cl">`,
		`<span class="line hl"><span class="ln">5</span>`,
		`<span class="line"><span class="ln">6</span>`,
		// dedent removes the one tab lines 5 and 6 have in common.
		`<code class="language-text" data-lang="text"><span class="line"><span class="ln">5</span><span class="cl">	println(1)`+"\n",
		`<span class="line"><span class="ln">6</span><span class="cl">}`+"\n",
		`A word: <q class="textfrag-quote" cite="src/a.txt#char=4,7">two</q> <cite class="textfrag-cite">(<a class="textfrag-source" href="src/a.txt#char=4,7">src/a.txt</a>, <span class="textfrag-range">line 2, col 1 – line 2, col 3</span>)</cite> and <a href="src/a.txt#line=1" title="quote">not char</a>.`,
		`Inline <img src="src/a.txt#line=1" alt="an image"> stays an image.`)
	if strings.Count(page, `class="line hl"`) != 2 {
		t.Errorf("want lines 4 and 5 emphasized:\n%s", page)
	}

	doc = "---\ntitle: t\n---\n\n![x](src/a.txt#line=0,1 \"The caption\")\n"
	r = site{Root: root, Docs: map[string]string{"other.md": doc}}.build(t)
	if r.Err == nil {
		t.Fatal("an unknown option: the build succeeded")
	}
	mustContain(t, "the log", r.Log, `:5:1: textfrag title error: image "src/a.txt#line=0,1": link title: unknown option "The"`)
}

func TestLimits(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, "src", "ten.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n")
	doc := "---\ntitle: t\n---\n\n![x](src/ten.txt#line=2,9)\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: "maxLines = 5"}.build(t)
	if r.Err == nil {
		t.Fatal("over the limit: the build succeeded")
	}
	mustContain(t, "the log", r.Log, `:5:1: textfrag limit error: image "src/ten.txt#line=2,9": the box would show 7 lines (14 bytes), more than the limit of 5 lines or 262144 bytes`)

	r = site{Root: root, Docs: map[string]string{"page.md": doc}, Params: "maxLines = 5\ntruncate = true"}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the page", r.Pages["page.md"],
		`<span class="ln">7</span><span class="cl">7`+"\n"+`</span></span></code></pre></div>`+"\n"+`<p class="textfrag-truncated">2 more lines not shown</p>`+"\n</figure>")

	r = site{Root: root, Docs: map[string]string{"page.md": doc}, Params: "maxBytes = 7\ntruncate = true"}.build(t)
	mustContain(t, "the page", r.Pages["page.md"], `<span class="ln">4</span>`, `<p class="textfrag-truncated">4 more lines not shown</p>`)
}

// A site's hook may leave "kind" out of textfrag/hook's dict: the link is
// then taken for a link, in its box and in its messages.
func TestHookKindDefaultsToLink(t *testing.T) {
	hook := `{{- $tf := partial "textfrag/hook.html" (dict "ctx" .) -}}
{{- if $tf.handled }}{{ $tf.html | safeHTML }}{{ else }}<a class="site" href="{{ .Destination | safeURL }}">{{ .Text }}</a>{{ end -}}`
	root := newProject(t)
	write(t, filepath.Join(root, "_layouts", "_markup", "render-link.html"), hook)
	doc := "---\ntitle: t\n---\n\n[First](../src/a.txt#line=0,1)\n\nSee [the first line](../src/a.txt#line=0,1) here.\n"
	r := site{Root: root, Docs: map[string]string{"docs/page.md": doc}, keepLayout: false}.build(t)
	if r.Err != nil {
		t.Fatalf("build failed: %v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the page", r.Pages["docs/page.md"],
		`<span class="textfrag textfrag-line" role="figure" data-textfrag-fragment="line=0,1">`,
		`See <a class="site" href="../src/a.txt#line=0,1">the first line</a> here.`)

	root = newProject(t)
	write(t, filepath.Join(root, "_layouts", "_markup", "render-link.html"), hook)
	bad := "../src/a.txt#line=0,1;md5=00000000000000000000000000000000"
	doc = "---\ntitle: t\n---\n\nSee [it](" + bad + ") here.\n"
	r = site{Root: root, Docs: map[string]string{"docs/page.md": doc}}.build(t)
	if r.Err == nil {
		t.Fatal("a stale md5 built")
	}
	mustContain(t, "the log", r.Log, filepath.Join(root, "docs", "page.md")+":5:5: textfrag integrity error: link \""+bad+"\"")
}
