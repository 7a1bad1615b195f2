// Package lsp is textfrag's language server (LSP 3.17) for Markdown pages:
// check's diagnostics as the author types, the quoted lines on hover, the
// quoted range as definition, clickable links, pin as code actions, path and
// range completion, and from a source line the links that quote it.
//
//	client ─ Content-Length framed JSON-RPC (conn) ─▶ Serve: one loop, one message at a time
//	  initialize   ─ the project: find(clientRoot) ─ first workspace folder, else
//	                 rootUri, else rootPath, else the working directory; a root
//	                 that is not a local directory is refused (root.go)
//	               ─ position encoding: utf-8 if offered, else utf-16
//	  initialized  ─ ask the client to watch files; poll quoted files' stat
//	                 outside the folder it opened (or all, if it cannot watch)
//	  didOpen/didChange ─▶ document store (open buffers; incremental edits
//	                       applied to a tree of the buffer's lines, lines.go,
//	                       at the cost of what they touch, the text written
//	                       out once before the next check; edits queued
//	                       behind one another are checked once)
//	                    ─▶ publish: page.Check(Config.Markdown(resolver), page) ─▶ problems
//	                         └─ located on the link's destination (mdlink.Page)
//	                         └─ a page outside the root or unsaved: one
//	                            "unchecked" warning, nothing resolved
//	                    ─▶ pages quoting the changed buffer are published again
//	  watched file / poll ─▶ pages quoting the file are published again
//	  hover, definition, documentLink, references, completion
//	       └─ target.Resolver, fresh per request, open buffers as its Overlay;
//	          parsed names kept while a file's text is unchanged (NameCacheLimit)
//	  references ─▶ project.MarkdownFiles(Config.Sources), each page's links
//	                cached until the page changes on disk
//	  codeAction ─▶ pin.Planner.PlanLink (pin --accept-changed's decisions),
//	               and inline ⇄ box from the page's paragraphs
//	  named links (sym=, region= in the title; names.go): hover and
//	    definition through Resolver.FindName, only for a title the build
//	    accepts (textfrag.CheckTitle; else hover shows its error, definition
//	    is empty); completion in the title from the Resolver's Names of the
//	    file (never a secret or outside file), ungated: a title being typed
//	    is usually one the build refuses
//
// Every file the server reads goes through the project's realm (the
// Resolver, or internal/realm inside the root): an editor buffer replaces a
// file only when the realm allows the file itself. The protocol types and
// the framing are written here rather than taken from a library: the
// maintained Go LSP libraries stop at LSP 3.16 (no position encoding
// negotiation) and would bring a logging stack into the command; the
// subset used is small.
//
// Positions: lineIndex maps byte offsets to protocol positions (lines end at
// LF, CR+LF or CR; characters are UTF-16 code units or UTF-8 bytes) and
// back, clamping as the protocol asks.
//
// The command supplies Config at initialize (cmd/textfrag/lsp.go, found
// from the client's root as the other commands find it from theirs): the
// project's root,
// check's settings and remedies; the work is that of internal/page (check),
// internal/mdlink (link positions) and internal/pin, shared with the
// commands.
package lsp
