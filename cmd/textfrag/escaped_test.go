package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A destination Markdown decodes into an RFC 5147 link (a character
// reference or backslash escape) is an error in render, check and pin,
// named by file, line and column with the link as written and the plain
// spelling; pin --write leaves the page as it is. Written plainly, the
// link is verified, and pin rewrites it.
func TestEscapedDestinations(t *testing.T) {
	dir := t.TempDir()
	page := "# P\n\n" +
		"[w](../src/a.txt#&#108;ine=0,1;md5=00000000000000000000000000000000)\n\n" +
		"![x](../src/a.txt&#35;line=0,1)\n\n" +
		"See [y](../src/a.txt\\#line=0,1) here.\n\n" +
		"[ref]: ../src/a.txt&#x23;line=0,1\n\n" +
		"{{< textfrag \"../src/a.txt&num;line=0,1\" >}}\n"
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "src/a.txt": "one\ntwo\n", "docs/p.md": page})
	t.Chdir(dir)
	want := []string{
		"docs/p.md:3:1: error: ../src/a.txt#&#108;ine=0,1;md5=00000000000000000000000000000000: the link is written with a character reference or escape (&#108;)",
		"docs/p.md:5:1: error: ../src/a.txt&#35;line=0,1: the link is written with a character reference or escape (&#35;)",
		"docs/p.md:7:5: error: ../src/a.txt\\#line=0,1: the link is written with a character reference or escape (\\#)",
		"docs/p.md:9:1: error: ../src/a.txt&#x23;line=0,1: the link is written with a character reference or escape (&#x23;)",
		"docs/p.md:11:1: error: ../src/a.txt&num;line=0,1: the link is written with a character reference or escape (&num;)",
	}
	_, stderr, code := runIn(t, "check", "docs")
	if code != exitError {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("check: no %q in\n%s", w, stderr)
		}
	}
	if !strings.Contains(stderr, "write the link plainly, as ../src/a.txt#line=0,1") {
		t.Errorf("check: no remedy in\n%s", stderr)
	}
	if stdout, stderr, code := runIn(t, "render", "docs/p.md"); code != exitError || strings.Contains(stdout, "#line=") {
		t.Errorf("render: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	_, stderr, code = runIn(t, "pin", "--write", "docs/p.md")
	if code == 0 || !strings.Contains(stderr, "(&#35;)") {
		t.Errorf("pin --write: exit %d\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "docs", "p.md")); string(got) != page {
		t.Errorf("pin --write changed the page:\n%s", got)
	}
	// The remedy, followed: verified, and pin rewrites it.
	e2eWrite(t, dir, map[string]string{"docs/p.md": "# P\n\n[w](../src/a.txt#line=0,1)\n"})
	if _, stderr, code := runIn(t, "pin", "--write", "docs/p.md"); code != 0 {
		t.Fatalf("pin --write of the plain spelling: exit %d\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "docs", "p.md")); !strings.Contains(string(got), "../src/a.txt#line=0,1;md5=") {
		t.Errorf("pin did not pin the plain spelling:\n%s", got)
	}
	if _, stderr, code := runIn(t, "check", "docs"); code != 0 {
		t.Errorf("check after the remedy: exit %d\n%s", code, stderr)
	}
}
