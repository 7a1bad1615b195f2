// Package project finds a textfrag project from the directory a command
// runs in: its root, and the settings of its textfrag.toml. Every command
// finds them the same way (SEMANTICS.md §5), so that check, pin, render,
// resolve, build and serve agree on which files a link may quote.
//
//	working directory
//	  └─ Find: walk up, nearest first
//	       1. a textfrag.toml? ─ Load: strict TOML, paths made absolute;
//	          root = its directory, or its root key (confined to the
//	          repository that holds it)
//	       2. else a .git (directory, or "gitdir:" file)? ─ root = its directory
//	       3. else root = the working directory
//	  └─ Project{Root, Origin, ConfigFile, Config}
//	       └─ Config.Settings: (key, flag, values) the command applies to
//	          the flags the command line left unset
//	       └─ RootAdvice, AdviseRoot, ExplainTarget: where the root is and
//	          how to widen it, in errors about files outside it (every
//	          command, and the language server's Advise and Explain)
//	  └─ MarkdownFiles(paths) ─ Pages.Read: each page read through an
//	     os.Root of the root (check, pin, refs); a symbolic link leading
//	     out of it is ErrPageOutsideRoot, never followed
//
// The walk reads names only (no git is run). It looks upward from the
// working directory, so only that directory's ancestors count: a .git or
// textfrag.toml committed deeper in the tree, or beside the working
// directory, plays no part, and one committed in an ancestor can only make
// the root narrower than the repository. A textfrag.toml above the
// repository (a superproject's, for a submodule) is the user's own and
// counts, as SEMANTICS.md §5 says.
//
// textfrag.toml is part of the tree, so it is as trusted as the site's
// layout: a change to it must be reviewed like a change to a CI workflow.
// Its paths cannot leave the repository that holds it (the top of the git
// work tree at or above it, else its own directory), judged after symbolic
// links, so that a committed file cannot widen the root beyond the
// checkout. The command line can.
//
// This package is a dependency of the command only: it imports the TOML
// reader, which the library (goldmark-textfrag) must not.
package project
