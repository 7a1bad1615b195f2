// The HTML safety check the goldmark library's tests and the command's share:
// a module of its own so that the library's tests need nothing of the
// command's module.
module github.com/textfrag/textfrag/internal/htmlsafe

go 1.26.0

require golang.org/x/net v0.61.0
