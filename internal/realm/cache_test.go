package realm

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The key is made once per user, outside any repository, readable by the
// user alone, and the same on every later call.
func TestCacheKeyMadeOncePerUser(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("HOME", home)
	t.Setenv(CacheKeyEnv, "") // restored after the test
	os.Unsetenv(CacheKeyEnv)
	k1, err := CacheKey()
	if err != nil {
		t.Fatal(err)
	}
	k2, err := CacheKey()
	if err != nil || !bytes.Equal(k1, k2) || len(k1) != keySize {
		t.Fatalf("keys %x, %x, %v", k1, k2, err)
	}
	dir, _ := os.UserCacheDir()
	info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(cacheKeyFile)))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", info, err)
	}
	// A key file that is a link to a device is refused, not read.
	os.Remove(filepath.Join(dir, filepath.FromSlash(cacheKeyFile)))
	os.Symlink("/dev/zero", filepath.Join(dir, filepath.FromSlash(cacheKeyFile)))
	if _, err := CacheKey(); err == nil {
		t.Error("a key file linked to /dev/zero was used")
	}
}

func TestCacheKeyFromEnvironment(t *testing.T) {
	t.Setenv(CacheKeyEnv, strings.Repeat("ab", 32))
	k, err := CacheKey()
	if err != nil || len(k) != 32 || k[0] != 0xab {
		t.Fatalf("%x %v", k, err)
	}
	for _, bad := range []string{"", "abcd", strings.Repeat("zz", 32)} {
		t.Setenv(CacheKeyEnv, bad)
		if _, err := CacheKey(); err == nil || !strings.Contains(err.Error(), CacheKeyEnv) {
			t.Errorf("%s=%q: %v, want an error naming it", CacheKeyEnv, bad, err)
		}
	}
}

func TestCacheSumBindsKeyAndParts(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenCache(filepath.Join(dir, "a"), bytes.Repeat([]byte{1}, 32))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := OpenCache(filepath.Join(dir, "b"), bytes.Repeat([]byte{2}, 32))
	sum := a.Sum([]byte("ab"), []byte("c"))
	switch {
	case !a.Verify(sum[:], []byte("ab"), []byte("c")):
		t.Error("own sum refused")
	case a.Verify(sum[:], []byte("a"), []byte("bc")):
		t.Error("parts split elsewhere verify: the parts must be length-prefixed")
	case b.Verify(sum[:], []byte("ab"), []byte("c")):
		t.Error("another key verifies")
	}
	if _, err := OpenCache(filepath.Join(dir, "c"), nil); err == nil {
		t.Error("a cache without a key opened")
	}
}

// The directory itself, and every directory in it, is confined: a cache
// directory that is a link out of its parent is refused, and writes never
// go through a link out.
func TestCacheConfined(t *testing.T) {
	key := bytes.Repeat([]byte{3}, 32)
	dir, elsewhere := t.TempDir(), t.TempDir()
	os.Symlink(elsewhere, filepath.Join(dir, "linked"))
	if _, err := OpenCache(filepath.Join(dir, "linked"), key); err == nil {
		t.Error("a cache directory that is a link out of its parent opened")
	}
	c, err := OpenCache(filepath.Join(dir, "cache"), key)
	if err != nil {
		t.Fatal(err)
	}
	os.Symlink(elsewhere, filepath.Join(dir, "cache", "sub"))
	if err := c.Write("sub/x", []byte("x")); err == nil {
		t.Error("a write through a link out succeeded")
	}
	os.Symlink(filepath.Join(elsewhere, "f"), filepath.Join(dir, "cache", "f"))
	os.WriteFile(filepath.Join(elsewhere, "f"), []byte("outside"), 0o644)
	if b, err := c.Read("f", 100); err == nil {
		t.Errorf("read through a link out: %q", b)
	}
	// Write replaces a link in its place rather than writing through it.
	if err := c.Write("f", []byte("inside")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(elsewhere, "f")); string(b) != "outside" {
		t.Errorf("the file outside became %q", b)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 1 {
		t.Errorf("%d files outside, want 1", len(entries))
	}
	if b, err := c.Read("f", 100); err != nil || string(b) != "inside" {
		t.Errorf("read back %q %v", b, err)
	}
}
