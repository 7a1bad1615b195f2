package main

import (
	"flag"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/page"
	"github.com/textfrag/textfrag/internal/project"
)

func init() {
	register(command{name: "render", summary: "write one page's HTML body to stdout: textfrag render docs/guide.md", run: runRender})
}

const renderHelp = `Usage: textfrag render FILE.md [flags]
       textfrag render - [flags]

Writes the HTML body of one Markdown page to standard output, without a
layout: RFC 5147 links become boxes and quotations exactly as in build, and
links to .md pages point at .html pages. Front matter is left out. With -,
the page is read from standard input, and its relative links resolve from
the current directory, as those of a page there.

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

// renderOptions is render's command line.
type renderOptions struct {
	flags *flag.FlagSet // the flags of lf, for textfrag.toml's defaults
	lf    linkFlags
	// Page is the Markdown file to render, or "-" for standard input.
	Page string
}

// parseRender reads render's command line. It reports false after printing
// the problem, or the usage -h asked for (e.helped).
func parseRender(e *env, args []string) (*renderOptions, bool) {
	o := &renderOptions{flags: newFlagSet("render", renderHelp)}
	o.lf.register(o.flags)
	o.lf.registerRendering(o.flags)
	pos, ok := e.parseFlags(o.flags, args)
	if !ok {
		return nil, false
	}
	if len(pos) != 1 {
		if len(pos) == 0 {
			e.errorf("render: no FILE.md (or - for standard input)")
		} else {
			e.errorf("render takes one FILE.md, not %d; build renders a directory", len(pos))
		}
		o.flags.Usage()
		return nil, false
	}
	o.Page = pos[0]
	return o, true
}

// runRender is the render command.
func runRender(e *env, args []string) int {
	o, ok := parseRender(e, args)
	if !ok {
		return exitUsage
	}
	return renderRun(e, o)
}

// renderRun renders o.Page's body to stdout.
func renderRun(e *env, o *renderOptions) int {
	lf := &o.lf
	name := o.Page
	if !lf.find(e, o.flags) {
		return exitError
	}
	r, err := lf.newResolver(lf.root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	var src []byte
	if name == "-" {
		name = stdinName
		src, err = e.readStdinPage()
	} else {
		src, err = readRealmPage(r, lf.root, name)
	}
	if err != nil {
		e.errorf("%v", err)
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

// readRealmPage reads a page as check, pin and refs read pages: through the
// project root (a link leading out of it is not followed), and never a file
// that commonly holds secrets, by its name or by what a link leads to
// (docs/notes.md -> ../.git/config).
func readRealmPage(r *target.Resolver, root, name string) ([]byte, error) {
	pages, err := project.OpenPages(root)
	if err != nil {
		return nil, err
	}
	defer pages.Close()
	pages.Secret = r.CheckSecret
	src, err := pages.Read(name)
	if err != nil {
		return nil, siteFileError(name, err)
	}
	return src, nil
}
