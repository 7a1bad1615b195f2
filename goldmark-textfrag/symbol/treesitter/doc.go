// Package treesitter finds the declarations of Python, JavaScript,
// TypeScript, TSX, Rust, Java, C and C++ source for sym= links, through the
// tree-sitter parsing library and its official grammars.
//
// Data flow:
//
//	symbol.Set.Find ──src──▶ Parser.Decls ──▶ tree-sitter parse (C, via cgo)
//	                                          │ any ERROR or MISSING node: ErrParse
//	                                          ▼
//	                          walk the tree by language ──▶ []symbol.Decl (byte offsets)
//
// The package needs cgo: its parsers are C code compiled into the binary.
// It is imported by the textfrag command and by tests, never by the goldmark
// extension itself, so that the library stays pure Go. A program built with
// CGO_ENABLED=0 still compiles: Parsers then returns parsers that fail with
// symbol.ErrUnsupported and say the program was built without cgo.
//
// Register the parsers with a goldmark Markdown:
//
//	textfrag.New(textfrag.WithSymbols(treesitter.Parsers()))
//
// Each call to Decls uses a parser and a tree of its own and frees both
// before it returns, so a Parser is safe for concurrent use.
package treesitter

// languages are the languages of this package: the keys of Parsers, as
// symbol.LanguageOf names them, and their names in messages.
var languages = []struct{ key, name string }{
	{"python", "Python"},
	{"javascript", "JavaScript"},
	{"typescript", "TypeScript"},
	{"tsx", "TSX"},
	{"rust", "Rust"},
	{"java", "Java"},
	{"c", "C"},
	{"cpp", "C++"},
}
