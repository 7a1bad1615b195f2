// Package quotelink writes the Markdown links that quote a stretch of a
// file: what "textfrag link" prints, and what an editor inserts. An author
// names the stretch in human numbers (src/a.go:11-20, lines from 1,
// inclusive); the link carries the RFC 5147 fragment (line=10,20), pinned
// with the md5 of the file as stored, in a destination relative to the page
// that will hold it.
//
//	"src/a.go:11-20" ─ParseRef─▶ file "src/a.go", Range{Lines, 11, 20}
//	Range ─Fragment(Text)─▶ line=10,20, checked against the file's lines
//	  └─ Compose: + ;md5= of the bytes as stored
//	              + path relative to the page (Dest), percent-encoded
//	              + caption ("a.go lines 11–20" unless given)
//	  └─▶ Link ─Markdown─▶ [a.go lines 11–20](../src/a.go#line=10,20;md5=…)
//
//	"src/s.go:Server.Handle" ─ParseNameRef─▶ file, name ─NewSelector─▶ sym=…
//	  the caller's Resolver.FindName ─▶ Span (the lines it spans now)
//	  └─ ComposeName: Compose of those lines, the name first in the title
//	  └─▶ [s.go: Server.Handle](../src/s.go#line=8,12;md5=… "sym=Server.Handle")
//
// The package does no I/O: the file comes in as a Text, which
// *rfc5147.Text is (a file or editor buffer in memory); the command puts a
// target.Resolver behind it, so that the file is read through the
// project's realm exactly as a build reads it. Counting (line endings,
// BOM, charsets) is the engine's, never this package's.
//
// A link alone in its paragraph becomes a box, one in running text stays a
// link (README, "Where it goes"), so the two forms differ in where the
// Markdown is put, not in its text; the "quote" option (Options.Quote)
// makes an inline char range an inline quotation.
package quotelink
