// The goldmark extension: a module of its own, so that a program using it
// compiles goldmark, chroma, golang.org/x/text and two small internal modules,
// and its module graph holds nothing the command uses (TestModuleGraph
// asserts both). Its tests use three more internal modules (the corpus
// loader, file helpers, the HTML safety check), never the command's module:
// a program's go mod tidy reads the tests of the modules it uses.
module github.com/textfrag/textfrag/goldmark-textfrag

go 1.26.0

require (
	github.com/alecthomas/chroma/v2 v2.27.0
	github.com/textfrag/textfrag/internal/corpus v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/filetest v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/htmlsafe v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/realm v0.0.0-00010101000000-000000000000
	github.com/textfrag/textfrag/internal/termsafe v0.0.0-00010101000000-000000000000
	github.com/yuin/goldmark v1.8.7
	golang.org/x/text v0.43.0
	golang.org/x/tools v0.51.0
)

require (
	github.com/dlclark/regexp2/v2 v2.2.1 // indirect
	golang.org/x/net v0.61.0 // indirect
)

// Without the workspace (GOWORK=off), the internal modules come from
// this clone. A replace in a dependency is ignored by the programs that use
// it: they get the versions published with the library's.
replace (
	github.com/textfrag/textfrag/internal/corpus => ../internal/corpus
	github.com/textfrag/textfrag/internal/filetest => ../internal/filetest
	github.com/textfrag/textfrag/internal/htmlsafe => ../internal/htmlsafe
	github.com/textfrag/textfrag/internal/realm => ../internal/realm
	github.com/textfrag/textfrag/internal/termsafe => ../internal/termsafe
)
