package refs

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/realm"
)

// FromGit finds, with git, how the files the links quote changed between
// the commit base ("" for the merge base of HEAD and the default branch)
// and the work tree under root (rootDir, the project root). git compares
// only commits and the index (never the work tree, so no filter of the
// tree runs); each quoted file's work tree bytes are read here, through
// root, and only when their md5 (from the links' resolution) differs.
func FromGit(h *pin.History, rootDir string, root *os.Root, base string, links []*Link) (*Changes, error) {
	quoted := map[string]bool{}
	for _, l := range links {
		quoted[l.Path] = true
	}
	top, err := h.Top()
	if err != nil {
		return nil, fmt.Errorf("%v; without a repository, give the changes as a unified diff on stdin: --diff -", err)
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
	commit, name, err := baseCommit(h, base)
	if err != nil {
		return nil, err
	}
	src := &Changes{Name: "changes since " + name, Files: map[string]*Change{}}

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
	// The work tree's version: known by its md5 from resolving the links,
	// so only a file that differs is read again, and a BASE version equal
	// to it is not kept (the loop below would skip it).
	sums := map[string][16]byte{}
	for _, l := range links {
		if l.Resolved {
			sums[l.Path] = l.EntityMD5
		}
	}
	same := map[string]*[16]byte{} // spec → the md5 that makes it unchanged; nil: keep it
	for p := range quoted {
		if filepath.IsLocal(filepath.FromSlash(p)) {
			spec := commit + ":" + repoPath(oldName(p))
			specs = append(specs, spec)
			sum, ok := sums[p]
			if prev, seen := same[spec]; !ok || oldName(p) != p || seen && (prev == nil || *prev != sum) {
				same[spec] = nil
			} else {
				same[spec] = &sum
			}
		}
	}
	blobs, err := catFiles(h, specs, func(spec string, blob []byte) bool {
		sum := same[spec]
		return sum == nil || *sum != md5.Sum(blob)
	})
	if err != nil {
		return nil, err
	}
	readErr := map[string]error{}
	read := func(p string) []byte {
		data, err := realm.ReadFile(root, filepath.FromSlash(p), 0)
		if err != nil {
			readErr[p] = err
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
		c := &Change{oldPath: from, newPath: p, old: old, cur: read(p)}
		if c.cur == nil {
			c.newPath = ""
			if err := readErr[p]; err != nil && !errors.Is(err, fs.ErrNotExist) {
				c.unreadable = err.Error()
			}
			if to, ok := renamedTo[p]; ok {
				if cur := read(to); cur != nil {
					c.newPath, c.cur = to, cur
				}
			}
		}
		if c.newPath == c.oldPath && bytes.Equal(c.old, c.cur) {
			continue
		}
		src.Files[p] = c
	}

	// The BASE version of the pages whose unpinned links quote a changed
	// file: whether BASE had such a link.
	specs = specs[:0]
	for _, l := range links {
		if !l.Pinned && src.Files[l.Path] != nil {
			specs = append(specs, commit+":"+repoPath(l.Page))
		}
	}
	pages, err := catFiles(h, specs, nil)
	if err != nil {
		return nil, err
	}
	src.BasePage = func(page string) []byte { return pages[commit+":"+repoPath(page)] }
	return src, nil
}

// baseCommit resolves BASE to a commit, or finds the merge base of HEAD
// and the default branch; it returns the commit and how to name it.
func baseCommit(h *pin.History, base string) (commit, name string, err error) {
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

// catFiles reads objects named "commit:path" with one git cat-file
// process; a missing one is left out of the map, and so is one that keep
// (if not nil) refuses. Each blob is read into a buffer of its own size as
// git writes it, so that only the blobs kept are held, not all of git's
// output.
//
// cat-file --batch reads one name a line, so a path holding a line break
// (which a page or a quoted file may have) cannot be asked for by name: it
// is looked up with rev-parse, which takes it as an argument, and asked for
// by object id. (Left out, its file would look added since BASE, and the
// quotes in it or of it would be dropped.)
func catFiles(h *pin.History, specs []string, keep func(spec string, blob []byte) bool) (map[string][]byte, error) {
	var req bytes.Buffer
	var asked []string // the spec of each line of req
	for _, s := range specs {
		name := s
		if strings.ContainsAny(s, "\n\r") {
			out, err := h.Git(nil, "rev-parse", "--verify", "-q", "--end-of-options", s)
			if err != nil || len(bytes.TrimSpace(out)) == 0 {
				continue // no such file at that commit (rev-parse -q says nothing)
			}
			name = string(bytes.TrimSpace(out))
		}
		req.WriteString(name + "\n")
		asked = append(asked, s)
	}
	blobs := map[string][]byte{}
	if len(asked) == 0 {
		return blobs, nil
	}
	err := h.GitStream(&req, func(r io.Reader) error {
		br := bufio.NewReaderSize(r, 64<<10)
		for _, s := range asked {
			header, err := br.ReadString('\n')
			if err != nil {
				return fmt.Errorf("git cat-file: the output ends early")
			}
			h := strings.TrimSuffix(header, "\n")
			if strings.HasSuffix(h, " missing") || strings.HasSuffix(h, " ambiguous") {
				continue
			}
			f := strings.Fields(h)
			if len(f) != 3 {
				return fmt.Errorf("git cat-file: unexpected header %q", h)
			}
			size, err := strconv.Atoi(f[2])
			if err != nil || size < 0 {
				return fmt.Errorf("git cat-file: bad header %q", h)
			}
			blob := make([]byte, size+1)
			if _, err := io.ReadFull(br, blob); err != nil {
				return fmt.Errorf("git cat-file: bad header %q", h)
			}
			blob = blob[:size:size]
			if f[1] == "blob" && (keep == nil || keep(s, blob)) {
				blobs[s] = blob
			}
		}
		return nil
	}, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	return blobs, nil
}
