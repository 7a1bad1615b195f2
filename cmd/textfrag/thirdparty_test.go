package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestThirdPartyDirsLeftOut: searching a directory leaves out node_modules
// and vendor, whose Markdown belongs to other projects (check, pin and
// build all agree), while a file under one that is named is still read.
func TestThirdPartyDirsLeftOut(t *testing.T) {
	dir := t.TempDir()
	const broken = "[x](../missing.go#line=1,2)\n"
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml":              "",
		"src/a.go":                   "package a\n",
		"index.md":                   "# Home\n",
		"node_modules/pkg/README.md": broken,
		"node_modules/pkg/index.js":  "x()\n",
		"docs/vendor/mod/README.md":  broken,
		"docs/vendored/guide.md":     "# Guide\n",
		"docs/node_modules_notes.md": "# Notes\n",
	})
	stdout, stderr, code := runIn(t, "check", "--root", dir, dir)
	if code != 0 || !strings.Contains(stderr, "in 3 files") || strings.Contains(stdout+stderr, "missing.go") {
		t.Errorf("check DIR: code %d, want 0 over 3 files (index.md, docs/vendored/guide.md, docs/node_modules_notes.md)\n%s%s", code, stdout, stderr)
	}
	named := filepath.Join(dir, "node_modules/pkg/README.md")
	if _, stderr, code := runIn(t, "check", "--root", dir, named); code != 1 || !strings.Contains(stderr, "missing.go") {
		t.Errorf("check of a file named under node_modules: code %d, want 1 naming its broken link\n%s", code, stderr)
	}
	if stdout, stderr, code := runIn(t, "pin", "--check", "--root", dir, dir); code != 0 || strings.Contains(stdout+stderr, "missing.go") {
		t.Errorf("pin --check DIR: code %d, want 0 without the third-party pages\n%s%s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	if stderr, code := buildIn(t, false, "--root", dir, dir, "-o", out); code != 0 {
		t.Fatalf("build: code %d\n%s", code, stderr)
	}
	for name := range e2eTree(t, out) {
		if strings.Contains(name, "node_modules/") || strings.Contains(name, "vendor/") {
			t.Errorf("build published %s", name)
		}
	}
}
