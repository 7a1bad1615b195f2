// Package treesitter finds the declarations of Python, JavaScript,
// TypeScript, TSX, Rust, Java, C and C++ source for sym= links, through the
// tree-sitter parsing library and its official grammars.
//
// Data flow:
//
//	symbol.Set.Find ──src──▶ Parser.Decls ──▶ tree-sitter parse (C, via cgo)
//	                                          │ any ERROR or MISSING node: ErrParse
//	                                          │ (C, C++: with the damage of each
//	                                          │  error and a partial parse)
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
//
// What each language declares (names qualified by their containers with
// "."; a span includes the decorators, attributes, annotations, export,
// declare and template<…> lines that belong to the declaration):
//
//   - Python: def and class at any depth (C.m, C.Inner.m, outer.inner);
//     NAME = … and NAME: T = … at the top level. Comments after a block's
//     last statement are not part of it. Doc: # lines directly above,
//     indented like the definition. @overload signatures declare a name
//     only when it has no implementation (a .pyi stub).
//   - JavaScript, TypeScript, TSX: functions (and overload signatures),
//     classes with their methods, accessors and fields (C.m), const, let
//     and var declarators at the top level and in namespaces (one of
//     several spans its own declarator), interfaces with their members,
//     type aliases, enums, namespaces (ns.f). Doc: /** */ and // comments.
//   - Rust: fn, struct, enum, union, trait, type, const, static, mod (m.f),
//     macro_rules; items of impl T and impl Tr for T as T.item (Vec for
//     Vec<T>, &mut Vec<T>, std::vec::Vec<T>); trait items Tr.item. Doc:
//     /// and /** */ (not //! or /*!).
//   - Java: classes, interfaces, enums, records and annotation types
//     (Outer.Inner), methods, constructors (C.C), fields (one per name;
//     int x, y; gives both the declaration's span), enum constants. Doc:
//     /** */.
//   - C and C++: function definitions, and prototypes of functions the file
//     does not define; struct, union, enum and class with a name and a
//     body (typedef struct S {…} S; is one name); typedefs and using
//     aliases; #define macros; namespaces (ns.f); class members (C.m,
//     C.C, C.~C, C.operator==) and out-of-line definitions (void C::m() is
//     C.m); both branches of #if. Doc: any comment.
//
// A doc comment is on lines of its own, with no blank line between it and
// the declaration (or the next doc comment line).
//
// Source with a syntax error (an ERROR or MISSING node in the tree) is a
// *symbol.ParseError at the first one. In C and C++, where macros the
// grammar cannot expand make errors common, the error carries a partial
// parse (symbol.Partial): each error is confined to the bytes it may have
// misread (cdamage.go; testdata/SYMBOLS.md §7), and a name neither declared
// in them nor written in them is looked up as in a clean file. So is a bare CR: textfrag counts it
// as a line end, the grammars do not, and a comment would run on over the
// code after it. Containers are walked 32 deep and qualified names kept to
// 512 bytes, so that hostile nesting stays linear; a deeper or longer name
// is not found. A C++ name (a::b::f, nested one node per ::) is read
// without recursion, and errors are confined in one walk of the tree, so a
// deep tree costs time linear in its nodes and never the goroutine's stack. A file whose brackets nest more than 10,000 deep is a
// *symbol.ParseError before it is parsed: tree-sitter would spend seconds
// and hundreds of megabytes on a million.
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
