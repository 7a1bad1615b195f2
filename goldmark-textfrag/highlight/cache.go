package highlight

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/textfrag/textfrag/internal/realm"
)

// Cache keeps written blocks, so that a block whose code and options were
// written before is copied instead of lexed again (and, for LexerCached,
// which lexer a name stands for). Lexing is most of the
// cost of a highlighted build (chroma's lexers run at about 0.4 MB/s), and
// between two builds of a site almost every quoted range is unchanged.
//
// Get and Put are called from many goroutines at once. A Cache may forget
// anything; Put has no error because a block not stored is only slower next
// time.
type Cache interface {
	Get(key Key) (html []byte, ok bool)
	Put(key Key, html []byte)
}

// Key names a written block: the SHA-256 of everything the markup depends
// on (the code, the options, the chroma version and this package's markup
// version).
type Key [sha256.Size]byte

// markupVersion changes whenever Write's markup changes for the same input,
// so that no cache hands out blocks written the old way.
const markupVersion = "textfrag-highlight/2"

// chromaVersion names the chroma this binary was built with: its module
// version from the build info, or, where the build info does not say (test
// binaries, a replaced or development chroma), the SHA-256 of the
// executable, which changes with any change to the code. It is "" when
// neither can be had, and then keyFor makes no key and nothing is cached.
var chromaVersion = sync.OnceValue(func() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/alecthomas/chroma/v2" && dep.Replace == nil && dep.Version != "" && dep.Version != "(devel)" {
				return dep.Version
			}
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "executable " + hex.EncodeToString(h.Sum(nil))
})

// keyFor returns the key of one block, and false when blocks cannot be
// cached (chroma's version is unknown).
func keyFor(code string, o Options) (Key, bool) {
	v := chromaVersion()
	if v == "" {
		return Key{}, false
	}
	h := sha256.New()
	field := func(s string) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		io.WriteString(h, s)
	}
	num := func(i int) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutVarint(n[:], int64(i))])
	}
	field(markupVersion)
	field(v)
	// The budget decides whether code is highlighted at all.
	num(MaxLineBytes)
	num(MaxBlockBytes)
	field(o.Lang)
	// FirstLine counts without LineNumbers too: it places the
	// highlighted lines.
	num(max(o.FirstLine, 1))
	if o.LineNumbers {
		num(1)
	} else {
		num(0)
	}
	num(len(o.Highlighted))
	for _, r := range o.Highlighted {
		num(r[0])
		num(r[1])
	}
	num(len(o.Omit))
	for _, n := range o.Omit {
		num(n)
	}
	field(code)
	var k Key
	h.Sum(k[:0])
	return k, true
}

// lexerKey returns the key under which LexerCached keeps the name of the
// lexer for name (a field no block key has: blocks start with their markup
// version).
func lexerKey(name string) (Key, bool) {
	v := chromaVersion()
	if v == "" {
		return Key{}, false
	}
	return sha256.Sum256([]byte(markupVersion + "\x00lexer\x00" + v + "\x00" + name)), true
}

// DirCache returns a Cache kept in files under dir (created when first
// needed), so that it lasts from one build to the next. Each block is one
// file, written to a temporary name and renamed. A cache directory is data
// textfrag wrote, never trusted (it may lie in a repository that a pull
// request fills): every file carries an HMAC-SHA256 of its block key and
// markup under the per-user key (realm.CacheKey, kept outside any
// repository), and one whose HMAC does not hold is a miss, so a committed
// forgery, a torn file or a file of another user's is never markup on a
// page. Files are read and written through an os.Root of dir: a symbolic
// link in it that leads out is neither followed nor written through, and a
// file that is not regular (a link to /dev/zero) or larger than
// MaxEntryBytes is a miss, never read to its end. As in Go's build cache, a
// file read is touched at most once an hour, and at most once a day files
// untouched for TrimAfter are removed (only block files and temporary
// files). Errors are misses; without a key (no user cache directory and no
// $TEXTFRAG_CACHE_KEY) nothing is kept. Blocks are keyed by chroma's
// version, not by lexers a program registers with chroma itself: such a
// program should not share its directory with others.
func DirCache(dir string) Cache {
	return &dirCache{dir: dir}
}

// TrimAfter is how long a DirCache keeps a block nobody read.
const TrimAfter = 5 * 24 * time.Hour

// MaxEntryBytes is the largest file a DirCache reads (32 MiB): blocks are
// at most MaxBlockBytes of code, and their markup a few times that.
const MaxEntryBytes = 32 << 20

// entryDomain separates the HMACs of highlight blocks from those of other
// caches under the same key.
const entryDomain = "textfrag-highlight-entry/1"

type dirCache struct {
	dir      string
	openOnce sync.Once
	c        *realm.Cache // nil when the directory or the key is unusable
	trimOnce sync.Once
}

// cache opens the directory once.
func (c *dirCache) cache() *realm.Cache {
	c.openOnce.Do(func() {
		key, err := realm.CacheKey()
		if err != nil {
			return
		}
		c.c, _ = realm.OpenCache(c.dir, key)
	})
	return c.c
}

// name returns the slash path of k's file in the directory.
func (c *dirCache) name(k Key) string {
	name := hex.EncodeToString(k[:])
	return name[:2] + "/" + name
}

// path returns the OS path of k's file.
func (c *dirCache) path(k Key) string {
	return filepath.Join(c.dir, filepath.FromSlash(c.name(k)))
}

// Get implements Cache.
func (c *dirCache) Get(k Key) ([]byte, bool) {
	rc := c.cache()
	if rc == nil {
		return nil, false
	}
	c.trimOnce.Do(func() { c.trim(rc) })
	name := c.name(k)
	raw, err := rc.Read(name, MaxEntryBytes+sha256.Size)
	if err != nil || len(raw) < sha256.Size {
		return nil, false
	}
	sum, html := raw[:sha256.Size], raw[sha256.Size:]
	if !rc.Verify(sum, []byte(entryDomain), k[:], html) {
		return nil, false
	}
	if info, err := rc.Root().Stat(name); err == nil && time.Since(info.ModTime()) > time.Hour {
		now := time.Now()
		rc.Root().Chtimes(name, now, now)
	}
	return html, true
}

// Put implements Cache.
func (c *dirCache) Put(k Key, html []byte) {
	rc := c.cache()
	if rc == nil || len(html) > MaxEntryBytes {
		return
	}
	sum := rc.Sum([]byte(entryDomain), k[:], html)
	rc.Write(c.name(k), append(sum[:], html...))
}

// trim removes blocks untouched for TrimAfter, and temporary files of
// writers that died, at most once a day (the time of the last trim is the
// modification time of dir/trim.txt). It removes only regular files whose
// names a DirCache gives (64 hex digits, or .tmp- and hex) in directories
// of two hex digits: a cache directory set to a directory of the
// repository loses nothing else.
func (c *dirCache) trim(rc *realm.Cache) {
	root := rc.Root()
	const marker = "trim.txt"
	if info, err := root.Lstat(marker); err == nil && time.Since(info.ModTime()) < 24*time.Hour {
		return
	}
	if err := rc.Write(marker, nil); err != nil {
		return
	}
	cutoff := time.Now().Add(-TrimAfter)
	fsys := root.FS()
	shards, _ := fs.ReadDir(fsys, ".")
	for _, shard := range shards {
		if !shard.IsDir() || len(shard.Name()) != 2 || !isHex(shard.Name()) {
			continue
		}
		entries, _ := fs.ReadDir(fsys, shard.Name())
		for _, e := range entries {
			n := e.Name()
			if !(len(n) == 2*sha256.Size && isHex(n) && strings.HasPrefix(n, shard.Name())) && !(strings.HasPrefix(n, ".tmp-") && isHex(n[len(".tmp-"):])) {
				continue
			}
			info, err := e.Info()
			if err == nil && info.Mode().IsRegular() && info.ModTime().Before(cutoff) {
				root.Remove(shard.Name() + "/" + n)
			}
		}
	}
}

// isHex reports whether s is lower-case hex digits.
func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// MemoryCache returns a Cache that keeps every block in memory for the
// life of the process, for a program that renders the same pages again and
// again (a server, a watch loop) without a cache directory.
func MemoryCache() Cache { return &memoryCache{} }

type memoryCache struct{ m sync.Map } // Key → []byte

// Get implements Cache.
func (c *memoryCache) Get(k Key) ([]byte, bool) {
	v, ok := c.m.Load(k)
	if !ok {
		return nil, false
	}
	return v.([]byte), true
}

// Put implements Cache.
func (c *memoryCache) Put(k Key, html []byte) { c.m.Store(k, bytes.Clone(html)) }
