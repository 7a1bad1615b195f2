package main

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/quotelink"
	"github.com/textfrag/textfrag/internal/realm"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// The classes of refs --diff, in the order the summary lists them.
const (
	refsChanged = "changed"
	refsDeleted = "deleted"
	refsRenamed = "renamed"
	refsMoved   = "moved"
	refsRefresh = "refresh"
)

var refsClasses = []string{refsChanged, refsDeleted, refsRenamed, refsMoved, refsRefresh}

// refsClassTitle names a class for people.
var refsClassTitle = map[string]string{
	refsChanged: "quoted text changed",
	refsDeleted: "quoted file deleted",
	refsRenamed: "quoted file renamed",
	refsMoved:   "quoted text moved",
	refsRefresh: "file changed elsewhere",
}

// parseFailOn reads --fail-on: classes separated by commas, or "none".
func parseFailOn(s string) (map[string]bool, error) {
	fail := map[string]bool{}
	if strings.TrimSpace(s) == "none" {
		return fail, nil
	}
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if !slices.Contains(refsClasses, c) {
			return nil, fmt.Errorf("%q is no class: want some of %s, or none", c, strings.Join(refsClasses, ","))
		}
		fail[c] = true
	}
	return fail, nil
}

// refsFinding is one quote a change affects.
type refsFinding struct {
	Class    string `json:"class"`
	Blocking bool   `json:"blocking"`
	// File, Line and EndLine are where the finding is shown: the changed
	// source lines (human numbers, in the work tree), or the page's link
	// for a deleted file.
	File    string `json:"file"`
	Line    int64  `json:"line"`
	EndLine int64  `json:"end_line"`
	Page    string `json:"page"`
	// PageLine and PageColumn locate the link in the page.
	PageLine   int    `json:"page_line"`
	PageColumn int    `json:"page_column"`
	Link       string `json:"link"`
	// Path is the quoted file as the link names it, Quoted the range it
	// quoted in the BASE version.
	Path    string `json:"path"`
	Quoted  string `json:"quoted"`
	Message string `json:"message"`
	// Fix is the link as it should read, when refs knows it.
	Fix string `json:"fix,omitempty"`
}

// refsChange is one changed file: its BASE version and its work tree one.
type refsChange struct {
	oldPath, newPath string // project paths; newPath "" when deleted
	old, cur         []byte
	// Made on first use, once for all the links into the file.
	decoded  bool
	oldText  *rfc5147.Text // nil: not text
	hunks    []pin.LineHunk
	newLines int
	oldMD5   string
}

// prepare decodes both versions and diffs them, once.
func (c *refsChange) prepare() {
	if c.decoded {
		return
	}
	c.decoded = true
	sum := md5.Sum(c.old)
	c.oldMD5 = hex.EncodeToString(sum[:])
	t, err := rfc5147.NewText(c.old, rfc5147.UTF8)
	if err != nil {
		return
	}
	c.oldText = t
	if c.cur == nil {
		return
	}
	if cur, err := rfc5147.NewText(c.cur, rfc5147.UTF8); err == nil {
		c.hunks, _, c.newLines = pin.LineHunks(t.Bytes(), cur.Bytes())
	}
}

// refsDiffSource is where the changes come from: git, or a diff on stdin.
type refsDiffSource struct {
	name    string // "changes since 1a2b3c4d5e6f" or "the diff on stdin"
	changes map[string]*refsChange
	// basePage returns a page as it was at BASE (nil: it did not exist).
	basePage func(page string) []byte
}

func (e *env) refsDiff(lf *linkFlags, r *target.Resolver, base, format string, fail map[string]bool, jobs int) int {
	links, ok := e.scanRefs(lf, r, jobs, func(string) bool { return true })
	if !ok {
		return exitError
	}
	quoted := map[string]bool{}
	for _, l := range links {
		quoted[l.Path] = true
	}
	root, err := os.OpenRoot(lf.root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	defer root.Close()
	hist := pin.NewHistory(lf.root)
	hist.RememberedName = "the BASE version"
	var src *refsDiffSource
	if base == "-" {
		src, err = refsStdinChanges(e.stdin, root)
	} else {
		src, err = refsGitChanges(hist, lf.root, root, base, quoted, links)
	}
	if err != nil {
		e.errorf("refs --diff: %v", err)
		return exitError
	}
	for _, c := range src.changes {
		if c.newPath != "" {
			if real, err := pin.RealPath(filepath.Join(lf.root, filepath.FromSlash(c.newPath))); err == nil {
				hist.Remember(real, c.old)
			}
		}
	}
	planner := &pin.Planner{Resolver: r, History: hist}
	var findings []*refsFinding
	for _, l := range links {
		c := src.changes[l.Path]
		if c == nil {
			continue
		}
		if f := refsClassify(r, planner, src, c, l); f != nil {
			f.Blocking = fail[f.Class]
			findings = append(findings, f)
		}
	}
	if err := e.writeFindings(findings, format); err != nil {
		e.errorf("%v", err)
		return exitError
	}
	counts := map[string]int{}
	blocking := false
	for _, f := range findings {
		counts[f.Class]++
		blocking = blocking || f.Blocking
	}
	if len(findings) == 0 {
		fmt.Fprintf(e.stderr, "no quote affected (%s)\n", src.name)
	} else {
		var parts []string
		for _, c := range refsClasses {
			if counts[c] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[c], refsClassTitle[c]))
			}
		}
		fmt.Fprintf(e.stderr, "%d %s affected: %s (%s)\n", len(findings), plural(len(findings), "quote", "quotes"), strings.Join(parts, ", "), src.name)
	}
	if blocking {
		return exitError
	}
	return exitOK
}

// refsClassify decides what the change c does to the quote l, read from the
// work tree's page: nil when nothing (the link was re-pinned in the change,
// or was written for the work tree, or its text is untouched and there is
// nothing to refresh).
func refsClassify(r *target.Resolver, planner *pin.Planner, src *refsDiffSource, c *refsChange, l *refsLink) *refsFinding {
	f := &refsFinding{Page: l.Page, PageLine: l.Line, PageColumn: l.Column, Link: l.Link, Path: l.Path,
		File: l.Page, Line: int64(l.Line), EndLine: int64(l.Line)}
	where := fmt.Sprintf("quoted in %s:%d", l.Page, l.Line)
	c.prepare()
	oldSel := refsSelect(c.oldText, l.Link)
	if oldSel != nil {
		f.Quoted = oldSel.Label()
		where += fmt.Sprintf(" (%s %s)", c.oldPath, f.Quoted)
	}
	if c.newPath == "" {
		f.Class = refsDeleted
		f.Message = fmt.Sprintf("%s: %s was deleted: the page needs review", where, c.oldPath)
		return f
	}
	renamed := l.Path == c.oldPath && c.newPath != c.oldPath
	dest := l.Link
	if renamed {
		dest = quotelink.Dest(l.Page, c.newPath, target.SplitLink(l.Link).Fragment)
	}
	if !l.Pinned {
		// A link without md5 was written for BASE if BASE's page had it;
		// otherwise for the work tree, which it quotes as its author meant.
		if old := src.basePage(l.Page); old == nil || !bytes.Contains(old, []byte(l.Link)) {
			if !renamed {
				return nil
			}
		}
		dest = pin.AddMD5(dest, c.oldMD5)
	} else if !renamed {
		if _, err := r.Resolve(l.Page, dest); err == nil {
			return nil // pinned to the work tree: re-pinned in this change, or never affected
		}
	}
	ml := l.mdl
	ml.Dest = dest
	if ml.Start < 0 {
		ml.Start, ml.End = 0, len(dest) // only planned, never written
	}
	planner.AcceptCommand = func(string) string { return "textfrag pin --write --accept-changed " + l.Page }
	ch := planner.PlanLink(l.Page, ml)
	newSel := func(d string) *rfc5147.Selection {
		if d == "" {
			return nil
		}
		res, err := r.Resolve(l.Page, d)
		if err != nil {
			return nil
		}
		return res.Selection
	}
	f.File = c.newPath
	switch ch.Class {
	case pin.OK, pin.Refreshed, pin.Moved:
		fix := ch.NewDest
		if fix == "" {
			fix = dest
		}
		sel := newSel(fix)
		if sel != nil {
			f.Line, f.EndLine = refsSpan(sel)
		}
		switch {
		case renamed:
			f.Class = refsRenamed
			if !l.Pinned {
				fix = quotelink.Dest(l.Page, c.newPath, target.SplitLink(l.Link).Fragment)
				if sel != nil {
					fix = refsWithPositions(fix, l.Link, sel)
				}
			}
			f.Fix = fix
			f.Message = fmt.Sprintf("%s: %s was renamed to %s with the quoted text intact: change the link to %s", where, c.oldPath, c.newPath, fix)
		case ch.Class == pin.Moved:
			f.Class = refsMoved
			if l.Pinned {
				f.Fix = fix
				f.Message = fmt.Sprintf("%s: the quoted text is intact at %s: `textfrag pin --write %s` updates the link", where, sel.Label(), l.Page)
			} else {
				f.Fix = refsWithPositions(l.Link, l.Link, sel)
				f.Message = fmt.Sprintf("%s: the quoted text moved to %s, and the link has no md5 to follow it: change it to %s", where, sel.Label(), f.Fix)
			}
		case !l.Pinned:
			return nil // in place, and no md5 to refresh
		default:
			f.Class = refsRefresh
			f.Fix = fix
			f.Message = fmt.Sprintf("%s: the quoted text is unchanged in place, the file changed elsewhere: `textfrag pin --write %s` refreshes the link's md5", where, l.Page)
		}
		return f
	}
	// Changed, gone (the quoted text deleted, or no version found) or an
	// error (an ambiguous move): a person must look.
	f.Class = refsChanged
	f.Line, f.EndLine = 1, 1
	located, deleted := false, false
	if oldSel != nil {
		hunks, nNew := c.hunks, c.newLines
		qs, qe := int(oldSel.Lines.Start), int(oldSel.Lines.End)
		covered, added := 0, 0 // quoted lines the hunks remove, lines they add
		for _, h := range hunks {
			inside := h.OldStart < qe && qs < h.OldEnd || h.OldStart == h.OldEnd && qs < h.OldStart && h.OldStart < qe
			if !inside {
				continue
			}
			covered += min(h.OldEnd, qe) - max(h.OldStart, qs)
			added += h.NewEnd - h.NewStart
			if located {
				continue
			}
			if h.NewEnd > h.NewStart {
				f.Line, f.EndLine = int64(h.NewStart+1), int64(h.NewEnd)
			} else { // lines deleted: the line after them
				f.Line = int64(max(1, min(h.NewStart+1, nNew)))
				f.EndLine = f.Line
			}
			located = true
		}
		deleted = located && qe > qs && covered == qe-qs && added == 0
	}
	if !located {
		if sel := newSel(ch.NewDest); sel != nil {
			f.Line, f.EndLine = refsSpan(sel)
		}
	}
	what := "the quoted text changed"
	if deleted {
		what = "the quoted lines were deleted"
	}
	f.Message = fmt.Sprintf("%s: %s: review the page, then re-pin it with `textfrag pin --write --accept-changed %s`", where, what, l.Page)
	if renamed {
		f.Message = fmt.Sprintf("%s: %s was renamed to %s and %s: review the page and change the link", where, c.oldPath, c.newPath, what)
	}
	if ch.Class == pin.Error || ch.Class == pin.Gone && !deleted {
		f.Message += " (" + oneLine(ch.Message) + ")"
	}
	return f
}

// refsSpan returns the human lines a selection shows on: its first and
// last line (a position: the line it stands before).
func refsSpan(sel *rfc5147.Selection) (int64, int64) {
	first, last := sel.Lines.Start+1, sel.Lines.End
	if last < first {
		first = max(1, min(first, sel.TotalLines))
		last = first
	}
	return first, last
}

// refsWithPositions returns dest with the positions of written (a link
// destination) replaced by those of sel, in written's scheme.
func refsWithPositions(dest, written string, sel *rfc5147.Selection) string {
	f, err := rfc5147.Parse(target.SplitLink(written).Fragment)
	if err != nil {
		return dest
	}
	span := sel.Lines
	if f.Scheme == rfc5147.Char {
		span = sel.Chars
	}
	f.Start, f.End = span.Start, span.End
	if f.Form != rfc5147.Position {
		f.Form = rfc5147.Range
	}
	head, _, _ := strings.Cut(dest, "#")
	return head + "#" + f.String()
}

// refsSelect applies the fragment of dest, without its checks, to t.
func refsSelect(t *rfc5147.Text, dest string) *rfc5147.Selection {
	if t == nil {
		return nil
	}
	f, err := rfc5147.Parse(target.SplitLink(dest).Fragment)
	if err != nil {
		return nil
	}
	f.Checks = nil
	sel, err := t.Select(f)
	if err != nil {
		return nil
	}
	return sel
}

// writeFindings writes the findings in format.
func (e *env) writeFindings(findings []*refsFinding, format string) error {
	switch format {
	case "json":
		if findings == nil {
			findings = []*refsFinding{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(findings)
	case "github":
		for _, f := range findings {
			fmt.Fprintln(e.stdout, refsAnnotation(f))
		}
	default:
		for _, f := range findings {
			fmt.Fprintln(e.stdout, termsafe.Escape(fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Class, f.Message), ""))
		}
	}
	return nil
}

// refsAnnotation writes a finding as a GitHub Actions workflow command on
// the changed lines: "::error file=src/a.go,line=14,endLine=15,title=quoted
// text changed::quoted in docs/guide.md:3 …", escaped as check escapes.
func refsAnnotation(f *refsFinding) string {
	level := "warning"
	if f.Blocking {
		level = "error"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "::%s file=%s,line=%d", level, escapeGitHubProperty(termsafe.Escape(f.File, "\r\n")), f.Line)
	if f.EndLine > f.Line {
		fmt.Fprintf(&b, ",endLine=%d", f.EndLine)
	}
	b.WriteString(",title=")
	b.WriteString(escapeGitHubProperty(refsClassTitle[f.Class]))
	b.WriteString("::")
	b.WriteString(escapeGitHubData(termsafe.Escape(f.Message, "\r\n")))
	return b.String()
}

// refsGitChanges finds, with git, how the quoted files changed between the
// commit base ("" for the merge base with the default branch) and the work
// tree. git compares only commits and the index (no work tree, so no
// filter runs); each quoted file's work tree bytes are read here.
func refsGitChanges(h *pin.History, rootDir string, root *os.Root, base string, quoted map[string]bool, links []*refsLink) (*refsDiffSource, error) {
	top, err := h.Top()
	if err != nil {
		return nil, err
	}
	realRoot, err := pin.RealPath(rootDir)
	if err != nil {
		return nil, err
	}
	prefix, err := filepath.Rel(top, realRoot)
	if err != nil || !filepath.IsLocal(prefix) && prefix != "." {
		return nil, fmt.Errorf("the project root %s is outside its git work tree %s", rootDir, top)
	}
	prefix = filepath.ToSlash(prefix)
	repoPath := func(p string) string { return path.Join(prefix, p) }
	projectPath := func(p string) (string, bool) {
		if prefix == "." {
			return p, true
		}
		rest, ok := strings.CutPrefix(p, prefix+"/")
		return rest, ok
	}
	commit, name, err := refsBaseCommit(h, base)
	if err != nil {
		return nil, err
	}
	src := &refsDiffSource{name: "changes since " + name, changes: map[string]*refsChange{}}

	// Renames as git finds them, among committed and staged changes.
	out, err := h.Git(nil, "diff", "--cached", "-M", "--name-status", "-z", "--no-ext-diff", "--no-textconv", commit, "--")
	if err != nil {
		return nil, err
	}
	renamedTo, renamedFrom := map[string]string{}, map[string]string{}
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		st := fields[i]
		if st == "" {
			continue
		}
		if (st[0] == 'R' || st[0] == 'C') && i+2 < len(fields) {
			from, okFrom := projectPath(fields[i+1])
			to, okTo := projectPath(fields[i+2])
			if st[0] == 'R' && okFrom && okTo {
				renamedTo[from], renamedFrom[to] = to, from
			}
			i += 2
			continue
		}
		i++
	}

	// The BASE version of each quoted file (its old name, for a file
	// renamed since).
	var specs []string
	oldName := func(p string) string {
		if from, ok := renamedFrom[p]; ok {
			return from
		}
		return p
	}
	for p := range quoted {
		if filepath.IsLocal(filepath.FromSlash(p)) {
			specs = append(specs, commit+":"+repoPath(oldName(p)))
		}
	}
	blobs, err := refsCatFiles(h, specs)
	if err != nil {
		return nil, err
	}
	// The work tree's version: known by its md5 from resolving the links,
	// so only a file that differs is read again.
	sums := map[string][16]byte{}
	for _, l := range links {
		if l.res != nil {
			sums[l.Path] = l.res.Selection.Entity.MD5
		}
	}
	read := func(p string) []byte {
		data, err := realm.ReadFile(root, filepath.FromSlash(p), 0)
		if err != nil {
			return nil
		}
		return data
	}
	for p := range quoted {
		from := oldName(p)
		old, ok := blobs[commit+":"+repoPath(from)]
		if !ok {
			continue // added since BASE: nothing to compare with
		}
		if sum, ok := sums[p]; ok && from == p && sum == md5.Sum(old) {
			continue // unchanged
		}
		c := &refsChange{oldPath: from, newPath: p, old: old, cur: read(p)}
		if c.cur == nil {
			c.newPath = ""
			if to, ok := renamedTo[p]; ok {
				if cur := read(to); cur != nil {
					c.newPath, c.cur = to, cur
				}
			}
		}
		if c.newPath == c.oldPath && bytes.Equal(c.old, c.cur) {
			continue
		}
		src.changes[p] = c
	}

	// The BASE version of the pages whose unpinned links quote a changed
	// file: whether BASE had such a link.
	specs = specs[:0]
	for _, l := range links {
		if !l.Pinned && src.changes[l.Path] != nil {
			specs = append(specs, commit+":"+repoPath(l.Page))
		}
	}
	pages, err := refsCatFiles(h, specs)
	if err != nil {
		return nil, err
	}
	src.basePage = func(page string) []byte { return pages[commit+":"+repoPath(page)] }
	return src, nil
}

// refsBaseCommit resolves BASE to a commit, or finds the merge base of HEAD
// and the default branch; it returns the commit and how to name it.
func refsBaseCommit(h *pin.History, base string) (commit, name string, err error) {
	verify := func(ref string) (string, bool) {
		out, err := h.Git(nil, "rev-parse", "--verify", "-q", "--end-of-options", ref+"^{commit}")
		return strings.TrimSpace(string(out)), err == nil && len(out) > 0
	}
	if base != "" {
		if strings.HasPrefix(base, "-") {
			return "", "", fmt.Errorf("%s: not a commit", base)
		}
		c, ok := verify(base)
		if !ok {
			return "", "", fmt.Errorf("%s: no such commit in the repository (in a shallow clone, fetch it, or check out with fetch-depth: 0)", base)
		}
		return c, base, nil
	}
	var branch string
	if out, err := h.Git(nil, "symbolic-ref", "-q", "refs/remotes/origin/HEAD"); err == nil {
		branch = strings.TrimSpace(string(out))
	}
	candidates := []string{branch, "refs/remotes/origin/main", "refs/remotes/origin/master", "refs/heads/main", "refs/heads/master"}
	for _, ref := range candidates {
		if ref == "" {
			continue
		}
		if _, ok := verify(ref); !ok {
			continue
		}
		out, err := h.Git(nil, "merge-base", ref, "HEAD")
		if err != nil {
			return "", "", fmt.Errorf("no merge base of HEAD and %s: %v; give BASE", ref, err)
		}
		c := strings.TrimSpace(string(out))
		short := strings.TrimPrefix(strings.TrimPrefix(ref, "refs/remotes/"), "refs/heads/")
		return c, fmt.Sprintf("the merge base %s of HEAD and %s", c[:min(len(c), 12)], short), nil
	}
	return "", "", errors.New("no default branch (origin/HEAD, origin/main, origin/master, main or master) to compare with: give BASE")
}

// refsCatFiles reads objects named "commit:path" with one git cat-file
// process; a missing one is left out of the map.
func refsCatFiles(h *pin.History, specs []string) (map[string][]byte, error) {
	var req bytes.Buffer
	var asked []string
	for _, s := range specs {
		if !strings.ContainsAny(s, "\n\r") {
			req.WriteString(s + "\n")
			asked = append(asked, s)
		}
	}
	blobs := map[string][]byte{}
	if len(asked) == 0 {
		return blobs, nil
	}
	out, err := h.Git(&req, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	for _, s := range asked {
		header, rest, ok := bytes.Cut(out, []byte("\n"))
		if !ok {
			return nil, fmt.Errorf("git cat-file: the output ends early")
		}
		out = rest
		h := string(header)
		if strings.HasSuffix(h, " missing") || strings.HasSuffix(h, " ambiguous") {
			continue
		}
		f := strings.Fields(h)
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: unexpected header %q", h)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size+1 > len(out) {
			return nil, fmt.Errorf("git cat-file: bad header %q", h)
		}
		if f[1] == "blob" {
			blobs[s] = out[:size:size]
		}
		out = out[size+1:]
	}
	return blobs, nil
}

// refsStdinChanges reads a unified diff whose new side is the work tree,
// and rebuilds the old side of each file it changes.
func refsStdinChanges(in io.Reader, root *os.Root) (*refsDiffSource, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	files, err := parseUnifiedDiff(data)
	if err != nil {
		return nil, err
	}
	src := &refsDiffSource{name: "the diff on stdin", changes: map[string]*refsChange{}}
	olds := map[string][]byte{}
	added := map[string]bool{} // added or renamed here: no BASE page of that name
	for _, f := range files {
		if f.newPath != f.oldPath {
			added[f.newPath] = true
		}
		if f.oldPath == "" || f.binary {
			continue // added, or nothing to rebuild
		}
		c := &refsChange{oldPath: f.oldPath, newPath: f.newPath}
		if f.newPath == "" {
			c.old = f.deletedContent()
		} else {
			c.cur, err = realm.ReadFile(root, filepath.FromSlash(f.newPath), 0)
			if err != nil {
				return nil, fmt.Errorf("%s: %v; the diff's new side must be the work tree", f.newPath, err)
			}
			if c.old, err = f.reverse(c.cur); err != nil {
				return nil, err
			}
		}
		olds[f.oldPath] = c.old
		src.changes[c.oldPath] = c
		if c.newPath != "" {
			src.changes[c.newPath] = c
		}
	}
	src.basePage = func(page string) []byte {
		if old, ok := olds[page]; ok {
			return old
		}
		if added[page] {
			return nil
		}
		data, err := realm.ReadFile(root, filepath.FromSlash(page), 0)
		if err != nil {
			return nil
		}
		return data
	}
	return src, nil
}
