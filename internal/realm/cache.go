package realm

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Caches are data textfrag wrote, never trusted: a cache directory may lie
// in the repository (a fork sets cacheDir, or commits one), so whatever is
// in it may be a forgery, a symbolic link out, or /dev/zero.
//
//	CacheKey()                       per-user secret, outside any repository
//	  └─ $TEXTFRAG_CACHE_KEY (hex), else os.UserCacheDir()/textfrag/cache-key
//	OpenCache(dir)
//	  └─ os.MkdirAll(dir), os.OpenRoot(dir): every read, write, rename and
//	     removal inside stays inside dir (a committed highlight -> /elsewhere
//	     fails, it is not followed)
//	Cache.Read(name, limit)          a regular file, bounded (ReadFile)
//	Cache.Write(name, data)          temporary file created O_EXCL, renamed
//	Cache.Sum(parts...)              HMAC-SHA256 with the key: an entry
//	                                 carries it, and is used only when it holds

// CacheKeyEnv names the environment variable that gives the cache key as
// hex (at least 32 bytes), for caches shared between machines (a CI cache
// restored on a fresh runner): without it each user has a key of their own.
const CacheKeyEnv = "TEXTFRAG_CACHE_KEY"

// cacheKeyFile is the key's file under os.UserCacheDir().
const cacheKeyFile = "textfrag/cache-key"

// keySize is the size of a cache key, and the least CacheKeyEnv may give.
const keySize = 32

// CacheKey returns the per-user key that authenticates cache entries:
// CacheKeyEnv when set, else the key in os.UserCacheDir()/textfrag/cache-key,
// made (32 random bytes, mode 0600) when there is none. Neither lies in a
// repository, so a cache entry a commit forges cannot carry a valid Sum.
// An error means no key: caches then keep nothing on disk.
func CacheKey() ([]byte, error) {
	if v, ok := os.LookupEnv(CacheKeyEnv); ok {
		k, err := hex.DecodeString(strings.TrimSpace(v))
		if err != nil || len(k) < keySize {
			return nil, fmt.Errorf("$%s: want at least %d bytes written in hex (openssl rand -hex %d)", CacheKeyEnv, keySize, keySize)
		}
		return k, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("no user cache directory for the cache key (%v); set $%s", err, CacheKeyEnv)
	}
	return keyIn(filepath.Join(dir, filepath.FromSlash(cacheKeyFile)))
}

// keyIn reads the key file name, making it when it does not exist.
func keyIn(name string) ([]byte, error) {
	for range 2 {
		k, err := ReadFile(nil, name, 1024)
		if err == nil {
			if len(k) < keySize {
				return nil, fmt.Errorf("%s: the cache key is shorter than %d bytes: remove the file, and a new key is made", name, keySize)
			}
			return k, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
			return nil, err
		}
		k = make([]byte, keySize)
		rand.Read(k)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue // another process made it first: read theirs
		}
		if err != nil {
			return nil, err
		}
		_, werr := f.Write(k)
		if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
			os.Remove(name)
			return nil, err
		}
		return k, nil
	}
	return nil, fmt.Errorf("%s: cannot read or make the cache key", name)
}

// A Cache is a directory of cache entries, opened as an os.Root: nothing
// done through it reads, writes or removes a file outside the directory,
// whatever symbolic links the directory holds. A Cache is safe for
// concurrent use.
type Cache struct {
	root *os.Root
	key  []byte
	dir  string
}

// OpenCache makes the directory dir (and its parents) when missing, and
// opens it with key (CacheKey) for Sum. dir is opened inside its parent:
// when dir itself is a symbolic link (a committed highlight -> /elsewhere),
// it must lead to a directory inside the parent, or OpenCache fails.
func OpenCache(dir string, key []byte) (*Cache, error) {
	if len(key) < keySize {
		return nil, errors.New("cache: no key")
	}
	dir = filepath.Clean(dir)
	parentDir, base := filepath.Split(dir)
	if base == "" || base == "." || base == ".." {
		return nil, fmt.Errorf("cache: %s: not a directory name", dir)
	}
	if parentDir == "" {
		parentDir = "."
	}
	if err := os.MkdirAll(parentDir, 0o755); err != nil {
		return nil, err
	}
	parent, err := os.OpenRoot(parentDir)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	if err := parent.Mkdir(base, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	root, err := parent.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	return &Cache{root: root, key: key, dir: dir}, nil
}

// Dir returns the directory, as given to OpenCache.
func (c *Cache) Dir() string { return c.dir }

// Root returns the directory's os.Root, for listing it.
func (c *Cache) Root() *os.Root { return c.root }

// Sum returns the HMAC-SHA256, under the cache's key, of parts, each
// length-prefixed so that no two lists of parts have the same input.
func (c *Cache) Sum(parts ...[]byte) [sha256.Size]byte {
	m := hmac.New(sha256.New, c.key)
	var n [binary.MaxVarintLen64]byte
	for _, p := range parts {
		m.Write(n[:binary.PutUvarint(n[:], uint64(len(p)))])
		m.Write(p)
	}
	var out [sha256.Size]byte
	m.Sum(out[:0])
	return out
}

// Verify reports whether sum is Sum(parts...), in constant time.
func (c *Cache) Verify(sum []byte, parts ...[]byte) bool {
	want := c.Sum(parts...)
	return hmac.Equal(sum, want[:])
}

// Read reads the entry at slash path name: a regular file inside the
// directory, of at most limit bytes (ReadFile).
func (c *Cache) Read(name string, limit int64) ([]byte, error) {
	return ReadFile(c.root, name, limit)
}

// Write replaces the entry at slash path name with data: written to a new
// temporary file beside it (created exclusively, so never through a link
// that is already there) and renamed over it, so that readers never see
// half an entry. Missing directories are made.
func (c *Cache) Write(name string, data []byte) error {
	dir := path.Dir(name)
	if err := c.root.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := path.Join(dir, ".tmp-"+hex.EncodeToString(rnd[:]))
	f, err := c.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr := bytes.NewReader(data).WriteTo(f)
	if err := errors.Join(werr, f.Close()); err != nil {
		c.root.Remove(tmp)
		return err
	}
	if err := c.root.Rename(tmp, name); err != nil {
		c.root.Remove(tmp)
		return err
	}
	return nil
}

// Close releases the directory.
func (c *Cache) Close() error { return c.root.Close() }
