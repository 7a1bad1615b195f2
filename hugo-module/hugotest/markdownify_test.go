package hugotest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/hugolib"
)

// Shortcodes of documentation themes (hextra's callout, for
// one) render their inner Markdown with markdownify, which Hugo renders on
// the home page's context whichever page holds the shortcode: the hooks see
// the home page, and a "(rendered from string)" position. A relative path
// there cannot be resolved against the page that holds it, so it fails the
// build rather than quote whatever file it names from the home page's
// directory; messages say where the text may come from, and the re-pin
// command does not name the home page.
func TestMarkdownifiedShortcodeText(t *testing.T) {
	build := func(t *testing.T, inner string) (string, string, error) {
		t.Helper()
		root := t.TempDir()
		write(t, filepath.Join(root, "src", "a.txt"), twoLines)
		write(t, filepath.Join(root, "hugo.toml"), "baseURL = \"https://example.org/\"\n"+
			"disableKinds = [\"taxonomy\", \"term\", \"rss\", \"sitemap\", \"robotsTXT\", \"404\"]\n"+
			"[markup.goldmark.parser]\nwrapStandAloneImageWithinParagraph = false\n"+
			"[module]\nreplacements = \""+modulePath+" -> "+moduleDir(t)+"\"\n[[module.imports]]\npath = \""+modulePath+"\"\n")
		write(t, filepath.Join(root, "layouts", "home.html"), "{{ .Content }}")
		write(t, filepath.Join(root, "layouts", "single.html"), "{{ .Content }}")
		write(t, filepath.Join(root, "layouts", "list.html"), "{{ .Content }}")
		write(t, filepath.Join(root, "layouts", "_shortcodes", "callout.html"), `<div class="callout">{{ .Inner | markdownify }}</div>`)
		write(t, filepath.Join(root, "layouts", "_shortcodes", "note.html"), `<div class="note">{{ .Inner | .Page.RenderString }}</div>`)
		write(t, filepath.Join(root, "content", "_index.md"), "---\ntitle: home\n---\n\nHome.\n")
		write(t, filepath.Join(root, "content", "docs", "page.md"), "---\ntitle: t\n---\n\nIntro.\n\n"+inner+"\n")
		b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{T: t, NeedsOsFS: true, WorkingDir: root, LogLevel: logg.LevelWarn})
		_, err := b.BuildE()
		out, _ := os.ReadFile(filepath.Join(root, "public", "docs", "page", "index.html"))
		return string(out), b.LogString(), err
	}

	// From content/docs/page.md, ../../src/a.txt is the project's src/a.txt
	// and ../src/a.txt would be content/src/a.txt, which does not exist; from
	// the home page's directory (content/) it is src/a.txt.
	for _, inner := range []string{
		"{{< callout >}}\n![Box](../src/a.txt#line=0,1)\n{{< /callout >}}",
		"{{< callout >}}\nSee [a quote](../src/a.txt#line=0,1) here.\n{{< /callout >}}",
		"{{< callout >}}\n![Own file](#line=0,1)\n{{< /callout >}}",
	} {
		out, log, err := build(t, inner)
		if err == nil {
			t.Fatalf("%q built:\n%s", inner, out)
		}
		mustContain(t, "the log", err.Error()+log, filepath.Join("content", "_index.md")+" (rendered from string):2:",
			" (text a shortcode rendered with markdownify, on any page, or the home page's own): textfrag path error", "Write the path from the project root")
	}

	// A path from the project root is quoted and verified.
	out, log, err := build(t, "{{< callout >}}\n![Box](/src/a.txt#line=0,1)\n{{< /callout >}}")
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	mustContain(t, "the page", out, `<div class="callout"><figure class="textfrag textfrag-line" data-textfrag-fragment="line=0,1">`)
	_, log, err = build(t, "{{< callout >}}\n![Box](/src/a.txt#line=0,1;md5=00000000000000000000000000000000)\n{{< /callout >}}")
	if err == nil {
		t.Fatal("a stale md5 built")
	}
	msg := err.Error() + log
	mustContain(t, "the log", msg, "textfrag integrity error", "textfrag pin --write PAGE (the page whose shortcode holds the link")
	if strings.Contains(msg, "pin --write content/_index.md") {
		t.Errorf("the re-pin command names the home page:\n%s", msg)
	}

	// .Page.RenderString renders on the page's own context: relative paths
	// resolve against its directory, as everywhere else.
	out, log, err = build(t, "{{< note >}}\n![Box](../../src/a.txt#line=0,1)\n{{< /note >}}")
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	mustContain(t, "the page", out, `<div class="note"><figure class="textfrag textfrag-line"`)
}
