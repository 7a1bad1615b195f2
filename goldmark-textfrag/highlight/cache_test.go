package highlight

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingCache records what Write asks of a cache.
type countingCache struct {
	Cache
	mu         sync.Mutex
	gets, hits int
	puts       int
}

func (c *countingCache) Get(k Key) ([]byte, bool) {
	html, ok := c.Cache.Get(k)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	if ok {
		c.hits++
	}
	return html, ok
}

func (c *countingCache) Put(k Key, html []byte) {
	c.mu.Lock()
	c.puts++
	c.mu.Unlock()
	c.Cache.Put(k, html)
}

func TestKeyedByEverythingTheMarkupDependsOn(t *testing.T) {
	if chromaVersion() == "" {
		t.Fatal("no version for keys: neither build info nor the executable")
	}
	base := Options{Lang: "go", LineNumbers: true, FirstLine: 3, Highlighted: [][2]int{{4, 5}}}
	variants := map[string]struct {
		code string
		o    Options
	}{
		"base":              {"x := 1\n", base},
		"code":              {"x := 2\n", base},
		"lang":              {"x := 1\n", Options{Lang: "python", LineNumbers: true, FirstLine: 3, Highlighted: [][2]int{{4, 5}}}},
		"first line":        {"x := 1\n", Options{Lang: "go", LineNumbers: true, FirstLine: 4, Highlighted: [][2]int{{4, 5}}}},
		"no numbers":        {"x := 1\n", Options{Lang: "go", Highlighted: [][2]int{{4, 5}}}},
		"highlighted lines": {"x := 1\n", Options{Lang: "go", LineNumbers: true, FirstLine: 3, Highlighted: [][2]int{{4, 6}}}},
		"no highlighted":    {"x := 1\n", Options{Lang: "go", LineNumbers: true, FirstLine: 3}},
		// Without numbers, the first line's number still places the
		// highlighted lines.
		"no numbers, first line 4": {"x := 1\n", Options{Lang: "go", FirstLine: 4, Highlighted: [][2]int{{4, 5}}}},
		// Length-prefixed fields: moving a byte from one field to the next is another key.
		"shifted": {"o\nx := 1\n", Options{Lang: "g", LineNumbers: true, FirstLine: 3, Highlighted: [][2]int{{4, 5}}}},
	}
	seen := map[Key]string{}
	for name, v := range variants {
		k, ok := keyFor(v.code, v.o)
		if !ok {
			t.Fatalf("%s: no key", name)
		}
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s share a key", name, other)
		}
		seen[k] = name
	}
	// FirstLine 0 means 1, so it is the same block.
	k0, _ := keyFor("a\n", Options{LineNumbers: true})
	k1, _ := keyFor("a\n", Options{LineNumbers: true, FirstLine: 1})
	if k0 != k1 {
		t.Error("FirstLine 0 and 1 write the same block and should share a key")
	}
}

func TestWriteCachedWritesWhatWriteWrites(t *testing.T) {
	for name, newCache := range map[string]func(t *testing.T) Cache{
		"memory": func(*testing.T) Cache { return MemoryCache() },
		"dir":    func(t *testing.T) Cache { return DirCache(t.TempDir()) },
	} {
		t.Run(name, func(t *testing.T) {
			cache := &countingCache{Cache: newCache(t)}
			code := "func f() {\n\treturn 1 < 2\n}\n"
			o := Options{Lang: "go", LineNumbers: true, FirstLine: 10, Highlighted: [][2]int{{11, 11}}}
			var want bytes.Buffer
			if err := Write(&want, code, o); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				var got bytes.Buffer
				if err := WriteCached(&got, code, o, cache); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Fatalf("write %d:\n%s\nwant\n%s", i, got.String(), want.String())
				}
			}
			if cache.gets != 3 || cache.hits != 2 || cache.puts != 1 {
				t.Errorf("gets %d, hits %d, puts %d; want 3, 2, 1", cache.gets, cache.hits, cache.puts)
			}
		})
	}
}

func TestDirCacheLastsAndRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	k, _ := keyFor("a\n", Options{})
	DirCache(dir).Put(k, []byte("<b>markup</b>"))
	if html, ok := DirCache(dir).Get(k); !ok || string(html) != "<b>markup</b>" {
		t.Fatalf("a new DirCache on the same directory: %q, %v", html, ok)
	}
	name := DirCache(dir).(*dirCache).path(k)
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for what, damaged := range map[string][]byte{
		"empty":             {},
		"truncated":         raw[:len(raw)-1],
		"shorter than hash": raw[:10],
		"a byte changed":    bytes.Replace(raw, []byte("markup"), []byte("markuq"), 1),
	} {
		if err := os.WriteFile(name, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		if html, ok := DirCache(dir).Get(k); ok {
			t.Errorf("%s file: got %q, want a miss", what, html)
		}
	}
	var other Key
	if _, ok := DirCache(dir).Get(other); ok {
		t.Error("a key never put must miss")
	}
	// An unusable directory is a miss and a silent Put, never an error.
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	c := DirCache(filepath.Join(blocker, "sub"))
	c.Put(k, []byte("x"))
	if _, ok := c.Get(k); ok {
		t.Error("a cache under a file cannot hold anything")
	}
}

func TestDirCacheTrimsOldBlocksOnceADay(t *testing.T) {
	dir := t.TempDir()
	var old, fresh Key
	old[0], fresh[0] = 1, 2
	c := DirCache(dir).(*dirCache)
	c.Put(old, []byte("old"))
	c.Put(fresh, []byte("fresh"))
	stale := time.Now().Add(-TrimAfter - time.Hour)
	if err := os.Chtimes(c.path(old), stale, stale); err != nil {
		t.Fatal(err)
	}
	deadTemp := filepath.Join(filepath.Dir(c.path(old)), ".tmp-123")
	os.WriteFile(deadTemp, []byte("half"), 0o644)
	os.Chtimes(deadTemp, stale, stale)

	// A trim ran less than a day ago: nothing is removed.
	os.WriteFile(filepath.Join(dir, "trim.txt"), nil, 0o644)
	if _, ok := DirCache(dir).Get(fresh); !ok {
		t.Fatal("fresh block missing")
	}
	if _, err := os.Stat(c.path(old)); err != nil {
		t.Fatal("trimmed although the last trim was recent")
	}

	// A day later the next cache trims, keeping what was read recently.
	dayAgo := time.Now().Add(-25 * time.Hour)
	os.Chtimes(filepath.Join(dir, "trim.txt"), dayAgo, dayAgo)
	if _, ok := DirCache(dir).Get(fresh); !ok {
		t.Fatal("fresh block trimmed")
	}
	for _, gone := range []string{c.path(old), deadTemp} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s: want removed, got %v", filepath.Base(gone), err)
		}
	}
}

func TestDirCacheTouchesWhatItReads(t *testing.T) {
	dir := t.TempDir()
	var k Key
	c := DirCache(dir).(*dirCache)
	c.Put(k, []byte("x"))
	twoHours := time.Now().Add(-2 * time.Hour)
	os.Chtimes(c.path(k), twoHours, twoHours)
	if _, ok := c.Get(k); !ok {
		t.Fatal("miss")
	}
	info, err := os.Stat(c.path(k))
	if err != nil || time.Since(info.ModTime()) > time.Minute {
		t.Errorf("a block read should be touched so that trimming keeps it: %v %v", info.ModTime(), err)
	}
	if !strings.HasPrefix(filepath.Base(c.path(k)), "00") {
		t.Error("files are named by the key in hex")
	}
}

func TestLexerCachedKeepsTheAnswer(t *testing.T) {
	cache := MemoryCache()
	// A name chroma finds only by matching globs: the answer is stored as
	// the lexer's own name.
	if got, want := LexerCached("cxx", cache), Lexer("cxx"); got == nil || got != want {
		t.Fatalf("LexerCached(cxx) = %v, want %v", got, want)
	}
	k, _ := lexerKey("cxx")
	if v, ok := cache.Get(k); !ok || string(v) != Lexer("cxx").Config().Name {
		t.Errorf("stored %q, %v; want the lexer's name", v, ok)
	}
	// An unknown name is stored as "".
	if LexerCached("no-such-ext-1", cache) != nil {
		t.Fatal("unknown name: want no lexer")
	}
	if k, _ := lexerKey("no-such-ext-1"); !bytes.Equal(must(cache.Get(k)), []byte{}) {
		t.Error("unknown name: want an empty answer stored")
	}
	// What a cache says is what a later process answers (names this
	// process has not looked up yet).
	k, _ = lexerKey("no-such-ext-2")
	cache.Put(k, []byte("Go"))
	if l := LexerCached("no-such-ext-2", cache); l == nil || l.Config().Name != "Go" {
		t.Errorf("a stored answer should be used, got %v", l)
	}
	// A stored name chroma does not have is not trusted: the lookup is done.
	k, _ = lexerKey("no-such-ext-3")
	cache.Put(k, []byte("No Such Lexer"))
	if l := LexerCached("no-such-ext-3", cache); l != nil {
		t.Errorf("a stale answer should be looked up again, got %v", l.Config().Name)
	}
}

func must(v []byte, ok bool) []byte {
	if !ok {
		return nil
	}
	return v
}

// recordedMarkup fingerprints, for each markupVersion, what Write wrote for
// TestMarkupVersionTracksTheMarkup's blocks. It checks no markup (TestWrite
// and the Hugo corpus test do); it only notices that the markup changed.
var recordedMarkup = map[string]string{
	"textfrag-highlight/1": "3c1353fb1e5d128e",
	// 2: a block over the highlighting budget is plain text.
	"textfrag-highlight/2": "f9625311e25be286",
}

// A tripwire for markupVersion: cached blocks are keyed by it (and by
// chroma's version), so a change to what Write writes for the same input
// must come with a new markupVersion, or caches would serve the old markup.
func TestMarkupVersionTracksTheMarkup(t *testing.T) {
	var b bytes.Buffer
	for _, c := range []struct {
		code string
		o    Options
	}{
		{"package a\n\nfunc F() int { return 1 < 2 }\n", Options{Lang: "go", LineNumbers: true, FirstLine: 9, Highlighted: [][2]int{{10, 10}}}},
		{"plain <text>\r\nwith \xff bytes", Options{Lang: "text", LineNumbers: true}},
		{"x = 1\n", Options{Lang: "python"}},
		{"", Options{}},
		// Over the budget: plain text (OverBudget).
		{"s/" + strings.Repeat(`\/`, 600) + "\n", Options{Lang: "perl", LineNumbers: true}},
	} {
		if err := Write(&b, c.code, c.o); err != nil {
			t.Fatal(err)
		}
	}
	sum := sha256.Sum256(b.Bytes())
	if got, want := fmt.Sprintf("%x", sum[:8]), recordedMarkup[markupVersion]; got != want {
		t.Fatalf("Write's markup is not what markupVersion %q wrote (fingerprint %s, now %s): "+
			"if it changed (on purpose, or with a chroma upgrade), bump markupVersion in cache.go "+
			"and record %s for the new version in recordedMarkup, so that no cache serves the old markup",
			markupVersion, want, got, got)
	}
}
