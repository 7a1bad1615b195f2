package main

// The pages a Hugo site renders are the pages check, pin and refs read:
// _index.md at every level (home, section, nested section, taxonomy term)
// and links in front matter that Hugo or a theme renders as Markdown.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// hugoIndexPages are the branch bundles' pages of a Hugo site, each quoting
// namesServer by a different kind of link.
var hugoIndexPages = []struct {
	file, link string // link: arguments of "textfrag link" for the page's quote
}{
	{"content/_index.md", "src/server.go:Server.Handle"},          // home, by name
	{"content/docs/_index.md", "src/server.go:10-12"},             // section, by lines
	{"content/docs/deep/_index.markdown", "src/server.go:15-17"},  // nested section, .markdown
	{"content/tags/foo/_index.md", "src/server.go:Server.Handle"}, // term page, by name
}

// hugoNamesSite is a Hugo site in a git repository: namesServer quoted by
// every _index page and by a regular page's front-matter summary, all
// pinned by "textfrag link" and passing check --strict; committed.
func hugoNamesSite(t *testing.T) *pinSite {
	t.Helper()
	s := newPinSite(t, map[string]string{
		"src/server.go": namesServer,
		"hugo.toml":     "baseURL = \"https://example.org/\"\n[taxonomies]\ntag = \"tags\"\n",
	})
	s.git("init", "-q")
	for _, p := range hugoIndexPages {
		link := s.mustLink(p.link, "--from", p.file)
		s.write(p.file, "---\ntitle: T\n---\n\nQuoted: "+link+"\n")
	}
	link := s.mustLink("src/server.go:15-17", "--from", "content/docs/page.md")
	s.write("content/docs/page.md", "---\ntitle: P\nsummary: \"Starts with "+strings.ReplaceAll(link, `"`, `\"`)+".\"\n---\n\nBody.\n")
	if _, stderr, code := s.run("check", "--strict", "content"); code != 0 || !strings.Contains(stderr, "checked 5 links in 5 files") {
		t.Fatalf("check --strict content: exit %d\n%s", code, stderr)
	}
	s.commit("start")
	return s
}

// check and pin read every _index page and the front matter: when the
// quoted code moves, check content fails on each page (the sym= links as
// names that moved), and pin --write content re-points each at the moved
// text, after which check passes.
func TestHugoIndexPagesCheckedAndPinned(t *testing.T) {
	s := hugoNamesSite(t)
	s.write("src/server.go", strings.Replace(namesServer, "// Server counts", "// Version is the API version.\nconst Version = 2\n\n// Server counts", 1))
	_, stderr, code := s.run("check", "content")
	if code != 1 {
		t.Fatalf("check content passes after the code moved: exit %d\n%s", code, stderr)
	}
	for _, p := range append(hugoIndexPages, struct{ file, link string }{"content/docs/page.md", ""}) {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(p.file) + `:[0-9]+:[0-9]+: error: `).MatchString(stderr) {
			t.Errorf("check does not report %s:\n%s", p.file, stderr)
		}
	}
	if !strings.Contains(stderr, "content/_index.md:5:9: error: ") || !strings.Contains(stderr, "content/docs/page.md:3:23: error: ") {
		t.Errorf("check does not place the home page's or the summary's error where the link is:\n%s", stderr)
	}
	_, stderr, code = s.run("pin", "--write", "content")
	if code != 0 {
		t.Fatalf("pin --write content: exit %d\n%s", code, stderr)
	}
	if got := strings.Count(stderr, ": moved: "); got != 5 {
		t.Errorf("pin moved %d links, want 5:\n%s", got, stderr)
	}
	if _, stderr, code := s.run("check", "--strict", "content"); code != 0 {
		t.Fatalf("check after pin --write: exit %d\n%s", code, stderr)
	}
	sum := md5hex(s.read("src/server.go"))
	for file, want := range map[string]string{
		"content/_index.md":                 "line=11,15;md5=" + sum,
		"content/docs/_index.md":            "line=12,15;md5=" + sum,
		"content/docs/deep/_index.markdown": "line=17,20;md5=" + sum,
		"content/tags/foo/_index.md":        "line=11,15;md5=" + sum,
		"content/docs/page.md":              "line=17,20;md5=" + sum,
	} {
		if page := s.read(file); !strings.Contains(page, "#"+want) {
			t.Errorf("%s does not quote %s:\n%s", file, want, page)
		}
	}
	// refs lists the _index pages and the summary among the quotes.
	out, stderr, code := s.run("refs", "src/server.go")
	for _, p := range append(hugoIndexPages, struct{ file, link string }{"content/docs/page.md", ""}) {
		if code != 0 || !strings.Contains(out, p.file+":") {
			t.Errorf("refs does not list %s: exit %d\n%s%s", p.file, code, out, stderr)
		}
	}
}

// A stale pin that no history explains fails check on the _index page
// that holds it; outside the content directory, "_"-prefixed pages other
// than _index stay out of searches, as for textfrag build's site.
func TestHugoIndexStalePin(t *testing.T) {
	s := hugoNamesSite(t)
	s.write("content/tags/_index.md", "---\ntitle: Tags\n---\n\n[x](../../src/server.go#line=0,1;md5=0123456789abcdef0123456789abcdef)\n")
	s.write("content/_drafts/d.md", "[y](../../src/server.go#line=0,1;md5=0123456789abcdef0123456789abcdef)\n")
	s.write("notes/_draft.md", "[z](../src/server.go#line=0,1;md5=0123456789abcdef0123456789abcdef)\n")
	_, stderr, code := s.run("check", ".")
	if code != 1 || !strings.Contains(stderr, "content/tags/_index.md:5:1: error: ") || !strings.Contains(stderr, "content/_drafts/d.md:1:1: error: ") {
		t.Errorf("check . does not fail on the taxonomy page and the draft Hugo renders: exit %d\n%s", code, stderr)
	}
	if strings.Contains(stderr, "notes/_draft.md") {
		t.Errorf("check . read a _-prefixed page outside the content directory:\n%s", stderr)
	}
	if _, stderr, code := s.run("pin", "--write", "content/tags"); code != 1 || !strings.Contains(stderr, "content/tags/_index.md:5:1: review: ") {
		t.Errorf("pin content/tags: exit %d\n%s", code, stderr)
	}
	// An unpinned sym= link on the home page is held to its name.
	s.write("src/server.go", strings.Replace(namesServer, "// Server counts", "// Version is the API version.\nconst Version = 2\n\n// Server counts", 1))
	s.write("content/_index.md", "---\ntitle: Home\n---\n\n[h](../src/server.go#line=8,12 \"sym=Server.Handle\")\n")
	if out, _, code := s.run("check", "--format", "json", "content"); code != 1 || !regexp.MustCompile(`"file": "content/_index.md",[^}]*"symbol": "mismatch"`).MatchString(out) {
		t.Errorf("the home page's sym= link is not checked by its name: exit %d\n%s", code, out)
	}
}

// The language server reads a Hugo site's pages as check does: references
// from a source line find the _index pages and a front-matter summary that
// quote it, and an opened _index page's diagnostics include its
// front-matter summary's stale link, where it is written.
func TestLSPHugoPages(t *testing.T) {
	root, _, _ := lspProject(t)
	stale := "../src/a.go#line=1,2;md5=00000000000000000000000000000000"
	e2eWrite(t, root, map[string]string{
		"hugo.toml":              "",
		"content/_index.md":      "---\ntitle: Home\nsummary: \"See [s](" + stale + ").\"\n---\n\n[a](../src/a.go#line=1,2)\n",
		"content/docs/_index.md": "x [c](/src/a.go#line=0,3)\n",
	})
	c := startLSP(t, root, 0)
	c.initialize(false, false)
	srcURI := c.open(filepath.Join(root, "src/a.go"), "go")
	var locs []lspLocation
	c.result("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": srcURI}, "position": lspPos{1, 3}, "context": map[string]any{"includeDeclaration": false}}, &locs)
	var got []string
	for _, l := range locs {
		rel, _ := filepath.Rel(root, strings.TrimPrefix(l.URI, "file://"))
		got = append(got, fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), l.Range.Start.Line, l.Range.Start.Character))
	}
	joined := strings.Join(got, " ")
	for _, want := range []string{"content/_index.md:2:", "content/_index.md:5:", "content/docs/_index.md:0:"} {
		if !strings.Contains(joined, want) {
			t.Errorf("references %v lack %s", got, want)
		}
	}
	uri := c.open(filepath.Join(root, "content/_index.md"), "markdown")
	var codes []string
	for _, d := range c.diagnostics(uri) {
		codes = append(codes, fmt.Sprintf("%d:%s", d.Range.Start.Line, d.Code))
	}
	if !slices.Contains(codes, "2:integrity") {
		t.Errorf("diagnostics %v lack the summary's stale link on line 3", codes)
	}
	c.shutdown()
}
