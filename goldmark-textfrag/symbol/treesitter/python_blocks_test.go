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

// pythonOverloadSrc is typed code as requests wrote it from 2.33: @overload
// signatures above the implementation (module level, in a class, in an if
// block, through an alias), and overloads with no implementation.
const pythonOverloadSrc = `import typing as t
from typing import overload


@overload
def to_key_val_list(value: None) -> None: ...
@overload
def to_key_val_list(value: dict) -> list: ...
def to_key_val_list(value):
    return list(value)


class Response:
    @t.overload
    def iter_content(self, decode: bool) -> str: ...
    @t.overload
    def iter_content(self) -> bytes: ...
    # The implementation.
    def iter_content(self, decode=False):
        return b""

    if t.TYPE_CHECKING:
        @overload
        def json(self) -> dict: ...

    def json(self):
        return {}

    @overload
    def only(self) -> int: ...
    @overload
    def only(self, x: int) -> int: ...

    @overload
    def single(self) -> int: ...

    @overloaded
    def helper(self): ...
    def helper(self, x): ...
`

// TestPythonOverload: a name with @overload signatures is its
// implementation; without one the signatures are its declarations (one:
// found, several: ambiguous); a decorator merely named like it is none.
func TestPythonOverload(t *testing.T) {
	set := Parsers()
	for _, c := range []struct {
		name string
		want string // fragment, or the error's start
	}{
		{"to_key_val_list", "line=8,10"},
		{"Response.iter_content", "line=18,20"}, // its comment is its doc, not its span
		{"Response.json", "line=25,27"},
		{"Response.only", "sym=Response.only matches 2 declarations in src/o.py: method Response.only (lines 29–30), method Response.only (lines 31–32)"},
		{"Response.single", "line=33,35"},
		{"Response.helper", "sym=Response.helper matches 2 declarations"},
	} {
		span, err := set.Find("src/o.py", "", []byte(pythonOverloadSrc), symbol.Selector{Kind: symbol.Symbol, Name: c.name})
		got := span.Fragment()
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("sym=%s: %s\n\twant %s", c.name, got, c.want)
		}
	}
	// Declarations stay in source order with the signatures among them.
	spans, err := set.Symbols("src/o.py", "", []byte(pythonOverloadSrc), false)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(spans); i++ {
		if spans[i].Start < spans[i-1].Start {
			t.Errorf("out of order: %s at %d after %s at %d", spans[i].Name, spans[i].Start, spans[i-1].Name, spans[i-1].Start)
		}
	}
}
