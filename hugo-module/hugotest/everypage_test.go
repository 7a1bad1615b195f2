package hugotest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/hugolib"
)

// "lister" is a fixture theme (written for these tests) whose pages show
// other pages' text, as blog and docs themes do: its home page shows a
// headless bundle's content (site.GetPage "/headless", as Hugo's docs show
// headless bundles used) and lists every
// regular page's summary and markdownified description (FixIt's index.html),
// section, taxonomy and term pages list their pages' summaries, and its feed
// (rss.xml) holds each listed page's summary, or a page's content when the
// page is rendered to RSS itself (Stack's index.xml); its "bare" layout
// (layout: bare) writes a page's content alone, without the base template
// and so without textfrag/head (an embed or print view). Its hooks render
// every link and image, as hextra's do.
var listerTheme = map[string]string{
	"layouts/baseof.html":                    `<!doctype html><html><head>{{ partial "custom/head-end.html" . }}</head><body>{{ block "main" . }}{{ end }}</body></html>`,
	"layouts/_partials/custom/head-end.html": ``,
	"layouts/_partials/item.html":            `<li>{{ .Title }}: {{ .Summary }}{{ with .Description }} <p class="desc">{{ . | markdownify }}</p>{{ end }}</li>`,
	"layouts/page.html":                      `{{ define "main" }}<main>{{ .Content }}</main>{{ end }}`,
	"layouts/home.html":                      `{{ define "main" }}<main>{{ .Content }}{{ with site.GetPage "/headless" }}<aside>{{ .Content }}</aside>{{ end }}<ul>{{ range site.RegularPages }}{{ partial "item.html" . }}{{ end }}</ul></main>{{ end }}`,
	"layouts/bare.html":                      `{{ .Content }}`,
	"layouts/list.html":                      `{{ define "main" }}<main>{{ .Content }}<ul>{{ range .Pages }}{{ partial "item.html" . }}{{ end }}</ul></main>{{ end }}`,
	"layouts/rss.xml": `<rss><channel><title>{{ .Title }}</title>{{ if .IsPage }}<item><description>{{ .Content | transform.XMLEscape }}</description></item>` +
		`{{ else }}{{ range .Pages }}<item><title>{{ .Title }}</title><description>{{ .Summary | transform.XMLEscape }}</description></item>{{ end }}{{ end }}</channel></rss>`,
	"layouts/_markup/render-link.html":  `<a href="{{ .Destination | safeURL }}"{{ if strings.HasPrefix .Destination "http" }} target="_blank" rel="noopener"{{ end }}>{{ .Text }}</a>`,
	"layouts/_markup/render-image.html": `<img src="{{ .Destination | safeURL }}" alt="{{ .PlainText }}" loading="lazy">`,
}

// hooksSetup is which hooks render a site's links.
type hooksSetup string

const (
	themeFirst  hooksSetup = "theme first"  // the theme's hooks win
	moduleFirst hooksSetup = "module first" // textfrag's hooks win
	// siteHook: the module comes first, but the site has its own older
	// layouts/_markup/render-link.html, which shadows both.
	siteHook hooksSetup = "site's own link hook"
)

// listerSite builds a site on the lister theme with every page kind and the
// given content files (paths under content/), and returns the build's error
// and log; config is TOML added at the end of hugo.toml.
func listerSite(t *testing.T, hooks hooksSetup, content map[string]string, config ...string) (string, error) {
	t.Helper()
	root := listerFiles(t, hooks, content, config...)
	b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{
		T: t, NeedsOsFS: true, WorkingDir: root, LogLevel: logg.LevelWarn,
	})
	_, err := b.BuildE()
	return b.LogString(), err
}

// listerFiles writes the site listerSite builds and returns its root.
func listerFiles(t *testing.T, hooks hooksSetup, content map[string]string, config ...string) string {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.txt"), twoLines)
	for name, text := range listerTheme {
		write(t, filepath.Join(root, "themes", "lister", filepath.FromSlash(name)), text)
	}
	order := []string{"lister", modulePath}
	if hooks != themeFirst {
		order = []string{modulePath, "lister"}
	}
	var cfg strings.Builder
	cfg.WriteString("baseURL = \"https://example.org/\"\ndisableKinds = [\"sitemap\", \"robotsTXT\", \"404\"]\n")
	cfg.WriteString("[taxonomies]\ntag = \"tags\"\n")
	cfg.WriteString("[markup.goldmark.parser]\nwrapStandAloneImageWithinParagraph = false\n")
	fmt.Fprintf(&cfg, "[module]\nreplacements = %q\n", modulePath+" -> "+moduleDir(t))
	for _, p := range order {
		fmt.Fprintf(&cfg, "[[module.imports]]\npath = %q\n", p)
	}
	for _, c := range config {
		cfg.WriteString(c + "\n")
	}
	write(t, filepath.Join(root, "hugo.toml"), cfg.String())
	write(t, filepath.Join(root, "layouts", "_partials", "custom", "head-end.html"), `{{ partial "textfrag/head.html" . }}`)
	if hooks == siteHook {
		write(t, filepath.Join(root, "layouts", "_markup", "render-link.html"), `<a class="site" href="{{ .Destination | safeURL }}">{{ .Text }}</a>`)
	}
	// A page that renders, so that textfrag/head runs.
	write(t, filepath.Join(root, "content", "docs", "plain.md"), "---\ntitle: Plain\ntags: [foo]\n---\n\nNo quotes here.\n")
	for name, text := range content {
		write(t, filepath.Join(root, "content", filepath.FromSlash(name)), text)
	}
	return root
}

// Wherever an RFC 5147 link sits — a front-matter summary or description, a
// page rendered only to RSS, a page never rendered but listed (its summary on
// the home page), a page rendered as a link only, a page listed only in its
// section, home, section, taxonomy and term pages — it is verified, or the
// build fails naming the page, whichever hooks win.
func TestEveryPageKindFailsClosed(t *testing.T) {
	sum := md5.Sum([]byte(twoLines))
	fresh := "/src/a.txt#line=0,1;md5=" + hex.EncodeToString(sum[:])
	stale := "/src/a.txt#line=0,1;md5=0123456789abcdef0123456789abcdef"
	positions := []struct {
		name, file string
		page       func(link string) string
	}{
		{"front-matter summary", "docs/summary.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: S\nsummary: \"Read [the quote](%s) first.\"\n---\n\nBody.\n", l)
		}},
		{"front-matter description", "docs/description.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: D\ndescription: \"Read [the quote](%s) first.\"\n---\n\nBody.\n", l)
		}},
		{"rendered only to RSS", "docs/feed.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: F\noutputs: [rss]\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"never rendered, listed", "docs/hidden.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: H\nbuild:\n  render: never\n  list: always\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"rendered as a link only", "docs/linkonly.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: L\nbuild:\n  render: link\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"listed only in its section", "docs/local.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: Loc\nbuild:\n  render: never\n  list: local\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		// Pages in no list (build.list: never): Hugo's page collections
		// leave them out, and textfrag/head never runs on them.
		{"never listed, rendered only to RSS", "docs/unlisted-feed.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: UF\noutputs: [rss]\nbuild:\n  list: never\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"never listed, a layout without textfrag/head", "docs/unlisted.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: U\nlayout: bare\nbuild:\n  list: never\n  render: always\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"never listed nor rendered, shown by the home page", "headless/index.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: Headless\nbuild:\n  list: never\n  render: never\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"home page", "_index.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: Home\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"section page", "docs/_index.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: Docs\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"taxonomy page", "tags/_index.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: Tags\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"term page", "tags/foo/_index.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: Foo\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
		{"term page rendered only to RSS", "tags/bar/_index.md", func(l string) string {
			return fmt.Sprintf("---\ntitle: Bar\noutputs: [rss]\n---\n\nSee [the quote](%s) in text.\n", l)
		}},
	}
	for _, pos := range positions {
		for _, hooks := range []hooksSetup{themeFirst, moduleFirst, siteHook} {
			t.Run(pos.name+"/"+string(hooks), func(t *testing.T) {
				content := map[string]string{pos.file: pos.page(stale)}
				if pos.file == "tags/bar/_index.md" {
					content["docs/barred.md"] = "---\ntitle: Barred\ntags: [bar]\n---\n\nText.\n"
				}
				log, err := listerSite(t, hooks, content)
				if err == nil {
					t.Fatalf("the build succeeded:\n%s", log)
				}
				msg := err.Error() + log
				if hooks == moduleFirst {
					mustContain(t, "the error", msg, "textfrag integrity error", "md5 mismatch")
					return
				}
				which := "its render-link.html and render-image.html hooks are not textfrag's"
				if hooks == siteHook {
					which = "its render-link.html hook is not textfrag's"
				}
				mustContain(t, "the error", msg, filepath.Join("content", filepath.FromSlash(pos.file))+": textfrag hooks error", which)
				if strings.HasPrefix(pos.name, "front-matter") {
					mustContain(t, "the error", msg, "in its front matter")
				}
			})
		}
		// Verified links build with textfrag's hooks.
		t.Run(pos.name+"/fresh", func(t *testing.T) {
			content := map[string]string{pos.file: pos.page(fresh)}
			if log, err := listerSite(t, moduleFirst, content); err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
		})
	}
}

// Under the theme's hooks, pages of every kind and output without RFC 5147
// links build: the check at the end of the build finds nothing to fail on.
func TestEveryPageKindWithoutQuotesBuilds(t *testing.T) {
	content := map[string]string{
		"_index.md":          "---\ntitle: Home\n---\n\nSee [the site](https://example.org/#top).\n",
		"docs/_index.md":     "---\ntitle: Docs\nsummary: \"A [link](https://example.org/a#b).\"\n---\n",
		"docs/feed.md":       "---\ntitle: F\noutputs: [rss]\n---\n\nA [link](../plain/).\n",
		"docs/hidden.md":     "---\ntitle: H\nbuild:\n  render: never\n---\n\nWrite `[x](a.go#line=1,2)` to quote.\n",
		"tags/foo/_index.md": "---\ntitle: Foo\ndescription: Pages about foo.\n---\n",
	}
	log, err := listerSite(t, themeFirst, content)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
}

// A content page Hugo does not render as Markdown (.html passes through as
// it is; AsciiDoc, reStructuredText, Pandoc and Org need external programs)
// runs no render hook: an RFC 5147 link in it fails the build even with
// textfrag's hooks first, so that it is not published unverified.
func TestNonMarkdownContentFailsClosed(t *testing.T) {
	sum := md5.Sum([]byte(twoLines))
	fresh := "/src/a.txt#line=0,1;md5=" + hex.EncodeToString(sum[:])
	for _, hooks := range []hooksSetup{moduleFirst, themeFirst} {
		log, err := listerSite(t, hooks, map[string]string{
			"docs/raw.html": "---\ntitle: Raw\n---\n<p>See <a href=\"" + fresh + "\">the quote</a>.</p>\n",
		}, "[security]\nallowContent = ['.*']") // Hugo refuses HTML content by default
		if err == nil {
			t.Fatalf("%s: the build succeeded:\n%s", hooks, log)
		}
		mustContain(t, "the error", err.Error()+log, filepath.Join("content", "docs", "raw.html")+": textfrag hooks error", "or the page is not Markdown")
	}
}

// On a multilingual site each language is a site of its own: the check at
// the end of the build runs for each, so a page never rendered in the
// second language is checked too.
func TestEveryPageKindEachLanguage(t *testing.T) {
	stale := "/src/a.txt#line=0,1;md5=0123456789abcdef0123456789abcdef"
	languages := "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n"
	for _, file := range []string{"docs/hidden.fr.md", "docs/hidden.md"} {
		log, err := listerSite(t, themeFirst, map[string]string{
			"docs/plain.fr.md": "---\ntitle: Simple\n---\n\nPas de citation.\n",
			file:               "---\ntitle: H\nbuild:\n  render: never\n---\n\nSee [the quote](" + stale + ") in text.\n",
		}, languages)
		if err == nil {
			t.Fatalf("%s: the build succeeded:\n%s", file, log)
		}
		mustContain(t, "the error", err.Error()+log, filepath.Join("content", filepath.FromSlash(file))+": textfrag hooks error")
	}
}

// A page a content adapter adds, never rendered but listed, is checked at
// the end of the build like a page from a file, named by the adapter.
func TestContentAdapterPageFailsClosed(t *testing.T) {
	stale := "/src/a.txt#line=0,1;md5=0123456789abcdef0123456789abcdef"
	adapter := `{{ $content := dict "mediaType" "text/markdown" "value" "See [the quote](` + stale + `) in text." }}
{{ .AddPage (dict "kind" "page" "path" "adapted" "title" "Adapted" "content" $content "build" (dict "render" "never" "list" "always")) }}`
	for _, hooks := range []hooksSetup{themeFirst, moduleFirst} {
		log, err := listerSite(t, hooks, map[string]string{"docs/_content.gotmpl": adapter})
		if err == nil {
			t.Fatalf("%s: the build succeeded:\n%s", hooks, log)
		}
		want := filepath.Join("content", "docs", "_content.gotmpl") + ": textfrag hooks error"
		if hooks == moduleFirst {
			want = "textfrag integrity error"
		}
		mustContain(t, "the error", err.Error()+log, want)
	}
}

// Under hugo server, the check at the end of the build holds across
// rebuilds: a page edited to quote a stale link where no head partial sees
// it (a never-rendered page) fails the rebuild, and the site serves again
// once it is fixed.
func TestUnrenderedCheckUnderServer(t *testing.T) {
	root := listerFiles(t, themeFirst, map[string]string{"docs/hidden.md": "---\ntitle: H\nbuild:\n  render: never\n---\n\nNo quote.\n"})
	url, log := hugoServer(t, root)
	waitFor(t, url+"/docs/plain/", "No quotes here.", 60*time.Second, log)
	write(t, filepath.Join(root, "content", "docs", "hidden.md"), "---\ntitle: H\nbuild:\n  render: never\n---\n\nSee [the quote](/src/a.txt#line=0,1;md5=0123456789abcdef0123456789abcdef).\n")
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(log.String(), "textfrag hooks error") {
		// Hugo's fast render mode renders a page when it is asked for: the
		// home page lists the never-rendered page's summary.
		if resp, err := http.Get(url + "/"); err == nil {
			resp.Body.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("the rebuild did not fail on the never-rendered page:\n%s", log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	mustContain(t, "the server's log", log.String(), filepath.Join("content", "docs", "hidden.md")+": textfrag hooks error")
	write(t, filepath.Join(root, "content", "docs", "plain.md"), "---\ntitle: Plain\ntags: [foo]\n---\n\nEdited.\n")
	write(t, filepath.Join(root, "content", "docs", "hidden.md"), "---\ntitle: H\nbuild:\n  render: never\n---\n\nNo quote again.\n")
	waitFor(t, url+"/docs/plain/", "Edited.", 30*time.Second, log)
	if strings.Contains(log.String(), "panic") {
		t.Errorf("hugo server panicked:\n%s", log.String())
	}
}

// A front-matter link whose fragment is spelled with a character reference
// or an escaped "=" reaches the page as a live #line= link through a theme's
// hooks just as well: the guard reads the front matter as Markdown would.
func TestFrontMatterEscapedLinksFailClosed(t *testing.T) {
	stale := "/src/a.txt&#35;line=0,1;md5=0123456789abcdef0123456789abcdef"
	for name, page := range map[string]string{
		"summary, &#35;":   fmt.Sprintf("---\ntitle: S\nsummary: \"Read [the quote](%s) first.\"\n---\n\nBody.\n", stale),
		"description, \\=": "---\ntitle: D\ndescription: 'Read [the quote](/src/a.txt#line\\=0,1) first.'\n---\n\nBody.\n",
	} {
		for _, hooks := range []hooksSetup{themeFirst, siteHook} {
			t.Run(name+"/"+string(hooks), func(t *testing.T) {
				log, err := listerSite(t, hooks, map[string]string{"docs/fm.md": page})
				if err == nil {
					t.Fatalf("the build succeeded:\n%s", log)
				}
				mustContain(t, "the error", err.Error()+log, filepath.Join("content", "docs", "fm.md")+": textfrag hooks error", "in its front matter")
			})
		}
	}
}

// A page in no list (build.list: never) is found by its file wherever the
// site's content comes from in the project: a second language, a directory
// mounted at another content path, a directory holding no listed page. Under
// the theme's hooks each fails the build naming its file.
func TestUnlistedPagesFailClosed(t *testing.T) {
	stale := "/src/a.txt#line=0,1;md5=0123456789abcdef0123456789abcdef"
	unlisted := "---\ntitle: U\nlayout: bare\nbuild:\n  list: never\n---\n\nSee [the quote](" + stale + ") in text.\n"
	mounts := "[[module.mounts]]\nsource = \"content\"\ntarget = \"content\"\n[[module.mounts]]\nsource = \"guides\"\ntarget = \"content/manual\"\n"
	for _, c := range []struct {
		name, file string // file: the unlisted page, from the project root
		config     string
		extra      map[string]string // more files, from the project root
	}{
		{"second language", "content/docs/hidden.fr.md", "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n", nil},
		{"first language of two", "content/docs/hidden.md", "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n", nil},
		{"a directory with no listed page", "content/other/deep/unlisted.md", "", nil},
		{"a leaf bundle", "content/other/bundle/index.md", "", nil},
		{"a directory mounted elsewhere", "guides/setup/unlisted.md", mounts, nil},
		{"a section's own page", "content/archive/_index.md", "", nil},
		// Directories the walk may skip: a listed section's, when its pages
		// are all listed there.
		{"beside a listed section's pages", "content/docs/unlisted.md", "", map[string]string{
			"content/docs/_index.md": "---\ntitle: Docs\n---\n", "content/docs/more.md": "---\ntitle: More\n---\n\nText.\n"}},
		{"listed in an unlisted section", "content/archive/local.md", "", map[string]string{
			"content/archive/_index.md": "---\ntitle: Archive\nbuild:\n  list: never\n---\n"}},
		{"beside pages mounted into its section", "content/docs/unlisted.md",
			"[[module.mounts]]\nsource = \"content\"\ntarget = \"content\"\n[[module.mounts]]\nsource = \"extra\"\ntarget = \"content/docs\"\n",
			map[string]string{"content/docs/_index.md": "---\ntitle: Docs\n---\n", "extra/b.md": "---\ntitle: B\n---\n\nText.\n"}},
		// The same for the home page's directory, the content root.
		{"beside the home page's pages", "content/unlisted.md", "", map[string]string{
			"content/_index.md": "---\ntitle: Home\n---\n", "content/top.md": "---\ntitle: Top\n---\n\nText.\n"}},
		{"beside root pages, the home page without a file", "content/unlisted.md", "", map[string]string{
			"content/top.md": "---\ntitle: Top\n---\n\nText.\n"}},
		{"listed in an unlisted section, the home page", "content/local.md", "", map[string]string{
			"content/_index.md": "---\ntitle: Home\nbuild:\n  list: never\n---\n"}},
		{"a site whose only listed page is elsewhere", "content/other/unlisted.md", "[[module.mounts]]\nsource = \"content\"\ntarget = \"content\"\nexcludeFiles = [\"docs/**\", \"*.fr.md\"]\n[[module.mounts]]\nsource = \"guides\"\ntarget = \"content/manual\"\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var config []string
			if c.config != "" {
				config = append(config, c.config)
			}
			root := listerFiles(t, themeFirst, map[string]string{"docs/plain.fr.md": "---\ntitle: Simple\n---\n\nPas de citation.\n"}, config...)
			write(t, filepath.Join(root, "guides", "listed.md"), "---\ntitle: Listed\n---\n\nA listed guide.\n")
			page := unlisted
			if strings.Contains(c.name, "unlisted section") {
				page = strings.Replace(unlisted, "list: never", "list: local", 1)
			}
			write(t, filepath.Join(root, filepath.FromSlash(c.file)), page)
			for name, text := range c.extra {
				write(t, filepath.Join(root, filepath.FromSlash(name)), text)
			}
			b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{T: t, NeedsOsFS: true, WorkingDir: root, LogLevel: logg.LevelWarn})
			_, err := b.BuildE()
			if err == nil {
				t.Fatalf("the build succeeded:\n%s", b.LogString())
			}
			mustContain(t, "the error", err.Error()+b.LogString(), filepath.Join(root, filepath.FromSlash(c.file))+": textfrag hooks error")
		})
	}
}
