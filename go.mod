module github.com/textfrag/textfrag

go 1.26.0

require (
	github.com/bluekeyes/go-gitdiff v0.9.0
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/textfrag/textfrag/goldmark-textfrag v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/corpus v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/filetest v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/htmlsafe v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/realm v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/termsafe v0.0.0-00010101000000-000000000000
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/mod v0.42.0
	golang.org/x/term v0.47.0
	golang.org/x/text v0.43.0
)

require (
	github.com/alecthomas/chroma/v2 v2.27.0 // indirect
	github.com/dlclark/regexp2/v2 v2.2.1 // indirect
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/tree-sitter/go-tree-sitter v0.25.0 // indirect
	github.com/tree-sitter/tree-sitter-c v0.23.4 // indirect
	github.com/tree-sitter/tree-sitter-cpp v0.23.4 // indirect
	github.com/tree-sitter/tree-sitter-java v0.23.5 // indirect
	github.com/tree-sitter/tree-sitter-javascript v0.23.1 // indirect
	github.com/tree-sitter/tree-sitter-python v0.23.6 // indirect
	github.com/tree-sitter/tree-sitter-rust v0.23.2 // indirect
	github.com/tree-sitter/tree-sitter-typescript v0.23.2 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
