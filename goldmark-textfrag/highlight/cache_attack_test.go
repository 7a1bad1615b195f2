package highlight

// A highlight cache directory may lie in the repository (cacheDir in
// textfrag.toml), so a pull request can commit files into it: forged
// blocks, links out of it, links to devices. Issue 23.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/textfrag/textfrag/internal/realm"
)

// withKey gives the test's caches a key of their own.
func withKey(t *testing.T, b byte) {
	t.Setenv(realm.CacheKeyEnv, strings.Repeat(hex.EncodeToString([]byte{b}), 32))
}

// forge writes what a forger can: a file in the entry's place holding
// html, with the checks a forger can compute (the SHA-256 of the markup,
// as caches once trusted, and the HMAC under a key of the forger's own).
func forge(t *testing.T, dir string, k Key, html string) {
	t.Helper()
	name := DirCache(dir).(*dirCache).path(k)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(html))
	if err := os.WriteFile(name, append(sum[:], html...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDirCacheIgnoresCommittedForgery(t *testing.T) {
	withKey(t, 1)
	dir := t.TempDir()
	code := "x := 1\n"
	o := Options{Lang: "go"}
	k, ok := keyFor(code, o)
	if !ok {
		t.Skip("no chroma version: nothing is cached")
	}
	forge(t, dir, k, `<pre><script>alert(1)</script>not the file's text</pre>`)
	var want, got bytes.Buffer
	if err := Write(&want, code, o); err != nil {
		t.Fatal(err)
	}
	if err := WriteCached(&got, code, o, DirCache(dir)); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() || strings.Contains(got.String(), "<script>") {
		t.Fatalf("a forged entry reached the page:\n%s\nwant\n%s", got.String(), want.String())
	}

	// An entry written under another key (another user's, or a forger's
	// own textfrag) is a miss too: the key, not the content, is the check.
	withKey(t, 2)
	other := t.TempDir()
	DirCache(other).Put(k, []byte("<b>theirs</b>"))
	withKey(t, 1)
	if html, ok := DirCache(other).Get(k); ok {
		t.Fatalf("an entry made under another key was used: %q", html)
	}
	// And one written under this key is used, so the check is not a
	// cache that never hits.
	DirCache(other).Put(k, []byte("<b>mine</b>"))
	if html, ok := DirCache(other).Get(k); !ok || string(html) != "<b>mine</b>" {
		t.Fatalf("own entry: %q, %v", html, ok)
	}
	// An authentic entry moved to another block's name is a miss: the
	// HMAC covers the block key.
	var k2 Key
	k2[0] = k[0] // same shard directory
	k2[1] = k[1] ^ 0xff
	c := DirCache(other).(*dirCache)
	raw, err := os.ReadFile(c.path(k))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(c.path(k2), raw, 0o644)
	if html, ok := DirCache(other).Get(k2); ok {
		t.Fatalf("an entry renamed to another key was used: %q", html)
	}
}

func TestDirCacheLexerNameForgeryIgnored(t *testing.T) {
	withKey(t, 3)
	dir := t.TempDir()
	k, ok := lexerKey("go")
	if !ok {
		t.Skip("no chroma version")
	}
	forge(t, dir, k, "plaintext")
	if _, hit := DirCache(dir).Get(k); hit {
		t.Fatal("a forged lexer name was used")
	}
}

func TestDirCacheDoesNotFollowLinksOut(t *testing.T) {
	withKey(t, 4)
	repo := t.TempDir()
	elsewhere := t.TempDir()
	dir := filepath.Join(repo, "cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Every shard directory is a link out, and the trim marker too.
	for i := range 256 {
		shard := hex.EncodeToString([]byte{byte(i)})
		if err := os.Symlink(elsewhere, filepath.Join(dir, shard)); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(filepath.Join(elsewhere, "trim.txt"), filepath.Join(dir, "trim.txt"))
	// What lies there looks like old blocks, which a trim would remove.
	victim := filepath.Join(elsewhere, strings.Repeat("ab", 32))
	os.WriteFile(victim, []byte("keep me"), 0o644)
	stale := time.Now().Add(-TrimAfter - time.Hour)
	os.Chtimes(victim, stale, stale)

	c := DirCache(dir)
	k, _ := keyFor("y := 2\n", Options{Lang: "go"})
	c.Put(k, []byte("<b>block</b>"))
	c.Get(k)
	entries, err := os.ReadDir(elsewhere)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != filepath.Base(victim) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("the cache wrote or removed outside its directory: %v", names)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "keep me" {
		t.Fatalf("a file outside the cache was changed: %q %v", b, err)
	}
}

func TestDirCacheDoesNotReadDevicesOrFIFOs(t *testing.T) {
	withKey(t, 5)
	dir := t.TempDir()
	k1, _ := keyFor("a\n", Options{})
	k2, _ := keyFor("b\n", Options{})
	c := DirCache(dir).(*dirCache)
	os.MkdirAll(filepath.Dir(c.path(k1)), 0o755)
	os.MkdirAll(filepath.Dir(c.path(k2)), 0o755)
	if err := os.Symlink("/dev/zero", c.path(k1)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(c.path(k2), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, k := range []Key{k1, k2} {
			if _, ok := c.Get(k); ok {
				t.Errorf("%x: a device or FIFO entry was used", k[:4])
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second): // a hang guard, not a timing
		t.Fatal("reading a /dev/zero or FIFO entry did not return")
	}
}

func TestDirCacheWithoutKeyKeepsNothing(t *testing.T) {
	t.Setenv(realm.CacheKeyEnv, "not hex")
	dir := t.TempDir()
	var k Key
	DirCache(dir).Put(k, []byte("x"))
	if _, ok := DirCache(dir).Get(k); ok {
		t.Fatal("a cache without a key must miss")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a cache without a key wrote %d files", len(entries))
	}
}
