// Package pin decides, for each RFC 5147 link of a Markdown page, whether
// its pin (md5=, length=) is up to date, and what the link should say now:
// the engine behind textfrag pin, for every front end (the command, the
// language server's code actions, refs).
//
//	page bytes ─ mdlink.Page ─ links
//	  └─ Planner.Plan / PlanLink: per link
//	       Resolver.Resolve ─ checks pass ─────────────── OK
//	         no md5 ─────────────────────────────────────── Pinned   (+md5)
//	         md5 passes, length stale ────────────────────── Refreshed
//	         length stale, no md5; remote file, md5 stale ── Review
//	         title names it (sym=, region=) ─ Resolver.FindName: the
//	           name's lines now; History only for the pinned text
//	             no md5 ───────────────────────── Pinned at the name
//	             same text, same lines ────────── OK / Refreshed
//	             same text, other lines ───────── Moved
//	             other text, or no version ────── Changed (at the name)
//	             name not found ───────────────── Gone; other lookup errors Error
//	         md5 stale ─ relocate, four steps, each a pure function but
//	           the first:
//	           1 find     History.find: the version with that md5 — pin's
//	                      own earlier writes, HEAD's history (git log
//	                      --follow), the index, other refs, ORIG_HEAD, the
//	                      reflog; blob sizes first, each read once, within
//	                      MaxVersions, MaxBytes, MaxVersionBytes (history.go)
//	                        none, no history, or a limit ─────── Review
//	           2 map      newLineMap: an anchored line diff old → now, its
//	                      runs of changes slid where git diff shows them
//	                      (slide.go), and edited lines paired by
//	                      similarity (linemap.go)
//	           3 carry    mapQuote: intact at, edited into, deleted,
//	                      or unknown (quotemap.go)
//	           4 decide   sameDeclaration (the symbol parsers, both
//	                      versions), or for a file none reads
//	                      sameSection (outline.go: the Markdown heading,
//	                      TOML table, indented block or paragraph the
//	                      diff carries, and only lines whose place the
//	                      diff knows, not guesses among copies), and
//	                      decide (decide.go):
//	                intact, same place ────────────────── Refreshed
//	                intact, elsewhere ─────────────────── Moved
//	                edited ─────────────────────────────── Changed at the new place
//	                deleted ────────────────────────────── Gone (identical text: a hint)
//	                unknown, another declaration,
//	                or cannot be told ─────────────────── Review
//	           describe   gather what the message shows (describe), then
//	                      word it (describeQuote, pure): Message (facts),
//	                      Remedy (one thing to do), Detail, NewDest, and
//	                      Lines, where the quote's lines went (planner.go)
//	         target missing ───────────────────────────────── Gone
//	         anything else ────────────────────────────────── Error
//	  └─ []Change{Link, Class, Message, Remedy, Detail, NewDest, Apply, Failed, Lines}
//	       └─ Edits + Consistency (hl=, captions: consistent.go)
//	            ─ ApplyEdits(src) ─ the page's new bytes
//
// Each question a quote asks of a whole file (where else its lines or
// characters occur, which run of changes or declaration holds a line, the
// nearest line that says something, a run's likeness to deleted lines)
// is answered from what is made once per version or line map (suffix
// arrays, the span index, arrays of nearest lines: occurs.go, beyond.go,
// spanindex.go), so Q quotes into a file of N lines cost O(N + Q × (quote
// length + log N)), whatever a fork commits (TestRelocationQuestionsBounded);
// the first questions of a kind are scanned until a few scans' worth is
// spent (byteOccurrences, scanDeleted), so that a few quotes do not pay
// for an index. One exception: a char= quote whose lines were all deleted
// looks for its characters in the whole file (one pass), once per
// distinct text.
//
// Every NewDest offered is resolved again and must pass every check. A
// Changed link is applied only with Planner.AcceptChanged, at its new
// place; Gone and Review links have no NewDest and are never applied: pin
// never re-points a quote it cannot show is the quoted text.
//
// History runs git only on the project's own repository (the one at or
// above the project root, never one named by the tree's files), with a
// fixed environment and configuration that run no program from the tree
// (see git.go). The package writes no file: the caller writes the page.
package pin
