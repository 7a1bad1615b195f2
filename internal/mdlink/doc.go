// Package mdlink finds the RFC 5147 links of a Markdown page and where they
// are written, to the byte: what pin rewrites, what check and the language
// server point at.
//
//	page bytes
//	  ├─ Find: goldmark parse (CommonMark + GFM) ─ inline links, images,
//	  │        reference definitions whose destination has an RFC 5147
//	  │        fragment; each located in the bytes (never guessed)
//	  ├─ FindShortcodes: the Hugo module's {{< textfrag … >}} shortcode,
//	  │        scanned as Hugo's lexer does (code blocks included)
//	  └─ Page: both, front matter skipped for shortcodes, in source order
//	       └─ []Link{Kind, Line, Column, Dest, Start, End, DestLine,
//	                 DestColumn, Err}
//
// Positions are computed in one pass over the page (a line index and a
// cursor moving forward), so the cost is linear in the page's size however
// many links it holds. The package does no I/O.
package mdlink
