package project

import (
	"errors"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"
)

// Shard is one part of N of a project's Markdown files, so that the jobs of
// a CI matrix (check --shard 1/4 … 4/4) check every page exactly once
// between them. A page's shard depends on its own path only: the FNV-1a
// (32-bit) hash of its project-relative slash path, modulo N, plus one.
// Adding, removing or renaming other pages moves no page to another shard.
// The zero Shard is the whole project.
type Shard struct {
	K, N int // 1 ≤ K ≤ N; 0/0: no sharding
}

// ErrBadShard is wrapped by ParseShard's errors.
var ErrBadShard = errors.New("want K/N with 1 ≤ K ≤ N, such as 2/4")

// ParseShard parses "K/N": decimal numbers without sign or spaces, with
// 1 ≤ K ≤ N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	kk, kerr := shardNumber(k)
	nn, nerr := shardNumber(n)
	if !ok || kerr != nil || nerr != nil || kk < 1 || kk > nn {
		return Shard{}, ErrBadShard
	}
	return Shard{K: kk, N: nn}, nil
}

// shardNumber parses a positive decimal number of at most 9 digits.
func shardNumber(s string) (int, error) {
	if s == "" || len(s) > 9 || strings.Trim(s, "0123456789") != "" {
		return 0, ErrBadShard
	}
	return strconv.Atoi(s)
}

// String returns "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Set implements flag.Value, so that a bad value is a usage error naming
// the flag.
func (s *Shard) Set(v string) error {
	p, err := ParseShard(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// ShardOf returns the shard, 1 to n, of the page at project-relative slash path
// rel (n ≥ 1).
func ShardOf(rel string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(rel))
	return int(h.Sum32()%uint32(n)) + 1
}

// Select returns the files (OS paths, relative to the current directory or
// absolute, as MarkdownFiles lists them) that fall in s, in their order;
// every file for the zero Shard. A file's shard is taken from its path
// relative to root (absolute), so that it is the same from any working
// directory.
func (s Shard) Select(root string, files []string) ([]string, error) {
	if s.N == 0 {
		return files, nil
	}
	var picked []string
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return nil, err
		}
		if ShardOf(filepath.ToSlash(rel), s.N) == s.K {
			picked = append(picked, f)
		}
	}
	return picked, nil
}
