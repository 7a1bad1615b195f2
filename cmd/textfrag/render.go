package main

import (
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
)

func init() {
	register(command{name: "render", summary: "write one page's HTML body to stdout: textfrag render docs/guide.md", run: runRender})
}

const renderHelp = `Usage: textfrag render FILE.md [flags]

Writes the HTML body of one Markdown page to standard output, without a
layout: RFC 5147 links become boxes and quotations exactly as in build, and
links to .md pages point at .html pages. Front matter is left out.

Links starting with / resolve against the project root, and only files
inside it can be quoted: the directory of the nearest textfrag.toml at or
above the current directory, else the top of the git work tree, else the
current directory; --root overrides it. textfrag.toml also sets defaults for
the flags below. Problems are
printed on stderr as "file:line:col: error: link: message"; on any error
nothing is written to stdout.

Exit status: 0 on success (warnings are printed), 1 on any error (or warning,
with --strict), 2 on bad usage.

Flags:`

// runRender is the render command.
func runRender(e *env, args []string) int {
	fset := newFlagSet("render", renderHelp)
	var lf linkFlags
	lf.register(fset)
	lf.registerRendering(fset)
	pos, ok := e.parseFlags(fset, args)
	if !ok {
		return exitUsage
	}
	if len(pos) != 1 {
		fset.Usage()
		return exitUsage
	}
	name := pos[0]
	if !lf.find(e, fset) {
		return exitError
	}
	r, err := lf.newResolver(lf.root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	// The page is read as check, pin and refs read pages: through the
	// project root (a link leading out of it is not followed), and never
	// a file that commonly holds secrets, by its name or by what a link
	// leads to (docs/notes.md -> ../.git/config).
	if err := pageInRealm(r, name); err != nil {
		e.errorf("%v", err)
		return exitError
	}
	pages, err := project.OpenPages(lf.root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	defer pages.Close()
	src, err := pages.Read(name)
	if err != nil {
		e.errorf("%v", siteFileError(name, err))
		return exitError
	}
	p, err := page.Convert(lf.markdown(r), r, name, src, true, false)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	lf.proj.AdviseRoot(p.Problems)
	e.printProblems(p.Problems)
	if lf.failed(p.Problems) {
		return exitError
	}
	if _, err := e.stdout.Write(p.Body); err != nil {
		e.errorf("%v", err)
		return exitError
	}
	return exitOK
}
