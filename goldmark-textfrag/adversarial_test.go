package textfrag_test

// Adversarial Markdown: markup smuggled in through target text, file names,
// link text, titles and fragments; malformed bytes; pages with very many
// links or very deep nesting. Output is read back with an HTML tokenizer,
// as a browser would, and must hold no active markup.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/htmlsafe"
)

// evilText is target text that tries to close the box and run script.
const evilText = "</code></pre></div></figure><script>alert(1)</script>\n" +
	"<img src=x onerror=alert(2)>\n" +
	"&lt;already escaped&gt; &amp; &#x3C;script&#x3E;\n" +
	"\"double\" 'single' `back`\n" +
	"<!-- comment --> ]]><![CDATA[ x\n" +
	"<svg onload=alert(3)><a href=\"javascript:alert(4)\">x</a>\n"

// evilName is a file name that is markup.
const evilName = `"><img src=x onerror=alert(5)>.txt`

// writeProject writes files (slash paths) under a new temporary root.
func writeProject(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// convertIn converts src as the document doc.md at the root with opts.
func convertIn(root, src string, opts ...textfrag.Option) (string, []*textfrag.Problem, error) {
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(append([]textfrag.Option{textfrag.WithRoot(root)}, opts...)...)))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "doc.md")
	var out bytes.Buffer
	err := md.Convert([]byte(src), &out, parser.WithContext(pc))
	return out.String(), textfrag.Problems(pc), err
}

// assertSafe fails when page holds active markup.
func assertSafe(t *testing.T, what, page string) {
	t.Helper()
	for _, p := range htmlsafe.Check(page, htmlsafe.Options{}) {
		t.Errorf("%s: %s\n%s", what, p, page)
	}
}

func TestAdversarialInjection(t *testing.T) {
	root := writeProject(t, map[string]string{
		"evil.txt":  evilText,
		evilName:    "named badly\n",
		"a&b'c.go":  "package x\n\n// </span></code><script>alert(6)</script>\nvar s = \"</pre><script>alert(7)</script>\"\n",
		"evil.html": "<!DOCTYPE html>\n<script>alert(8)</script>\n<p onclick=\"alert(9)\">x</p>\n",
		"evil.md":   "# <script>alert(10)</script>\n\n[x](javascript:alert(11))\n",
	})
	tests := []struct {
		name, src string
		// texts must appear in the page as text (escaped, not markup).
		texts []string
		// fails is set when the conversion must fail (strict mode).
		fails bool
	}{
		{"target text", "[box](evil.txt#line=0,6)\n", []string{"<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "&lt;already escaped&gt; &amp; &#x3C;script&#x3E;", `<a href="javascript:alert(4)">`}, false},
		{"target text, char range", "[box](evil.txt#char=0,200)\n", []string{"<script>alert(1)</script>"}, false},
		{"inline quote", "see [q](evil.txt#char=0,120 \"quote\") here\n", []string{"</figure><script>alert(1)</script>"}, false},
		{"image box", "![<script>alert(12)</script>](evil.txt#line=1,2)\n", []string{"<img src=x onerror=alert(2)>"}, false},
		{"file name", "[n](%22%3E%3Cimg%20src=x%20onerror=alert(5)%3E.txt#line=,1)\n", []string{evilName}, false},
		{"file name, raw", "[n](<\"><img src=x onerror=alert(5)>.txt#line=,1>)\n", nil, false},
		{"link text", "[<img src=x onerror=alert(13)> \"><script>alert(14)</script> &lt;b&gt; `<code>`](evil.txt#line=,1)\n", []string{`">`, "<code>"}, false},
		{"link text, entities", "[&lt;script&gt;alert(15)&lt;/script&gt; &#34;&#62;](evil.txt#line=,1)\n", nil, false},
		{"title", "[x](evil.txt#line=,1 \"\\\"><script>alert(16)</script>\")\n", nil, true},
		{"title lang", "[x](evil.txt#line=,1 'lang=\"><script>alert(17)</script>')\n", nil, false},
		{"title hl", "[x](evil.txt#line=,1 'hl=1\"><script>')\n", nil, true},
		{"unknown check, bad name", "[x](evil.txt#line=1;x-\"><script>=1)\n", nil, true},
		{"unknown check value", "[x](evil.txt#line=0,1;x=%22%3E%3Cscript%3E'&;y='onmouseover=alert(18)')\n", []string{"x=%22%3E%3Cscript%3E'&;y='onmouseover=alert(18)'"}, false},
		{"unknown check charset", "[x](evil.txt#line=0,1;x=1,{'}`)\n", nil, false},
		{"query", "[x](evil.txt?\"><script>alert(19)</script>#line=0,1)\n", nil, false},
		{"reference", "[x][r]\n\n[r]: evil.txt#line=0,1 \"dedent\"\n", []string{"<script>alert(1)</script>"}, false},
		{"go source", "[go](a%26b'c.go#line=0,4)\n", []string{"</span></code><script>alert(6)</script>", `"</pre><script>alert(7)</script>"`, "a&b'c.go"}, false},
		{"html source", "[html](evil.html#line=0,3)\n", []string{"<script>alert(8)</script>", `<p onclick="alert(9)">`}, false},
		{"markdown source", "[md](evil.md#line=0,3)\n", []string{"# <script>alert(10)</script>", "[x](javascript:alert(11))"}, false},
	}
	for _, tt := range tests {
		for _, lenient := range []bool{false, true} {
			name := fmt.Sprintf("%s (lenient %v)", tt.name, lenient)
			for _, opts := range [][]textfrag.Option{
				{textfrag.WithLenient(lenient)},
				{textfrag.WithLenient(lenient), textfrag.WithHighlighting(false), textfrag.WithSourceURL("https://example.com/{path}#L{start}-L{end}")},
			} {
				page, problems, err := convertIn(root, tt.src, opts...)
				if err != nil {
					var p *textfrag.Problem
					if !errors.As(err, &p) || p.Line < 1 {
						t.Errorf("%s: unlocated error %v", name, err)
					}
					if !tt.fails || (lenient && strings.Contains(tt.name, "unknown check")) {
						t.Errorf("%s: %v", name, err)
					}
					continue
				}
				if tt.fails && !lenient {
					t.Errorf("%s: converted, want an error", name)
				}
				assertSafe(t, name, page)
				text := htmlsafe.Text(page, "data-textfrag-fragment", "href", "cite")
				for _, want := range tt.texts {
					if !strings.Contains(text, want) {
						t.Errorf("%s: the page does not show %q as text:\n%s", name, want, page)
					}
				}
				for _, p := range problems {
					if p.Severity == textfrag.Error {
						t.Errorf("%s: converted with an error problem: %v", name, p)
					}
				}
			}
		}
	}
}

// figureRE finds the markup textfrag writes itself: the box's opening tag
// and caption, and inline quotes.
var figureRE = regexp.MustCompile(`(?s)<figure .*?</figcaption>|<q class="textfrag-quote"[^>]*>`)

func TestAdversarialMalformedMarkdown(t *testing.T) {
	root := writeProject(t, map[string]string{
		"t.txt":   "one\ntwo\n",
		"nul.txt": "one\x00two\n",
		"bad.txt": "one\xfftwo\n",
	})
	tests := []struct {
		name, src string
		kind      string // the error's kind, "" when the conversion succeeds
	}{
		{"NUL after link", "[a](t.txt#line=,1)\x00\n", ""},
		{"NUL before link", "\x00[a](t.txt#line=,1)\n", ""},
		{"NUL in link text", "[a\x00b](t.txt#line=,1)\n", ""},
		{"NUL in destination", "[a](t\x00.txt#line=,1)\n", "missing"},
		{"NUL in fragment", "[a](t.txt#line=,1\x00)\n", "syntax"},
		{"NUL in angle destination", "[a](<t.txt#line=,1;x=\x00>)\n", "syntax"},
		{"encoded NUL", "[a](t.txt%00#line=,1)\n", "missing"},
		{"NUL target", "[a](nul.txt#line=,1)\n", "not-text"},
		{"invalid UTF-8 target", "[a](bad.txt#line=,1)\n", "not-text"},
		{"invalid UTF-8 before link", "\xff\xfe[a](t.txt#line=,1)\n", ""},
		{"invalid UTF-8 in link text", "[a\xff\xc0](t.txt#line=,1)\n", ""},
		{"invalid UTF-8 in destination", "[a](t\xff.txt#line=,1)\n", "missing"},
		{"overlong in destination", "[a](%C0%AEt.txt#line=,1)\n", "missing"},
		{"invalid UTF-8 in fragment", "[a](t.txt#line=,1;x=\xff\xfe)\n", ""},
		{"invalid UTF-8 in charset", "[a](t.txt#line=,1;x=1,\xff)\n", "syntax"},
		{"invalid UTF-8 in title", "[a](t.txt#line=,1 \"\xff\")\n", "title"},
		{"bidi in destination", "[a](t\u202e.txt#line=,1)\n", "missing"},
		{"encoded bidi in destination", "[a](t%E2%80%AE.txt#line=,1)\n", "missing"},
		{"bidi in link text", "[a\u202eb](t.txt#line=,1)\n", ""},
		{"control characters", "[a\x1b[31m](<t.txt#line=,1>)\n\x07\x08\n", ""},
		{"CR only", "[a](t.txt#line=,1)\r[b](t.txt#line=1,2)\r", ""},
		{"lone CR in destination", "[a](<t.txt#line=,1\r>)\n", "syntax"},
	}
	for _, tt := range tests {
		page, _, err := convertIn(root, tt.src)
		if tt.kind != "" {
			var p *textfrag.Problem
			if !errors.As(err, &p) || p.Kind != tt.kind || p.Line < 1 || p.Column < 1 || p.Document != "doc.md" {
				t.Errorf("%s: %v, want a located %s error", tt.name, err, tt.kind)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		assertSafe(t, tt.name, page)
		for _, m := range figureRE.FindAllString(page, -1) {
			if !utf8.ValidString(m) {
				t.Errorf("%s: textfrag wrote invalid UTF-8: %q", tt.name, m)
			}
		}
	}
}

// TestAdversarialManyLinks converts one page with 10,000 links to one file,
// as boxes and inline: the file is read once, and the time is reported.
func TestAdversarialManyLinks(t *testing.T) {
	var file strings.Builder
	for i := range 200 {
		fmt.Fprintf(&file, "line %d <b>&</b>\n", i+1)
	}
	root := writeProject(t, map[string]string{"src/t.txt": file.String()})
	r, err := target.New(target.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	const n = 10000
	var src strings.Builder
	for i := range n {
		a := i % 200
		switch i % 4 {
		case 0:
			fmt.Fprintf(&src, "[box %d](src/t.txt#line=%d,%d)\n\n", i, a, a+1)
		case 1:
			fmt.Fprintf(&src, "Inline [link %d](src/t.txt#char=%d,%d) in text.\n\n", i, a, a+5)
		case 2:
			fmt.Fprintf(&src, "- [item %d](/src/t.txt#line=%d)\n", i, a)
		case 3:
			fmt.Fprintf(&src, "\nQuote [q](./src/t.txt#char=%d,%d \"quote\").\n\n", a, a+3)
		}
	}
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithResolver(r))))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, "doc.md")
	var out bytes.Buffer
	start := time.Now()
	err = md.Convert([]byte(src.String()), &out, parser.WithContext(pc))
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.ReadsOf("src/t.txt"); got != 1 {
		t.Errorf("ReadsOf(src/t.txt) = %d, want 1", got)
	}
	if got := r.Reads(); got != 1 {
		t.Errorf("Reads() = %d, want 1", got)
	}
	page := out.String()
	// Boxes: the lone links, and the links alone in their (tight) list items.
	if boxes, quotes := strings.Count(page, "<figure "), strings.Count(page, `<q class="textfrag-quote"`); boxes != n/2 || quotes != n/4 {
		t.Errorf("%d boxes and %d quotes, want %d and %d", boxes, quotes, n/2, n/4)
	}
	assertSafe(t, "10,000 links", page)
	t.Logf("%d links, %d KB of Markdown to %d KB of HTML in %v (%v per link); %d read of the target",
		n, src.Len()>>10, out.Len()>>10, elapsed.Round(time.Millisecond), (elapsed / n).Round(time.Microsecond), r.ReadsOf("src/t.txt"))
}

// TestAdversarialDeepNesting nests links in 1000 levels of blockquotes,
// lists, emphasis and brackets: no panic, no stack overflow, and links that
// are still links are still checked.
func TestAdversarialDeepNesting(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n"})
	const depth = 1000
	link := "[a](t.txt#line=,1)"
	bad := "[b](t.txt#line=2,1)"
	// Lists nested by indentation, an item per level. Their source grows
	// with the square of the depth, and goldmark's time faster still (a 1 MB
	// list 1000 levels deep takes goldmark alone over 3 s), so these go 200
	// deep; the one-line forms below go 1000 deep.
	const indented = 200
	var list, ordered strings.Builder
	for i := range indented {
		fmt.Fprintf(&list, "%s- item\n", strings.Repeat("  ", i))
		fmt.Fprintf(&ordered, "%s1. item\n", strings.Repeat("   ", i))
	}
	fmt.Fprintf(&list, "%s- %s\n", strings.Repeat("  ", indented), link)
	fmt.Fprintf(&ordered, "%s1. %s\n", strings.Repeat("   ", indented), link)
	tests := []struct {
		name, src string
		links     bool // the innermost link is still a link, so a bad one fails
	}{
		{"blockquotes", strings.Repeat("> ", depth) + link + "\n", true},
		{"blockquotes, one per line", nestedQuotes(depth, link), true},
		{"lists", strings.Repeat("- ", depth) + link + "\n", true},
		{"ordered lists", strings.Repeat("1. ", depth) + link + "\n", true},
		{"mixed containers", strings.Repeat("> - 1. ", depth/3) + link + "\n", true},
		{"indented lists", list.String(), true},
		{"indented ordered lists", ordered.String(), true},
		{"emphasis", strings.Repeat("*", depth) + link + strings.Repeat("*", depth) + "\n", true},
		{"strong and emphasis", strings.Repeat("**_", depth/3) + link + strings.Repeat("_**", depth/3) + "\n", true},
		// goldmark gives up on links inside very deep brackets: the text
		// stays text, nothing is transcluded.
		{"brackets", strings.Repeat("[", depth) + link + strings.Repeat("]", depth) + "\n", false},
		{"brackets, 300", strings.Repeat("[", 300) + link + strings.Repeat("]", 300) + "\n", true},
		{"images", strings.Repeat("![", depth) + link + strings.Repeat("](t.txt#line=,1)", depth) + "\n", false},
		{"links in link text", strings.Repeat("[", depth) + link + strings.Repeat("](t.txt#line=,1)", depth) + "\n", false},
		{"code spans", strings.Repeat("`", depth) + link + strings.Repeat("`", depth) + "\n", false},
		{"html", strings.Repeat("<div>", depth) + "\n\n" + link + "\n\n" + strings.Repeat("</div>", depth) + "\n", true},
	}
	for _, tt := range tests {
		for _, l := range []string{link, bad} {
			src := tt.src
			if l == bad {
				src = strings.Replace(src, link, bad, 1)
			}
			start := time.Now()
			page, problems, err := convertNoPanic(t, root, src)
			elapsed := time.Since(start)
			if elapsed > 5*time.Second {
				t.Logf("%s: %v", tt.name, elapsed)
			}
			switch {
			case l == bad && tt.links && err == nil:
				t.Errorf("%s: a misordered range deep inside passed", tt.name)
			case l == link && err != nil:
				t.Errorf("%s: %v", tt.name, err)
			case err == nil:
				assertSafe(t, tt.name, page)
			}
			for _, p := range problems {
				if p.Line < 1 || p.Column < 1 {
					t.Errorf("%s: unlocated problem %v", tt.name, p)
				}
			}
		}
	}
}

// nestedQuotes writes link inside depth blockquotes, each opened on a line
// of its own.
func nestedQuotes(depth int, link string) string {
	var b strings.Builder
	for i := 1; i <= depth; i++ {
		b.WriteString(strings.Repeat(">", i) + " level\n")
	}
	b.WriteString(strings.Repeat(">", depth) + "\n" + strings.Repeat(">", depth) + " " + link + "\n")
	return b.String()
}

// convertNoPanic converts src, turning a panic into a test failure.
func convertNoPanic(t *testing.T, root, src string) (page string, problems []*textfrag.Problem, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v", r)
		}
	}()
	return convertIn(root, src)
}

// TestAdversarialProblemEscapesControls: a problem names the link and the
// document as written; control and bidi characters in them are escaped, so
// that printing the problem cannot drive a terminal.
func TestAdversarialProblemEscapesControls(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "x\n"})
	_, _, err := convertIn(root, "[a](<a\x1b]0;pwned\x07\u202e\u009b.txt#line=1>)\n")
	var p *textfrag.Problem
	if !errors.As(err, &p) {
		t.Fatalf("%v, want a problem", err)
	}
	msg := p.Error()
	for _, c := range []string{"\x1b", "\x07", "\u202e", "\u009b"} {
		if strings.Contains(msg, c) {
			t.Errorf("the message holds %q: %q", c, msg)
		}
	}
	if !strings.Contains(msg, `a\x1b]0;pwned\a\u202e\u009b.txt`) {
		t.Errorf("the link is not shown escaped: %s", msg)
	}
	if !strings.Contains(p.Link, "\x1b") {
		t.Errorf("Problem.Link should stay as written: %q", p.Link)
	}
	plain := &textfrag.Problem{Severity: textfrag.Warning, Document: "d\u00e9.md", Line: 1, Column: 2, Link: "t.txt#line=1", Message: "caf\u00e9 \t tab"}
	if got, want := plain.Error(), "d\u00e9.md:1:2: warning: t.txt#line=1: caf\u00e9 \t tab"; got != want {
		t.Errorf("Error() = %q, want %q unchanged", got, want)
	}
}
