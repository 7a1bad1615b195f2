// The conformance corpus loader every front end's tests share (the goldmark
// library's, the command's, the Hugo module's): a module of its own so that
// the library's tests need nothing of the command's module. It reads the
// symbol package of the library, which requires it back for its tests.
module github.com/textfrag/textfrag/internal/corpus

go 1.26.0

require github.com/textfrag/textfrag/goldmark-textfrag v0.0.0-00010101000000-000000000000

require golang.org/x/text v0.43.0 // indirect

// Without the workspace (GOWORK=off), the library comes from this clone, and
// so does this module, which the library requires back for its tests.
replace (
	github.com/textfrag/textfrag/goldmark-textfrag => ../../goldmark-textfrag
	github.com/textfrag/textfrag/internal/corpus => ./
	github.com/textfrag/textfrag/internal/filetest => ../filetest
	github.com/textfrag/textfrag/internal/htmlsafe => ../htmlsafe
	github.com/textfrag/textfrag/internal/realm => ../realm
	github.com/textfrag/textfrag/internal/termsafe => ../termsafe
)
