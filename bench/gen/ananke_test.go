package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAnankeSitesCompareLikeWithLike writes the three Ananke sites and
// checks that they differ only in what the comparison is about: the plain
// site's pages are the pasted site's byte for byte, the quoting site's
// pages are the same text with a quote in place of each pasted block, and
// only the sites with the module import it and call its head partial.
func TestAnankeSitesCompareLikeWithLike(t *testing.T) {
	root := t.TempDir()
	theme := filepath.Join(root, "ananke")
	if err := os.MkdirAll(theme, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(theme, "go.mod"), []byte("module "+anankeModule+"\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := generate(1, 5, 2, 8)
	w := &writer{root: filepath.Join(root, "out")}
	c.writeHugoAnanke(w, "hugo-ananke", "/mod", theme, false, true)
	c.writeHugoAnanke(w, "hugo-ananke-pasted", "/mod", theme, true, false)
	c.writeHugoAnanke(w, "hugo-ananke-plain", "/mod", theme, true, true)
	if w.err != nil {
		t.Fatal(w.err)
	}
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(w.root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(rel)))
		return err == nil
	}

	// A pasted block (caption, blank line, fence) in the twins; an image
	// quote in the quoting site.
	pastedBlock := regexp.MustCompile("(?s)\\*[^\\n]*\\* — `[^`]*`, lines \\d+–\\d+\\n\\n```[^\\n]*\\n.*?```\\n")
	quoteLine := regexp.MustCompile(`!\[[^\]]*\]\(\.\./\.\./src/[^)#]*#line=\d+,\d+;md5=[0-9a-f]{32}\)\n`)
	for _, p := range c.pages {
		rel := "/content/posts/" + p.name + ".md"
		pasted, plain, quoting := read("hugo-ananke-pasted"+rel), read("hugo-ananke-plain"+rel), read("hugo-ananke"+rel)
		if plain != pasted {
			t.Errorf("%s: the plain site's page differs from the pasted site's", p.name)
		}
		if !strings.Contains(pasted, "\ndate: ") || !strings.HasPrefix(pasted, "---\ntitle: ") {
			t.Errorf("%s: no title and date in the front matter:\n%s", p.name, pasted)
		}
		if n := len(quoteLine.FindAllString(quoting, -1)); n != 2 {
			t.Errorf("%s: %d quotes, want 2", p.name, n)
		}
		if n := len(pastedBlock.FindAllString(pasted, -1)); n != 2 {
			t.Errorf("%s: %d pasted blocks, want 2", p.name, n)
		}
		if a, b := quoteLine.ReplaceAllString(quoting, "QUOTE\n"), pastedBlock.ReplaceAllString(pasted, "QUOTE\n"); a != b {
			t.Errorf("%s: the pages differ in more than their quotes:\n%s\n---\n%s", p.name, a, b)
		}
	}

	// Each quote's target is in the quoting site, where its path leads
	// from content/posts/, and its lines are the pasted ones.
	for _, m := range quoteLine.FindAllString(read("hugo-ananke/content/posts/p001.md"), -1) {
		path := m[strings.Index(m, "../../")+len("../../") : strings.Index(m, "#")]
		if !exists("hugo-ananke/" + path) {
			t.Errorf("quote target %s not written", path)
		}
	}
	if exists("hugo-ananke-pasted/src") || exists("hugo-ananke-plain/src") {
		t.Error("the twins hold the quoted files")
	}

	head := "layouts/_partials/head-additions.html"
	for site, module := range map[string]bool{"hugo-ananke": true, "hugo-ananke-pasted": false, "hugo-ananke-plain": true} {
		cfg := read(site + "/hugo.toml")
		if !strings.Contains(cfg, "path = \""+anankeModule+"\"") || !strings.Contains(cfg, anankeModule+" -> "+theme) {
			t.Errorf("%s does not import Ananke from the checkout:\n%s", site, cfg)
		}
		imports := strings.Contains(cfg, `path = "github.com/textfrag/textfrag/hugo-module"`)
		if imports != module || exists(site+"/"+head) != module {
			t.Errorf("%s: imports the module %v, has %s %v; want both %v", site, imports, head, exists(site+"/"+head), module)
		}
		if module {
			if i, j := strings.Index(cfg, anankeModule+"\""), strings.Index(cfg, "hugo-module\"\n"); i > j {
				t.Errorf("%s imports the module before the theme (the README's order is theme first):\n%s", site, cfg)
			}
			if h := read(site + "/" + head); !strings.Contains(h, `{{ partial "textfrag/head.html" . }}`) || !strings.Contains(h, "--textfrag-color-scheme: light") {
				t.Errorf("%s: %s is not the README's:\n%s", site, head, h)
			}
		}
	}
}

// TestAnankeDirWantsAnanke: -ananke must name a checkout of the theme.
func TestAnankeDirWantsAnanke(t *testing.T) {
	dir := t.TempDir()
	if _, err := anankeDir(""); err == nil {
		t.Error("no -ananke: no error")
	}
	if _, err := anankeDir(dir); err == nil {
		t.Error("a directory without go.mod: no error")
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module github.com/theNewDynamic/gohugo-theme-ananke\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := anankeDir(dir); err == nil || !strings.Contains(err.Error(), anankeModule) {
		t.Errorf("another module's go.mod: %v, want an error naming %s", err, anankeModule)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+anankeModule+"\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := anankeDir(dir)
	if err != nil || got != dir {
		t.Errorf("Ananke's checkout: %q, %v; want %q", got, err, dir)
	}
}
