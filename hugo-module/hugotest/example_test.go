package hugotest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/config"
	"github.com/gohugoio/hugo/hugolib"
)

// TestExampleSite builds examples/hugo-site as it is, the way
// "go tool hugo --source ../../examples/hugo-site" does, but writes the
// output to a temporary directory.
func TestExampleSite(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "hugo-site"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	flags := config.New()
	flags.Set("publishDir", filepath.Join(out, "public"))
	flags.Set("resourceDir", filepath.Join(out, "resources"))
	flags.Set("cacheDir", filepath.Join(out, "cache"))
	b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{
		T:          t,
		NeedsOsFS:  true,
		WorkingDir: dir,
		BaseCfg:    flags,
		LogLevel:   logg.LevelWarn,
	})
	if _, err := b.BuildE(); err != nil {
		t.Fatalf("%v\n%s", err, b.LogString())
	}
	if log := b.LogString(); strings.Contains(log, "WARN") || strings.Contains(log, "ERROR") {
		t.Errorf("the example logged:\n%s", log)
	}
	page, err := os.ReadFile(filepath.Join(out, "public", "tour", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	mustContain(t, "the tour", html,
		// The pinned block box.
		`<figure class="textfrag textfrag-line" data-textfrag-fragment="line=11,18;md5=a6dcfdc3535e593f2581b15c30262d04">`,
		`<span class="textfrag-title">Counting words</span> <a class="textfrag-source" href="https://github.com/textfrag/textfrag/blob/main/examples/hugo-site/src/wordfreq.go#L12-L18">src/wordfreq.go</a> <span class="textfrag-range">lines 12–18</span>`,
		// A link alone in its paragraph.
		`<p><span class="textfrag textfrag-line" role="figure" data-textfrag-fragment="line=23,29">`,
		// A link in running text.
		`The program <a href="../src/wordfreq.go#line=13,15">reads standard input</a> word by`,
		// A character range and the shortcode.
		`<span class="textfrag-range">line 2, col 1 – line 2, col 12</span>`,
		`<span class="textfrag-title">The module import</span> <a class="textfrag-source" href="https://github.com/textfrag/textfrag/blob/main/examples/hugo-site/hugo.toml#L8-L14">hugo.toml</a> <span class="textfrag-range">lines 8–14</span>`,
		`<link rel="stylesheet" href="/textfrag/textfrag.`,
	)
	if css, _ := filepath.Glob(filepath.Join(out, "public", "textfrag", "textfrag.*.css")); len(css) != 1 {
		t.Errorf("want the stylesheet published once, got %v", css)
	}
}
