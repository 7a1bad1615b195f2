package hugotest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/hugolib"
)

var (
	textfragOnce sync.Once
	textfragBin  string
	textfragErr  error
)

// textfragBinary builds the textfrag command of this checkout, once per
// test process.
func textfragBinary(t *testing.T) string {
	t.Helper()
	textfragOnce.Do(func() {
		dir, err := os.MkdirTemp("", "textfrag-bin-")
		if err != nil {
			textfragErr = err
			return
		}
		textfragBin = filepath.Join(dir, "textfrag")
		cmd := exec.Command("go", "build", "-o", textfragBin, "./cmd/textfrag")
		cmd.Dir = filepath.Join(moduleDir(t), "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			textfragErr = fmt.Errorf("go build ./cmd/textfrag: %v\n%s", err, out)
		}
	})
	if textfragErr != nil {
		t.Fatal(textfragErr)
	}
	return textfragBin
}

// indexServer is a Go file with a method and a function; the pages quote
// them by their lines (8–12, 14–17 as #line=).
const indexServer = `package server

import "net/http"

// Server counts requests.
type Server struct{ n int }

// Handle answers one request.
func (s *Server) Handle(w http.ResponseWriter, r *http.Request) {
	s.n++
	w.WriteHeader(http.StatusNoContent)
}

func setup() *Server {
	return &Server{}
}
`

// indexSite is a Hugo site in a git repository whose branch pages quote
// indexServer: the home page by an unpinned sym= link, the section page by
// a pinned sym= link, a nested section and a term page by pinned lines.
type indexSite struct {
	t    *testing.T
	root string
}

func newIndexSite(t *testing.T) indexSite {
	s := indexSite{t: t, root: t.TempDir()}
	sum := md5.Sum([]byte(indexServer))
	pin := ";md5=" + hex.EncodeToString(sum[:])
	files := map[string]string{
		"src/server.go": indexServer,
		"hugo.toml": "baseURL = \"https://example.org/\"\ndisableKinds = [\"sitemap\", \"robotsTXT\", \"404\", \"rss\"]\n" +
			"[taxonomies]\ntag = \"tags\"\n[markup.goldmark.parser]\nwrapStandAloneImageWithinParagraph = false\n" +
			fmt.Sprintf("[module]\nreplacements = %q\n[[module.imports]]\npath = %q\n", modulePath+" -> "+moduleDir(t), modulePath) +
			"[params.textfrag]\nsymbols = \"checked-in-ci\"\n",
		"layouts/list.html":                 `{{ partial "textfrag/head.html" . }}<main>{{ .Content }}</main>`,
		"layouts/page.html":                 `{{ partial "textfrag/head.html" . }}<main>{{ .Content }}</main>`,
		"content/_index.md":                 "---\ntitle: Home\n---\n\n[The handler](../src/server.go#line=8,12 \"sym=Server.Handle\")\n",
		"content/docs/_index.md":            "---\ntitle: Docs\n---\n\n[The handler](../../src/server.go#line=8,12" + pin + " \"sym=Server.Handle\")\n",
		"content/docs/deep/_index.md":       "---\ntitle: Deep\n---\n\n[Setup](../../../src/server.go#line=13,16" + pin + ")\n",
		"content/tags/foo/_index.md":        "---\ntitle: Foo\n---\n\n[The handler](../../../src/server.go#line=8,12" + pin + ")\n",
		"content/docs/deep/page.md":         "---\ntitle: Page\ntags: [foo]\n---\n\nText.\n",
		".gitattributes":                    "* -text\n",
		"content/docs/deep/notes/_index.md": "---\ntitle: Notes\n---\n\nNo quote.\n",
	}
	for name, text := range files {
		write(t, filepath.Join(s.root, filepath.FromSlash(name)), text)
	}
	s.git("init", "-q")
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "start")
	return s
}

func (s indexSite) env() []string {
	home := s.t.TempDir()
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
}

func (s indexSite) git(args ...string) {
	s.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir, cmd.Env = s.root, s.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// textfrag runs the command in the site's root.
func (s indexSite) textfrag(args ...string) (string, int) {
	s.t.Helper()
	cmd := exec.Command(textfragBinary(s.t), args...)
	cmd.Dir, cmd.Env = s.root, s.env()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return string(out), code
}

func (s indexSite) build() error {
	s.t.Helper()
	os.RemoveAll(filepath.Join(s.root, "public"))
	b := hugolib.NewIntegrationTestBuilder(hugolib.IntegrationTestConfig{
		T: s.t, NeedsOsFS: true, WorkingDir: s.root, LogLevel: logg.LevelWarn,
	})
	_, err := b.BuildE()
	return err
}

func (s indexSite) page(rel string) string {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(s.root, "public", filepath.FromSlash(rel), "index.html"))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// The home, section, nested section and term pages of a Hugo site are
// _index.md files: when the code they quote moves, textfrag check content
// fails on each (the pinned ones by md5, the unpinned sym= link, which Hugo
// quotes by its lines with symbols = "checked-in-ci", by its name), and
// textfrag pin --write content re-points each at the moved code, which the
// rebuilt site then shows.
func TestIndexPagesCheckedAndPinned(t *testing.T) {
	s := newIndexSite(t)
	if err := s.build(); err != nil {
		t.Fatal(err)
	}
	if out, code := s.textfrag("check", "content"); code != 0 || !strings.Contains(out, "checked 4 links in 6 files") {
		t.Fatalf("check content before the change: exit %d\n%s", code, out)
	}
	moved := strings.Replace(indexServer, "// Server counts", "// Version is the API version.\nconst Version = 2\n\n// Server counts", 1)
	write(t, filepath.Join(s.root, "src", "server.go"), moved)

	// Hugo quotes the unpinned sym= link of the home page by its lines, which
	// hold other code now: only textfrag check sees that.
	if err := s.build(); err == nil {
		t.Fatal("hugo builds pages whose md5= no longer matches")
	}
	out, code := s.textfrag("check", "content")
	if code != 1 {
		t.Fatalf("check content passes after the code moved:\n%s", out)
	}
	for _, want := range []string{
		"content/_index.md:5:1: error: ", "content/docs/_index.md:5:1: error: ",
		"content/docs/deep/_index.md:5:1: error: ", "content/tags/foo/_index.md:5:1: error: ",
	} {
		mustContain(t, "check's report", out, filepath.FromSlash(want))
	}
	mustContain(t, "check's report", out, "sym=Server.Handle spans lines 12–15")

	if out, code := s.textfrag("pin", "--write", "content"); code != 0 {
		t.Fatalf("pin --write content: exit %d\n%s", code, out)
	}
	if out, code := s.textfrag("check", "--strict", "content"); code != 0 {
		t.Fatalf("check --strict after pin --write: exit %d\n%s", code, out)
	}
	if err := s.build(); err != nil {
		t.Fatalf("the re-pinned site does not build: %v", err)
	}
	for page, want := range map[string]string{
		"": "Handle", "docs": "Handle", "docs/deep": "setup", "tags/foo": "Handle",
	} {
		html := s.page(page)
		mustContain(t, "/"+page+"/", html, `class="textfrag `, want)
		if strings.Contains(html, "Server counts") || strings.Contains(html, "const Version") {
			t.Errorf("/%s/ quotes other code:\n%s", page, html)
		}
	}
}
