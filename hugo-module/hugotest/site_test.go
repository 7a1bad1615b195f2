// Package hugotest tests the textfrag Hugo module by building sites with Hugo
// in-process. It is a module of its own so that users of the library and of
// the Hugo module never inherit Hugo as a dependency.
package hugotest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/hugolib"
)

// modulePath is the Hugo module under test; moduleDir is where it is.
const modulePath = "github.com/textfrag/textfrag/hugo-module"

func moduleDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// site describes a Hugo project built in a directory that already holds the
// files its pages quote.
type site struct {
	// Root is the project root: Hugo's working directory.
	Root string
	// Docs maps root-relative Markdown paths to their content. Each is mounted
	// as content at the same path, so positions name the real file.
	Docs map[string]string
	// Params is TOML added under [params.textfrag].
	Params string
	// Config is TOML added at the top of hugo.toml.
	Config string
	// NoModule builds without the textfrag module: what Hugo does on its own.
	NoModule bool
	// keepLayout keeps the _layouts/single.html already in Root.
	keepLayout bool
}

// result is what a build produced.
type result struct {
	// Pages maps each doc to its rendered HTML (the page's .Content).
	Pages map[string]string
	Log   string
	Err   error
	// Root is the site's project root.
	Root string
	// Metrics is Hugo's template metrics table, when Config sets
	// templateMetrics = true.
	Metrics string
}

// build writes hugo.toml and a layout into s.Root and builds the site.
func (s site) build(t testing.TB) result {
	t.Helper()
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "baseURL = \"https://example.org/\"\n")
	fmt.Fprintf(&cfg, "disableKinds = [\"home\", \"section\", \"taxonomy\", \"term\", \"rss\", \"sitemap\", \"robotsTXT\", \"404\"]\n")
	cfg.WriteString(s.Config)
	cfg.WriteString("\n[markup.goldmark.parser]\nwrapStandAloneImageWithinParagraph = false\n")
	cfg.WriteString("[module]\n")
	if !s.NoModule {
		fmt.Fprintf(&cfg, "replacements = %q\n", modulePath+" -> "+moduleDir(t))
		fmt.Fprintf(&cfg, "[[module.imports]]\npath = %q\n", modulePath)
	}
	fmt.Fprintf(&cfg, "[[module.mounts]]\nsource = \"_layouts\"\ntarget = \"layouts\"\n")
	docs := sortedKeys(s.Docs)
	for _, d := range docs {
		fmt.Fprintf(&cfg, "[[module.mounts]]\nsource = %q\ntarget = %q\n", d, "content/"+d)
	}
	if s.Params != "" {
		fmt.Fprintf(&cfg, "[params.textfrag]\n%s\n", s.Params)
	}
	write(t, filepath.Join(s.Root, "hugo.toml"), cfg.String())
	if !s.keepLayout {
		write(t, filepath.Join(s.Root, "_layouts", "single.html"), "{{ .Content }}")
	}
	for _, d := range docs {
		write(t, filepath.Join(s.Root, filepath.FromSlash(d)), s.Docs[d])
	}

	b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{
		T:          t,
		NeedsOsFS:  true,
		WorkingDir: s.Root,
		LogLevel:   logg.LevelWarn,
	})
	_, err := b.BuildE()
	r := result{Pages: map[string]string{}, Log: b.LogString(), Err: err, Root: s.Root}
	if b.H != nil && b.H.Metrics != nil {
		var m bytes.Buffer
		b.H.Metrics.WriteMetrics(&m)
		r.Metrics = m.String()
	}
	if err == nil {
		for _, d := range docs {
			out := filepath.Join(s.Root, "public", filepath.FromSlash(strings.TrimSuffix(d, ".md")), "index.html")
			data, rerr := os.ReadFile(out)
			if rerr != nil {
				r.Err = fmt.Errorf("the build made no %s: %w", out, rerr)
				continue
			}
			r.Pages[d] = string(data)
		}
	}
	return r
}

func write(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
