// Command genbig writes a deterministic file of exactly N bytes that looks
// like source code (indented lines, LF endings, now and then a non-ASCII
// comment), for measuring textfrag on huge targets:
//
//	go run ./internal/cmd/genbig -size 1G -o /tmp/big/big.txt
//
// The same size always gives the same bytes.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

func main() {
	size := flag.String("size", "1G", "file size in bytes, with an optional K, M or G suffix (powers of 1024)")
	out := flag.String("o", "", "output file (default: standard output)")
	flag.Parse()
	n, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genbig:", err)
		os.Exit(2)
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "genbig:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := generate(bw, n); err != nil {
		fmt.Fprintln(os.Stderr, "genbig:", err)
		os.Exit(1)
	}
	if err := bw.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "genbig:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return v * mult, nil
}

var words = []string{
	"func", "return", "if", "err", "!=", "nil", "{", "}", "x", ":=", "range", "for",
	"s.count++", "b.Write(p)", "\"text\"", "i", "+", "1", "len(p)", "ctx,", "// é naïve 😀",
}

// generate writes exactly n bytes: whole lines, then the last line cut short
// and padded with 'x' so that no character is split, ending in LF.
func generate(w *bufio.Writer, n int64) error {
	rng := rand.New(rand.NewPCG(1, 2))
	var line []byte
	written := int64(0)
	for {
		line = line[:0]
		for range rng.IntN(4) {
			line = append(line, '\t')
		}
		for range rng.IntN(12) {
			line = append(line, words[rng.IntN(len(words))]...)
			line = append(line, ' ')
		}
		line = append(line, '\n')
		if written+int64(len(line)) > n {
			break
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
		written += int64(len(line))
	}
	if rest := n - written; rest > 0 {
		pad := []byte(strings.Repeat("x", int(rest-1)) + "\n")
		if _, err := w.Write(pad); err != nil {
			return err
		}
	}
	return nil
}
