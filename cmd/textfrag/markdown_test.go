package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/page"
)

func TestPageTitleAndLinks(t *testing.T) {
	var lf linkFlags
	r, err := lf.newResolver(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	md := lf.markdown(r)
	for src, want := range map[string]string{
		"---\ntitle: From front\n---\n# From heading\n": "From front",
		"Intro\n\n## Two\n\n# The *first* `H1`\n":       "The first H1",
		"No heading\n":                         "page",
		"---\ntitle: 42\n---\n":                "42",
		"---\ntitle: \"\"\n---\n# Heading\n":   "Heading",
		"---\ntitle: [a, b]\n---\n# Heading\n": "[a b]",
	} {
		p, err := page.Convert(md, r, "dir/page.md", []byte(src), true, false)
		if err != nil || p.Title != want {
			t.Errorf("%q: title %q, err %v; want %q", src, p.Title, err, want)
		}
	}
}

func TestFencedCodeMatchesBoxMarkup(t *testing.T) {
	var lf linkFlags
	r, err := lf.newResolver(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := page.Convert(lf.markdown(r), r, "a.md", []byte("```go\nx := 1\n```\n\n```no-such-lang\n<b>\n```\n\n```\nplain\n```\n"), true, false)
	if err != nil {
		t.Fatal(err)
	}
	body := string(p.Body)
	for _, want := range []string{
		`<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-go" data-lang="go"><span class="line"><span class="cl"><span class="nx">x</span>`,
		`<code class="language-no-such-lang" data-lang="no-such-lang"><span class="line"><span class="cl">&lt;b&gt;`,
		`<div class="highlight"><pre tabindex="0" class="chroma"><code><span class="line"><span class="cl">plain`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("lacks %s\n%s", want, body)
		}
	}
}

// Fenced code takes Hugo's line-number attributes, so a pasted quote can be
// numbered as a box is.
func TestFencedCodeLineNumbers(t *testing.T) {
	md := page.NewMarkdown(nil, true, nil, nil)
	var out bytes.Buffer
	src := "```text {linenos=inline linenostart=11 hl_lines=2}\na\nb\n```\n"
	if err := md.Convert([]byte(src), &out); err != nil {
		t.Fatal(err)
	}
	want := `<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-text" data-lang="text">` +
		`<span class="line"><span class="ln">11</span><span class="cl">a` + "\n" + `</span></span>` +
		`<span class="line hl"><span class="ln">12</span><span class="cl">b` + "\n" + `</span></span></code></pre></div>` + "\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
