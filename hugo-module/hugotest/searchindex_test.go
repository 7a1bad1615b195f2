package hugotest

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/hugolib"
)

// "indexer" is a fixture theme (written for these tests) that does with a
// page's rendered text what blog themes such as PaperMod do: an image hook
// of its own and no link hook; a table of contents rebuilt from the
// headings it finds in .Content with regular expressions, and anchors
// added to them with replaceRE; list pages of truncated .Summary; and a
// search index, the home page's JSON output, holding every regular page's
// .Plain, .PlainWords count and .Summary.
var indexerTheme = map[string]string{
	"layouts/baseof.html":                `<!doctype html><html><head>{{ partial "extend_head.html" . }}</head><body>{{ block "main" . }}{{ end }}</body></html>`,
	"layouts/_partials/extend_head.html": ``,
	"layouts/_partials/toc.html": `{{- $hs := findRE "<h[1-6][^>]*>(?:.|\n)+?</h[1-6]>" .Content -}}{{ with $hs }}<nav class="toc"><ul>{{ range . }}` +
		`<li><a href="#{{ index (findRESubmatch "id=\"([^\"]*)\"" . 1) 0 1 }}">{{ . | plainify | safeHTML }}</a></li>{{ end }}</ul></nav>{{ end }}`,
	"layouts/single.html": `{{ define "main" }}{{ partial "toc.html" . }}<article>{{ .Content | replaceRE "(<h[1-6] id=\"([^\"]+)\".+)(</h[1-6]+>)" "${1}<a class=\"anchor\" href=\"#${2}\">#</a>${3}" | safeHTML }}</article>{{ end }}`,
	"layouts/list.html":   `{{ define "main" }}<ul>{{ range .Pages }}<li>{{ .Title }}: {{ .Summary }}{{ if .Truncated }} …{{ end }}</li>{{ end }}</ul>{{ end }}`,
	"layouts/home.html":   `{{ define "main" }}<ul>{{ range site.RegularPages }}<li>{{ .Summary }}</li>{{ end }}</ul>{{ end }}`,
	"layouts/home.json": `{{- $index := slice -}}{{- range site.RegularPages -}}{{- if not .Params.searchHidden -}}` +
		`{{- $index = $index | append (dict "title" .Title "content" .Plain "words" (len .PlainWords) "summary" .Summary "permalink" .Permalink) -}}{{- end -}}{{- end -}}{{- $index | jsonify -}}`,
	"layouts/_markup/render-image.html": `<img loading="lazy" src="{{ .Destination | safeURL }}" alt="{{ .Text }}">`,
}

// A quote wherever a search index, a rebuilt table of contents or a
// truncated summary carries a page's text — after the summary's cut, in a
// heading, an image of the theme's hook, a page the index hides — fails
// the build naming the page when stale, whichever hooks win; fresh, it
// builds, and the search index holds the page's text.
func TestSearchIndexAndTocFailClosed(t *testing.T) {
	sum := md5.Sum([]byte(twoLines))
	fresh := "/src/a.txt#line=0,1;md5=" + hex.EncodeToString(sum[:])
	stale := "/src/a.txt#line=0,1;md5=0123456789abcdef0123456789abcdef"
	positions := []struct {
		name string
		page func(link string) string
	}{
		{"after the summary's cut", func(l string) string {
			return fmt.Sprintf("---\ntitle: Q\n---\n\nOne two three.\n\n<!--more-->\n\n[the quote](%s)\n", l)
		}},
		{"in a heading", func(l string) string {
			return fmt.Sprintf("---\ntitle: Q\n---\n\n## See [the quote](%s)\n\nText.\n", l)
		}},
		{"an image the theme's hook renders", func(l string) string {
			return fmt.Sprintf("---\ntitle: Q\n---\n\nText.\n\n![the quote](%s)\n", l)
		}},
		{"a page the search index hides", func(l string) string {
			return fmt.Sprintf("---\ntitle: Q\nsearchHidden: true\n---\n\nText with [the quote](%s).\n", l)
		}},
	}
	for _, pos := range positions {
		for _, hooks := range []hooksSetup{themeFirst, moduleFirst} {
			t.Run(pos.name+"/"+string(hooks), func(t *testing.T) {
				_, log, err := indexerSite(t, hooks, pos.page(stale))
				if err == nil {
					t.Fatalf("the build succeeded:\n%s", log)
				}
				msg := err.Error() + log
				// The theme has no link hook: textfrag's renders its links
				// whichever comes first; its image hook shadows textfrag's.
				if hooks == themeFirst && strings.Contains(pos.name, "image") {
					mustContain(t, "the error", msg, filepath.Join("content", "docs", "q.md")+": textfrag hooks error", "render-image.html hook is not textfrag's")
					return
				}
				mustContain(t, "the error", msg, "textfrag integrity error", "md5 mismatch")
			})
		}
		t.Run(pos.name+"/fresh", func(t *testing.T) {
			root, log, err := indexerSite(t, moduleFirst, pos.page(fresh))
			if err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			data, err := os.ReadFile(filepath.Join(root, "public", "index.json"))
			if err != nil {
				t.Fatal(err)
			}
			var index []map[string]any
			if err := json.Unmarshal(data, &index); err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			// The quoted page is in the index (but where it hides), with
			// the text it shows: the box's lines, or the link's text.
			found := false
			for _, e := range index {
				if e["title"] == "Q" {
					found = true
					if c := fmt.Sprint(e["content"]); !strings.Contains(c, "one") && !strings.Contains(c, "the quote") {
						t.Errorf("the index holds %q for the page", c)
					}
				}
			}
			if found == strings.Contains(pos.name, "hides") {
				t.Errorf("the page is in the index: %v; it hides: %v\n%s", found, strings.Contains(pos.name, "hides"), data)
			}
		})
	}
}

// indexerSite builds a site on the indexer theme with a page at
// content/docs/q.md and another without quotes, and returns its root, the
// build's log and error.
func indexerSite(t *testing.T, hooks hooksSetup, page string) (string, string, error) {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.txt"), twoLines)
	for name, text := range indexerTheme {
		write(t, filepath.Join(root, "themes", "indexer", filepath.FromSlash(name)), text)
	}
	order := []string{"indexer", modulePath}
	if hooks == moduleFirst {
		order = []string{modulePath, "indexer"}
	}
	var cfg strings.Builder
	cfg.WriteString("baseURL = \"https://example.org/\"\ndisableKinds = [\"sitemap\", \"robotsTXT\", \"404\", \"taxonomy\", \"term\"]\nsummaryLength = 3\n")
	cfg.WriteString("[outputs]\nhome = [\"html\", \"json\"]\n")
	cfg.WriteString("[markup.goldmark.parser]\nwrapStandAloneImageWithinParagraph = false\n")
	fmt.Fprintf(&cfg, "[module]\nreplacements = %q\n", modulePath+" -> "+moduleDir(t))
	for _, p := range order {
		fmt.Fprintf(&cfg, "[[module.imports]]\npath = %q\n", p)
	}
	write(t, filepath.Join(root, "hugo.toml"), cfg.String())
	write(t, filepath.Join(root, "layouts", "_partials", "extend_head.html"), `{{ partial "textfrag/head.html" . }}`)
	write(t, filepath.Join(root, "content", "docs", "plain.md"), "---\ntitle: Plain\n---\n\nNo quotes here, only words.\n")
	write(t, filepath.Join(root, "content", "docs", "q.md"), page)
	b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{T: t, NeedsOsFS: true, WorkingDir: root, LogLevel: logg.LevelWarn})
	_, err := b.BuildE()
	return root, b.LogString(), err
}
