package main

import (
	"context"
	"errors"
	"flag"
	"strings"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/lsp"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/symbols"
)

func init() {
	register(command{name: "lsp", summary: "language server for Markdown pages over stdio, for editors: textfrag lsp", run: runLSP})
}

const lspHelp = `Usage: textfrag lsp [flags]

Runs a language server (LSP 3.17) on standard input and output, for an
editor to start. For the Markdown pages the editor opens it reports what
check reports, as you type (with the range of each link's destination and
source "textfrag"), and again when a quoted file changes on disk or in the
editor; it shows the quoted lines on hover, goes to them (definition), makes
links clickable, completes paths after "](" and ranges after "#line=", and
from a source file finds the links that quote the line under the cursor
(references). For a link that quotes by name (sym=NAME or region=NAME in
its title), hover shows the lines the name spans now, definition goes
there, a code action re-pins the link at them, and in the title the
declarations of the file are completed after "sym=", its regions after
"region=" (also in a title still being typed). A title the build refuses
(an unknown word, doc without sym=, both sym= and region=…) names
nothing: hover shows the build's error, definition goes nowhere and no
action re-pins the link.

The project is found as every command finds it, from the folder the editor
opened (its first workspace folder, else rootUri, else rootPath, else the
directory the editor starts the server in): the nearest textfrag.toml at or
above it, else the top of the git work tree, else that folder; --root
overrides it. A workspace that is not a local folder (file:///…) is
refused at initialize. textfrag.toml sets defaults for the flags below, as
for check.

Flags:`

// lspOptions is lsp's command line: check's flags (lf), whose unset ones
// textfrag.toml fills in when the editor says which folder it opened.
type lspOptions struct {
	flags *flag.FlagSet
	lf    linkFlags
}

// parseLSP reads lsp's command line. It reports false after printing the
// problem, or the usage -h asked for (e.helped).
func parseLSP(e *env, args []string) (*lspOptions, bool) {
	o := &lspOptions{flags: newFlagSet("lsp", lspHelp), lf: linkFlags{unpinned: true}}
	o.lf.register(o.flags)
	// Clients such as vscode-languageclient add --stdio when told to use
	// standard input and output, the only transport there is.
	o.flags.Bool("stdio", true, "talk over standard input and output (the default and only transport; accepted for clients that add it)")
	paths, ok := e.parseFlags(o.flags, args)
	if !ok {
		return nil, false
	}
	if len(paths) > 0 {
		e.errorf("lsp takes no PATHS (%q): the editor says which folder it opened, and the project is found from there", paths[0])
		o.flags.Usage()
		return nil, false
	}
	return o, true
}

// runLSP is the lsp command.
func runLSP(e *env, args []string) int {
	o, ok := parseLSP(e, args)
	if !ok {
		return exitUsage
	}
	return lspRun(e, o)
}

// lspRun serves the language server on e's standard input and output
// until the editor exits it.
func lspRun(e *env, o *lspOptions) int {
	if err := lsp.Serve(context.Background(), lspFinder(e, o.flags, &o.lf), e.stdin, e.stdout); err != nil {
		e.errorf("lsp: %v", err)
		return exitError
	}
	return exitOK
}

// lspFinder returns how the language server finds the project at
// initialize, from the folder the editor opened, as the other commands do
// from their working directory (textfrag.toml's settings go to the flags
// of fset left unset); an error says what find printed.
func lspFinder(e *env, fset *flag.FlagSet, lf *linkFlags) func(dir string) (lsp.Config, error) {
	return func(dir string) (lsp.Config, error) {
		var msg strings.Builder
		quiet := *e
		quiet.stderr = &msg
		if !lf.findFrom(&quiet, fset, dir) {
			return lsp.Config{}, errors.New(strings.TrimSpace(strings.TrimPrefix(msg.String(), "textfrag: ")))
		}
		cfg, err := lspConfig(lf, checkPinArgs(fset))
		cfg.Log = e.stderr
		return cfg, err
	}
}

// lspConfig is the language server's view of the project lf found: check's
// settings, and the pages check checks by default. pinArgs are the flags
// the pin commands in its messages repeat, as check's (checkPinRemedy).
func lspConfig(lf *linkFlags, pinArgs string) (lsp.Config, error) {
	ro, err := lf.remote.options()
	if err != nil {
		return lsp.Config{}, err
	}
	return lsp.Config{
		Root:     lf.root,
		Resolver: lf.secrets.options(target.Options{Root: lf.root, Charsets: lf.charsets, Remote: ro, Symbols: symbols.Set()}),
		Markdown: func(r *target.Resolver) goldmark.Markdown { return lf.markdown(r) },
		Lenient:  lf.lenient,
		Unpinned: lf.unpinned,
		Advise: func(problems []*textfrag.Problem) {
			lf.proj.AdviseRoot(problems)
			for _, q := range problems {
				checkPinRemedy(q, pinArgs)
			}
		},
		Explain: func(err error) string { return project.ExplainTarget(err, lf.root) },
		Sources: lspSources(lf),
	}, nil
}

// lspSources are the paths check checks by default, found from the
// project root rather than the working directory: an editor may start the
// server anywhere (Neovim in the directory it was started in, Helix in a
// subdirectory), and references must still find every page of the
// project, and only its pages.
func lspSources(lf *linkFlags) []string {
	if src := lf.proj.Source(); src != "" {
		return []string{src} // absolute: textfrag.toml's paths are made so
	}
	return []string{lf.root}
}
