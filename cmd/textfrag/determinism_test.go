package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// determinismSite writes a site that uses every part of a build: boxes of
// highlighted and plain text, inline quotes, warnings, fenced code, GFM
// tables, heading ids, front matter read by a custom layout, README and
// index pages, assets (binary too), a quoted Markdown page, non-ASCII names,
// and left-out files.
func determinismSite(t *testing.T, dir string) {
	t.Helper()
	goSrc := "package a\n\n// A is a.\nfunc A() int {\n\treturn 1 // <one>\n}\n\nvar m = map[string]int{\"x\": 1, \"y\": 2}\n"
	files := map[string]string{
		"docs/src/a.go":          goSrc,
		"docs/src/b.txt":         strings.Repeat("some text & <markup>\r\n", 40),
		"docs/src/caf\u00e9.txt": "caf\u00e9 \U0001F600\nline two\n",
		"docs/img/logo.bin":      string([]byte{0, 1, 2, 0xff, 0xfe, 'P', 'N', 'G'}),
		"docs/_layout.html": `<!DOCTYPE html><html><head><title>{{.Title}}</title><link rel="stylesheet" href="{{.StylesheetURL}}"></head>` +
			`<body data-path="{{.Path}}" data-root="{{.Root}}">{{with .Home}}<a href="{{.}}">home</a>{{end}}` +
			`<dl>{{range $k, $v := .Params}}<dt>{{$k}}</dt><dd>{{$v}}</dd>{{end}}</dl>{{.Content}}<footer>{{.Source}}</footer>{{.LiveReload}}</body></html>`,
		"docs/index.md":        "---\ntitle: Home\nz: last\na: first\nm: {k2: v2, k1: v1}\nlist: [3, 1, 2]\n---\n\n# Home\n\n[Guide](guide/README.md) and [sub](guide/sub/index.md#top).\n",
		"docs/README.md":       "# Readme loses to index\n",
		"docs/notes.md":        "# Notes\n\n[whole notes page](guide/README.md#line=0,2)\n",
		"docs/_draft.md":       "# Draft\n",
		"docs/.hidden.md":      "# Hidden\n",
		"docs/table.md":        "# Table\n\n| a | b |\n|---|---|\n| 1 | [x](src/b.txt#char=0,9 \"quote\") |\n",
		"docs/guide/README.md": "# Guide\n\n## Setup\n\n## Setup\n\n```go\nfunc F() {}\n```\n\n```unknownlang\nx\n```\n",
		"docs/guide/sub/index.md": "---\ntitle: \"Sub <page>\"\n---\n\n" +
			"[A](../../src/a.go#line=2,6 \"hl=4 dedent\")\n\n" +
			"[B](../../src/b.txt#line=10,20)\n\n" +
			"[clamped](../../src/b.txt#line=30,99)\n\n" +
			"[position](../../src/a.go#line=3)\n\n" +
			"![café](../../src/caf%C3%A9.txt#char=0,6)\n\n" +
			"[unknown check](../../src/a.go#line=0,1;sha256=abc)\n",
	}
	for i := range 60 {
		files[fmt.Sprintf("docs/many/d%d/p%02d.md", i%5, i)] = fmt.Sprintf("# Page %d\n\n[a](../../src/a.go#line=%d,%d)\n\nText [q](/src/b.txt#char=%d,%d \"quote\").\n",
			i, i%6, i%6+2, i, i+7)
	}
	e2eWrite(t, dir, files)
}

// treeEntry is one file or directory of an output tree.
type treeEntry struct {
	mode fs.FileMode
	data []byte
}

// readTree reads every file and directory under dir, with its mode.
func readTree(t *testing.T, dir string) map[string]treeEntry {
	t.Helper()
	tree := map[string]treeEntry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		e := treeEntry{mode: info.Mode()}
		if info.Mode().IsRegular() {
			if e.data, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		tree[filepath.ToSlash(rel)] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// diffTrees describes how two trees differ, "" when they are the same.
func diffTrees(a, b map[string]treeEntry) string {
	var diffs []string
	for name, ea := range a {
		eb, ok := b[name]
		switch {
		case !ok:
			diffs = append(diffs, name+": only in the first")
		case ea.mode != eb.mode:
			diffs = append(diffs, fmt.Sprintf("%s: mode %v, then %v", name, ea.mode, eb.mode))
		case !bytes.Equal(ea.data, eb.data):
			diffs = append(diffs, fmt.Sprintf("%s: contents differ (%d and %d bytes)", name, len(ea.data), len(eb.data)))
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			diffs = append(diffs, name+": only in the second")
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "\n")
}

// TestE2EDeterministicBuild builds one site several times: twice alike, and
// with one and two threads (GOMAXPROCS and -j). Every output tree must be
// byte for byte the same, down to file modes.
func TestE2EDeterministicBuild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	determinismSite(t, dir)
	runs := []struct{ out, gomaxprocs, jobs string }{
		{"out-a", "1", "1"},
		{"out-b", "2", "2"},
		{"out-c", "2", "2"},
		{"out-d", "1", "1"},
		{"out-e", "2", "8"},
	}
	var trees []map[string]treeEntry
	for _, run := range runs {
		cmd := exec.Command(e2eBin(t), "build", "docs", "-o", run.out, "-j", run.jobs, "--root", "docs")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+run.gomaxprocs)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("build GOMAXPROCS=%s -j %s: %v\n%s", run.gomaxprocs, run.jobs, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "warning") {
			t.Errorf("build GOMAXPROCS=%s: the site is meant to have warnings:\n%s", run.gomaxprocs, stderr.String())
		}
		trees = append(trees, readTree(t, filepath.Join(dir, run.out)))
	}
	tree := trees[0]
	for _, want := range []string{"index.html", "notes.html", "guide/index.html", "guide/README.md", "guide/sub/index.html", "img/logo.bin", "textfrag.css", "many/d4/p59.html"} {
		if _, ok := tree[want]; !ok {
			t.Errorf("the output has no %s", want)
		}
	}
	if n := len(tree); n < 70 {
		t.Errorf("%d entries in the output tree", n)
	}
	for _, html := range []string{"index.html", "guide/sub/index.html"} {
		if !bytes.Contains(tree[html].data, []byte("<figure")) && html != "index.html" {
			t.Errorf("%s has no box", html)
		}
	}
	if !bytes.Contains(tree["index.html"].data, []byte("<dt>a</dt><dd>first</dd><dt>list</dt>")) {
		t.Errorf("front matter not laid out in key order:\n%s", tree["index.html"].data)
	}
	for i := 1; i < len(trees); i++ {
		if d := diffTrees(tree, trees[i]); d != "" {
			t.Errorf("build %s (GOMAXPROCS=%s -j %s) differs from build %s (GOMAXPROCS=%s -j %s):\n%s",
				runs[i].out, runs[i].gomaxprocs, runs[i].jobs, runs[0].out, runs[0].gomaxprocs, runs[0].jobs, d)
		}
	}
}
