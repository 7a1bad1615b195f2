// The realm is its own module (standard library only) because the goldmark
// library and the command both open files through it, and the library's
// module graph must not hold the command's dependencies. Its path is under
// internal/, so only this repository's modules can import it.
module github.com/textfrag/textfrag/internal/realm

go 1.26.0
