package project

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMarkdownFiles: directories are searched for *.md (any case) without
// hidden or "_"-prefixed names or node_modules and vendor directories;
// files named are taken whatever their name and wherever they are; each
// file is listed once.
func TestMarkdownFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"a.md": "", "b.MD": "", "c.txt": "", ".md": "", "sub/d.md": "",
		"_drafts/e.md": "", ".hidden/f.md": "", "sub/_g.md": "", "sub/.h.md": "", "notes.txt": "",
		"node_modules/pkg/README.md": "", "sub/vendor/mod/doc.md": "", "vendor.md": "", "sub/vendored/i.md": "",
		"node_modules/named.md": "",
	})
	rel := func(p string) string { return filepath.Join(dir, p) }
	got, err := MarkdownFiles([]string{rel("notes.txt"), dir, rel("a.md"), rel("sub/../a.md"), rel("node_modules/named.md")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.ToSlash(strings.TrimPrefix(got[i], dir+string(filepath.Separator)))
	}
	want := "notes.txt a.md b.MD sub/d.md sub/vendored/i.md vendor.md node_modules/named.md"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
	if _, err := MarkdownFiles([]string{rel("missing")}); err == nil {
		t.Error("a missing path is not an error")
	}
}

// TestMarkdownFilesHugo: the pages Hugo renders are found. _index pages
// anywhere (but not in "_"-prefixed directories outside a content
// directory); in a Hugo content directory (content/ beside a Hugo
// configuration) Hugo's rules: every Markdown suffix of Hugo's, "_"-prefixed
// names and node_modules/vendor included, and only ".", "#"-prefixed and
// "~"-suffixed names left out. Other formats (.html, .adoc, .org, .rst,
// .pandoc) are not Markdown. Outside content directories nothing changes.
func TestMarkdownFilesHugo(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"site/hugo.toml": "", "site/content/_index.md": "", "site/content/docs/_index.md": "",
		"site/content/docs/deep/_index.markdown": "", "site/content/tags/foo/_index.md": "",
		"site/content/docs/page.mdown": "", "site/content/_drafts/x.md": "", "site/content/docs/_partial.md": "",
		"site/content/vendor/v.md": "", "site/content/.hidden.md": "", "site/content/#lock.md": "",
		"site/content/docs/backup.md~": "", "site/content/docs/raw.html": "", "site/content/docs/g.adoc": "",
		"site/content/docs/o.org": "", "site/content/docs/_content.gotmpl": "",
		"site/README.markdown": "", "site/_notes/_index.md": "", "site/docs2/_index.md": "", "site/docs2/_x.md": "",
		"other/content/_y.md": "", "other/content/_index.md": "",
		"cfgdir/config/_default/hugo.toml": "", "cfgdir/content/_z.md": "",
	})
	rel := func(got []string) string {
		for i := range got {
			got[i] = filepath.ToSlash(strings.TrimPrefix(got[i], dir+string(filepath.Separator)))
		}
		return strings.Join(got, " ")
	}
	got, err := MarkdownFiles([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	want := "cfgdir/content/_z.md other/content/_index.md " +
		"site/content/_drafts/x.md site/content/_index.md site/content/docs/_index.md site/content/docs/_partial.md " +
		"site/content/docs/deep/_index.markdown site/content/docs/page.mdown site/content/tags/foo/_index.md " +
		"site/content/vendor/v.md site/docs2/_index.md"
	if g := rel(got); g != want {
		t.Errorf("got  %q\nwant %q", g, want)
	}
	// A directory below a content directory follows Hugo's rules too, and a
	// relative path names the files relative to it.
	t.Chdir(filepath.Join(dir, "site"))
	got, err = MarkdownFiles([]string{"./content/docs"})
	if err != nil {
		t.Fatal(err)
	}
	if g, want := strings.Join(got, " "), "content/docs/_index.md content/docs/_partial.md content/docs/deep/_index.markdown content/docs/page.mdown"; filepath.ToSlash(g) != want {
		t.Errorf("got  %q\nwant %q", g, want)
	}
	got, err = MarkdownFiles([]string{"."})
	if err != nil {
		t.Fatal(err)
	}
	if g := filepath.ToSlash(strings.Join(got, " ")); !strings.Contains(g, "content/_drafts/x.md") || strings.Contains(g, "README.markdown") || strings.Contains(g, "_notes") {
		t.Errorf("from the site's root: %q", g)
	}
}

// TestMarkdownFilesSymlinkedDir: a directory named through a symbolic
// link (the root when the working directory was reached through one:
// `cd ~/site-link && textfrag check --root .`) is searched, its pages
// named under the link as given; a link below it is still not followed.
// It used to list nothing: check "checked 0 links in 0 files" and refs
// --diff "no quote affected", both exit 0, on a site with a stale quote.
func TestMarkdownFilesSymlinkedDir(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{"site/docs/a.md": "", "other/b.md": ""})
	link := filepath.Join(base, "link")
	if err := os.Symlink(filepath.Join(base, "site"), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "other"), filepath.Join(base, "site", "docs", "inner")); err != nil {
		t.Fatal(err)
	}
	got, err := MarkdownFiles([]string{link})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(link, "docs", "a.md")}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
