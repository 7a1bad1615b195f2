package highlight

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Hostile inputs, after issue 11: chroma's regular expressions backtrack
// over the rest of the line (Perl, PHP) or of the block (Go) at every
// position, so lexing them takes time quadratic in their size.

// hostilePerl is a one-line Perl file: "s/" and n escaped slashes.
func hostilePerl(n int) string { return "s/" + strings.Repeat(`\/`, n) + "\n" }

// hostilePHP is a one-line PHP file: "<?php " and n unfinished interpolations.
func hostilePHP(n int) string { return "<?php " + strings.Repeat(`"${`, n) + "\n" }

// hostileGo is n lines that each open a comment, none closed: short lines,
// quadratic over the block.
func hostileGo(n int) string { return strings.Repeat("/*\n", n) }

// Compare before and after with
//
//	go test -run '^$' -bench 'Write(Hostile|Normal)' -benchtime 1x ./goldmark-textfrag/highlight
func BenchmarkWriteHostilePerl(b *testing.B) { benchWrite(b, hostilePerl(60000), "perl") }
func BenchmarkWriteHostilePHP(b *testing.B)  { benchWrite(b, hostilePHP(40000), "php") }
func BenchmarkWriteHostileGo(b *testing.B)   { benchWrite(b, hostileGo(4000), "go") }

// BenchmarkWriteNormalGo writes ordinary Go: the standard library's
// fmt/print.go (32 KB, 1,200 lines), the same file for every version of this
// package.
func BenchmarkWriteNormalGo(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "fmt", "print.go"))
	if err != nil {
		b.Fatal(err)
	}
	benchWrite(b, string(src), "go")
}

func benchWrite(b *testing.B, code, lang string) {
	b.SetBytes(int64(len(code)))
	for b.Loop() {
		if err := Write(io.Discard, code, Options{Lang: lang, LineNumbers: true}); err != nil {
			b.Log(err)
		}
	}
}
