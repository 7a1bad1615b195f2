package hugotest

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// remoteServer serves files on 127.0.0.1 and counts requests per path.
type remoteServer struct {
	*httptest.Server
	host string

	mu    sync.Mutex
	count map[string]int
}

func newRemoteServer(t *testing.T, routes map[string]http.HandlerFunc) *remoteServer {
	t.Helper()
	s := &remoteServer{count: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.count[r.URL.Path]++
		s.mu.Unlock()
		if h, ok := routes[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	s.host = strings.TrimPrefix(s.URL, "http://")
	return s
}

func (s *remoteServer) requests(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count[path]
}

func serveText(ct, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		fmt.Fprint(w, body)
	}
}

// remoteSite is a site allowed to fetch from s: params.textfrag.allowHosts
// names it, Hugo's security.http.urls lets resources.GetRemote reach it (its
// default refuses IP addresses and localhost), and Hugo's file cache is the
// test's own (cacheDir, or a new one if "").
func remoteSite(t *testing.T, s *remoteServer, docs map[string]string, params, cacheDir string) site {
	if cacheDir == "" {
		cacheDir = t.TempDir()
	}
	cfg := fmt.Sprintf("cacheDir = %q\n[security.http]\nurls = [%q]\n", cacheDir, `^http://`+regexp.QuoteMeta(s.host)+`/`)
	return site{Root: newProject(t), Docs: docs, Config: cfg, Params: fmt.Sprintf("allowHosts = [%q]\n%s", s.host, params)}
}

const remoteGo = "package a\n\nfunc A() {}\n"

func TestRemoteTargets(t *testing.T) {
	sum := md5.Sum([]byte(remoteGo))
	pinned := hex.EncodeToString(sum[:])
	other := newRemoteServer(t, map[string]http.HandlerFunc{"/a.go": serveText("text/plain", remoteGo)})
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/away":       func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL+"/a.go", http.StatusFound) },
		"/a.go":       serveText("text/plain; charset=utf-8", remoteGo),
		"/latin1.txt": serveText("text/plain; charset=ISO-8859-1", "caf\xe9\n"),
		"/image.png":  serveText("image/png", onePixelPNG(t)),
		"/big.txt":    serveText("text/plain", strings.Repeat("x", 2000)),
	})

	boxLink := s.URL + "/a.go#line=2,3;md5=" + pinned
	doc := "---\ntitle: t\n---\n\n![A](" + boxLink + ")\n\n" +
		"See [é](" + s.URL + "/latin1.txt#char=3,4;length=5 \"quote\") and [elsewhere](" + other.URL + "/a.go#line=1).\n\n" +
		"{{< textfrag \"" + s.URL + "/a.go#line=0,1\" >}}\n"
	r := remoteSite(t, s, map[string]string{"page.md": doc}, "", "").build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	if n := s.requests("/a.go"); n != 1 {
		t.Errorf("/a.go fetched %d times for two links", n)
	}
	if n := other.requests("/a.go"); n != 0 {
		t.Errorf("a host not allowed got %d requests", n)
	}
	page := r.Pages["page.md"]
	mustContain(t, "the page", page,
		libraryRemoteBox(t, s.host, "![A]("+boxLink+")\n"), // the same box as the goldmark extension's
		`<q class="textfrag-quote" cite="`+s.URL+`/latin1.txt#char=3,4;length=5">é</q>`,
		`<a href="`+other.URL+`/a.go#line=1">elsewhere</a>`,
		`<a class="textfrag-source" href="`+s.URL+`/a.go#line=0,1">`+s.URL+`/a.go</a> <span class="textfrag-range">line 1</span>`)

	// Failures of an allowed host fail the build.
	for _, tt := range []struct{ link, log string }{
		{s.URL + "/a.go#line=0,1;md5=0123456789abcdef0123456789abcdef", "textfrag integrity error: image \"" + s.URL + "/a.go#line=0,1;md5=0123456789abcdef0123456789abcdef\": md5 mismatch"},
		{s.URL + "/gone.txt#line=1", "textfrag remote error: image \"" + s.URL + "/gone.txt#line=1\": " + s.URL + "/gone.txt cannot be fetched: the server answered 404 Not Found"},
		{s.URL + "/image.png#line=1", "textfrag not-text error: image \"" + s.URL + "/image.png#line=1\": " + s.URL + "/image.png is not text: the server labels it image/png"},
		{s.URL + "/big.txt#line=1", "more than the limit of 1000 (params.textfrag.remoteMaxBytes)"},
		// Hugo checks redirects against security.http.urls.
		{s.URL + "/away#line=1", "textfrag remote error: image \"" + s.URL + "/away#line=1\": " + s.URL + "/away cannot be fetched: "},
	} {
		doc := "---\ntitle: t\n---\n\n![x](" + tt.link + ")\n"
		r := remoteSite(t, s, map[string]string{"page.md": doc}, "remoteMaxBytes = 1000", "").build(t)
		if r.Err == nil {
			t.Errorf("%s: the build succeeded", tt.link)
			continue
		}
		mustContain(t, "the log", r.Log, tt.log)
	}
	if n := other.requests("/a.go"); n != 0 {
		t.Errorf("a redirect reached a host not allowed (%d requests)", n)
	}
}

// Hugo's file cache keeps what resources.GetRemote fetched: a second build
// works with the server gone.
func TestRemoteTargetsCached(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{"/a.go": serveText("text/plain", remoteGo)})
	cache := t.TempDir()
	doc := "---\ntitle: t\n---\n\n![A](" + s.URL + "/a.go#line=2,3)\n"
	st := remoteSite(t, s, map[string]string{"page.md": doc}, "", cache) // one project: Hugo's cache is per project
	for i := range 2 {
		r := st.build(t)
		if r.Err != nil {
			t.Fatalf("build %d: %v\n%s", i+1, r.Err, r.Log[:min(len(r.Log), 2000)])
		}
		mustContain(t, "the page", r.Pages["page.md"], `>`+s.URL+`/a.go</a> <span class="textfrag-range">line 3</span>`)
		if i == 0 {
			s.Close()
		}
	}
	if n := s.requests("/a.go"); n != 1 {
		t.Errorf("%d requests for two builds", n)
	}
}

// Off by default: without allowHosts nothing is fetched, and the shortcode
// says why it cannot quote a remote file.
func TestRemoteTargetsOffByDefault(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{"/a.go": serveText("text/plain", remoteGo)})
	doc := "---\ntitle: t\n---\n\n![A](" + s.URL + "/a.go#line=0,1)\n"
	r := site{Root: newProject(t), Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	mustContain(t, "the page", r.Pages["page.md"], `<img src="`+s.URL+`/a.go#line=0,1" alt="A">`)
	if n := s.requests("/a.go"); n != 0 {
		t.Errorf("%d requests without allowHosts", n)
	}
	doc = "---\ntitle: t\n---\n\n{{< textfrag \"" + s.URL + "/a.go#line=0,1\" >}}\n"
	r = site{Root: newProject(t), Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err == nil || !strings.Contains(r.Log, "remote targets are fetched only from the hosts listed in params.textfrag.allowHosts") {
		t.Errorf("shortcode to a host not allowed: %v\n%s", r.Err, r.Log)
	}
}

// libraryRemoteBox renders md with the goldmark extension, allowed to fetch
// from host.
func libraryRemoteBox(t *testing.T, host, md string) string {
	t.Helper()
	gm := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(t.TempDir()),
		textfrag.WithRemote(target.RemoteOptions{AllowHosts: []string{host}}))))
	var out bytes.Buffer
	if err := gm.Convert([]byte(md), &out, parser.WithContext(parser.NewContext())); err != nil {
		t.Errorf("the goldmark extension: %v", err)
	}
	return out.String()
}

func onePixelPNG(t *testing.T) string {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
