// Package textfrag is a goldmark extension that transcludes text quoted by
// RFC 5147 fragment links, and fails the build when the quoted file no
// longer matches the link's integrity check.
//
// An author writes an ordinary link:
//
//	[the request handler](../src/server.go#line=10,20;md5=4f0c…)
//
// Alone in its paragraph, it becomes a labelled box holding human lines 11
// to 20 of server.go (RFC 5147 counts positions from 0), highlighted and
// numbered as in the file. Inside running text it stays a link, verified.
// Any other link, including other fragments such as "#intro", is untouched,
// and so are http and https links unless WithRemote allows their host.
//
// # Data flow
//
//	Markdown ──goldmark parser──▶ AST
//	AST ──linksAsWritten (first of all transformers)──▶ destinations as written
//	AST ──transformer (WithPriority, 50)──▶ each link/image with a char=/line= fragment
//	        (a fragment link another transformer made unreadable fails: order.go;
//	        other extensions' links, such as wikilinks, are read by shape: foreign.go;
//	        a destination Markdown reads as one, written with a character
//	        reference or escape, fails: target/escaped.go)
//	        └─▶ target.Resolver: path ─▶ file in allowed root (os.Root)
//	                 └─▶ rfc5147: parse ─▶ select + md5 + length (one pass, cached per file)
//	        └─▶ title sym=/region= (title.go) ─▶ Resolver.CheckName: symbol finds the
//	            name's lines (parsed once per file) ─▶ must equal the link's lines
//	        ◀── Box / Quote nodes, or a Problem (error or warning) in parser.Context
//	AST ──failureFirst (last of all transformers)──▶ a Failure back first in the document
//	AST ──renderer──▶ <figure class="textfrag"> with chroma-highlighted body
//	        (from WithHighlightCache when it holds the same body; plain text
//	        over highlight's budget, an error when its safety net fires);
//	        a Failure first in the document makes Convert return the first
//	        error Problem, wherever its link stood, before writing anything.
//
// Package rfc5147 is the engine: pure, no I/O, and package symbol finds the
// lines of names (Go declarations, marker-comment regions; more languages
// with WithSymbols). Package target does the I/O: path resolution, the
// security realm and the per-build cache. This package only decides which
// links are boxes and how they look. The rules for names are in
// testdata/SYMBOLS.md.
//
// The HTML is specified in testdata/OUTPUT.md at the repository root; the
// stylesheet is in the style subpackage.
package textfrag
