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
		// Unpinned, its file changed since HEAD: warned about as a link
		// is, with the accept that pins it in one step.
		"content/docs/page.md:8:3: warning: ../../src/a.go#line=5: unpinned: no md5= check",
		"`textfrag pin --write --accept content/docs/page.md:8 content/docs/page.md`",
		"checked 4 links in 2 files: 3 errors, 1 warning",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("check output lacks %q:\n%s", w, stderr)
		}
	}
	if strings.Contains(stderr, "page.md:2:") || strings.Contains(stderr, "page.md:14:") {
		t.Errorf("a shortcode in the front matter or an escaped one was checked:\n%s", stderr)
	}

	// The stale md5 is in no version: review, which even
	// --accept-changed leaves as it is (exit 1).
	_, stderr, code = s.run("pin", "--write", "--accept-changed", "content")
	if code != 1 {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	for _, w := range []string{
		"content/docs/page.md:6:1: moved: src/a.go lines 3–4 → lines 4–5",
		// Unpinned, its file changed since HEAD: a changed quote, which
		// --accept-changed accepts.
		"content/docs/page.md:8:3: changed: src/a.go before line 6 md5=" + md5hex(moved),
		"content/docs/page.md:11:1: review: src/a.go before line 7: the file no longer has md5=" + stale,
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
	// The remedy, by hand: the range quotes the right text, so drop the
	// md5 and pin; the file changed since HEAD, so pin shows the text
	// again and pins it when accepted.
	s.write("content/docs/page.md", strings.Replace(want, "a.go#line=6;md5="+stale+"\" >}}\n```", "a.go#line=6\" >}}\n```", 1))
	if _, stderr, code := s.run("pin", "--write", "content"); code != 1 || !strings.Contains(stderr, "--accept content/docs/page.md:11`") {
		t.Fatalf("pin after the fix by hand: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := s.run("pin", "--write", "--accept", "content/docs/page.md:11", "content"); code != 0 {
		t.Fatalf("pin accepting the fix by hand: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := s.run("check", "content"); code != 0 {
		t.Errorf("check after pin: exit %d\n%s", code, stderr)
	}
}
