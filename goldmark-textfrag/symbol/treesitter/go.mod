// The tree-sitter symbol parsers (cgo, seven grammars): a module of their
// own, so that the goldmark library's module graph holds none of them. A
// program that wants sym= beyond Go adds this module and passes Parsers().
module github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter

go 1.26.0

require (
	github.com/textfrag/textfrag/goldmark-textfrag v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/corpus v0.0.0-00010101000000-000000000000
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-c v0.23.4
	github.com/tree-sitter/tree-sitter-cpp v0.23.4
	github.com/tree-sitter/tree-sitter-java v0.23.5
	github.com/tree-sitter/tree-sitter-javascript v0.23.1
	github.com/tree-sitter/tree-sitter-python v0.23.6
	github.com/tree-sitter/tree-sitter-rust v0.23.2
	github.com/tree-sitter/tree-sitter-typescript v0.23.2
)

require (
	github.com/mattn/go-pointer v0.0.1 // indirect
	golang.org/x/text v0.43.0 // indirect
)

// Without the workspace (GOWORK=off), the library comes from this clone.
replace (
	github.com/textfrag/textfrag/goldmark-textfrag => ../..
	github.com/textfrag/textfrag/internal/realm => ../../../internal/realm
	github.com/textfrag/textfrag/internal/termsafe => ../../../internal/termsafe
)
