package treesitter

import (
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// parseError is source that does not parse: offset is the byte offset of
// the first error (-1 when unknown), msg what the parser found there.
func parseError(offset int, msg string) error {
	return &symbol.Error{Err: symbol.ErrParse, Detail: msg}
}

// NoCgoDetail is why a program built without cgo has no parsers for the
// languages of this package, and what to do about it.
const NoCgoDetail = "this program was built without cgo, so it has no tree-sitter parsers; rebuild it with CGO_ENABLED=1 and a C compiler"
