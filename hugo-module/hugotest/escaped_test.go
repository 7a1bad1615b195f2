package hugotest

import (
	"crypto/md5"
	"fmt"
	htmlpkg "html"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// plainRemedyRE reads the plain spelling out of an escaped error's remedy.
var (
	attrRE        = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	ourFragmentRE = regexp.MustCompile(`^(?i:line|char)=`)
)

var plainRemedyRE = regexp.MustCompile(`Write the link plainly, as (\S+)\.`)

// A destination Markdown decodes into an RFC 5147 link fails with the
// module's own hooks, naming the position, the link as written, the
// reference and the plain spelling; the plain spelling, followed, is
// verified: a box when the md5 holds, an integrity error when it does not.
func TestEscapedDestinationFails(t *testing.T) {
	sum := fmt.Sprintf("%x", md5.Sum([]byte(twoLines)))
	stale := strings.Repeat("0", 32)
	for _, c := range []struct{ name, md, ref string }{
		{"image-decimal", "![x](../src/a.txt&#35;line=0,1;md5=" + stale + ")", "&#35;"},
		{"link-in-scheme", "[w](../src/a.txt#&#108;ine=0,1;md5=" + stale + ")", "&#108;"},
		{"inline-backslash", "See [y](../src/a.txt\\#line=0,1;md5=" + stale + ") here.", `\#`},
		{"definition", "[r][ref]\n\n[ref]: ../src/a.txt&num;line=0,1;md5=" + stale, "&num;"},
		{"shortcode", "{{< textfrag \"../src/a.txt&#35;line=0,1;md5=" + stale + "\" >}}", "&#35;"},
		{"escaped-equals", "[e](../src/a.txt#line\\=0,1;md5=" + stale + ")", `\=`},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := newProject(t)
			r := site{Root: root, Docs: map[string]string{"docs/p.md": "---\ntitle: p\n---\n\n" + c.md + "\n"}}.build(t)
			if r.Err == nil {
				t.Fatalf("the build succeeded:\n%s", r.Pages["docs/p.md"])
			}
			at := filepath.Join(root, "docs", "p.md") + ":5:"
			if !strings.Contains(r.Log, at) || !strings.Contains(r.Log, "textfrag escaped error") ||
				!strings.Contains(r.Log, "("+c.ref+")") || !strings.Contains(r.Log, "textfrag verifies only links written plainly") {
				t.Fatalf("want an escaped error at %s naming %s, log:\n%s", at, c.ref, r.Log)
			}
			// Lenient mode publishes syntax errors as plain links; never these.
			if lr := (site{Root: root, Docs: map[string]string{"docs/p.md": "---\ntitle: p\n---\n\n" + c.md + "\n"}, Params: "lenient = true"}).build(t); lr.Err == nil || !strings.Contains(lr.Log, "textfrag escaped error") {
				t.Fatalf("lenient: want an escaped error, got %v\n%s", lr.Err, lr.Log)
			}
			m := plainRemedyRE.FindStringSubmatch(r.Log)
			if m == nil {
				t.Fatalf("no remedy in\n%s", r.Log)
			}
			if want := "../src/a.txt#line=0,1;md5=" + stale; m[1] != want {
				t.Fatalf("remedy %q, want %q", m[1], want)
			}
			// Followed, the remedy is verified: stale, an integrity error.
			r = site{Root: root, Docs: map[string]string{"docs/p.md": "---\ntitle: p\n---\n\n[w](" + m[1] + ")\n"}}.build(t)
			if r.Err == nil || !strings.Contains(r.Log, "textfrag integrity error") {
				t.Fatalf("the plain spelling with a stale md5: want an integrity error, got %v\n%s", r.Err, r.Log)
			}
			plain := strings.Replace(m[1], stale, sum, 1)
			r = site{Root: root, Docs: map[string]string{"docs/p.md": "---\ntitle: p\n---\n\n[w](" + plain + ")\n"}}.build(t)
			if r.Err != nil || !strings.Contains(r.Pages["docs/p.md"], `class="textfrag`) {
				t.Fatalf("the plain spelling with the right md5: want a box, got %v\n%s\n%s", r.Err, r.Log, r.Pages["docs/p.md"])
			}
		})
	}
}

// With a theme's own hooks in either import order, an escaped RFC 5147
// link is never published unverified: textfrag's hooks fail it (module
// first), or textfrag/check fails the page (the theme's hooks shadow
// textfrag's), also for "#line\=", which holds no "#line=" as written.
func TestEscapedDestinationWithThemes(t *testing.T) {
	for _, theme := range []string{"sitehead", "imageonly"} {
		for _, first := range []bool{true, false} {
			for _, md := range []string{
				"[w](../src/a.txt&#35;line=0,1)", "![x](../src/a.txt&#35;line=0,1)", "[e](../src/a.txt#line\\=0,1)",
			} {
				t.Run(fmt.Sprintf("%s/modulefirst=%v/%s", theme, first, md), func(t *testing.T) {
					html, log, err := themeSite{theme: theme, moduleFirst: first, page: "---\ntitle: p\n---\n\n" + md + "\n"}.build(t)
					if err == nil {
						// A theme's hook that writes .Destination as written
						// publishes no RFC 5147 link ("a.txt&#35;line=0,1" in
						// an href is a URL whose fragment is "35;line=0,1"):
						// then the build may pass.
						for _, m := range attrRE.FindAllStringSubmatch(html, -1) {
							u := htmlpkg.UnescapeString(m[1])
							if _, frag, ok := strings.Cut(u, "#"); ok && ourFragmentRE.MatchString(frag) {
								t.Fatalf("the build succeeded and published %q unverified:\n%s", u, html)
							}
						}
						if !strings.Contains(html, "a.txt") {
							t.Fatalf("the link is gone:\n%s", html)
						}
						return
					}
					if !strings.Contains(log, "textfrag escaped error") && !strings.Contains(log, "textfrag hooks error") {
						t.Fatalf("want textfrag's error, log:\n%s", log)
					}
				})
			}
		}
	}
}

// Decoding the character references of a destination is linear in them: a
// destination of n "&amp;"s (a fork's page) makes the build allocate about
// twice as many more bytes from 2n to 4n as from n to 2n (a count, not a
// time; concatenating as it decoded made it four times), and still fails
// as escaped with the plain spelling.
func TestEscapedManyReferencesLinear(t *testing.T) {
	bytesFor := func(n int) uint64 {
		root := newProject(t)
		md := "[w](../src/a.txt" + strings.Repeat("&amp;", n) + "#line=0,1)"
		s := site{Root: root, Docs: map[string]string{"docs/p.md": "---\ntitle: p\n---\n\n" + md + "\n"}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := s.build(t)
		runtime.ReadMemStats(&after)
		if r.Err == nil || !strings.Contains(r.Log, "textfrag escaped error") || !strings.Contains(r.Log, "(&amp;)") {
			t.Fatalf("%d references: want an escaped error, got %v", n, r.Err)
		}
		if plain := "../src/a.txt" + strings.Repeat("%26", n) + "#line=0,1"; !strings.Contains(r.Log, "Write the link plainly, as "+plain+".") {
			t.Fatalf("%d references: the remedy is not %s…", n, plain[:40])
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	const n = 4000
	a1, a2, a4 := bytesFor(n), bytesFor(2*n), bytesFor(4*n)
	t.Logf("bytes allocated: %d references %d, %d references %d, %d references %d", n, a1, 2*n, a2, 4*n, a4)
	if a2 <= a1 || a4 <= a2 {
		t.Fatalf("allocations do not grow with the references: %d, %d, %d", a1, a2, a4)
	}
	if grow, base := a4-a2, a2-a1; float64(grow) > 2.5*float64(base) {
		t.Errorf("from %d to %d references the build allocated %d more bytes, from %d to %d %d more: %.1f times (linear is 2)",
			n, 2*n, base, 2*n, 4*n, grow, float64(grow)/float64(base))
	}
}
