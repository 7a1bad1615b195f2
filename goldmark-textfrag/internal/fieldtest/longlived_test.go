package fieldtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/highlight"
)

// version k of hello.go has k more lines before main, which is at lines
// 5-7 (line=4,7) in version 0 only.
func version(k int) string {
	return strings.Replace(helloGo, "func main", strings.Repeat("// moved\n", k)+"func main", 1)
}

// replace writes data to root/src/hello.go by renaming a new file over it,
// so that a reader sees one version whole.
func replace(t testing.TB, root, data string) {
	t.Helper()
	tmp := filepath.Join(root, "src", ".hello.go.new")
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(root, "src", "hello.go")); err != nil {
		t.Fatal(err)
	}
}

// The pages of the long-lived test: a box pinned by md5, and a link in
// running text checked by name.
var (
	pinnedPage = "---\ntitle: Pinned\n---\n# Main {#main}\n\n[main :rocket:](../src/hello.go#line=4,7;md5=" + md5hex(version(0)) + ")\n"
	namedPage  = "# Main\n\n| what | where |\n|---|---|\n| entry | [main](../src/hello.go#line=4,7 \"sym=main\") |\n"
)

// convertBoth converts the two pages; passed[i] reports whether page i
// converted. A conversion that passed must show version 0's lines, one
// that failed must fail for the quote.
func convertBoth(md mdConverter) (passed [2]bool, err error) {
	out, _, cerr := convert(md, pinnedPage)
	var p *textfrag.Problem
	switch {
	case cerr == nil:
		if !strings.Contains(out, `<span class="ln">5</span><span class="cl"><span class="kd">func</span>`) || strings.Contains(out, "moved") {
			return passed, fmt.Errorf("pinned page passed with a box that is not version 0's lines 5-7:\n%s", out)
		}
		passed[0] = true
	case !errors.As(cerr, &p) || p.Kind != "integrity" || p.Line != 6 || p.Column != 1:
		return passed, fmt.Errorf("pinned page: %v, want an integrity error at 6:1", cerr)
	}
	out, _, cerr = convert(md, namedPage)
	switch {
	case cerr == nil:
		if !strings.Contains(out, `hello.go#line=4,7"`) {
			return passed, fmt.Errorf("named page passed without its link:\n%s", out)
		}
		passed[1] = true
	case !errors.As(cerr, &p) || p.Kind != "symbol" || p.Line != 5 || p.Column != 11:
		return passed, fmt.Errorf("named page: %v, want a symbol error at 5:11", cerr)
	}
	return passed, nil
}

// One goldmark instance with every extension, kept for many conversions
// while the quoted file changes between them, passes the pages exactly
// while the file is version 0: its md5 and its name are checked against the
// file as it is at each conversion, whatever was read, parsed or
// highlighted before. Then the same from many goroutines at once while the
// file keeps changing (run with -race): each conversion sees one version.
func TestLongLivedInstanceWithEveryExtension(t *testing.T) {
	all := combinations()[len(combinations())-1]
	for _, o := range orders() {
		t.Run(o.name, func(t *testing.T) {
			root := project(t)
			replace(t, root, version(0))
			md := newMarkdown(all, o.first, textfrag.WithRoot(root), textfrag.WithHighlightCache(highlight.MemoryCache()))
			for i := range 40 {
				k := i % 3 // versions 0, 1, 2, 0, …
				replace(t, root, version(k))
				passed, err := convertBoth(md)
				if err != nil {
					t.Fatalf("conversion %d, version %d: %v", i, k, err)
				}
				if want := k == 0; passed != [2]bool{want, want} {
					t.Fatalf("conversion %d, version %d: passed %v, want %v for both pages", i, k, passed, want)
				}
			}

			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for range 8 {
				wg.Go(func() {
					for range 25 {
						if _, err := convertBoth(md); err != nil {
							errs <- err
							return
						}
					}
				})
			}
			for i := range 60 {
				replace(t, root, version(i%2))
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}
