// Package page turns one Markdown page into what the commands need of it:
// its front matter, title, problems, the number of RFC 5147 links and the
// files they quote, and (when rendering) its HTML body. build, serve,
// render and check share it, and so can the language server, so that all
// report the same problems at the same positions.
//
//	page bytes
//	  └─ SplitFrontMatter: YAML front matter (mdlink.FrontMatter), its
//	     lines left empty so that positions still match the file
//	  └─ Convert(md from NewMarkdown, resolver, name, src, render, withTargets)
//	       goldmark + the textfrag extension ─ Problems, Links, Targets
//	       title: front matter, else the first h1, else the file name
//	       render: HTML body, links to X.md rewritten to X.html (Output)
//	  └─ Check = Convert without rendering + CheckShortcodes (the Hugo
//	     module's shortcode, verified as Hugo would)
//
// A panic on hostile input becomes an error naming the page (Recover).
package page
