package migrate

import (
	"strings"
	"testing"
)

// BenchmarkForeignPlainPage is what check pays per page without includes:
// a search for a few words.
func BenchmarkForeignPlainPage(b *testing.B) {
	page := []byte(strings.Repeat("Some prose with a [link](../src/a.go#line=1,2) and `code`.\n\n", 1600)) // 100 KB
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if Foreign("p.md", page) != nil {
			b.Fatal("warned")
		}
	}
}

// BenchmarkForeignIncludes is a page of 200 mdBook includes in code blocks.
func BenchmarkForeignIncludes(b *testing.B) {
	page := []byte(strings.Repeat("Text.\n\n```rust\n{{#include ../src/a.rs:main}}\n```\n\n", 200))
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if len(Foreign("p.md", page)) != 200 {
			b.Fatal("missed some")
		}
	}
}
