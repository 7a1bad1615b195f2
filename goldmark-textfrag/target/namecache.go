package target

import (
	"bytes"
	"sync"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// This file keeps parsed names (symbol.Index) across the Resolvers of a
// long-lived process (Options.NameCacheLimit): a language server makes a
// fresh Resolver per request, and would otherwise parse every named file
// again at every keystroke.

// nameCache holds files' names by project path and language. An entry is
// used only when the file's decoded text is the same, byte for byte, as
// the text it was made from: a file edited on disk or in an editor's
// buffer is parsed again, whatever its size and modification time, and no
// hash collision can serve stale names. It holds at most limit bytes of
// text, dropping the entries used least recently.
type nameCache struct {
	limit int64

	mu      sync.Mutex
	held    int64
	clock   uint64
	entries map[nameKey]*nameEntry
}

type nameKey struct{ path, language string }

type nameEntry struct {
	index *symbol.Index
	text  []byte // the text index was made from, held by it too
	used  uint64
}

func newNameCache(limit int64) *nameCache {
	return &nameCache{limit: limit, entries: make(map[nameKey]*nameEntry)}
}

// index returns the names of text (the decoded text of the file at p, with
// lang the link's lang= option), made by set: the kept ones when text is
// unchanged, else new ones, kept in their place. A text over the limit
// is not kept.
func (c *nameCache) index(set symbol.Set, p, lang string, text []byte) *symbol.Index {
	key := nameKey{p, symbol.LanguageOf(p, lang)}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clock++
	if e := c.entries[key]; e != nil {
		if bytes.Equal(e.text, text) {
			e.used = c.clock
			return e.index
		}
		c.held -= int64(len(e.text))
		delete(c.entries, key)
	}
	x := set.Index(p, lang, text)
	size := int64(len(text))
	if size > c.limit {
		return x
	}
	for c.held+size > c.limit {
		c.dropOldest()
	}
	c.entries[key] = &nameEntry{index: x, text: text, used: c.clock}
	c.held += size
	return x
}

// dropOldest drops the entry used least recently. There are few entries (a
// project's named files), so a scan costs less than keeping an order.
func (c *nameCache) dropOldest() {
	var oldest nameKey
	var at uint64
	first := true
	for k, e := range c.entries {
		if first || e.used < at {
			oldest, at, first = k, e.used, false
		}
	}
	c.held -= int64(len(c.entries[oldest].text))
	delete(c.entries, oldest)
}
