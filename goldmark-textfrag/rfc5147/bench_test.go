package rfc5147

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// sourceLike returns n bytes that look like source code: indented lines of
// 0 to about 100 bytes, LF endings, a non-ASCII comment now and then.
func sourceLike(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"func", "return", "if", "err", "!=", "nil", "{", "}", "x", ":=", "range", "for", "s.count++", "// é naïve 😀", "\"text\"", "b.Write(p)"}
	var b bytes.Buffer
	b.Grow(n + 128)
	for b.Len() < n {
		depth := rng.IntN(4)
		for range depth {
			b.WriteByte('\t')
		}
		for range rng.IntN(12) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	// Cut at n bytes without cutting a character: pad the last line instead.
	out := b.Bytes()[:n]
	last := bytes.LastIndexByte(out[:n-1], '\n') + 1
	for i := last; i < n-1; i++ {
		out[i] = 'x'
	}
	out[n-1] = '\n'
	return out
}

var (
	mib     []byte
	mibOnce sync.Once
)

func oneMiB() []byte {
	mibOnce.Do(func() { mib = sourceLike(1 << 20) })
	return mib
}

func BenchmarkParse(b *testing.B) {
	const s = "line=1000,1010;md5=0123456789abcdef0123456789ABCDEF;length=98765,UTF-8"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(s); err != nil {
			b.Fatal(err)
		}
	}
}

// middleLines is a ten-line range in the middle of data.
func middleLines(b *testing.B, data []byte) Fragment {
	lines := bytes.Count(data, []byte{'\n'})
	return mustParse(b, fmt.Sprintf("line=%d,%d", lines/2, lines/2+10))
}

func BenchmarkSelect1MiB(b *testing.B) {
	data := oneMiB()
	tx, err := NewText(data, UTF8)
	if err != nil {
		b.Fatal(err)
	}
	f := middleLines(b, data)
	s, err := tx.Select(f)
	if err != nil || s.Chars.Len() == 0 {
		b.Fatal(err)
	}
	b.SetBytes(s.Bytes.End) // Select stops at the end of the selection
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tx.Select(f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSelectReader1MiB(b *testing.B) {
	data := oneMiB()
	sum := md5.Sum(data)
	f := mustParse(b, middleLines(b, data).String()+";md5="+hex.EncodeToString(sum[:]))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := SelectReader(bytes.NewReader(data), f)
		if err != nil || s.Chars.Len() == 0 {
			b.Fatal(err)
		}
	}
}

func BenchmarkMD51MiB(b *testing.B) {
	data := oneMiB()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		md5.Sum(data)
	}
}

func BenchmarkNewText1MiB(b *testing.B) {
	data := oneMiB()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewText(data, UTF8); err != nil {
			b.Fatal(err)
		}
	}
}
