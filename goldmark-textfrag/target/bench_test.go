package target_test

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/filetest"
)

// Benchmarks of Resolve, the per-link cost of a build:
//
//	go test -run '^$' -bench Resolve -count 10 ./goldmark-textfrag/target > new.txt
//
// BenchmarkResolveCached is the common case, a file already read; First
// adds reading, indexing and hashing it; Streamed is a file over the cache
// limit, read through for every link.

// benchFile returns n bytes of source-like lines and their MD5.
func benchFile(n int) ([]byte, string) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"func", "return", "if", "err", "!=", "nil", "{", "}", "x", ":=", "range", "for", "// é ✓", "\"text\""}
	var b strings.Builder
	for b.Len() < n {
		for range rng.IntN(4) {
			b.WriteByte('\t')
		}
		for range rng.IntN(10) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	data := []byte(b.String())
	sum := md5.Sum(data)
	return data, hex.EncodeToString(sum[:])
}

// benchLinks returns n links to ten-line ranges of a file of lines lines,
// spread over it, each pinned with sum when it is not "".
func benchLinks(n, lines int, sum string) []string {
	links := make([]string, n)
	for i := range links {
		start := i * (lines - 10) / n
		links[i] = fmt.Sprintf("../src/a.go#line=%d,%d", start, start+10)
		if sum != "" {
			links[i] += ";md5=" + sum
		}
	}
	return links
}

func BenchmarkResolveCached(b *testing.B) {
	data, sum := benchFile(32 << 10)
	fsys := fstest.MapFS{"src/a.go": {Data: data}}
	lines := strings.Count(string(data), "\n")
	for _, pinned := range []bool{false, true} {
		b.Run(fmt.Sprintf("md5=%v", pinned), func(b *testing.B) {
			r, err := target.New(target.Options{FS: fsys})
			if err != nil {
				b.Fatal(err)
			}
			links := benchLinks(1000, lines, map[bool]string{true: sum}[pinned])
			if _, err := r.Resolve("docs/a.md", links[0]); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := r.Resolve("docs/a.md", links[i%len(links)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			if n := r.ReadsOf("src/a.go"); n != 1 {
				b.Fatalf("src/a.go read %d times, want 1", n)
			}
		})
	}
}

func BenchmarkResolveFirst(b *testing.B) {
	data, sum := benchFile(32 << 10)
	fsys := fstest.MapFS{"src/a.go": {Data: data}}
	link := benchLinks(1, strings.Count(string(data), "\n"), sum)[0]
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := target.New(target.Options{FS: fsys})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Resolve("docs/a.md", link); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveStreamed(b *testing.B) {
	data, sum := benchFile(4 << 20)
	fsys := fstest.MapFS{"src/a.go": {Data: data}}
	lines := strings.Count(string(data), "\n")
	r, err := target.New(target.Options{FS: fsys, CacheLimit: -1})
	if err != nil {
		b.Fatal(err)
	}
	links := benchLinks(100, lines, sum)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := r.Resolve("docs/a.md", links[i%len(links)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkResolveFirstOS is BenchmarkResolveFirst on a directory of the
// OS: what opening a file costs (os.Root, the secrets check on the real
// path, the check of the open file).
func BenchmarkResolveFirstOS(b *testing.B) {
	data, sum := benchFile(32 << 10)
	root := b.TempDir()
	name := filepath.Join(root, "src", "pkg", "sub", "a.go")
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		b.Fatal(err)
	}
	link := strings.Replace(benchLinks(1, strings.Count(string(data), "\n"), sum)[0], "../src/a.go", "../src/pkg/sub/a.go", 1)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := target.New(target.Options{Root: root})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Resolve("docs/a.md", link); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFindName is the cost per link of a name in a 5,000-line Go file
// the Resolver holds (filetest.GoSource: 200 types), as a build checks
// many sym= and region= links into one file:
//
//	go test -run '^$' -bench FindName -count 10 ./goldmark-textfrag/target
//
// Each op resolves one of 200 pinned links and checks its name
// (Resolve + CheckName); "none" is the same links without a name. The
// file is read and parsed once, before the timer starts.
func BenchmarkFindName(b *testing.B) {
	data := filetest.GoSource(5000)
	sum := md5.Sum(data)
	fsys := fstest.MapFS{"src/gen.go": {Data: data}}
	type link struct {
		dest string
		sel  symbol.Selector
	}
	links := map[string][]link{}
	for i := range 200 {
		base := 2 + filetest.GoSourceBlock*i
		pin := ";md5=" + hex.EncodeToString(sum[:])
		links["sym"] = append(links["sym"], link{fmt.Sprintf("../src/gen.go#line=%d,%d%s", base+17, base+23, pin),
			symbol.Selector{Kind: symbol.Symbol, Name: fmt.Sprintf("T%d.Count", i)}})
		links["region"] = append(links["region"], link{fmt.Sprintf("../src/gen.go#line=%d,%d%s", base+10, base+12, pin),
			symbol.Selector{Kind: symbol.Region, Name: fmt.Sprintf("new%d", i)}})
		links["none"] = append(links["none"], link{dest: links["sym"][i].dest})
	}
	for _, kind := range []string{"none", "sym", "region"} {
		b.Run(kind, func(b *testing.B) {
			r, err := target.New(target.Options{FS: fsys})
			if err != nil {
				b.Fatal(err)
			}
			check := func(l link) {
				res, err := r.Resolve("docs/a.md", l.dest)
				if err == nil && l.sel.Kind != 0 {
					err = r.CheckName("docs/a.md", res, "", l.sel)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			for _, l := range links[kind] {
				check(l) // read, and parse, before the timer
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				check(links[kind][i%len(links[kind])])
				i++
			}
		})
	}
}
