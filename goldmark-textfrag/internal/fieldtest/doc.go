// Package fieldtest runs the goldmark extension the way other programs use
// it: together with the goldmark extensions people combine it with (GFM,
// footnotes, the typographer, definition lists, heading IDs and attributes,
// goldmark-highlighting, goldmark-meta, go.abhg.dev's anchor, toc, mermaid
// and wikilink, goldmark-emoji), before and after each of them, in every
// Markdown position, in an instance reused while the quoted file changes.
//
// It is its own module so that those extensions stay out of the library's
// go.mod and import graph. Run it with
//
//	cd goldmark-textfrag/internal/fieldtest && go test -race ./...
package fieldtest
