// Test helpers the goldmark library's tests and the command's share: a module
// of its own (standard library only) so that the library's tests need nothing
// of the command's module.
module github.com/textfrag/textfrag/internal/filetest

go 1.26.0
