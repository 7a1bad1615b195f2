package treesitter

import (
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// parseError is source that does not parse: offset is the byte offset of
// the first error (-1 when unknown), msg what the parser found there. The
// engine turns the offset into a line by the project's line-ending rule.
func parseError(offset int, msg string) error {
	return &symbol.ParseError{Offset: offset, Msg: msg}
}

// NoCgoReason is why a program built without cgo has no parsers for the
// languages of this package, and the remedy besides quoting by region= or
// by lines (which the engine's message names).
const NoCgoReason = "built without cgo; rebuild textfrag with CGO_ENABLED=1 and a C compiler"
