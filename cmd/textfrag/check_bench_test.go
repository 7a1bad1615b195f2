package main

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkBenchSite writes a site of pages pages in 10 directories, each with
// links pinned links into files source files of about 200 lines, and
// returns its root.
func checkBenchSite(b *testing.B, pages, links, files int) string {
	b.Helper()
	root := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	write := func(rel, content string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("textfrag.toml", "")
	type src struct {
		path  string
		lines int
		md5   string
	}
	srcs := make([]src, files)
	for i := range srcs {
		var s strings.Builder
		n := 100 + rng.IntN(200)
		fmt.Fprintf(&s, "package p%d\n", i)
		for l := 1; l < n; l++ {
			fmt.Fprintf(&s, "\tx%d := f(%q, %d) // the value of line %d\n", l, strings.Repeat("ab", rng.IntN(12)), rng.IntN(1000), l)
		}
		sum := md5.Sum([]byte(s.String()))
		srcs[i] = src{fmt.Sprintf("src/d%d/f%d.go", i%20, i), n, hex.EncodeToString(sum[:])}
		write(srcs[i].path, s.String())
	}
	for p := range pages {
		var s strings.Builder
		fmt.Fprintf(&s, "# Page %d\n\nSome prose about the page, with *emphasis*, `code` and [a link](../index.md).\n\n", p)
		for range links {
			f := srcs[rng.IntN(len(srcs))]
			a := rng.IntN(f.lines - 30)
			fmt.Fprintf(&s, "## A section\n\nA paragraph of prose before the quote, long enough to be a sentence or two of text.\n\n[The code](../../%s#line=%d,%d;md5=%s)\n\n", f.path, a, a+5+rng.IntN(25), f.md5)
		}
		write(fmt.Sprintf("docs/s%d/p%d.md", p%10, p), s.String())
	}
	return root
}

// BenchmarkCheck: check of a generated site, in process (bench/scale runs
// the command on 10,000 pages with a cold cache).
func BenchmarkCheck(b *testing.B) {
	root := checkBenchSite(b, 500, 10, 200)
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	b.ResetTimer()
	for b.Loop() {
		if code := e.main([]string{"check", "--root", root, filepath.Join(root, "docs")}); code != 0 {
			b.Fatalf("check: exit %d", code)
		}
	}
}
