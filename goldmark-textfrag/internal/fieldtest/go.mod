module github.com/textfrag/textfrag/goldmark-textfrag/internal/fieldtest

go 1.26.0

require (
	github.com/textfrag/textfrag v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/goldmark-textfrag v0.0.0-00010101000000-000000000000
	github.com/yuin/goldmark v1.8.7
	github.com/yuin/goldmark-emoji v1.0.6
	github.com/yuin/goldmark-highlighting/v2 v2.0.0-20230729083705-37449abec8cc
	github.com/yuin/goldmark-meta v1.1.0
	go.abhg.dev/goldmark/anchor v0.2.0
	go.abhg.dev/goldmark/mermaid v0.6.0
	go.abhg.dev/goldmark/toc v0.11.0
	go.abhg.dev/goldmark/wikilink v0.6.0
)

require (
	github.com/alecthomas/chroma/v2 v2.27.0 // indirect
	github.com/dlclark/regexp2/v2 v2.2.1 // indirect
	github.com/textfrag/textfrag/internal/realm v0.0.0-00010101000000-000000000000 // indirect
	github.com/textfrag/textfrag/internal/termsafe v0.0.0-00010101000000-000000000000 // indirect
	golang.org/x/text v0.43.0 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)

// This clone's modules (the repository's go.work does not hold this module:
// its dependencies must not change the versions the command is built with).
replace (
	github.com/textfrag/textfrag => ../../..
	github.com/textfrag/textfrag/goldmark-textfrag => ../../../goldmark-textfrag
	github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter => ../../../goldmark-textfrag/symbol/treesitter
	github.com/textfrag/textfrag/internal/corpus => ../../../internal/corpus
	github.com/textfrag/textfrag/internal/filetest => ../../../internal/filetest
	github.com/textfrag/textfrag/internal/htmlsafe => ../../../internal/htmlsafe
	github.com/textfrag/textfrag/internal/realm => ../../../internal/realm
	github.com/textfrag/textfrag/internal/termsafe => ../../../internal/termsafe
)
