//go:build cgo

package treesitter

import (
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// pythonBlocksSrc defines names in the blocks of compound statements; the
// lines below were counted by hand (cat -n).
const pythonBlocksSrc = `import sys

try:
    from functools import cache
except ImportError:
    def cache(f):
        return f

if sys.version_info >= (3, 12):
    def batched(xs, n):
        return list(xs)
elif sys.platform == "win32":
    pass
else:
    with open(__file__) as fh:
        for line in fh:
            while True:
                class Reader:
                    def read(self):
                        return line
                break

try:
    def load():
        return 1
except ImportError:
    def load():
        return 2
finally:
    def done():
        pass


class Store:
    if sys.platform == "linux":
        def sync(self):
            pass
    else:
        def sync(self):
            return None

    match sys.platform:
        case "darwin":
            def mac(self):
                return 1
`

func TestPythonBlocks(t *testing.T) {
	set := Parsers()
	for _, c := range []struct {
		name string
		want string // fragment, or the error's start
	}{
		{"cache", "line=5,7"},
		{"batched", "line=9,11"},
		{"Reader", "line=17,20"},
		{"Reader.read", "line=18,20"},
		{"done", "line=29,31"},
		{"Store.mac", "line=43,45"},
		{"load", "sym=load matches 2 declarations in src/blocks.py: func load (lines 24–25), func load (lines 27–28)"},
		{"Store.sync", "sym=Store.sync matches 2 declarations in src/blocks.py: method Store.sync (lines 36–37), method Store.sync (lines 39–40)"},
		// A name bound by an import is no definition.
		{"fh", "sym=fh is not in src/blocks.py"},
	} {
		span, err := set.Find("src/blocks.py", "", []byte(pythonBlocksSrc), symbol.Selector{Kind: symbol.Symbol, Name: c.name})
		got := span.Fragment()
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("sym=%s: %s\n\twant %s", c.name, got, c.want)
		}
	}
}
