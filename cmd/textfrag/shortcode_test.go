package main

import (
	"strings"
	"testing"
)

// TestShortcodeCheckAndPin: on a Hugo-style content directory, check finds
// stale shortcodes where Hugo expands them (the body and code blocks, not
// escaped ones nor front matter) at their line and column, pin --write
// relocates and pins them inside their quotes, and check then passes.
func TestShortcodeCheckAndPin(t *testing.T) {
	src := numberedSource(1, 10)
	stale := "00000000000000000000000000000000"
	page := "---\ntitle: \"{{< textfrag \\\"../../src/a.go#line=1;md5=" + stale + "\\\" >}}\"\n---\n" +
		"# Page\n\n" +
		"{{< textfrag \"../../src/a.go#line=2,4;md5=" + md5hex(src) + "\" \"Title\" >}}\n\n" +
		"ä {{% textfrag src=\"../../src/a.go#line=5\" %}}\n\n" +
		"```go\n{{< textfrag \"../../src/a.go#line=6;md5=" + stale + "\" >}}\n```\n\n" +
		"Shown as text: {{</* textfrag \"../../src/a.go#line=1;md5=" + stale + "\" */>}}\n"
	s := newPinSite(t, map[string]string{"src/a.go": src, "content/docs/page.md": page, "content/docs/other.md": "[l](../../src/a.go#line=1,2;md5=" + md5hex(src) + ")\n"})
	s.git("init", "-q")
	s.commit("start")
	moved := "// new\n" + src
	s.write("src/a.go", moved)

	_, stderr, code := s.run("check", "content")
	if code != 1 {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	for _, w := range []string{
		"content/docs/page.md:6:1: error: ../../src/a.go#line=2,4;md5=" + md5hex(src) + ": md5 mismatch",
		"content/docs/page.md:11:1: error: ../../src/a.go#line=6;md5=" + stale + ": md5 mismatch",
		"checked 4 links in 2 files: 3 errors, 0 warnings",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("check output lacks %q:\n%s", w, stderr)
		}
	}
	if strings.Contains(stderr, "page.md:2:") || strings.Contains(stderr, "page.md:14:") {
		t.Errorf("a shortcode in the front matter or an escaped one was checked:\n%s", stderr)
	}

	// The quote whose pinned version no history holds is gone: refused
	// even with --accept-changed; the others are written.
	_, stderr, code = s.run("pin", "--write", "--accept-changed", "content")
	if code != 1 || !strings.Contains(stderr, "not accepted: its quoted text is gone") {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	for _, w := range []string{
		"content/docs/page.md:6:1: moved: src/a.go lines 3–4 → lines 4–5",
		"content/docs/page.md:8:3: pinned: src/a.go before line 6 md5=" + md5hex(moved),
		"content/docs/page.md:11:1: gone: src/a.go before line 7: no version of the file in git history has md5=" + stale,
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("pin output lacks %q:\n%s", w, stderr)
		}
	}
	want := strings.NewReplacer(
		"a.go#line=2,4;md5="+md5hex(src), "a.go#line=3,5;md5="+md5hex(moved),
		"src=\"../../src/a.go#line=5\"", "src=\"../../src/a.go#line=5;md5="+md5hex(moved)+"\"",
	).Replace(page)
	if got := s.read("content/docs/page.md"); got != want {
		t.Errorf("after pin:\n%s\nwant:\n%s", got, want)
	}
	if _, stderr, code := s.run("check", "content"); code != 1 || !strings.Contains(stderr, "content/docs/page.md:11:1: error: ") || strings.Count(stderr, ": error: ") != 1 {
		t.Errorf("check after pin: exit %d, want the gone quote alone failing\n%s", code, stderr)
	}
}
