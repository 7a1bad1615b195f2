package hugotest

import (
	"strings"
	"testing"
)

// Links and images that are not RFC 5147 links to local files must come out
// exactly as Hugo writes them without the module, however they are spelled.
const plainLinks = `---
title: links
---

A [plain](a.txt) link, a [heading](other.md#intro "Title") and [line-ish](a.txt#L10).

[alone](docs/guide.md#section)

Titles: [a](x.html "quote \" and 'single' & <b>") [b](x.html 'single') [c](x.html (paren))
[d](x.html "entity &amp; &copy; &#65; &#x42; &bogus; \&amp; \\&amp;") [e](x.html "plus + and =")

URLs: [f](<my file.txt>) [g](caf%C3%A9.txt) [h](café.txt) [i](a.txt?x=1&y=2#frag)
[j](a.txt?x=1&copy=2&not=3) [k](a\_b.txt) [l](a&amp;b.txt) [m](100%.txt) [n](a%zzb.txt)
[o](javascript:alert(1)) [p](JAVASCRIPT:alert(1)) [q](data:image/png;base64,AAAA) [r](data:text/html,x)
[s](vbscript:x) [t](file:///etc/passwd) [u](mailto:someone@example.org) [v](#just-a-fragment)
[w](https://example.org/a?b=1&c=2) [x](https://example.org/path with <brackets>) [y]() [z](<>)
[ref link][r1] and [collapsed][] and [shortcut]

[r1]: ref.txt#intro "Ref title"
[collapsed]: collapsed.txt
[shortcut]: https://example.org/shortcut

Autolinks: <https://example.org/a?b=1&c=2> <someone@example.org> <mailto:x@example.org>
and bare https://example.org/bare?a=1&b=2 and www.example.org/www and bare@example.org.

Emphasis in text: [*em* and **strong** and ` + "`code`" + `](a.txt) and [<span>raw</span>](a.txt).

![plain image](img.png)

![image with title](img.png "An &amp; title")

Inline ![inline image](img.png) and ![*em* alt &amp; entity](img.png 'single').

![remote](https://example.org/a.png?x=1&y=2)

![fragment only](#frag)

![](empty-alt.png)
`

func TestPassthroughMatchesHugo(t *testing.T) {
	docs := map[string]string{"page.md": plainLinks}
	want := site{Root: t.TempDir(), Docs: docs, NoModule: true}.build(t)
	if want.Err != nil {
		t.Fatalf("without the module: %v\n%s", want.Err, want.Log)
	}
	got := site{Root: t.TempDir(), Docs: docs}.build(t)
	if got.Err != nil {
		t.Fatalf("with the module: %v\n%s", got.Err, got.Log)
	}
	compareLines(t, got.Pages["page.md"], want.Pages["page.md"])
	if strings.Contains(got.Log, "textfrag") {
		t.Errorf("textfrag logged for plain links:\n%s", got.Log)
	}
}

// With markup.goldmark.renderer.unsafe on, Goldmark keeps dangerous URLs;
// params.textfrag.goldmarkUnsafe says so to the module.
func TestPassthroughUnsafe(t *testing.T) {
	docs := map[string]string{"page.md": plainLinks}
	cfg := "[markup.goldmark.renderer]\nunsafe = true\n"
	want := site{Root: t.TempDir(), Docs: docs, NoModule: true, Config: cfg}.build(t)
	if want.Err != nil {
		t.Fatalf("without the module: %v\n%s", want.Err, want.Log)
	}
	got := site{Root: t.TempDir(), Docs: docs, Config: cfg, Params: "goldmarkUnsafe = true"}.build(t)
	if got.Err != nil {
		t.Fatalf("with the module: %v\n%s", got.Err, got.Log)
	}
	compareLines(t, got.Pages["page.md"], want.Pages["page.md"])
}

// A multilingual single-host site uses Hugo's embedded link and image hooks
// by default; the module's "auto" passthrough does the same.
func TestPassthroughEmbeddedHooks(t *testing.T) {
	cfg := `defaultContentLanguage = "en"
[languages.en]
weight = 1
[languages.de]
weight = 2
`
	for _, p := range []string{"", `passthrough = "embedded"`} {
		// Hugo's embedded hooks fail on invalid percent escapes (urls.Parse).
		doc := strings.Replace(plainLinks, "[m](100%.txt) [n](a%zzb.txt)", "", 1)
		docs := map[string]string{"page.md": doc + "\n[to this page](page.md) and ![to a page](page.md)\n"}
		want := site{Root: t.TempDir(), Docs: docs, NoModule: true, Config: cfg}.build(t)
		if want.Err != nil {
			t.Fatalf("without the module: %v\n%s", want.Err, want.Log)
		}
		if !strings.Contains(want.Pages["page.md"], `href="/page/"`) {
			t.Fatalf("the embedded link hook did not run:\n%s", want.Pages["page.md"])
		}
		got := site{Root: t.TempDir(), Docs: docs, Config: cfg, Params: p}.build(t)
		if got.Err != nil {
			t.Fatalf("with the module: %v\n%s", got.Err, got.Log)
		}
		compareLines(t, got.Pages["page.md"], want.Pages["page.md"])
	}
}

func compareLines(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("line %d differs:\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
}
