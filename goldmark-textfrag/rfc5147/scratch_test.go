package rfc5147

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestScratch(t *testing.T) {
	for _, c := range []struct{ text, frag string }{
		{"a\nb\nc\n", "line=,1"},
		{"a\nb\nc\n", "char=0,3"},
		{strings.Repeat("x\n", 40000), "line=1,"},
		{strings.Repeat("x\n", 40000), "line=1,99999999"},
		{strings.Repeat("x", 40000), "char=1,"},
		{"a\x00b\xffc", "line=1"},
	} {
		f, err := Parse(c.frag)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := NewText([]byte(c.text), UTF8)
		if err != nil {
			fmt.Println("newtext", err)
		} else {
			s1, _ := tx.Select(f)
			fmt.Printf("text   %q %v %v %v %v\n", trunc(s1.Text), s1.Chars, s1.Lines, s1.First, s1.Last)
		}
		s2, err := SelectReader(bytes.NewReader([]byte(c.text)), f)
		if err != nil {
			fmt.Println("stream", err)
			continue
		}
		fmt.Printf("stream %q %v %v %v %v\n", trunc(s2.Text), s2.Chars, s2.Lines, s2.First, s2.Last)
	}
}

func trunc(b []byte) string {
	if len(b) > 20 {
		return string(b[:20]) + "…"
	}
	return string(b)
}
