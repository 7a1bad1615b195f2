package project

import (
	"path/filepath"
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
