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
//	         title names it (sym=, region=) ─ Resolver.FindName: the
//	           name's lines now; History only for the pinned text
//	             no md5 ───────────────────────── Pinned at the name
//	             same text, same lines ────────── OK / Refreshed
//	             same text, other lines ───────── Moved
//	             other text, or no version ────── Changed
//	             name not found ───────────────── Gone; other lookup errors Error
//	         md5 stale ─ History: the version with that md5
//	           (pin's own earlier writes, then git log --follow)
//	           └─ relocate: line diff old → now
//	                text intact, same place ─────────────── Refreshed
//	                text intact, elsewhere ──────────────── Moved
//	                text edited ─────────────────────────── Changed
//	                deleted, or no version found ─────────── Gone
//	         target missing ───────────────────────────────── Gone
//	         anything else ────────────────────────────────── Error
//	  └─ []Change{Link, Class, Message, Detail, NewDest, Apply, Failed}
//	       └─ Edits ─ ApplyEdits(src) ─ the page's new bytes
//
// Every NewDest offered is resolved again and must pass every check. A
// Changed or Gone link is applied only with Planner.AcceptChanged.
//
// History runs git only on the project's own repository (the one at or
// above the project root, never one named by the tree's files), with a
// fixed environment and configuration that run no program from the tree
// (see git.go). The package writes no file: the caller writes the page.
package pin
