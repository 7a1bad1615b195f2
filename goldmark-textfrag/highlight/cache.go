package highlight

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"
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
// file, written to a temporary name and renamed, and checked against its
// own SHA-256 when read, so that a torn or damaged file is a miss, never
// wrong markup. As in Go's build cache, a file read is touched at most once
// an hour, and at most once a day files untouched for TrimAfter are
// removed. Errors are misses. Blocks are keyed by chroma's version, not by
// lexers a program registers with chroma itself: such a program should not
// share its directory with others.
func DirCache(dir string) Cache {
	return &dirCache{dir: dir}
}

// TrimAfter is how long a DirCache keeps a block nobody read.
const TrimAfter = 5 * 24 * time.Hour

type dirCache struct {
	dir      string
	trimOnce sync.Once
}

func (c *dirCache) path(k Key) string {
	name := hex.EncodeToString(k[:])
	return filepath.Join(c.dir, name[:2], name)
}

// Get implements Cache.
func (c *dirCache) Get(k Key) ([]byte, bool) {
	c.trimOnce.Do(c.trim)
	name := c.path(k)
	raw, err := os.ReadFile(name)
	if err != nil || len(raw) < sha256.Size {
		return nil, false
	}
	sum, html := raw[:sha256.Size], raw[sha256.Size:]
	if got := sha256.Sum256(html); !bytes.Equal(sum, got[:]) {
		return nil, false
	}
	if info, err := os.Stat(name); err == nil && time.Since(info.ModTime()) > time.Hour {
		now := time.Now()
		os.Chtimes(name, now, now)
	}
	return html, true
}

// Put implements Cache.
func (c *dirCache) Put(k Key, html []byte) {
	name := c.path(k)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return
	}
	sum := sha256.Sum256(html)
	_, err1 := tmp.Write(sum[:])
	_, err2 := tmp.Write(html)
	if err := errors.Join(err1, err2, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), name) != nil {
		os.Remove(tmp.Name())
	}
}

// trim removes blocks untouched for TrimAfter, and temporary files of
// writers that died, at most once a day (the time of the last trim is the
// modification time of dir/trim.txt).
func (c *dirCache) trim() {
	marker := filepath.Join(c.dir, "trim.txt")
	if info, err := os.Stat(marker); err == nil && time.Since(info.ModTime()) < 24*time.Hour {
		return
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil || os.WriteFile(marker, nil, 0o644) != nil {
		return
	}
	cutoff := time.Now().Add(-TrimAfter)
	shards, _ := os.ReadDir(c.dir)
	for _, shard := range shards {
		if !shard.IsDir() || len(shard.Name()) != 2 {
			continue
		}
		dir := filepath.Join(c.dir, shard.Name())
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			info, err := e.Info()
			if err == nil && info.Mode().IsRegular() && info.ModTime().Before(cutoff) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
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
