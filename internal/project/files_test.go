package project

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMarkdownFiles: directories are searched for *.md (any case) without
// hidden or "_"-prefixed names; files named are taken whatever their name;
// each file is listed once.
func TestMarkdownFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"a.md": "", "b.MD": "", "c.txt": "", ".md": "", "sub/d.md": "",
		"_drafts/e.md": "", ".hidden/f.md": "", "sub/_g.md": "", "sub/.h.md": "", "notes.txt": "",
	})
	rel := func(p string) string { return filepath.Join(dir, p) }
	got, err := MarkdownFiles([]string{rel("notes.txt"), dir, rel("a.md"), rel("sub/../a.md")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.ToSlash(strings.TrimPrefix(got[i], dir+string(filepath.Separator)))
	}
	want := "notes.txt a.md b.MD sub/d.md"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
	if _, err := MarkdownFiles([]string{rel("missing")}); err == nil {
		t.Error("a missing path is not an error")
	}
}
