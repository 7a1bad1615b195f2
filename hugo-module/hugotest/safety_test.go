package hugotest

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A prefix check on the project root would let /tmp/x/site-evil pass for
// /tmp/x/site; the check is made on a directory boundary.
func TestRootCheckOnDirectoryBoundary(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "site")
	write(t, filepath.Join(root, "src", "a.txt"), twoLines)
	write(t, filepath.Join(parent, "site-evil", "secret.txt"), "secret\n")
	for _, link := range []string{
		"file://" + parent + "/site-evil/secret.txt#line=0,1",
		"file://" + root + "-evil/secret.txt#line=0,1",
	} {
		doc := "---\ntitle: t\n---\n\n![x](" + link + ")\n"
		r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
		if r.Err == nil {
			t.Fatalf("%s was quoted:\n%s", link, r.Pages["page.md"])
		}
		mustContain(t, "the log", r.Log, "textfrag outside error", "is outside the project root "+root)
	}
	// The root itself, through a file URI, is fine.
	doc := "---\ntitle: t\n---\n\n![x](file://" + root + "/src/a.txt#line=0,1)\n\n![y](file://localhost" + root + "/src/a.txt#line=1,2)\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the page", r.Pages["page.md"], `<span class="textfrag-range">line 1</span>`, `<span class="textfrag-range">line 2</span>`)
}

// file://otherhost/… names a file on another machine: refused as the library
// refuses it, never read from this one.
func TestFileURIOnAnotherHostRefused(t *testing.T) {
	root := newProject(t)
	for _, link := range []string{
		"file://otherhost" + root + "/src/a.txt#line=0,1",
		"file:src/a.txt#line=0,1",
	} {
		doc := "---\ntitle: t\n---\n\n![x](" + link + ")\n"
		r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
		if r.Err == nil {
			t.Fatalf("%s was quoted:\n%s", link, r.Pages["page.md"])
		}
		mustContain(t, "the log", r.Log, "textfrag outside error", "only file URIs on the local host are read")
	}
}

// Paths and links in messages cannot drive the terminal of a CI log.
func TestMessagesEscapeControlCharacters(t *testing.T) {
	root := newProject(t)
	doc := "---\ntitle: t\n---\n\n![x](src/%1B%5D0;pwned%07%1B%5B2J%E2%80%AEevil.txt#line=0,1)\n\n![y](src/a.txt#line=0,1;md5=\x1b[31m)\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: "lenient = true"}.build(t)
	out := r.Log
	if r.Err != nil {
		out += r.Err.Error()
	}
	if regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u202a-\u202e]").MatchString(out) {
		t.Errorf("raw control characters in Hugo's output:\n%q", out)
	}
	mustContain(t, "the log", out, `no such file: src/\x1b]0;pwned\a\x1b[2J\u202eevil.txt`,
		`line=0,1;md5=\x1b[31m is not a valid RFC 5147 fragment`)
	if r.Err == nil {
		t.Error("the build succeeded")
	}
}

// {path} in sourceURL is URL-escaped one segment at a time, as the library
// does (goldmark-textfrag/testdata/source-url-escaped.txtar): "#", "?" and
// "%" in a file name stay part of the path.
func TestSourceURLPathEscaped(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a b#?%é.txt"), "a\n")
	doc := "---\ntitle: t\n---\n\n![](/src/a%20b%23%3F%25é.txt#line=0,1)\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: `sourceURL = "https://example.com/blob/main/{path}#L{start}"`}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the page", r.Pages["page.md"],
		`<a class="textfrag-source" href="https://example.com/blob/main/src/a%20b%23%3F%25%C3%A9.txt#L1">src/a b#?%é.txt</a>`)
}

// A page that starts with boxes describes itself with its prose, not with
// the quoted text, through textfrag/summary.
func TestSummaryWithoutBoxes(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "secret.go"), "package quoted\n\nvar quotedIdentifier = 1\n")
	doc := "---\ntitle: t\n---\n\n![Q](src/secret.go#line=2,3)\n\n[R](src/secret.go#line=0,1)\n\nSee [S](src/secret.go#char=0,7 \"quote\") here: the prose that describes the page.\n"
	s := site{Root: root, Docs: map[string]string{"page.md": doc}}
	r := s.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	// Hugo's own summary holds the quoted text.
	write(t, filepath.Join(root, "_layouts", "single.html"), "[{{ partial \"textfrag/summary.html\" . }}]|{{ .Summary | plainify }}")
	s.keepLayout = true
	r = s.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	ours, hugos, _ := strings.Cut(r.Pages["page.md"], "|")
	mustContain(t, "Hugo's summary", hugos, "quotedIdentifier")
	if ours != "[See here: the prose that describes the page.]" {
		t.Errorf("textfrag/summary = %q", ours)
	}
}

// Files that commonly hold secrets are outside the realm (SEMANTICS.md §5)
// unless params.textfrag.allowSecrets names them; other dot-files are not.
func TestSecretsStayOut(t *testing.T) {
	root := t.TempDir()
	secrets := []string{".env", "app/.env.production", ".git/config", "deploy/.SSH/id_ed25519", ".aws/credentials",
		"home/.docker/config.json", "certs/server.pem", "certs/Server.KEY", ".netrc", ".npmrc", ".pypirc"}
	for _, p := range append(secrets, ".github/workflows/ci.yml", "src/a.txt") {
		write(t, filepath.Join(root, filepath.FromSlash(p)), "TOKEN=1\n")
	}
	for _, p := range secrets {
		doc := "---\ntitle: t\n---\n\n![x](/" + p + "#line=0,1)\n"
		r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
		if r.Err == nil {
			t.Errorf("%s was quoted:\n%s", p, r.Pages["page.md"])
			continue
		}
		remedy := "allowSecrets = ["
		if strings.HasPrefix(p, ".git/") {
			remedy = "Files below .git cannot be quoted"
		}
		mustContain(t, "the log", r.Log, "textfrag outside error", p+" matches ", "commonly hold secrets", remedy)
	}
	// The site's configuration is the repository's: no glob opens .git/.
	gitDoc := "---\ntitle: t\n---\n\n![x](/.git/config#line=0,1)\n"
	for _, glob := range []string{".git/config", "config", "*"} {
		r := site{Root: root, Docs: map[string]string{"page.md": gitDoc}, Params: `allowSecrets = ["` + glob + `"]`}.build(t)
		if r.Err == nil {
			t.Errorf("allowSecrets = [%q] quoted .git/config:\n%s", glob, r.Pages["page.md"])
		}
	}
	doc := "---\ntitle: t\n---\n\n![x](/.github/workflows/ci.yml#line=0,1)\n\n![y](/certs/server.pem#line=0,1)\n\n![z](/app/.env.production#line=0,1)\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: `allowSecrets = ["certs/server.pem", ".env.*"]`}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	if n := strings.Count(r.Pages["page.md"], `<figure class="textfrag`); n != 3 {
		t.Errorf("%d boxes, want 3:\n%s", n, r.Pages["page.md"])
	}
}
