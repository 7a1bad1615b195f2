// Package refs finds reverse citations: the links of a project's pages that
// quote a file or lines of it, and what a change to the quoted files does
// to each quote; the engine of textfrag refs.
//
//	page links (mdlink.Page) ─ Resolve ─ []*Link{Page, Line, Path,
//	                                      FirstLine, LastLine, Pinned, Status}
//	  └─ QuotesLines(first, last): refs PATH:LINES
//	  └─ QuotesName(sel, span): refs PATH:NAME, --region NAME: the links
//	       whose title names it (sym=, region=; quotelink.TitleName) or whose
//	       lines overlap the span Resolver.FindName gives; a named link's
//	       Status is stale when target.CheckName fails, as the build checks
//
//	changes: FromGit(history, BASE)  git diff --cached -M (renames),
//	                                 cat-file --batch (BASE versions; a
//	                                 name with a line break by rev-parse),
//	                                 work tree files read through os.Root
//	         FromDiff(stdin)         a unified diff, old sides rebuilt from
//	                                 the work tree; git's quoted names read
//	                                 exactly, a name it cannot read an error
//	  └─ Changes{Files: path → Change{old, new path, BASE and work tree bytes}}
//	       └─ Affected(links, Commands): per link into a changed file; the
//	          commands messages advise are worded by Commands (paths as the
//	          caller names them, flags repeated)
//	            deleted ───────────────────────────── Deleted
//	            pinned to the work tree ──────────── nothing (re-pinned)
//	            unpinned, not in BASE's page ─────── nothing (new)
//	            else the pin Planner, the BASE version remembered:
//	              text in place, elsewhere, renamed ─ Refresh, Moved, Renamed
//	              changed, deleted lines, ambiguous ─ Changed
//	              (a named link: the Planner follows its name; a name no
//	              longer in the file ─ Deleted)
//	            located on the changed lines (pin.LineHunks, lines as
//	            RFC 5147 counts them)
//
// git runs only through pin.History, on commits and the index. Each
// changed file is decoded and diffed once, however many links quote it.
package refs
