// Package migrate brings a documentation tree written for another include
// tool over to textfrag: what "textfrag migrate" prints and writes.
//
//	sources ─convertMarkers─▶ each peer's marker lines rewritten in place,
//	  one line for one line, as textfrag region markers:
//	    // ANCHOR: main        (mdBook)            → // textfrag:begin main
//	    # --8<-- [start:main]  (pymdownx.snippets) → # textfrag:begin main
//	    // tag::main[]         (Asciidoctor)       → // textfrag:begin main
//	    // begin-snippet: main (MarkdownSnippets)  → // textfrag:begin main
//	    (a Go file gets the directive form //textfrag:begin main)
//	pages ─scanPage─▶ includes: {{#include f:a:b}}, --8<-- "f:a:b",
//	  snippet: name, ```{literalinclude} f```, <!-- embedme f#L1-L9 -->
//	  └─ the file, relative to what the peer resolves it against
//	  └─ its lines, region or symbol, in the source as converted
//	  └─ quotelink.Compose / ComposeName: the link "textfrag link" writes,
//	     pinned with the md5 of the converted source
//	  └─▶ the include's lines (its code fence too) replaced by the link
//	Plan ─▶ per file, the line edits (Diff writes them as a unified diff)
//	        and what could not be converted, with the reason
//
// The package does no I/O: Options.Read gives it the files, and the
// command writes Plan's results. Every marker and include it does not
// convert is left as it is and listed, so that a tree is never half
// converted silently; Foreign lets check warn about includes that remain.
package migrate
