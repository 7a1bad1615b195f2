package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/project"
	"github.com/textfrag/textfrag/internal/refs"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// parseFailOn reads --fail-on: classes separated by commas, or "none".
func parseFailOn(s string) (map[refs.Class]bool, error) {
	fail := map[refs.Class]bool{}
	if strings.TrimSpace(s) == "none" {
		return fail, nil
	}
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if !slices.Contains(refs.Classes, c) {
			return nil, fmt.Errorf("%q is no class: want some of %s, or none", c, strings.Join(refs.Classes, ","))
		}
		fail[c] = true
	}
	return fail, nil
}

// refsDiff is refs --diff: the links of every page, the changed files
// (from git since base, or from the diff on stdin when base is "-"), and
// what the changes did to each quote (internal/refs).
func (e *env) refsDiff(lf *linkFlags, r *target.Resolver, base, format string, fail map[refs.Class]bool, jobs int, cmds refs.Commands) int {
	links, ok := e.scanRefs(lf, r, jobs, func(string) bool { return true })
	if !ok {
		return exitError
	}
	root, err := os.OpenRoot(lf.root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	defer root.Close()
	hist := pin.NewHistory(lf.root)
	var changes *refs.Changes
	if base == "-" {
		changes, err = refs.FromDiff(e.stdin, root)
	} else {
		changes, err = refs.FromGit(hist, lf.root, root, base, links)
	}
	if err != nil {
		e.errorf("refs --diff: %v", err)
		return exitError
	}
	findings := refs.Affected(r, hist, lf.root, changes, links, cmds)
	blocking := false
	for _, f := range findings {
		f.Blocking = fail[f.Class]
		blocking = blocking || f.Blocking
	}
	if err := e.writeFindings(findings, format, cmds); err != nil {
		e.errorf("%v", err)
		return exitError
	}
	e.refsSummary(findings, changes.Name, cmds)
	if blocking {
		return exitError
	}
	return exitOK
}

// writeFindings writes the findings in format. Text and annotations name
// files as the commands in them do, from where refs runs (cmds.Name, as
// check names pages; GitHub wants them from the work tree's top, where
// the Action runs); JSON keeps project paths in its fields.
func (e *env) writeFindings(findings []*refs.Finding, format string, cmds refs.Commands) error {
	switch format {
	case "json":
		if findings == nil {
			findings = []*refs.Finding{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(findings)
	case "github":
		for _, f := range findings {
			fmt.Fprintln(e.stdout, refsAnnotation(f, cmds.Name(f.File)))
		}
	default:
		for _, f := range findings {
			fmt.Fprintln(e.stdout, termsafe.Escape(fmt.Sprintf("%s:%d: %s: %s", cmds.Name(f.File), f.Line, f.Class, f.Message), ""))
		}
	}
	return nil
}

// refsAnnotation writes a finding as a GitHub Actions workflow command on
// the changed lines: "::error file=src/a.go,line=14,endLine=15,title=quoted
// text changed::quoted in docs/guide.md:3 …", escaped as check escapes;
// file is f.File as named from where refs runs.
func refsAnnotation(f *refs.Finding, file string) string {
	level := "warning"
	if f.Blocking {
		level = "error"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "::%s file=%s,line=%d", level, escapeGitHubProperty(termsafe.Escape(file, "\r\n")), f.Line)
	if f.EndLine > f.Line {
		fmt.Fprintf(&b, ",endLine=%d", f.EndLine)
	}
	b.WriteString(",title=")
	b.WriteString(escapeGitHubProperty(refs.Title(f.Class)))
	b.WriteString("::")
	b.WriteString(escapeGitHubData(termsafe.Escape(f.Message, "\r\n")))
	return b.String()
}

// refsSummary ends refs --diff: the quotes affected, counted by class in
// pin's words (refresh is refreshed, deleted is gone; an unpinned quote
// counts as unpinned, whatever its class), then for each class found the
// one command that settles it, naming the pages involved.
func (e *env) refsSummary(findings []*refs.Finding, name string, cmds refs.Commands) {
	if len(findings) == 0 {
		fmt.Fprintf(e.stderr, "no quote affected (%s)\n", name)
		return
	}
	n := map[string]int{}
	pages := map[string][]string{} // pin's class → the pages, in order
	for _, f := range findings {
		c := map[refs.Class]string{refs.Refresh: "refreshed", refs.Deleted: "gone"}[f.Class]
		if c == "" {
			c = f.Class
		}
		if f.Unpinned {
			c = "unpinned"
		}
		n[c]++
		if !slices.Contains(pages[c], f.Page) {
			pages[c] = append(pages[c], f.Page)
		}
	}
	var parts []string
	for _, c := range []string{"refreshed", "moved", "changed", "gone", "review", "unpinned"} {
		parts = append(parts, fmt.Sprintf("%d %s", n[c], c))
	}
	if n[refs.Renamed] > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", n[refs.Renamed], refs.Renamed))
	}
	fmt.Fprintf(e.stderr, "%d %s affected (%s): %s\n", len(findings), plural(len(findings), "quote", "quotes"), name, strings.Join(parts, ", "))
	var lines []string
	if k := n["gone"] + n["review"]; k > 0 {
		lines = append(lines, fmt.Sprintf("  gone, review (%d): a person fixes each link, as its message says (textfrag link writes a new one)", k))
	}
	if k := n[refs.Renamed]; k > 0 {
		lines = append(lines, fmt.Sprintf("  renamed (%d): change each link to the path its message gives", k))
	}
	if k := n["unpinned"]; k > 0 {
		// As each quote's message: pin pins such a link only when a
		// person accepts it (its file changed), so -i, which asks.
		lines = append(lines, fmt.Sprintf("  unpinned (%d): no md5 guards these quotes, so they show the new lines unreviewed: read each, point it at the right lines (its message says where its text went), then pin them, accepting each: `%s`", k, cmds.Pin(" -i", pages["unpinned"]...)))
	}
	// pin pins every link of the pages it writes: an unpinned quote there
	// is fixed first (refs.Affected says so on each quote too).
	after := func(ps []string) string {
		if slices.ContainsFunc(ps, func(p string) bool { return slices.Contains(pages["unpinned"], p) }) {
			return ", once the unpinned quotes above are fixed (pin pins them too)"
		}
		return ""
	}
	if k := n["changed"]; k > 0 {
		lines = append(lines, fmt.Sprintf("  changed (%d): read each, then accept it or not: `%s`%s", k, cmds.Pin(" -i", pages["changed"]...), after(pages["changed"])))
	}
	if k := n["refreshed"] + n["moved"]; k > 0 {
		ps := append(slices.Clone(pages["refreshed"]), pages["moved"]...)
		slices.Sort(ps)
		lines = append(lines, fmt.Sprintf("  refreshed, moved (%d): the same text, nothing to review: `%s`%s", k, cmds.Pin(" --write", slices.Compact(ps)...), after(ps)))
	}
	for _, l := range lines {
		fmt.Fprintln(e.stderr, termsafe.Escape(l, ""))
	}
}

// refsCommands words the commands refs --diff advises so that each runs as
// written in the directory refs runs in: files named relative to it, and
// the flags given to refs that pin and link take too (--root, --charset,
// --allow-secret) given again. root is the project root, absolute.
func refsCommands(fset *flag.FlagSet, proj *project.Project) refs.Commands {
	root := proj.Root
	cwd, err := os.Getwd()
	if err != nil {
		cwd = ""
	}
	return refs.Commands{
		Path:      func(p string) string { return argPath(cwd, filepath.Join(root, filepath.FromSlash(p))) },
		Root:      func(l *refs.Link) string { return unreadableAdvice(proj, cwd, l) },
		PinFlags:  checkPinArgs(fset),
		LinkFlags: linkFlagArgs(fset),
		Title: func(l *refs.Link) string {
			if l.Selector != nil {
				return authorTitle(l.MD, l.Path, *l.Selector, true)
			}
			return authorTitle(l.MD, l.Path, symbol.Selector{}, false)
		},
	}
}

// linkFlagArgs writes the flags given in fset that choose what links mean
// and that textfrag link takes too (--root, --charset, --allow-secret),
// for the link commands refs and pin advise
// (TestRefsDiffRemediesFromSubdirectory, TestPinLinkRemedyFromSubdirectory
// run them).
func linkFlagArgs(fset *flag.FlagSet) string {
	return pinFlagArgsOf(fset, func(name string) bool {
		return name == "root" || name == "charset" || name == "allow-secret"
	})
}

// unreadableAdvice says, for a link of the project proj whose file cannot
// be read, what the root has to do with it: for a link starting with /,
// where such links resolve and the directory (named from cwd) that would
// find the file as --root; for a path out of the root, how to widen it.
func unreadableAdvice(proj *project.Project, cwd string, l *refs.Link) string {
	switch {
	case strings.HasPrefix(l.Link, "/") && filepath.IsLocal(filepath.FromSlash(l.Path)):
		page := filepath.Dir(filepath.Join(proj.Root, filepath.FromSlash(l.Page)))
		dirs := []string{page}
		if cwd != "" {
			dirs = append(dirs, cwd)
		}
		return proj.SlashAdvice(l.Path, func(dir string) string { return termsafe.ShellWords(argPath(cwd, dir)) }, dirs...)
	case !filepath.IsLocal(filepath.FromSlash(l.Path)):
		return proj.RootAdvice()
	}
	return ""
}

// argPath names the file abs (absolute) as an argument for a command run
// in cwd: relative to cwd when that names the same file (a path up out of
// a directory reached through a symbolic link may not; for a file that no
// longer exists, its nearest directory that does) and, climbing out of
// cwd, is shorter than abs (../../../../tmp/x helps nobody), else abs. A
// relative name starting with "-" starts with "./", so that it is not
// read as a flag.
func argPath(cwd, abs string) string {
	rel, err := filepath.Rel(cwd, abs)
	if cwd == "" || err != nil {
		return filepath.ToSlash(abs)
	}
	if !filepath.IsLocal(rel) {
		if len(rel) >= len(abs) || !samePlace(abs, rel) {
			return filepath.ToSlash(abs)
		}
	}
	if strings.HasPrefix(rel, "-") {
		rel = "." + string(filepath.Separator) + rel
	}
	return filepath.ToSlash(rel)
}

// samePlace reports whether rel, a path from the working directory, leads
// where abs does: to the same file, or, for a file that does not exist (a
// deleted one, named in a message), to the same nearest directory that
// does.
func samePlace(abs, rel string) bool {
	for {
		a, err := os.Stat(abs)
		if err == nil {
			r, err := os.Stat(rel)
			return err == nil && os.SameFile(a, r)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		upAbs, upRel := filepath.Dir(abs), filepath.Dir(rel)
		if upAbs == abs || upRel == rel || upRel == "." {
			return false
		}
		abs, rel = upAbs, upRel
	}
}
