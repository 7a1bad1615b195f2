package hugotest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/hugolib"
)

// Two small themes written for these tests, each doing with links and images
// what a family of documentation themes does (none of their code is here):
//
//   - "newtab" renders links and images in its own hooks: external links open
//     in a new tab with rel="noopener", images get data-zoomable and lazy
//     loading, as hextra does (and Docsy did). Its <head> includes
//     custom/head-end.html, an empty partial sites override.
//   - "delegate" has hooks that hand every link and image to partials of its
//     own (as Relearn's do), which add a class; its <head> includes
//     docs/inject/head.html (hugo-book's injection point).
//   - "checking" keeps its hooks where Relearn does (layouts/_default/_markup)
//     and fails the build on a local link or image that is neither a page nor
//     a resource, as Relearn does with link.errorlevel = "error" (and
//     hugo-book with BookPortableLinks = "error"); its <head> includes
//     custom-header.html, which is not empty: it links the site's
//     css/custom.css, as Relearn's does.
//   - "imageonly" has an image hook and no link hook, as PaperMod; its
//     <head> includes extend_head.html.
//   - "sitehead" includes two partials in <head>, as Blowfish: one cached
//     and called with the site (extend-head.html), one with the page
//     (extend-head-uncached.html); its link hook opens external links in a
//     new tab.
var fixtureThemes = map[string]map[string]string{
	"newtab": {
		"layouts/baseof.html":                    `<!doctype html><html><head>{{ partial "custom/head-end.html" . }}</head><body>{{ block "main" . }}{{ end }}</body></html>`,
		"layouts/single.html":                    `{{ define "main" }}<main>{{ .Content }}</main>{{ end }}`,
		"layouts/_partials/custom/head-end.html": ``,
		"layouts/_markup/render-link.html": `{{- $ext := strings.HasPrefix .Destination "http" -}}
<a href="{{ .Destination | safeURL }}"{{ with .Title }} title="{{ . }}"{{ end }}{{ if $ext }} target="_blank" rel="noopener"{{ end }}>{{ .Text }}{{ if $ext }}<svg class="ext-icon"></svg>{{ end }}</a>`,
		"layouts/_markup/render-image.html": `<img src="{{ .Destination | safeURL }}" alt="{{ .PlainText }}" data-zoomable loading="lazy">`,
	},
	"delegate": {
		"layouts/baseof.html":                     `<!doctype html><html><head>{{ partial "docs/inject/head.html" . }}</head><body>{{ block "main" . }}{{ end }}</body></html>`,
		"layouts/single.html":                     `{{ define "main" }}<main>{{ .Content }}</main>{{ end }}`,
		"layouts/_partials/docs/inject/head.html": ``,
		"layouts/_partials/links/link.html":       `<a class="theme-link" href="{{ .url | safeURL }}">{{ .content }}</a>`,
		"layouts/_partials/links/image.html":      `<img class="theme-image" src="{{ .url | safeURL }}" alt="{{ .alt }}">`,
		"layouts/_markup/render-link.html":        `{{- partial "links/link.html" (dict "page" .Page "url" .Destination "content" .Text) -}}`,
		"layouts/_markup/render-image.html":       `{{- partial "links/image.html" (dict "page" .Page "url" .Destination "alt" .PlainText) -}}`,
	},
	"checking": {
		"layouts/baseof.html":                  `<!doctype html><html><head>{{ partial "custom-header.html" . }}</head><body>{{ block "main" . }}{{ end }}</body></html>`,
		"layouts/single.html":                  `{{ define "main" }}<main>{{ .Content }}</main>{{ end }}`,
		"layouts/_partials/custom-header.html": `<link rel="stylesheet" href="{{ "css/custom.css" | relURL }}">`,
		"layouts/_partials/checked/url.html": `{{- $u := urls.Parse .url -}}
{{- if and (not $u.IsAbs) (not (strings.HasPrefix .url "#")) -}}
  {{- $p := strings.TrimPrefix "./" $u.Path -}}
  {{- if not (or (.page.GetPage $p) (.page.Resources.Get $p) (resources.Get $p)) }}{{ errorf "%q: link %q is not a page or a resource" .page.File.Filename .url }}{{ end -}}
{{- end -}}`,
		"layouts/_default/_markup/render-link.html": `{{- partial "checked/url.html" (dict "page" .Page "url" .Destination) -}}
<a class="checked" href="{{ .Destination | safeURL }}"{{ if strings.HasPrefix .Destination "http" }} rel="external"{{ end }}>{{ .Text }}</a>`,
		"layouts/_default/_markup/render-image.html": `{{- partial "checked/url.html" (dict "page" .Page "url" .Destination) -}}
<a class="lightbox" href="#img"><img src="{{ .Destination | safeURL }}" alt="{{ .PlainText }}"></a>`,
	},
	"imageonly": {
		"layouts/baseof.html":                `<!doctype html><html><head>{{ partial "extend_head.html" . }}</head><body>{{ block "main" . }}{{ end }}</body></html>`,
		"layouts/single.html":                `{{ define "main" }}<main>{{ .Content }}</main>{{ end }}`,
		"layouts/_partials/extend_head.html": ``,
		"layouts/_markup/render-image.html":  `<img src="{{ .Destination | safeURL }}" alt="{{ .PlainText }}" loading="lazy">`,
	},
	"sitehead": {
		"layouts/baseof.html": `<!doctype html><html><head>{{ if templates.Exists "_partials/extend-head.html" }}{{ partialCached "extend-head.html" .Site }}{{ end }}` +
			`{{ if templates.Exists "_partials/extend-head-uncached.html" }}{{ partial "extend-head-uncached.html" . }}{{ end }}</head><body>{{ block "main" . }}{{ end }}</body></html>`,
		"layouts/single.html":                         `{{ define "main" }}<main>{{ .Content }}</main>{{ end }}`,
		"layouts/_partials/extend-head-uncached.html": ``,
		"layouts/_default/_markup/render-link.html":   `<a href="{{ .Destination | safeURL }}"{{ if strings.HasPrefix .Destination "http" }} target="_blank" rel="noreferrer"{{ end }}>{{ .Text }}</a>`,
	},
}

// themeInject is the partial each fixture theme includes in <head>.
var themeInject = map[string]string{"newtab": "custom/head-end.html", "delegate": "docs/inject/head.html", "checking": "custom-header.html", "imageonly": "extend_head.html", "sitehead": "extend-head-uncached.html"}

// themeSite is a site on one of the fixture themes, importing the theme and
// the textfrag module in the given order, as the README says.
type themeSite struct {
	theme       string
	moduleFirst bool
	// useTheme lists both in the theme setting instead of module.imports.
	useTheme bool
	// recipe is the site's own render hooks (layouts/_markup), which compose
	// textfrag with the theme; nil for none.
	recipe map[string]string
	page   string
	// files are more project files (root-relative paths); params is TOML
	// under [params.textfrag].
	files  map[string]string
	params string
	// head is more of the README's step 2: what follows the line in the
	// theme's injection partial.
	head string
}

func (s themeSite) build(t *testing.T) (string, string, error) {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.txt"), twoLines)
	for name, text := range fixtureThemes[s.theme] {
		write(t, filepath.Join(root, "themes", s.theme, filepath.FromSlash(name)), text)
	}
	mod := modulePath
	if s.useTheme {
		// theme = [...] names directories of themesDir.
		mod = "textfrag"
		copyDir(t, moduleDir(t), filepath.Join(root, "themes", mod), "layouts", "assets", "hugo.toml")
	}
	order := []string{mod, s.theme}
	if !s.moduleFirst {
		order = []string{s.theme, mod}
	}
	var cfg strings.Builder
	cfg.WriteString("baseURL = \"https://example.org/\"\n")
	cfg.WriteString("disableKinds = [\"home\", \"section\", \"taxonomy\", \"term\", \"rss\", \"sitemap\", \"robotsTXT\", \"404\"]\n")
	if s.useTheme {
		fmt.Fprintf(&cfg, "theme = [%q, %q]\n", order[0], order[1])
	}
	cfg.WriteString("[markup.goldmark.parser]\nwrapStandAloneImageWithinParagraph = false\n")
	if !s.useTheme {
		fmt.Fprintf(&cfg, "[module]\nreplacements = %q\n", modulePath+" -> "+moduleDir(t))
		for _, p := range order {
			fmt.Fprintf(&cfg, "[[module.imports]]\npath = %q\n", p)
		}
	}
	if s.params != "" {
		fmt.Fprintf(&cfg, "[params.textfrag]\n%s\n", s.params)
	}
	write(t, filepath.Join(root, "hugo.toml"), cfg.String())
	for name, text := range s.files {
		write(t, filepath.Join(root, filepath.FromSlash(name)), text)
	}
	// The README's step for the stylesheet: the theme's injection partial,
	// started from the theme's own, with the line added.
	inject := "layouts/_partials/" + themeInject[s.theme]
	write(t, filepath.Join(root, filepath.FromSlash(inject)), fixtureThemes[s.theme][inject]+"\n"+`{{ partial "textfrag/head.html" . }}`+s.head)
	for name, text := range s.recipe {
		write(t, filepath.Join(root, filepath.FromSlash(name)), text)
	}
	write(t, filepath.Join(root, "content", "page.md"), s.page)

	b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{
		T: t, NeedsOsFS: true, WorkingDir: root, LogLevel: logg.LevelWarn,
	})
	_, err := b.BuildE()
	out, _ := os.ReadFile(filepath.Join(root, "public", "page", "index.html"))
	return string(out), b.LogString(), err
}

// readmeRecipe returns the README's site hooks (Setup, step 3) for a theme:
// for each hook the theme has, its copy as a partial and the README's hook
// that asks textfrag first and otherwise calls that partial.
func readmeRecipe(t *testing.T, theme string) map[string]string {
	t.Helper()
	text := readme(t)
	files := map[string]string{}
	for _, kind := range []string{"link", "image"} {
		hook := "render-" + kind + ".html"
		own, ok := fixtureThemes[theme]["layouts/_markup/"+hook]
		if !ok {
			own, ok = fixtureThemes[theme]["layouts/_default/_markup/"+hook]
		}
		if !ok {
			continue
		}
		call := `{{ partial "theme/` + hook + `" . }}`
		var block string
		for _, b := range strings.Split(text, "```go-html-template\n")[1:] {
			if b, _, _ = strings.Cut(b, "```"); strings.Contains(b, call) {
				block = b
			}
		}
		if block == "" {
			t.Fatalf("the README has no %s recipe calling %s", hook, call)
		}
		files["layouts/_partials/theme/"+hook] = own
		files["layouts/_markup/"+hook] = block
	}
	return files
}

// A theme whose hooks hand links to its own partials may be composed by
// calling them, as the README's recipe calls the copies.
var delegateRecipe = map[string]string{
	"layouts/_markup/render-link.html": `{{- $tf := partial "textfrag/hook.html" (dict "ctx" . "kind" "link") -}}
{{- if or $tf.handled (eq $tf.status "link") }}{{ $tf.html | safeHTML }}{{ else }}{{ partial "links/link.html" (dict "page" .Page "url" .Destination "content" .Text) }}{{ end -}}`,
	"layouts/_markup/render-image.html": `{{- $tf := partial "textfrag/hook.html" (dict "ctx" . "kind" "image") -}}
{{- if or $tf.handled (eq $tf.status "link") }}{{ $tf.html | safeHTML }}{{ else }}{{ partial "links/image.html" (dict "page" .Page "url" .Destination "alt" .PlainText) }}{{ end -}}`,
}

func themePage(body string) string { return "---\ntitle: t\n---\n\n" + body }

var staleLink = "../src/a.txt#line=0,1;md5=0123456789abcdef0123456789abcdef"

// Whichever hooks win, a page with an RFC 5147 link textfrag did not verify
// fails the build, naming the page and how to compose the hooks.
func TestThemeHooksNeverFailOpen(t *testing.T) {
	for _, theme := range []string{"newtab", "delegate", "checking", "imageonly", "sitehead"} {
		for _, useTheme := range []bool{false, true} {
			for _, moduleFirst := range []bool{false, true} {
				for _, body := range []string{
					"![Stale](" + staleLink + ")\n",
					"See [the stale quote](" + staleLink + ") in text.\n",
				} {
					name := fmt.Sprintf("%s/theme=%v/moduleFirst=%v/%.5s", theme, useTheme, moduleFirst, body)
					t.Run(name, func(t *testing.T) {
						_, log, err := themeSite{theme: theme, moduleFirst: moduleFirst, useTheme: useTheme, page: themePage(body)}.build(t)
						if err == nil {
							t.Fatalf("the build succeeded:\n%s", log)
						}
						msg := err.Error() + log
						if moduleFirst {
							mustContain(t, "the error", msg, "textfrag integrity error", "md5 mismatch")
						} else if theme == "imageonly" {
							// Only the image hook is the theme's: the message
							// names it, and says what to write there.
							mustContain(t, "the error", msg, filepath.Join("content", "page.md")+": textfrag hooks error",
								"its render-image.html hook is not textfrag's",
								`in your site's layouts/_markup/render-image.html, call partial "textfrag/hook.html" (dict "ctx" . "kind" "image") first`)
							if strings.Contains(msg, "render-link.html") {
								t.Errorf("the message names the link hook, which is the module's:\n%s", msg)
							}
						} else if theme == "sitehead" {
							mustContain(t, "the error", msg, filepath.Join("content", "page.md")+": textfrag hooks error",
								"its render-link.html hook is not textfrag's")
						} else {
							mustContain(t, "the error", msg, filepath.Join("content", "page.md")+": textfrag hooks error",
								"its render-link.html and render-image.html hooks are not textfrag's",
								`call partial "textfrag/hook.html" (dict "ctx" . "kind" "link") ("image" in render-image.html) first`, "Themes with their own render hooks")
						}
					})
				}
			}
		}
	}
	// Pages with no RFC 5147 link, or only in code, or only in the
	// shortcode, build under the theme's hooks.
	for _, body := range []string{
		"[home](https://example.org/)\n",
		"Write `[x](a.go#line=1,2)` to quote.\n\n{{< textfrag \"../src/a.txt#line=0,1\" >}}\n",
	} {
		out, log, err := themeSite{theme: "newtab", page: themePage(body)}.build(t)
		if err != nil {
			t.Errorf("%q: %v\n%s", body, err, log)
		}
		if !strings.Contains(out, `rel="stylesheet"`) {
			t.Errorf("%q: no stylesheet:\n%s", body, out)
		}
	}
}

// Text a page includes (Relearn's include shortcode reads a Markdown file
// into the page's Markdown) is rendered by the page's hooks but is not in
// its source: under a theme's hooks, a quote there fails the build too.
func TestIncludedQuotesNeverFailOpen(t *testing.T) {
	sum := md5.Sum([]byte(twoLines))
	fresh := "../src/a.txt#line=0,1;md5=" + hex.EncodeToString(sum[:])
	include := map[string]string{"layouts/_shortcodes/include.html": `{{ readFile (.Get 0) }}`}
	page := themePage("Before.\n\n{{% include \"snippets/q.md\" %}}\n")
	for _, c := range []struct {
		theme, snippet string
		fails          bool
	}{
		{"newtab", "![Stale](" + staleLink + ")\n", true},
		{"newtab", "See [the stale quote](" + staleLink + ") in text.\n", true},
		{"delegate", "See ![the stale quote](" + staleLink + ") in text.\n", true},
		{"checking", "![Fresh](" + fresh + ")\n", true},
		{"imageonly", "![Fresh](" + fresh + ")\n", true},
		// The module's link hook verifies links where the theme has an
		// image hook only.
		{"imageonly", "See [a fresh quote](" + fresh + ") in text.\n", false},
		{"newtab", "See [the site](https://example.org/) and its [notes](https://example.org/n#lines).\n", false},
	} {
		t.Run(c.theme+"/"+c.snippet, func(t *testing.T) {
			files := map[string]string{"snippets/q.md": c.snippet}
			for k, v := range include {
				files[k] = v
			}
			out, log, err := themeSite{theme: c.theme, page: page, files: files}.build(t)
			if !c.fails {
				if err != nil {
					t.Fatalf("%v\n%s", err, log)
				}
				mustContain(t, "the page", out, `<link rel="stylesheet" href="/textfrag/textfrag.`)
				return
			}
			if err == nil {
				t.Fatalf("the build succeeded:\n%s", out)
			}
			mustContain(t, "the error", err.Error()+log, filepath.Join("content", "page.md")+": textfrag hooks error",
				"in its source or in text it includes")
		})
	}
	// With the module's hooks, or composed ones, the included quote is
	// verified like any other.
	for _, moduleFirst := range []bool{true, false} {
		files := map[string]string{"snippets/q.md": "![Stale](" + staleLink + ")\n"}
		for k, v := range include {
			files[k] = v
		}
		s := themeSite{theme: "newtab", moduleFirst: moduleFirst, page: page, files: files}
		if !moduleFirst {
			s.recipe = readmeRecipe(t, "newtab")
		}
		if _, log, err := s.build(t); err == nil || !strings.Contains(err.Error()+log, "textfrag integrity error") {
			t.Errorf("moduleFirst=%v: %v\n%s", moduleFirst, err, log)
		}
	}
}

// textfrag/head.html checks the page it is given: given the site (as
// Blowfish gives its cached extend-head.html) or a dict, it fails the build
// saying where to call it, rather than check nothing or fail with a
// template error.
func TestHeadNeedsThePage(t *testing.T) {
	for _, c := range []struct{ file, line, got string }{
		{"layouts/_partials/extend-head.html", `{{ partial "textfrag/head.html" . }}`, "called with the site, not a page"},
		{"layouts/_partials/extend-head-uncached.html", `{{ partial "textfrag/head.html" (dict "page" .) }}`, "called with a map"},
	} {
		_, log, err := themeSite{theme: "sitehead", page: themePage("See [home](https://example.org/).\n"),
			recipe: map[string]string{c.file: c.line}}.build(t)
		if err == nil {
			t.Fatalf("%s: the build succeeded", c.file)
		}
		mustContain(t, "the error", err.Error()+log, "textfrag head error: textfrag/head.html was "+c.got,
			`call it as {{ partial "textfrag/head.html" . }} in a template whose context is the page`, "extend-head-uncached.html")
	}
}

// The recipes keep the theme's own link and image features and quote and
// verify RFC 5147 links, whatever the import order; a verified link in
// running text is written as Hugo writes it, which a theme that checks its
// links would report as broken (Relearn, hugo-book).
func TestThemeRecipesCompose(t *testing.T) {
	sum := md5.Sum([]byte(twoLines))
	fresh := "../src/a.txt#line=0,1;md5=" + hex.EncodeToString(sum[:])
	body := "![First line](" + fresh + ")\n\nSee [the site](https://example.org/x) and [a quote](" + fresh + ").\n\n" +
		"![logo](https://example.org/logo.png)\n\nInline ![an image quote](" + fresh + ") too.\n"
	plain := []string{`<a href="` + fresh + `">a quote</a>`, `<img src="` + fresh + `" alt="an image quote">`}
	want := map[string][]string{
		"newtab": {`<a href="https://example.org/x" target="_blank" rel="noopener">the site<svg class="ext-icon"></svg></a>`,
			`<img src="https://example.org/logo.png" alt="logo" data-zoomable loading="lazy">`},
		"delegate": {`<a class="theme-link" href="https://example.org/x">the site</a>`,
			`<img class="theme-image" src="https://example.org/logo.png" alt="logo">`},
		"checking": {`<a class="checked" href="https://example.org/x" rel="external">the site</a>`,
			`<a class="lightbox" href="#img"><img src="https://example.org/logo.png" alt="logo"></a>`,
			// The theme's own head partial, kept as the README says.
			`<link rel="stylesheet" href="/css/custom.css">`},
		"imageonly": {`<a href="https://example.org/x">the site</a>`,
			`<img src="https://example.org/logo.png" alt="logo" loading="lazy">`},
		"sitehead": {`<a href="https://example.org/x" target="_blank" rel="noreferrer">the site</a>`},
	}
	for _, theme := range []string{"newtab", "delegate", "checking", "imageonly", "sitehead"} {
		recipe := delegateRecipe
		if theme != "delegate" {
			recipe = readmeRecipe(t, theme)
		}
		for _, moduleFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/moduleFirst=%v", theme, moduleFirst), func(t *testing.T) {
				s := themeSite{theme: theme, moduleFirst: moduleFirst, recipe: recipe, page: themePage(body)}
				out, log, err := s.build(t)
				if err != nil {
					t.Fatalf("%v\n%s", err, log)
				}
				mustContain(t, "the page", out, append(append(want[theme], plain...),
					`<figure class="textfrag textfrag-line"`,
					`<span class="textfrag-title">First line</span> <a class="textfrag-source" href="../src/a.txt#line=0,1;md5=`,
					`<link rel="stylesheet" href="/textfrag/textfrag.`)...)

				for _, stale := range []string{"See [the stale quote](" + staleLink + ") in text.\n", "See ![the stale quote](" + staleLink + ") in text.\n"} {
					s.page = themePage(stale)
					if _, log, err := s.build(t); err == nil || !strings.Contains(err.Error()+log, "textfrag integrity error") {
						t.Errorf("%q built under the recipe: %v\n%s", stale, err, log)
					}
				}
			})
		}
	}
}

// copyDir copies the named entries of src (files or directories) into dst.
func copyDir(t *testing.T, src, dst string, names ...string) {
	t.Helper()
	for _, name := range names {
		err := filepath.WalkDir(filepath.Join(src, name), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			write(t, filepath.Join(dst, rel), string(data))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A hook for one section shadows the module's there only: the check asks
// each page's own renderer.
func TestSectionHookShadowing(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, "_layouts", "docs", "_markup", "render-link.html"), `<a href="{{ .Destination | safeURL }}">{{ .Text }}</a>`)
	write(t, filepath.Join(root, "_layouts", "baseof.html"), `<head>{{ partial "textfrag/head.html" . }}</head>{{ block "main" . }}{{ end }}`)
	write(t, filepath.Join(root, "_layouts", "single.html"), `{{ define "main" }}{{ .Content }}{{ end }}`)
	doc := "---\ntitle: t\n---\n\nSee [the stale quote](" + strings.TrimPrefix(staleLink, "../") + ") in text.\n"
	r := site{Root: root, Docs: map[string]string{"docs/page.md": strings.ReplaceAll(doc, "(src/", "(../src/")}, keepLayout: true}.build(t)
	if r.Err == nil {
		t.Fatalf("the build succeeded:\n%s", r.Pages["docs/page.md"])
	}
	mustContain(t, "the log", r.Log, filepath.Join("docs", "page.md")+": textfrag hooks error", "its render-link.html hook is not textfrag's")
	// Elsewhere the module's hook verifies it.
	r = site{Root: root, Docs: map[string]string{"other/page.md": strings.ReplaceAll(doc, "(src/", "(../src/")}, keepLayout: true}.build(t)
	mustContain(t, "the log", r.Log, "textfrag integrity error")
}

// Hugo's embedded link hook, forced with useEmbedded = "always", bypasses the
// module's: the check fails the page instead of letting the link pass.
func TestEmbeddedHookForcedFailsClosed(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, "_layouts", "baseof.html"), `<head>{{ partial "textfrag/head.html" . }}</head>{{ block "main" . }}{{ end }}`)
	write(t, filepath.Join(root, "_layouts", "single.html"), `{{ define "main" }}{{ .Content }}{{ end }}`)
	doc := "---\ntitle: t\n---\n\nSee [the stale quote](" + staleLink + ") in text.\n"
	r := site{Root: root, Docs: map[string]string{"docs/page.md": doc}, keepLayout: true,
		Config: "[markup.goldmark.renderHooks.link]\nuseEmbedded = \"always\"\n"}.build(t)
	if r.Err == nil {
		t.Fatalf("the build succeeded:\n%s", r.Pages["docs/page.md"])
	}
	mustContain(t, "the log", r.Log, "textfrag hooks error", "its render-link.html hook is not textfrag's")
}

// textfrag/check skips its probe on a page whose source holds no "#line="
// or "#char=" (in any case, even escaped): such a page fails under a
// theme's hooks as before.
func TestCheckEarlyOutNeverFailsOpen(t *testing.T) {
	for _, body := range []string{
		"![Stale](" + strings.Replace(staleLink, "#", `\#`, 1) + ")\n",
		"See [the quote][q] in text.\n\n[q]: " + strings.Replace(staleLink, "#", `\#`, 1) + "\n",
		"![Stale](" + strings.Replace(staleLink, "#line", "#LINE", 1) + ")\n",
	} {
		t.Run(body, func(t *testing.T) {
			_, log, err := themeSite{theme: "newtab", page: themePage(body)}.build(t)
			if err == nil {
				t.Fatalf("the build succeeded:\n%s", log)
			}
			mustContain(t, "the error", err.Error()+log, filepath.Join("content", "page.md")+": textfrag hooks error")
		})
	}
}

// The early-out of textfrag/check tests a page's source for "&" and "\\"
// with one strings.ContainsAny before it tests for each spelling that holds
// one of them. A theme hook that decodes character references publishes
// such a link live (its href or src holds "#line="), and the build must
// fail; under a hook that writes the destination as given (the "newtab"
// theme's) the page publishes no live fragment, and the build may pass.
func TestCheckEarlyOutSpellingsNeverFailOpen(t *testing.T) {
	decoding := map[string]string{
		"layouts/_markup/render-link.html":  `<a href="{{ .Destination | htmlUnescape | safeURL }}">{{ .Text }}</a>`,
		"layouts/_markup/render-image.html": `<img src="{{ .Destination | htmlUnescape | safeURL }}" alt="{{ .PlainText }}">`,
	}
	live := regexp.MustCompile(`(?i)(?:href|src)="[^"]*#(?:line|char)=`)
	for _, c := range []struct {
		name, from, to string
		decoded        bool // the decoding hook publishes it live
	}{
		{"&#35;", "#", "&#35;", true},
		{"&num;", "#", "&num;", true},
		{"&equals;", "line=", "line&equals;", true},
		{"&#108;", "#line", "#&#108;ine", true},
		{`\=`, "line=", `line\=`, false},
	} {
		for _, form := range []string{"![Stale](%s)\n", "See [the quote](%s) in text.\n"} {
			body := fmt.Sprintf(form, strings.Replace(staleLink, c.from, c.to, 1))
			for _, hooks := range []string{"theme", "decoding"} {
				t.Run(c.name+"/"+hooks+"/"+body, func(t *testing.T) {
					site := themeSite{theme: "newtab", page: themePage(body)}
					if hooks == "decoding" {
						site.files = decoding
					}
					out, log, err := site.build(t)
					if err != nil {
						mustContain(t, "the error", err.Error()+log, filepath.Join("content", "page.md")+": textfrag hooks error")
						return
					}
					if live.MatchString(html.UnescapeString(out)) { // attribute values as a browser reads them
						t.Fatalf("the build published a live RFC 5147 link unverified:\n%s", out)
					}
					if hooks == "decoding" && c.decoded {
						t.Fatalf("the build succeeded; the page was:\n%s", out)
					}
				})
			}
		}
	}
}
