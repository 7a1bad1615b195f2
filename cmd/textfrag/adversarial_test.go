package main

// Adversarial sites for the command: markup in front matter, headings, file
// names and targets must reach no page as markup, with the built-in layout
// or a custom one; control characters in links and file names must reach no
// terminal; the preview server answers loopback host names only.

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/htmlsafe"
)

// adversarialSite is a site whose every input tries to become markup.
func adversarialSite(t *testing.T, dir string) {
	t.Helper()
	e2eWrite(t, dir, map[string]string{
		"docs/index.md": "---\ntitle: \"<script>alert(1)</script>\"\ndescription: '\"><script>alert(2)</script>'\n" +
			"url: \"javascript:alert(3)\"\nnested: {k: \"</title><script>alert(4)</script>\"}\n---\n\n" +
			"# Home\n\n" +
			"[<img src=x onerror=alert(5)> \"><script>alert(6)</script>](src/evil.txt#line=0,4)\n\n" +
			"See [the page](%22%3E%3Cimg%20src=x%20onerror=alert(7)%3E.md) and [q](src/evil.txt#char=0,60 \"quote\").\n",
		"docs/\"><img src=x onerror=alert(7)>.md":    "No heading, so the title is the file name.\n\n[n](src/%22%3E%3Cscript%3Ealert(8)%3C%5Cscript%3E.txt#line=,1)\n",
		"docs/heading.md":                            "# <script>alert(9)</script> &lt;b&gt; `</title><script>alert(10)</script>`\n\n[x](src/evil.txt#line=0,1;x=%22%3E%3Cscript%3E)\n",
		"docs/src/evil.txt":                          "</code></pre></figure></main><script>alert(11)</script>\n<img src=x onerror=alert(12)>\n\"quoted\" & 'single'\n<!-- --> ]]>\n",
		"docs/src/\"><script>alert(8)<\\script>.txt": "named badly\n",
	})
}

// builtLayoutAllows is what the built-in layout itself holds.
var builtLayoutAllows = htmlsafe.Options{Allow: map[string]int{"meta": 4, "link": 1, "style": 1}}

func TestE2EAdversarialLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	adversarialSite(t, dir)
	r := e2eRun(t, dir, "build", "docs", "-o", "out")
	if r.code != 0 {
		t.Fatalf("build: code %d\n%s", r.code, r.stderr)
	}
	site := e2eTree(t, filepath.Join(dir, "out"))
	pages := 0
	for name, page := range site {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		pages++
		for _, p := range htmlsafe.Check(page, builtLayoutAllows) {
			t.Errorf("%s: %s", name, p)
		}
	}
	if pages != 3 {
		t.Errorf("%d pages built, want 3", pages)
	}
	for name, texts := range map[string][]string{
		"index.html":                          {"<script>alert(1)</script>", `">alert(6)`, "</code></pre></figure></main><script>alert(11)</script>", `%22%3E%3Cimg%20src=x%20onerror=alert(7)%3E.html`},
		`"><img src=x onerror=alert(7)>.html`: {`"><img src=x onerror=alert(7)>`, `"><script>alert(8)<\script>.txt`},
		"heading.html":                        {"alert(9)", "</title><script>alert(10)</script>", `x=%22%3E%3Cscript%3E`},
	} {
		page, ok := site[name]
		if !ok {
			t.Errorf("no page %s", name)
			continue
		}
		text := htmlsafe.Text(page, "href", "data-textfrag-fragment")
		for _, want := range texts {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not show %q as text:\n%s", name, want, page)
			}
		}
	}

	// A custom layout puts front matter into attributes, URLs and script:
	// html/template escapes each for where it goes.
	e2eWrite(t, dir, map[string]string{"docs/_layout.html": `<!DOCTYPE html><html><head><title>{{.Title}}</title>` +
		`<meta name="description" content="{{.Params.description}}"></head><body>` +
		`<a href="{{.Params.url}}" title="{{.Title}}">{{.Params.nested}}</a><div data-x="{{.Source}}">{{.Content}}</div>` +
		`<script>var title = {{.Title}}, source = {{.Source}};</script></body></html>`})
	r = e2eRun(t, dir, "build", "docs", "-o", "out")
	if r.code != 0 {
		t.Fatalf("build with a custom layout: code %d\n%s", r.code, r.stderr)
	}
	site = e2eTree(t, filepath.Join(dir, "out"))
	custom := htmlsafe.Options{Allow: map[string]int{"meta": 1, "script": 1}}
	for name, page := range site {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, p := range htmlsafe.Check(page, custom) {
			t.Errorf("custom layout, %s: %s", name, p)
		}
		// The layout's own script holds the title as a JavaScript string.
		if i := strings.Index(page, "<script>var title = "); i < 0 || strings.Contains(page[i:], "<script>alert") {
			t.Errorf("custom layout, %s: the title escaped its script:\n%s", name, page)
		}
	}
	if !strings.Contains(site["index.html"], `href="#ZgotmplZ"`) {
		t.Errorf("a javascript: URL from front matter was not neutralized:\n%s", site["index.html"])
	}
}

// TestE2EAdversarialTerminal: links, file names and target text with
// control characters (escape sequences that would set the terminal's title,
// clear the screen or recolour the log) and bidi controls reach no terminal:
// every message writes them as Go escapes.
func TestE2EAdversarialTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"docs/a.md": "[x](<a\x1b]0;pwned\x07b.txt#line=1>)\n\n[y](missing%1B%5B2J%1B%5BH.txt#line=1)\n\n" +
			"[z](t.txt#line=,1;md5=00000000000000000000000000000000)\n\n[w](<t\u202e.txt#line=1>)\n\n[v](t%C2%9B31m.txt#line=1)\n",
		"docs/\x1b[31mred\u202e.md": "[r](t.txt#line=5,1)\n",
		"docs/t.txt":                "\x1b[2J\x1b]0;title\x07text\n",
	})
	runs := [][]string{
		{"build", "docs", "-o", "out"},
		{"check", "docs"},
		{"check", "docs", "--format", "github"},
		{"check", "docs", "--format", "json"},
		{"pin", "docs", "--root", "docs"},
		{"render", "docs/a.md"},
		{"resolve", "--root", "docs", "t\x1b[2J.txt#line=1"},
	}
	for _, args := range runs {
		r := e2eRun(t, dir, args...)
		if r.code == 0 {
			t.Errorf("%s: succeeded, want errors", args[0])
		}
		for stream, out := range map[string]string{"stderr": r.stderr, "stdout": r.stdout} {
			for _, c := range []string{"\x1b", "\x07", "\u202e", "\u009b"} {
				// JSON is data for programs: it keeps names and links exact,
				// with C0 controls escaped as JSON requires.
				json := stream == "stdout" && slices.Contains(args, "json")
				if strings.Contains(out, c) && !(json && c >= "\u0080") {
					t.Errorf("%s %s: %s holds %q:\n%s", args[0], args[1], stream, c, out)
				}
			}
		}
		if args[0] != "render" && !strings.Contains(r.stderr+r.stdout, `\x1b`) && !strings.Contains(r.stdout, `\u001b`) {
			t.Errorf("%s %s: the escape character is not shown escaped:\n%s%s", args[0], args[1], r.stderr, r.stdout)
		}
	}
}

func TestServeLoopbackHostOnly(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("site")) })
	h := loopbackHostOnly(ok)
	for host, want := range map[string]int{
		"127.0.0.1:8080": 200, "127.0.0.1": 200, "127.1.2.3:80": 200, "[::1]:8080": 200, "::1": 200,
		"localhost:8080": 200, "LOCALHOST": 200, "localhost.:8080": 200,
		"evil.example:8080": 421, "evil.example": 421, "localhost.evil.example:8080": 421, "127.0.0.1.nip.io:8080": 421,
		"10.0.0.1:8080": 421, "[::]:8080": 421, "0.0.0.0:8080": 421, "": 421, "evil.localhost:8080": 421,
	} {
		req := httptest.NewRequest("GET", "/index.html", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Host %q: %d, want %d", host, rec.Code, want)
		}
		if want != 200 && bytes.Contains(rec.Body.Bytes(), []byte("site")) {
			t.Errorf("Host %q: the site was served", host)
		}
	}
}
