package target_test

import (
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/filetest"
)

// With NameCacheLimit, the Resolvers Fresh makes (one per request, in a
// language server) parse a file whose text is unchanged once; a file
// rewritten with the same size and modification time, an editor's buffer
// that differs from the disk, and a buffer closed again are each parsed
// anew, and the names found are always the current text's.
func TestNameCacheKeepsUnchangedText(t *testing.T) {
	root, _ := project(t, map[string]string{"src/a.py": "def f:\ndef g:\n", "src/b.py": "def h:\n"})
	var parses atomic.Int64
	var mu sync.Mutex
	buffers := map[string]string{}
	base := newResolver(t, target.Options{
		Root: root, Symbols: symbol.Set{"python": countingParser{&parses}}, NameCacheLimit: 1 << 20,
		Overlay: func(p string) ([]byte, bool) {
			mu.Lock()
			defer mu.Unlock()
			b, ok := buffers[p]
			return []byte(b), ok
		},
	})
	find := func(name string) (symbol.Span, error) {
		t.Helper()
		return base.Fresh().FindName("src/a.py", "", symbol.Selector{Kind: symbol.Symbol, Name: name})
	}
	want := func(name string, line int, wantParses int64) {
		t.Helper()
		span, err := find(name)
		if err != nil || span.Start != line {
			t.Fatalf("%s: %+v, %v; want line position %d", name, span, err, line)
		}
		if got := parses.Load(); got != wantParses {
			t.Fatalf("%s: %d parses, want %d", name, got, wantParses)
		}
	}
	want("g", 1, 1)
	want("f", 0, 1) // another request, the same text: not parsed again
	if _, err := base.Fresh().FindName("src/b.py", "", symbol.Selector{Kind: symbol.Symbol, Name: "h"}); err != nil {
		t.Fatal(err)
	}
	if parses.Load() != 2 {
		t.Fatalf("b.py: %d parses in all, want 2", parses.Load())
	}
	want("g", 1, 2) // a.py is still kept beside b.py

	// The same size and modification time, another text: g is gone.
	filetest.RewriteSameStamp(t, filepath.Join(root, "src/a.py"), "def g:\ndef f:\n")
	want("g", 0, 3)
	want("f", 1, 3)

	// An unsaved buffer replaces the file, and is parsed; closing it brings
	// the disk's text back, which is parsed again (one entry a file).
	mu.Lock()
	buffers["src/a.py"] = "\ndef f:\n"
	mu.Unlock()
	want("f", 1, 4)
	if _, err := find("g"); !errors.Is(err, symbol.ErrNotFound) {
		t.Fatalf("g in the buffer: %v, want not found", err)
	}
	mu.Lock()
	delete(buffers, "src/a.py")
	mu.Unlock()
	want("f", 1, 5)
	want("g", 0, 5)

	// Forget keeps names: they are found by the text, not by the read.
	base.Forget()
	want("g", 0, 5)
}

// Without NameCacheLimit each Resolver parses for itself (the build's
// rule: a file is parsed once per Resolver); with a limit smaller than a
// file, that file is never kept, and a later file pushes out the one used
// least recently.
func TestNameCacheLimit(t *testing.T) {
	root, _ := project(t, map[string]string{"src/a.py": "def f:\n", "src/b.py": "def g:\n", "src/big.py": "def h:\n# more text than the limit\n"})
	for _, c := range []struct {
		name  string
		limit int64
		paths []string
		want  int64
	}{
		{"none", 0, []string{"src/a.py", "src/a.py"}, 2},
		{"kept", 100, []string{"src/a.py", "src/a.py", "src/b.py", "src/a.py", "src/b.py"}, 2},
		{"over the limit", 10, []string{"src/big.py", "src/big.py"}, 2},
		// Room for one of a.py and b.py (7 bytes each): they push each other out.
		{"least recently used", 10, []string{"src/a.py", "src/b.py", "src/a.py", "src/a.py"}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			var parses atomic.Int64
			base := newResolver(t, target.Options{Root: root, Symbols: symbol.Set{"python": countingParser{&parses}}, NameCacheLimit: c.limit})
			for _, p := range c.paths {
				if _, err := base.Fresh().FindName(p, "", symbol.Selector{Kind: symbol.Symbol, Name: "nothing"}); !errors.Is(err, symbol.ErrNotFound) {
					t.Fatalf("%s: %v, want not found", p, err)
				}
			}
			if got := parses.Load(); got != c.want {
				t.Fatalf("%d parses, want %d", got, c.want)
			}
		})
	}
}
