package target_test

// The remote cache may lie in the repository (cacheDir in textfrag.toml),
// where a pull request commits what it likes, and offline = true reads
// nothing else: a forged entry, a cache directory linked out, an entry
// linked to /dev/zero (issue 23).

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	realmpkg "github.com/textfrag/textfrag/internal/realm"
)

// remoteKey gives the test's caches a key of their own.
func remoteKey(t *testing.T, b byte) {
	t.Setenv(realmpkg.CacheKeyEnv, strings.Repeat(hex.EncodeToString([]byte{b}), 32))
}

// forgeRemote writes a cache entry for u holding body, with every check a
// forger can compute: the right URL, size and SHA-256, and a MAC made up.
func forgeRemote(t *testing.T, cache, u, body string) {
	t.Helper()
	urlSum := sha256.Sum256([]byte(u))
	name := filepath.Join(cache, "http", hex.EncodeToString(urlSum[:]))
	bodySum := sha256.Sum256([]byte(body))
	meta, _ := json.Marshal(map[string]any{
		"url": u, "content_type": "text/plain", "fetched_at": time.Now().UTC(),
		"size": len(body), "sha256": hex.EncodeToString(bodySum[:]),
		"mac": strings.Repeat("00", 32),
	})
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.WriteFile(name+".json", meta, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name+".body", []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRemoteCacheForgeryIgnoredOffline(t *testing.T) {
	remoteKey(t, 7)
	cache := t.TempDir()
	u := "https://docs.example.org/a.txt"
	forged := "<script>alert(1)</script>\n"
	forgeRemote(t, cache, u, forged)
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{"docs.example.org"}, CacheDir: cache, Offline: true})
	// The link's md5 is the forgery's, as the same pull request writes both.
	te := fails(t, r, "page.md", u+"#line=,1;md5="+md5hex(forged), target.ErrRemote, "remote")
	if te != nil && !strings.Contains(te.Error(), "not in the cache") {
		t.Errorf("error %q", te.Error())
	}

	// An entry this user's textfrag wrote is used offline: the check
	// holds for real entries.
	s := newRemoteServer(t, map[string]http.HandlerFunc{"/a.txt": serve("text/plain", twoLines)})
	own := t.TempDir()
	selects(t, remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: own}), "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "first\n")
	selects(t, remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: own, Offline: true}), "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "first\n")
	// Under another key (another user, a fork's own textfrag) it is not.
	remoteKey(t, 8)
	fails(t, remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: own, Offline: true}), "page.md", s.URL+"/a.txt#line=,1", target.ErrRemote, "remote")
}

// A forged entry never stands in for a server that is down, either.
func TestRemoteCacheForgeryNotAStandIn(t *testing.T) {
	remoteKey(t, 9)
	s := newRemoteServer(t, map[string]http.HandlerFunc{"/a.txt": func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}})
	cache := t.TempDir()
	forgeRemote(t, cache, s.URL+"/a.txt", "forged\n")
	fails(t, remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: cache}), "page.md", s.URL+"/a.txt#line=,1", target.ErrRemote, "remote")
}

func TestRemoteCacheLinksNotFollowed(t *testing.T) {
	remoteKey(t, 10)
	s := newRemoteServer(t, map[string]http.HandlerFunc{"/a.txt": serve("text/plain", twoLines)})
	cache, elsewhere := t.TempDir(), t.TempDir()
	// The committed cache directory's http/ is a link out of it.
	if err := os.Symlink(elsewhere, filepath.Join(cache, "http")); err != nil {
		t.Fatal(err)
	}
	r := remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: cache})
	res := selects(t, r, "page.md", s.URL+"/a.txt#line=,1", s.URL+"/a.txt", "first\n")
	if res != nil && res.Remote.CacheError == "" {
		t.Error("storing through a link out should fail, and say so")
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("the cache wrote %d files outside its directory", len(entries))
	}

	// An entry whose body is a link to /dev/zero, with metadata that
	// promises a large body: refused at once, not read without end.
	cache2 := t.TempDir()
	u := s.URL + "/a.txt"
	urlSum := sha256.Sum256([]byte(u))
	name := filepath.Join(cache2, "http", hex.EncodeToString(urlSum[:]))
	forgeRemote(t, cache2, u, "x")
	os.Remove(name + ".body")
	os.Symlink("/dev/zero", name+".body")
	os.Remove(name + ".json")
	os.Symlink("/dev/zero", name+".json")
	done := make(chan struct{})
	go func() {
		defer close(done)
		fails(t, remoteResolver(t, target.RemoteOptions{AllowHosts: []string{s.host}, CacheDir: cache2, Offline: true, MaxBytes: 1 << 40}),
			"page.md", u+"#line=,1", target.ErrRemote, "remote")
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second): // a hang guard, not a timing
		t.Fatal("reading a cache entry linked to /dev/zero did not return")
	}
}
