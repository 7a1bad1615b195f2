// Package symbols builds the one symbol.Set the command looks sym= names up
// with: Go through go/parser (symbol.Default) and the languages of the
// tree-sitter parsers (symbol/treesitter). Every Resolver the command makes
// (check, build, render, serve, resolve, pin, link, lsp, refs) takes its
// parsers from Set, so that every command finds the same declarations.
//
// The tree-sitter parsers use cgo; this package is imported by the command
// only, never by the goldmark library, whose import graph stays free of
// cgo.
package symbols

import (
	"sync"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter"
)

// Set returns the command's parsers: symbol.Default() with the tree-sitter
// languages merged over it. It is built once; callers must not modify it.
var Set = sync.OnceValue(func() symbol.Set {
	return symbol.Default().Merge(treesitter.Parsers())
})

// Languages returns the names of the languages Set finds symbols in, as
// their parsers name them ("Go", "Python", …), sorted, for messages.
func Languages() []string { return Set().Languages() }
