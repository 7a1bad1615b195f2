package textfrag_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

func writeFiles(t *testing.T, files map[string]string) string {
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

func convert(t *testing.T, md goldmark.Markdown, doc, src string) (string, []*textfrag.Problem, error) {
	t.Helper()
	pc := parser.NewContext()
	textfrag.SetDocument(pc, doc)
	var out bytes.Buffer
	err := md.Convert([]byte(src), &out, parser.WithContext(pc))
	return out.String(), textfrag.Problems(pc), err
}

// One instance converts many documents at once; each keeps its own problems,
// and the shared resolver reads each target once.
func TestConcurrentDocumentsShareOneRead(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/a.go": "package a\n\nfunc A() {}\n"})
	r, err := target.New(target.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithResolver(r))))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := fmt.Sprintf("docs/p%d.md", i)
			src := "[A](../src/a.go#line=2,3)\n"
			if i%2 == 1 {
				src = "[A](../src/a.go#line=9,3)\n" // misordered: an error in this document only
			}
			out, problems, err := convert(t, md, doc, src)
			switch {
			case i%2 == 0 && (err != nil || !strings.Contains(out, "line 3</span>")):
				errs <- fmt.Errorf("%s: err %v, out %q", doc, err, out)
			case i%2 == 1 && (len(problems) != 1 || problems[0].Document != doc || !errors.Is(err, rfc5147.ErrMisordered)):
				errs <- fmt.Errorf("%s: problems %v, err %v", doc, problems, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := r.ReadsOf("src/a.go"); n != 1 {
		t.Errorf("src/a.go read %d times, want 1", n)
	}
}

// Highlighting writes chroma classes only (no inline style), so pages work
// under a strict Content-Security-Policy.
func TestHighlightingUsesClasses(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.go": "package a\n\nfunc A() int { return 1 }\n"})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	out, _, err := convert(t, md, "doc.md", "[](a.go#line=2,3 \"hl=3\")\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<code class="language-go" data-lang="go">`, `<span class="kd">func</span>`, `<span class="line hl"><span class="ln">3</span>`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "style=") {
		t.Errorf("inline style in output:\n%s", out)
	}
	// A title lang= overrides the extension; an unknown lexer falls back to text.
	out, _, err = convert(t, md, "doc.md", "[](a.go#line=2,3 \"lang=nosuchlang\")\n")
	if err != nil || !strings.Contains(out, `data-lang="text"`) {
		t.Errorf("unknown lang: err %v, out %s", err, out)
	}
}

// Allowed roots confine targets, whatever the link says, and symlinks are
// followed before the check.
func TestAllowedRootsConfineTargets(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/a.txt": "a\n", "secret/key.txt": "k\n"})
	if err := os.Symlink(filepath.Join(root, "secret", "key.txt"), filepath.Join(root, "src", "link.txt")); err != nil {
		t.Fatal(err)
	}
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithAllowedRoots("src"))))
	if _, _, err := convert(t, md, "doc.md", "[](src/a.txt#line=0,1)\n"); err != nil {
		t.Fatalf("inside the allowed root: %v", err)
	}
	for _, link := range []string{"secret/key.txt#line=0,1", "src/link.txt#line=0,1", "src/../secret/key.txt#line=0,1"} {
		_, _, err := convert(t, md, "doc.md", "["+"]("+link+")\n")
		if !errors.Is(err, target.ErrOutsideRoot) {
			t.Errorf("%s: err = %v, want ErrOutsideRoot", link, err)
		}
	}
}

// Lenient mode relaxes syntax errors and misordered ranges only;
// integrity mismatches stay errors (SEMANTICS.md §4).
func TestLenientNeverRelaxesIntegrity(t *testing.T) {
	root := writeFiles(t, map[string]string{"x.txt": "x\n"})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithLenient(true))))
	out, problems, err := convert(t, md, "doc.md", "[x](x.txt#line=5,1)\n")
	if err != nil || len(problems) != 1 || problems[0].Severity != textfrag.Warning || !strings.Contains(out, `<a href="x.txt#line=5,1">x</a>`) {
		t.Errorf("misordered in lenient mode: err %v, problems %v, out %s", err, problems, out)
	}
	_, _, err = convert(t, md, "doc.md", "[x](x.txt#line=0,1;length=7)\n")
	if !errors.Is(err, rfc5147.ErrIntegrity) {
		t.Errorf("length mismatch in lenient mode: err = %v, want ErrIntegrity", err)
	}
	_, _, err = convert(t, md, "doc.md", "[x](missing.txt#line=0,1)\n")
	if !errors.Is(err, target.ErrNotFound) {
		t.Errorf("missing target in lenient mode: err = %v, want ErrNotFound", err)
	}
}

// With warnings as errors, clamping and unknown checks fail the conversion.
func TestWarningsAsErrors(t *testing.T) {
	root := writeFiles(t, map[string]string{"x.txt": "x\n"})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithWarningsAsErrors(true))))
	for _, link := range []string{"x.txt#line=0,5", "x.txt#line=0,1;sha256=abc"} {
		if _, _, err := convert(t, md, "doc.md", "[]("+link+")\n"); err == nil {
			t.Errorf("%s: no error", link)
		}
	}
	if _, _, err := convert(t, md, "doc.md", "[](x.txt#line=0,1)\n"); err != nil {
		t.Errorf("clean link: %v", err)
	}
}

// Every problem of a document is recorded, in order, though Convert stops at
// the first error.
func TestAllProblemsRecorded(t *testing.T) {
	root := writeFiles(t, map[string]string{"x.txt": "x\n"})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	src := "[a](x.txt#line=0,9)\n\n[b](nope.txt#line=1)\n\nText [c](x.txt#char=1,0) and é [d](x.txt#line=;)\n"
	_, problems, err := convert(t, md, "d.md", src)
	if err == nil || !strings.HasPrefix(err.Error(), "d.md:3:1: error: nope.txt#line=1") {
		t.Fatalf("first error = %v", err)
	}
	want := []string{"d.md:1:1: warning:", "d.md:3:1: error: nope.txt", "d.md:5:6: error: x.txt#char=1,0", "d.md:5:32: error: x.txt#line=;"}
	if len(problems) != len(want) {
		t.Fatalf("problems %v, want %d", problems, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i].Error(), w) {
			t.Errorf("problem %d = %q, want prefix %q", i, problems[i], w)
		}
	}
}

// recordingCache is a highlight cache that counts what it is asked.
type recordingCache struct {
	mu     sync.Mutex
	blocks map[highlight.Key][]byte
	hits   int
}

func (c *recordingCache) Get(k highlight.Key) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	html, ok := c.blocks[k]
	if ok {
		c.hits++
	}
	return html, ok
}

func (c *recordingCache) Put(k highlight.Key, html []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blocks[k] = bytes.Clone(html)
}

// A highlight cache changes how often boxes are lexed, never what they say:
// a box is stored once per distinct body and numbering, and served from the
// cache after that.
func TestHighlightCacheServesEqualBoxes(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.go": "package a\n\nfunc A() int { return 1 }\n\nfunc B() {}\n"})
	src := "[](a.go#line=2,3)\n\n[](a.go#line=4,5 \"hl=5\")\n\n[](a.go#line=2,3)\n"
	plain := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	want, _, err := convert(t, plain, "doc.md", src)
	if err != nil {
		t.Fatal(err)
	}
	cache := &recordingCache{blocks: map[highlight.Key][]byte{}}
	cached := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithHighlightCache(cache))))
	for i := range 2 {
		got, _, err := convert(t, cached, "doc.md", src)
		if err != nil || got != want {
			t.Fatalf("conversion %d with a cache: err %v\n%s\nwant\n%s", i, err, got, want)
		}
	}
	// The cache also holds the lexer's name for "go" (highlight.LexerCached).
	blocks := 0
	for _, html := range cache.blocks {
		if strings.HasPrefix(string(html), `<div class="highlight">`) {
			blocks++
			if !strings.Contains(string(html), `<span class="ln">`) {
				t.Errorf("a stored block should be the numbered box body: %s", html)
			}
		}
	}
	if blocks != 2 || cache.hits < 4 {
		t.Errorf("want 2 blocks stored and at least 4 hits (1 in the first conversion, 3 in the second), got %d and %d", blocks, cache.hits)
	}
}
