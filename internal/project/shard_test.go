package project

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"1/1": {1, 1}, "2/4": {2, 4}, "4/4": {4, 4}, "07/10": {7, 10}} {
		got, err := ParseShard(in)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
		if err == nil && got.String() != fmt.Sprintf("%d/%d", want.K, want.N) {
			t.Errorf("%q: String() = %q", in, got.String())
		}
	}
	for _, in := range []string{"", "/", "1", "1/", "/4", "0/4", "5/4", "1/0", "0/0", "-1/4", "+1/4", "1/-4", " 1/4", "1/4 ", "1 /4",
		"1/4/8", "a/b", "1.0/4", "1/4x", "0x1/4", "1/9999999999", "１/４"} {
		if s, err := ParseShard(in); !errors.Is(err, ErrBadShard) {
			t.Errorf("ParseShard(%q) = %v, %v; want ErrBadShard", in, s, err)
		}
	}
	var s Shard
	if err := s.Set("3/2"); err == nil || s != (Shard{}) {
		t.Errorf("Set(3/2) = %v, left %v", err, s)
	}
	if (Shard{}).String() != "" {
		t.Errorf("the zero Shard's String is %q", Shard{}.String())
	}
}

// pagePaths returns n random page paths under root, some nested, none twice.
func pagePaths(rng *rand.Rand, root string, n int, seen map[string]bool) []string {
	var ps []string
	for len(ps) < n {
		var rel string
		switch rng.IntN(3) {
		case 0:
			rel = fmt.Sprintf("docs/p%04d.md", rng.IntN(100000))
		case 1:
			rel = fmt.Sprintf("docs/s%d/%c%d.md", rng.IntN(20), 'a'+rune(rng.IntN(26)), rng.IntN(1000))
		default:
			rel = fmt.Sprintf("README-%d.md", rng.IntN(1000))
		}
		if !seen[rel] {
			seen[rel] = true
			ps = append(ps, filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	return ps
}

// shardsOf splits files with Select for every K of n, and fails unless the
// shards are pairwise disjoint, their union is files, each keeps the
// files' order, and none is far from its share (a hash, not a lumping
// rule). It returns each file's shard.
func shardsOf(t *testing.T, root string, files []string, n int) map[string]int {
	t.Helper()
	of := map[string]int{}
	for k := 1; k <= n; k++ {
		got, err := Shard{K: k, N: n}.Select(root, files)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range got {
			if prev, ok := of[f]; ok {
				t.Fatalf("%d shards: %s in shard %d and in shard %d", n, f, prev, k)
			}
			of[f] = k
			if i > 0 && slices.Index(files, got[i-1]) > slices.Index(files, f) {
				t.Errorf("%d shards: shard %d is out of order at %s", n, k, f)
			}
		}
		if share := len(files) / n; len(files) >= 50*n && (len(got) < share/2 || len(got) > share*2) {
			t.Errorf("%d/%d holds %d of %d files", k, n, len(got), len(files))
		}
	}
	for _, f := range files {
		if _, ok := of[f]; !ok {
			t.Errorf("%d shards: %s is in none", n, f)
		}
	}
	return of
}

// TestShardSelect: for N from 1 to 7, the N shards of a set of pages are
// disjoint and cover it; adding pages (whose paths sort before, between and
// after the others) moves no page to another shard; and a page's shard is
// the same whether its path is given absolute or relative to the current
// directory.
func TestShardSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	root := t.TempDir()
	seen := map[string]bool{}
	files := pagePaths(rng, root, 600, seen)
	for n := 1; n <= 7; n++ {
		before := shardsOf(t, root, files, n)
		more := append(slices.Clone(files), pagePaths(rng, root, 300, seen)...)
		rng.Shuffle(len(more), func(i, j int) { more[i], more[j] = more[j], more[i] })
		after := shardsOf(t, root, more, n)
		for f, k := range before {
			if after[f] != k {
				t.Errorf("%d shards: adding pages moved %s from shard %d to %d", n, f, k, after[f])
			}
		}
	}

	// The same files named relative to the current directory (the root).
	t.Chdir(root)
	for n := 2; n <= 5; n++ {
		abs := shardsOf(t, root, files, n)
		rel := make([]string, len(files))
		for i, f := range files {
			rel[i], _ = filepath.Rel(root, f)
		}
		relOf := shardsOf(t, root, rel, n)
		for i, f := range files {
			if abs[f] != relOf[rel[i]] {
				t.Errorf("%d shards: %s is in shard %d, named %s in shard %d", n, f, abs[f], rel[i], relOf[rel[i]])
			}
		}
	}
	// And from a subdirectory, "p0001.md" is the root's "docs/p0001.md".
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "docs"))
	for n := 2; n <= 5; n++ {
		for _, name := range []string{"p0001.md", "s3/b7.md"} {
			want := ShardOf("docs/"+name, n)
			got, err := Shard{K: want, N: n}.Select(root, []string{filepath.FromSlash(name)})
			if err != nil || len(got) != 1 {
				t.Errorf("%d shards: %s from docs/ is not in shard %d (the root's docs/%s): %v %v", n, name, want, name, got, err)
			}
		}
	}
}

// TestShardOfIsFixed: a page's shard is part of how CI matrices are set up
// (and of their caches), so it must not change between versions: these are
// FNV-1a 32-bit hashes worked out by hand from the algorithm's definition
// (offset basis 2166136261, prime 16777619), modulo N, plus one.
func TestShardOfIsFixed(t *testing.T) {
	fnv1a := func(s string) uint32 {
		h := uint32(2166136261)
		for i := 0; i < len(s); i++ {
			h ^= uint32(s[i])
			h *= 16777619
		}
		return h
	}
	// "a": 0xe40c292c, as the FNV reference lists it.
	if fnv1a("a") != 0xe40c292c {
		t.Fatalf("reference FNV-1a(a) = %#x", fnv1a("a"))
	}
	for _, p := range []string{"a", "docs/index.md", "docs/guide/install.md", "README.md", "docs/é.md"} {
		for _, n := range []int{1, 2, 3, 4, 10, 64} {
			if got, want := ShardOf(p, n), int(fnv1a(p)%uint32(n))+1; got != want {
				t.Errorf("ShardOf(%q, %d) = %d, want %d", p, n, got, want)
			}
		}
	}
}
