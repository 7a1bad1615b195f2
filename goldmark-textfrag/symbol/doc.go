// Package symbol finds the lines a name spans in a source file: a
// declaration found by a language's parser (a link's sym=NAME title
// option) or a region between two marker comments (region=NAME). It is a
// pure engine: no I/O, no cgo. Rules: testdata/SYMBOLS.md.
//
//	decoded text (UTF-8, no BOM, as target.Resolver holds it)
//	  ├─ region=NAME: lines holding "textfrag:" ─▶ MarkerPattern ─▶ begin/end
//	  │     of NAME ─▶ span between the marker lines (one begin, one end)
//	  └─ sym=NAME: LanguageOf(path, lang=) ─▶ Set[language].Decls (go/parser
//	        for Go; symbol/treesitter adds others) ─▶ byte offsets
//	            └─ rfc5147.LineStarts ─▶ line positions [start, end)
//	                 └─ one declaration: its Span; none: ErrNotFound with
//	                    close names; several: ErrAmbiguous with them all
//
// A parser may answer a file with syntax errors with a partial parse
// (ParseError.Partial: C and C++ in symbol/treesitter): a lookup then
// fails as ErrParse only when the name is written in a Damage or a
// candidate overlaps one (SYMBOLS.md §7).
//
// A front end compares the Span with the link's #line=a,b and fails the
// build unless they are equal (ErrMismatch). Index keeps one file's parse
// for every lookup in it; Set.Find is Index plus one lookup.
package symbol
