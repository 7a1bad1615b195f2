package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/migrate"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/symbols"
	"github.com/textfrag/textfrag/internal/termsafe"
)

func init() {
	register(command{name: "migrate", summary: "convert another tool's includes and markers (mdBook, pymdownx, MarkdownSnippets, Sphinx/MyST, embedme, Asciidoctor) into pinned links and regions: textfrag migrate docs --write", run: runMigrate})
}

const migrateHelp = `Usage: textfrag migrate [PATHS…] [flags]

Converts a documentation tree written for another include tool: the
includes in the Markdown pages under PATHS become pinned textfrag links, as
"textfrag link" writes them, and those tools' marker lines in the project's
files become textfrag region markers, one line for one line, so that no
other line moves:

  mdBook            {{#include f.rs:name}}, {{#include f.rs:10:20}} (in a code block)
                    // ANCHOR: name … // ANCHOR_END: name
  pymdownx.snippets --8<-- "f.py:name", --8<-- "f.py:1:3" (in a code block)
                    # --8<-- [start:name] … # --8<-- [end:name]
  MarkdownSnippets  snippet: name, and <!-- snippet: name --> … <!-- endSnippet -->
                    // begin-snippet: name … // end-snippet
  Sphinx/MyST       ` + "```{literalinclude} f.py" + ` with :lines:, :start-after:, :start-at:,
                    :end-before:, :end-at:, :pyobject: (sym=), :caption:,
                    :emphasize-lines: (hl=), :dedent: without a value, :language:
  embedme           <!-- embedme f.ts#L1-L10 --> and the code block after it
  Asciidoctor       // tag::name[] … // end::name[] (markers only: its pages are not Markdown)

A region keeps its name; a Go file gets the directive form
//textfrag:begin NAME. Links are pinned to the sources as converted.

By default nothing is written: the changes are shown as a unified diff on
stdout. --write applies them (each file replaced whole, only if it did not
change meanwhile). What cannot be converted is left as it is and listed on
stderr as FILE:LINE: not converted: TOOL: WHAT: WHY, and the exit status
is then 1.

pymdownx resolves files against its base_path (--snippets-base, default
the project root); Sphinx resolves "/f.py" against its source directory
(--sphinx-source, default: the nearest directory holding conf.py).
An include of a file that commonly holds secrets (.env, .git/, *.pem, …)
is not read, and is listed as not converted, unless --allow-secret names
it, as for every command.

Exit status: 0 when everything found was converted (or there was nothing),
1 when something is left as it is or a file could not be written, 2 on bad
usage.

Flags:`

// migrateMaxSource bounds a source file migrate reads (the resolver's cache
// limit: larger files are not looked up by name either).
const migrateMaxSource = 8 << 20

func runMigrate(e *env, args []string) int {
	fset := newFlagSet("migrate", migrateHelp)
	fset.String("root", "", "project root `DIR`: pages and sources must lie inside it ("+rootHelp+")")
	write := fset.Bool("write", false, "apply the changes instead of showing them")
	base := fset.String("snippets-base", "", "pymdownx.snippets' base_path `DIRS`, comma-separated, relative to the root (default: the root)")
	sphinx := fset.String("sphinx-source", "", "the Sphinx source `DIR` that \"/…\" files are relative to, relative to the root")
	format := fset.String("format", "text", "output `FORMAT`: text (a diff and a list) or json")
	var secrets secretGlobs // as for every command: the secret error's remedy names it
	secrets.register(fset)
	paths, ok := e.parseFlags(fset, args)
	if !ok {
		return exitUsage
	}
	if !slices.Contains([]string{"text", "json"}, *format) {
		fset.Usage()
		return exitUsage
	}
	proj, ok := e.findProject(fset)
	if !ok {
		return exitError
	}
	if len(paths) == 0 {
		var err error
		if paths, err = defaultPaths(proj); err != nil {
			e.errorf("%v", err)
			return exitError
		}
	}
	files, err := project.MarkdownFiles(paths)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	real, err := filepath.EvalSymlinks(proj.Root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	defer root.Close()
	var pages []string
	for _, f := range files {
		rel, ok := projectPath(proj.Root, real, f)
		if !ok {
			e.errorf("%s: outside the project root %s; migrate converts pages inside it (give --root)", f, proj.Root)
			return exitError
		}
		pages = append(pages, rel)
	}
	sources, err := migrateSources(real)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	// The realm's secret rule, as for every target: an include of .env or
	// .git/config is not read, so neither its md5 nor a rewrite of its
	// markers gets out, unless --allow-secret names it (textfrag.toml's
	// allowSecrets is not applied, as for every command).
	r, err := target.New(secrets.options(target.Options{Root: proj.Root}))
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	o := migrate.Options{
		Pages: pages, Sources: sources, SphinxSource: *sphinx, Symbols: symbols.Set(),
		Read: func(p string) ([]byte, error) {
			if err := r.CheckSecret(p); err != nil {
				return nil, err
			}
			b, err := realm.ReadFile(root, filepath.FromSlash(p), migrateMaxSource) // no link out of the root
			if err != nil {
				return nil, err
			}
			if real, ok := realm.NewDir(r.Root()).Inside(p); ok && real != p {
				if err := r.CheckSecret(real); err != nil {
					return nil, fmt.Errorf("%s is a symbolic link: %w", p, err)
				}
			}
			if err == nil && bytes.IndexByte(b, 0) >= 0 {
				return nil, errors.New("a binary file (it holds NUL bytes)")
			}
			return b, err
		},
	}
	if *base != "" {
		o.SnippetsBase = strings.Split(*base, ",")
	}
	plan, err := migrate.Make(o)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	status := exitOK
	if *format == "json" {
		e.migrateJSON(plan)
	} else {
		for _, f := range plan.Files {
			fmt.Fprint(e.stdout, termsafe.Escape(f.Diff(), "\n\t"))
		}
		for _, p := range plan.Problems {
			fmt.Fprintf(e.stderr, "%s:%d: not converted: %s\n", termsafe.Escape(p.File, ""), p.Line, termsafe.Escape(fmt.Sprintf("%s: %s: %s", p.Dialect, p.Written, p.Reason), ""))
		}
	}
	if *write {
		for _, f := range plan.Files {
			if err := pinWriteAtomic(proj.Root, filepath.Join(proj.Root, filepath.FromSlash(f.Path)), f.Old, f.New); err != nil {
				e.errorf("%s: not written: %v", termsafe.Escape(f.Path, ""), err)
				status = exitError
			}
		}
	}
	verb := "would change"
	if *write {
		verb = "changed"
	}
	fmt.Fprintf(e.stderr, "migrate: %d %s converted into links, %d %s converted into textfrag regions; %s %d %s; %d left as they are\n",
		len(plan.Links), plural(len(plan.Links), "include", "includes"), plan.Regions, plural(plan.Regions, "marked region", "marked regions"),
		verb, len(plan.Files), plural(len(plan.Files), "file", "files"), len(plan.Problems))
	if !*write && len(plan.Files) > 0 {
		fmt.Fprintln(e.stderr, "nothing written (a dry run): run again with --write to apply")
	}
	if len(plan.Problems) > 0 {
		status = exitError
	}
	return status
}

// migrateJSON writes the plan as {files: [{path, diff}], links, problems}.
func (e *env) migrateJSON(plan *migrate.Plan) {
	type file struct {
		Path string `json:"path"`
		Diff string `json:"diff"`
	}
	out := struct {
		Files    []file              `json:"files"`
		Links    []migrate.Converted `json:"links"`
		Regions  int                 `json:"regions"`
		Problems []migrate.Problem   `json:"problems"`
	}{Files: []file{}, Links: plan.Links, Regions: plan.Regions, Problems: plan.Problems}
	for _, f := range plan.Files {
		out.Files = append(out.Files, file{f.Path, f.Diff()})
	}
	if out.Links == nil {
		out.Links = []migrate.Converted{}
	}
	if out.Problems == nil {
		out.Problems = []migrate.Problem{}
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}

// projectPath returns the project path (slash-separated, from the root) of
// an OS path, with the root spelled as given or as its real path.
func projectPath(rootGiven, rootReal, p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	for _, dir := range []string{rootGiven, rootReal} {
		if rel, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// migrateDocExt are the extensions of documentation pages, whose marker
// lines are left alone (a page that shows "// ANCHOR: x" as an example must
// keep it) unless a page includes the file.
var migrateDocExt = map[string]bool{".md": true, ".markdown": true, ".adoc": true, ".asciidoc": true, ".rst": true}

// migrateSources lists the project's files whose markers migrate converts:
// regular files, leaving out hidden and "_"-prefixed ones and third-party
// directories (node_modules, vendor), as the page search does, and pages
// (migrateDocExt). Symbolic
// links are not followed.
func migrateSources(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		if project.Skipped(d.Name()) || d.IsDir() && project.ThirdPartyDir(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && !migrateDocExt[strings.ToLower(filepath.Ext(p))] {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out, err
}
