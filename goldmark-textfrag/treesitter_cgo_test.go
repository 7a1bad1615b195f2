//go:build cgo

package textfrag_test

import "github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter"

// With cgo the conformance test registers the tree-sitter parsers, so
// 15-symbols-treesitter.json is checked as written, not as unsupported.
func init() { extraSymbols = treesitter.Parsers() }
