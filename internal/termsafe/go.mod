// termsafe is its own module (standard library only) for the reason realm is:
// the goldmark library and the command both escape text with it.
module github.com/textfrag/textfrag/internal/termsafe

go 1.26.0
