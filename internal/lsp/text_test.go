package lsp

import (
	"os/exec"
	"strings"
	"testing"
)

// Positions count UTF-16 code units (a character outside the BMP is two)
// or, negotiated, UTF-8 bytes; lines end at LF, CR+LF and CR only.
func TestLineIndex(t *testing.T) {
	text := []byte("a😀b\r\n日本\rx\n\u0085y")
	for _, c := range []struct {
		enc  string
		off  int
		want Position
	}{
		{encodingUTF16, 0, Position{0, 0}},
		{encodingUTF16, 1, Position{0, 1}},             // before 😀
		{encodingUTF16, 5, Position{0, 3}},             // after 😀: two units
		{encodingUTF16, 6, Position{0, 4}},             // at CR
		{encodingUTF16, 8, Position{1, 0}},             // after CR+LF
		{encodingUTF16, 14, Position{1, 2}},            // at CR after 日本
		{encodingUTF16, 15, Position{2, 0}},            // a lone CR ends a line
		{encodingUTF16, 17, Position{3, 0}},            // NEL does not
		{encodingUTF16, 19, Position{3, 1}},            // after NEL: one unit
		{encodingUTF16, 99, Position{3, 2}},            // clamped to the end
		{encodingUTF8, 5, Position{0, 5}},              // bytes
		{encodingUTF8, 14, Position{1, 6}},             //
		{encodingUTF16, 3, Position{0, 1}},             // inside 😀: its start
		{encodingUTF8, len(text), Position{3, 3}},      //
		{encodingUTF16, len(text) - 1, Position{3, 1}}, //
	} {
		if got := newLineIndex(text, c.enc).position(c.off); got != c.want {
			t.Errorf("%s: position(%d) = %+v, want %+v", c.enc, c.off, got, c.want)
		}
	}
	for _, c := range []struct {
		enc  string
		pos  Position
		want int
	}{
		{encodingUTF16, Position{0, 3}, 5},
		{encodingUTF16, Position{0, 2}, 1},  // half a surrogate pair: the character's start
		{encodingUTF16, Position{0, 99}, 6}, // past the line: its end, before CR+LF
		{encodingUTF16, Position{1, 1}, 11},
		{encodingUTF16, Position{2, 1}, 16},
		{encodingUTF16, Position{9, 0}, len(text)},
		{encodingUTF16, Position{-1, 0}, 0},
		{encodingUTF8, Position{1, 3}, 11},
		{encodingUTF8, Position{1, 4}, 11}, // inside 本: its start
	} {
		if got := newLineIndex(text, c.enc).offset(c.pos); got != c.want {
			t.Errorf("%s: offset(%+v) = %d, want %d", c.enc, c.pos, got, c.want)
		}
	}
}

// The server is the command's: neither it nor a protocol library may enter
// the library's import graph.
func TestLibraryDoesNotImportLSP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "github.com/textfrag/textfrag/goldmark-textfrag/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.Contains(d, "/internal/lsp") || strings.Contains(strings.ToLower(d), "jsonrpc") || strings.Contains(d, "lsp") {
			t.Errorf("the library's import graph holds %s", d)
		}
	}
}

// A hover's fence is longer than any run of backticks in the quoted text,
// so quoted Markdown cannot close it early.
func TestFence(t *testing.T) {
	for text, want := range map[string]string{"": "```", "a`b``c": "```", "x\n```\ny": "````", "`````": "``````"} {
		if got := fence([]byte(text)); got != want {
			t.Errorf("fence(%q) = %q, want %q", text, got, want)
		}
	}
}
