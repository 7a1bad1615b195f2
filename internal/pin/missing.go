package pin

import (
	"fmt"
	"path/filepath"
	"strings"
)

// This file words what pin says of a link whose file is missing: whether
// the file is gone (git's history had it) or never was there, so the
// message is true either way.

// missingFile describes the missing file at project path file under the
// project root: "no longer exists (commit … deleted it)" when git's
// history deleted it, "does not exist …" when it never had it there.
func (p *Planner) missingFile(file string) string {
	root := p.Resolver.Root()
	switch deleted, had, known := p.History.pathFate(root, file); {
	case deleted != "":
		return fmt.Sprintf("the target file no longer exists (commit %s deleted it)", deleted)
	case had != "":
		return fmt.Sprintf("the target file no longer exists (git's history has it, last changed by commit %s)", had)
	case known:
		return fmt.Sprintf("the target file does not exist: no file %s under the project root %s, nor in git's history", file, root)
	default:
		return fmt.Sprintf("the target file does not exist: no file %s under the project root %s", file, root)
	}
}

// pathFate says what git's history (HEAD's) knows of the file at project
// path file under root: the commit that last deleted it, else the last
// that changed it; known is false when there is no history to ask.
// Commits are abbreviated to 12 digits.
func (h *History) pathFate(root, file string) (deleted, had string, known bool) {
	if h == nil || file == "" || !filepath.IsLocal(filepath.FromSlash(file)) {
		return "", "", false
	}
	if h.repo == nil {
		h.repo = findRepo(h.root)
	}
	if h.repo.err != nil {
		return "", "", false
	}
	realRoot, err := RealPath(root)
	if err != nil {
		return "", "", false
	}
	rel, err := h.repo.relPath(filepath.Join(realRoot, filepath.FromSlash(file)))
	if err != nil {
		return "", "", false
	}
	// Once per path, and for maxPathFates paths at most: a page of many
	// links to missing files starts a bounded number of git processes.
	if f, ok := h.fates[rel]; ok {
		return f.deleted, f.had, f.known
	}
	if len(h.fates) >= maxPathFates {
		return "", "", false
	}
	if h.fates == nil {
		h.fates = map[string]pathFate{}
	}
	deleted, had, known = h.askPathFate(rel)
	h.fates[rel] = pathFate{deleted, had, known}
	return deleted, had, known
}

// maxPathFates is how many missing paths' history pathFate asks git about
// in one run (two git processes each, at most); past it, what is said of
// a missing file names no history.
const maxPathFates = 64

// pathFate is what pathFate found of one path.
type pathFate struct {
	deleted, had string
	known        bool
}

// askPathFate asks git what pathFate says of rel, a path in the repository.
func (h *History) askPathFate(rel string) (deleted, had string, known bool) {
	last := func(args ...string) (string, bool) {
		out, err := h.repo.run(nil, append(append([]string{"log", "-1", "--no-ext-diff", "--no-textconv", "--no-color", "--format=%H"}, args...), "HEAD", "--", rel)...)
		if err != nil {
			return "", false
		}
		c := strings.TrimSpace(string(out))
		return c[:min(len(c), 12)], true
	}
	deleted, ok := last("--diff-filter=D")
	if !ok {
		return "", "", false // no commit yet, or git failed: nothing known
	}
	if deleted != "" {
		return deleted, "", true
	}
	had, ok = last()
	return "", had, ok
}
