package target_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// remoteServer is an httptest server on 127.0.0.1 that counts requests per path.
type remoteServer struct {
	*httptest.Server
	host string // 127.0.0.1:PORT

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
		h, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	s.host = strings.TrimPrefix(s.URL, "http://")
	return s
}

// requests returns the number of requests for path, or for every path if "".
func (s *remoteServer) requests(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if path != "" {
		return s.count[path]
	}
	n := 0
	for _, c := range s.count {
		n += c
	}
	return n
}

// serve answers with body, labelled ct (none at all if ct is "-").
func serve(ct, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ct == "-" {
			w.Header()["Content-Type"] = nil // no sniffing either
		} else {
			w.Header().Set("Content-Type", ct)
		}
		fmt.Fprint(w, body)
	}
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// remoteResolver returns a Resolver for an empty project with remote options o.
func remoteResolver(t *testing.T, o target.RemoteOptions) *target.Resolver {
	t.Helper()
	root, _ := project(t, map[string]string{"page.md": "# Page\n"})
	return newResolver(t, target.Options{Root: root, Remote: o})
}

const twoLines = "first\nsecond\n"

func TestRemoteOffByDefault(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{"/a.txt": serve("text/plain", twoLines)})
	r := remoteResolver(t, target.RemoteOptions{})
	// Only the allowlist turns remote targets on: a cache directory, or
	// offline mode, alone fetch nothing.
	r2 := remoteResolver(t, target.RemoteOptions{CacheDir: t.TempDir(), Timeout: time.Second})
	for _, link := range []string{s.URL + "/a.txt#line=1", s.URL + "/a.txt#line=x", "//" + s.host + "/a.txt#line=1"} {
		for _, r := range []*target.Resolver{r, r2} {
			if res, err := r.Resolve("page.md", link); !errors.Is(err, target.ErrNotOurs) {
				t.Errorf("Resolve(%q) = %v, %v; want ErrNotOurs", link, res, err)
			}
		}
	}
	if n := s.requests(""); n != 0 {
		t.Errorf("%d requests with remote targets off", n)
	}
}

func TestRemoteAllowedHost(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/a.txt":       serve("text/plain; charset=utf-8", twoLines),
		"/src.go":      serve("text/x-go", "package a\n"),
		"/d.json":      serve("application/json", "{\"a\": 1}\n"),
		"/none":        serve("-", "unlabelled\n"),
		"/q":           func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "query %s\n", r.URL.RawQuery) },
		"/caf\xc3\xa9": serve("text/plain", "nfc\n"),
	})
	other := newRemoteServer(t, map[string]http.HandlerFunc{"/a.txt": serve("text/plain", twoLines)})
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}})
	base := s.URL

	sum := md5hex(twoLines)
	res := selects(t, r, "page.md", base+"/a.txt#line=1,2;md5="+sum+";length=13", base+"/a.txt", "second\n")
	if res != nil {
		if res.Remote == nil || res.Remote.URL != base+"/a.txt" || res.Remote.FromCache || res.Remote.ContentType != "text/plain; charset=utf-8" {
			t.Errorf("Remote = %+v", res.Remote)
		}
		if ws := target.Warnings(res); len(ws) != 0 {
			t.Errorf("warnings %q", ws)
		}
	}
	// The md5 is of the fetched bytes, checked exactly as for a local file.
	te := fails(t, r, "page.md", base+"/a.txt#line=,1;md5="+strings.Repeat("0", 32), rfc5147.ErrIntegrity, "integrity")
	if te != nil && (te.Result == nil || te.Result.Selection.Entity.MD5Hex() != sum || te.Path != base+"/a.txt") {
		t.Errorf("integrity error %+v lacks the result for re-pinning", te)
	}
	fails(t, r, "page.md", base+"/a.txt#line=,1;length=12", rfc5147.ErrIntegrity, "integrity")
	fails(t, r, "page.md", base+"/a.txt#line=2,1", rfc5147.ErrMisordered, "misordered")
	fails(t, r, "page.md", base+"/a.txt#line=one", rfc5147.ErrSyntax, "syntax")
	// Scheme and host in any case, the same URL: one entry, one fetch.
	selects(t, r, "docs/x.md", "HTTP://"+strings.ToUpper(s.host)+"/a.txt#char=0,5", base+"/a.txt", "first")
	if n := s.requests("/a.txt"); n != 1 {
		t.Errorf("/a.txt fetched %d times, want once", n)
	}
	if n := r.ReadsOf(base + "/a.txt"); n != 1 {
		t.Errorf("ReadsOf = %d", n)
	}
	selects(t, r, "page.md", base+"/src.go#line=,1", base+"/src.go", "package a\n")
	selects(t, r, "page.md", base+"/d.json#char=1,4", base+"/d.json", "\"a\"")
	selects(t, r, "page.md", base+"/none#line=,1", base+"/none", "unlabelled\n")
	selects(t, r, "page.md", base+"/q?x=1#line=,1", base+"/q?x=1", "query x=1\n")
	selects(t, r, "page.md", base+"/caf%C3%A9#line=,1", base+"/caf%C3%A9", "nfc\n")

	// Hosts not allowed: left as links, never contacted.
	for _, link := range []string{
		other.URL + "/a.txt#line=1",
		"http://localhost:" + strings.Split(s.host, ":")[1] + "/a.txt#line=1", // same server, another name
		"http://127.0.0.1/a.txt#line=1",                                       // the host without the port: port 80
		"ftp://" + s.host + "/a.txt#line=1",
		base + "/a.txt#L1", base + "/a.txt",
	} {
		if res, err := r.Resolve("page.md", link); !errors.Is(err, target.ErrNotOurs) {
			t.Errorf("Resolve(%q) = %v, %v; want ErrNotOurs", link, res, err)
		}
	}
	if n := other.requests(""); n != 0 {
		t.Errorf("a host that is not allowed got %d requests", n)
	}
}

func TestRemoteFailures(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/500":     func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) },
		"/png":     serve("image/png", "\x89PNG\r\n"),
		"/octet":   serve("application/octet-stream", "text really\n"),
		"/badcs":   serve("text/plain; charset=x-no-such", "a\n"),
		"/badct":   serve("text/plain; charset", "a\n"),
		"/badutf8": serve("text/plain; charset=utf-8", "ok\xff\n"),
		"/nul":     serve("text/plain", "a\x00b\n"),
		"/created": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201); fmt.Fprint(w, "a\n") },
	})
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}})
	for _, tt := range []struct {
		path, kind string
		err        error
		msg        string
	}{
		{"/404", "remote", target.ErrRemote, "404 Not Found"},
		{"/500", "remote", target.ErrRemote, "500 Internal Server Error"},
		{"/created", "remote", target.ErrRemote, "201 Created"},
		{"/png", "not-text", rfc5147.ErrNotText, "image/png"},
		{"/octet", "not-text", rfc5147.ErrNotText, "application/octet-stream"},
		{"/badcs", "remote", target.ErrRemote, "x-no-such"},
		{"/badct", "remote", target.ErrRemote, "malformed Content-Type"},
		{"/badutf8", "not-text", rfc5147.ErrNotText, "served as"},
		{"/nul", "not-text", rfc5147.ErrNotText, "NUL"},
	} {
		te := fails(t, r, "page.md", s.URL+tt.path+"#line=1", tt.err, tt.kind)
		if te == nil {
			continue
		}
		if !strings.Contains(te.Error(), tt.msg) {
			t.Errorf("%s: error %q lacks %q", tt.path, te.Error(), tt.msg)
		}
		if te.Path != s.URL+tt.path {
			t.Errorf("%s: error path %q", tt.path, te.Path)
		}
		if target.Lenient(te) {
			t.Errorf("%s: a remote failure is lenient", tt.path)
		}
		if tt.kind == "remote" && !strings.Contains(target.Explain(te, "d.md"), "the host is allowed") {
			t.Errorf("%s: Explain = %q", tt.path, target.Explain(te, "d.md"))
		}
	}
}

func TestRemoteRedirects(t *testing.T) {
	outside := newRemoteServer(t, map[string]http.HandlerFunc{"/a.txt": serve("text/plain", "outside\n")})
	var s *remoteServer
	s = newRemoteServer(t, map[string]http.HandlerFunc{
		"/a.txt": serve("text/plain", twoLines),
		"/near":  func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/hop", http.StatusFound) },
		"/hop": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/a.txt", http.StatusMovedPermanently)
		},
		"/away": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, outside.URL+"/a.txt", http.StatusFound)
		},
		"/loop": func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) },
		"/ftp": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "ftp://"+s.host+"/a.txt", http.StatusFound)
		},
	})
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}})
	res := selects(t, r, "page.md", s.URL+"/near#line=,1", s.URL+"/near", "first\n")
	if res != nil && res.Remote.FinalURL != s.URL+"/a.txt" {
		t.Errorf("FinalURL %q", res.Remote.FinalURL)
	}
	te := fails(t, r, "page.md", s.URL+"/away#line=,1", target.ErrRemote, "remote")
	if te != nil && !strings.Contains(te.Error(), "not on an allowed host") {
		t.Errorf("error %q", te.Error())
	}
	if n := outside.requests(""); n != 0 {
		t.Errorf("a redirect reached a host that is not allowed (%d requests)", n)
	}
	te = fails(t, r, "page.md", s.URL+"/loop#line=,1", target.ErrRemote, "remote")
	if te != nil && !strings.Contains(te.Error(), fmt.Sprintf("more than %d redirects", target.MaxRedirects)) {
		t.Errorf("error %q", te.Error())
	}
	if n := s.requests("/loop"); n != target.MaxRedirects+1 {
		t.Errorf("/loop requested %d times, want %d", n, target.MaxRedirects+1)
	}
	fails(t, r, "page.md", s.URL+"/ftp#line=,1", target.ErrRemote, "remote")

	// Once both hosts are allowed, the redirect is followed.
	r = remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host, outside.host}})
	selects(t, r, "page.md", s.URL+"/away#line=,1", s.URL+"/away", "outside\n")
}

func TestRemoteTimeout(t *testing.T) {
	block := make(chan struct{})
	wait := func(r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-block:
		}
	}
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/slow": func(w http.ResponseWriter, r *http.Request) { wait(r) },
		"/stall": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "the first part, then nothing\n")
			w.(http.Flusher).Flush()
			wait(r)
		},
	})
	t.Cleanup(func() { close(block) }) // runs before s.Close: no handler is left waiting
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, Timeout: 200 * time.Millisecond})
	for _, p := range []string{"/slow", "/stall"} {
		start := time.Now()
		te := fails(t, r, "page.md", s.URL+p+"#line=,1", target.ErrRemote, "remote")
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: the timeout of 200ms took %s", p, d)
		}
		if te != nil && !strings.Contains(te.Error(), "within 200ms") {
			t.Errorf("%s: error %q", p, te.Error())
		}
	}
}

func TestRemoteMaxBytes(t *testing.T) {
	chunk := strings.Repeat("0123456789abcde\n", 256) // 4 KiB
	var sent sync.Map
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/endless": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			n := 0
			defer func() { sent.Store("endless", n) }()
			for r.Context().Err() == nil && n < 64<<20 {
				k, err := fmt.Fprint(w, chunk)
				n += k
				if err != nil {
					return
				}
			}
		},
		"/declared": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100000000")
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, chunk)
		},
		"/exact": serve("text/plain", strings.Repeat("x", 64<<10)),
	})
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, MaxBytes: 64 << 10, Timeout: 5 * time.Second})
	te := fails(t, r, "page.md", s.URL+"/endless#line=,1", target.ErrRemote, "remote")
	if te != nil && !strings.Contains(te.Error(), "more than the limit of 65536 bytes") {
		t.Errorf("error %q", te.Error())
	}
	te = fails(t, r, "page.md", s.URL+"/declared#line=,1", target.ErrRemote, "remote")
	if te != nil && !strings.Contains(te.Error(), "100000000 bytes") {
		t.Errorf("error %q", te.Error())
	}
	selects(t, r, "page.md", s.URL+"/exact#char=0,1", s.URL+"/exact", "x")
	s.Close() // waits for the endless handler to stop
	if n, _ := sent.Load("endless"); n.(int) >= 64<<20 {
		t.Errorf("the endless body was read to the end (%d bytes)", n)
	}
}

// The Content-Type's charset is the entity's: md5 covers the bytes, length
// counts characters decoded in that charset, even when the label is wrong.
func TestRemoteCharset(t *testing.T) {
	utf8Bytes := "caf\u00e9\n" // 6 bytes, 5 characters in UTF-8
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/latin1-label": serve("text/plain; charset=ISO-8859-1", utf8Bytes),
		"/utf8-label":   serve("text/plain; charset=UTF-8", utf8Bytes),
		"/latin1":       serve("text/plain; charset=latin1", "caf\xe9\n"),
		"/utf16":        serve("text/plain; charset=utf-16le", "\xff\xfea\x00\n\x00"),
	})
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}})
	sum := md5hex(utf8Bytes)
	res := selects(t, r, "page.md", s.URL+"/latin1-label#char=3,5;length=6;md5="+sum, s.URL+"/latin1-label", "\u00c3\u00a9")
	if res != nil && res.Selection.Entity.Charset.Name != "ISO_8859-1:1987" {
		t.Errorf("charset %q", res.Selection.Entity.Charset.Name)
	}
	fails(t, r, "page.md", s.URL+"/latin1-label#char=3,4;length=5", rfc5147.ErrIntegrity, "integrity")
	selects(t, r, "page.md", s.URL+"/utf8-label#char=3,4;length=5;md5="+sum, s.URL+"/utf8-label", "\u00e9")
	selects(t, r, "page.md", s.URL+"/latin1#char=3,4;length=5,UTF-8;md5="+md5hex("caf\xe9\n"), s.URL+"/latin1", "\u00e9")
	selects(t, r, "page.md", s.URL+"/utf16#line=,1", s.URL+"/utf16", "a\n")
}

// Concurrent links to one URL fetch it once per Resolver.
func TestRemoteConcurrentFetchOnce(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/a.txt": func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(20 * time.Millisecond) // let the others pile up
			fmt.Fprint(w, twoLines)
		},
		"/b.txt": serve("text/plain", "b\n"),
	})
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 32 {
		wg.Go(func() {
			link, want := s.URL+"/a.txt#line=1,2", "second\n"
			if g%2 == 1 {
				link, want = s.URL+"/b.txt#line=,1", "b\n"
			}
			res, err := r.Resolve("page.md", link)
			switch {
			case err != nil:
				errs <- err
			case string(res.Selection.Text) != want:
				errs <- fmt.Errorf("%s: %q", link, res.Selection.Text)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if a, b := s.requests("/a.txt"), s.requests("/b.txt"); a != 1 || b != 1 {
		t.Errorf("requests: /a.txt %d, /b.txt %d; want one each", a, b)
	}
	if r.Reads() != 2 {
		t.Errorf("Reads() = %d", r.Reads())
	}
}

func TestRemoteCache(t *testing.T) {
	var mu sync.Mutex
	body, status := twoLines, 200
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/a.txt": func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			b, st := body, status
			mu.Unlock()
			if st != 200 {
				http.Error(w, "down", st)
				return
			}
			etag := `"` + md5hex(b) + `"`
			w.Header().Set("ETag", etag)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			if r.Header.Get("If-None-Match") == etag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprint(w, b)
		},
		"/b.txt": serve("text/plain", "b\n"),
		"/404":   http.NotFound,
	})
	cache := t.TempDir()
	online := target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: cache}
	offline := online
	offline.Offline = true
	link := s.URL + "/a.txt#line=1,2;md5=" + md5hex(twoLines)

	// Warm the cache.
	res := selects(t, remoteResolver(t, online), "page.md", link, s.URL+"/a.txt", "second\n")
	selects(t, remoteResolver(t, online), "page.md", s.URL+"/b.txt#line=,1", s.URL+"/b.txt", "b\n")
	if res == nil || res.Remote.FromCache {
		t.Fatalf("first fetch: %+v", res)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "http", "*"))
	if len(files) != 4 {
		t.Errorf("cache holds %q, want a .json and a .body per URL", files)
	}

	// Offline: from the disk, without a request.
	before := s.requests("")
	ro := remoteResolver(t, offline)
	res = selects(t, ro, "page.md", link, s.URL+"/a.txt", "second\n")
	if res != nil && (!res.Remote.FromCache || res.Remote.Stale != "" || len(target.Warnings(res)) != 0) {
		t.Errorf("offline: %+v, warnings %q", res.Remote, target.Warnings(res))
	}
	te := fails(t, ro, "page.md", s.URL+"/never.txt#line=1", target.ErrRemote, "remote")
	if te != nil && !strings.Contains(te.Error(), "not in the cache") {
		t.Errorf("error %q", te.Error())
	}
	if n := s.requests(""); n != before {
		t.Errorf("offline mode made %d requests", n-before)
	}

	// Online again: a conditional request, answered 304 from the cache.
	res = selects(t, remoteResolver(t, online), "page.md", link, s.URL+"/a.txt", "second\n")
	if res != nil && !res.Remote.FromCache {
		t.Errorf("not modified, but not from the cache: %+v", res.Remote)
	}
	// A change on the server is seen, and stored.
	mu.Lock()
	body = "changed\n"
	mu.Unlock()
	fails(t, remoteResolver(t, online), "page.md", link, rfc5147.ErrIntegrity, "integrity")
	selects(t, remoteResolver(t, offline), "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "changed\n")

	// The server fails: the cached copy stands in, with a warning.
	mu.Lock()
	status = 503
	mu.Unlock()
	res = selects(t, remoteResolver(t, online), "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "changed\n")
	if res != nil {
		ws := target.Warnings(res)
		if len(ws) != 1 || !strings.Contains(ws[0], "503 Service Unavailable; used the copy cached on") {
			t.Errorf("warnings %q", ws)
		}
	}
	// An answer about the entity (404) is not an outage: no stand-in.
	fails(t, remoteResolver(t, online), "page.md", s.URL+"/404#line=,1", target.ErrRemote, "remote")

	// The network is gone: the cache still serves.
	s.Close()
	res = selects(t, remoteResolver(t, online), "page.md", s.URL+"/b.txt#line=,1", s.URL+"/b.txt", "b\n")
	if res != nil && (res.Remote.Stale == "" || len(target.Warnings(res)) != 1) {
		t.Errorf("fallback without a warning: %+v", res.Remote)
	}
	selects(t, remoteResolver(t, offline), "page.md", s.URL+"/b.txt#line=,1", s.URL+"/b.txt", "b\n")
}

// A cache entry is used for its own URL only, and only when whole.
func TestRemoteCacheIntegrity(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/a.txt": serve("text/plain", "a\n"),
		"/b.txt": serve("text/plain", "b\n"),
	})
	cache := t.TempDir()
	online := target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: cache}
	offline := online
	offline.Offline = true
	r := remoteResolver(t, online)
	selects(t, r, "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "a\n")
	selects(t, r, "page.md", s.URL+"/b.txt#line=,1", s.URL+"/b.txt", "b\n")
	name := func(u string) string {
		for _, f := range mustGlob(t, filepath.Join(cache, "http", "*.json")) {
			data, _ := os.ReadFile(f)
			if strings.Contains(string(data), `"url": "`+u+`"`) {
				return strings.TrimSuffix(f, ".json")
			}
		}
		t.Fatalf("no cache entry for %s", u)
		return ""
	}
	a, b := name(s.URL+"/a.txt"), name(s.URL+"/b.txt")
	// b's files replaced by a's: the metadata names another URL.
	copyFile(t, a+".json", b+".json")
	copyFile(t, a+".body", b+".body")
	fails(t, remoteResolver(t, offline), "page.md", s.URL+"/b.txt#line=,1", target.ErrRemote, "remote")
	// a's body changed behind its metadata's back.
	if err := os.WriteFile(a+".body", []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fails(t, remoteResolver(t, offline), "page.md", s.URL+"/a.txt#line=,1", target.ErrRemote, "remote")
	// Online, both are fetched and stored again.
	r = remoteResolver(t, online)
	selects(t, r, "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "a\n")
	selects(t, r, "page.md", s.URL+"/b.txt#line=,1", s.URL+"/b.txt", "b\n")
	r = remoteResolver(t, offline)
	selects(t, r, "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "a\n")
	selects(t, r, "page.md", s.URL+"/b.txt#line=,1", s.URL+"/b.txt", "b\n")
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRemoteAllowHosts checks host patterns with a client that takes every
// connection to one test server, whatever host and port the URL names, so
// that no name is looked up and nothing else is contacted.
func TestRemoteAllowHosts(t *testing.T) {
	s := newRemoteServer(t, map[string]http.HandlerFunc{
		"/a.txt": func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "%s\n", r.Host) },
	})
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, s.host)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr}
	r := remoteResolver(t, target.RemoteOptions{Client: client, AllowHosts: []string{
		"Example.org", "*.wild.test", "ported.test:8080", "[2001:db8::1]", "192.0.2.1:81", "dot.test.",
	}})
	for link, allowed := range map[string]bool{
		"http://example.org/a.txt":           true,
		"http://EXAMPLE.ORG./a.txt":          true,
		"http://example.org:80/a.txt":        true,
		"http://example.org:8080/a.txt":      false, // no port: the default port only
		"https://example.org:80/a.txt":       false,
		"http://www.example.org/a.txt":       false,
		"http://example.org.evil/a.txt":      false,
		"http://a.wild.test/a.txt":           true,
		"http://a.b.wild.test/a.txt":         true,
		"http://wild.test/a.txt":             false, // a wildcard is for subdomains
		"http://xwild.test/a.txt":            false,
		"http://ported.test:8080/a.txt":      true,
		"http://ported.test/a.txt":           false,
		"http://[2001:db8::1]/a.txt":         true,
		"http://[2001:db8::1]:8080/a.txt":    false,
		"http://192.0.2.1:81/a.txt":          true,
		"http://192.0.2.1/a.txt":             false,
		"http://dot.test/a.txt":              true,
		"http://user:pw@example.org/a.txt":   true,
		"http://example.org@evil.test/a.txt": false,
	} {
		res, err := r.Resolve("page.md", link+"#line=,1")
		switch {
		case allowed && err != nil:
			t.Errorf("%s: %v, want it fetched", link, err)
		case allowed:
			u, _ := url.Parse(link)
			if got := strings.TrimSpace(string(res.Selection.Text)); !strings.EqualFold(got, u.Host) {
				t.Errorf("%s: the server saw host %q", link, got)
			}
		case !errors.Is(err, target.ErrNotOurs):
			t.Errorf("%s: %v, want ErrNotOurs", link, err)
		}
	}

	for _, bad := range []string{"*", "*.", "https://example.org", "example.org/x", "a*.example.org", "example.org:0", "example.org:http", "", "ex ample.org", "u@example.org"} {
		if _, err := target.New(target.Options{Remote: target.RemoteOptions{AllowHosts: []string{bad}}}); err == nil {
			t.Errorf("New accepted the allowed host %q", bad)
		}
	}
	if _, err := target.New(target.Options{Remote: target.RemoteOptions{AllowHosts: []string{"example.org"}, Offline: true}}); err == nil {
		t.Error("New accepted offline mode without a cache directory")
	}
	if _, err := target.New(target.Options{Remote: target.RemoteOptions{AllowHosts: []string{"example.org"}, Timeout: -1}}); err == nil {
		t.Error("New accepted a negative timeout")
	}
}

// A redirect from https to http is refused, even to an allowed host.
func TestRemoteNoDowngrade(t *testing.T) {
	plain := newRemoteServer(t, map[string]http.HandlerFunc{"/a.txt": serve("text/plain", "plain\n")})
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/a.txt", http.StatusFound)
	}))
	t.Cleanup(tls.Close)
	tlsHost := strings.TrimPrefix(tls.URL, "https://")
	r := remoteResolver(t, target.RemoteOptions{Client: tls.Client(), AllowHosts: []string{tlsHost, plain.host}})
	te := fails(t, r, "page.md", tls.URL+"/x#line=,1", target.ErrRemote, "remote")
	if te != nil && !strings.Contains(te.Error(), "not secure") {
		t.Errorf("error %q", te.Error())
	}
	if plain.requests("") != 0 {
		t.Error("the downgrade was followed")
	}
}
