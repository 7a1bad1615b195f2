package pin

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// This file is step 1 of relocation: find the version of a file a link
// was pinned to (by its md5) wherever git still has it — HEAD's history,
// the index, other refs, ORIG_HEAD, the reflog — reading each version at
// most once per run and never more than the limits allow.

// History finds old versions of files in git history. It runs the git
// command on the project's own repository only (gitRepo); without git, or
// outside a repository, there is no history. Zero limits mean the
// defaults.
type History struct {
	// RememberedName names the versions given to Remember in messages;
	// default "the file as it was before this pin run rewrote it".
	RememberedName string
	// MaxVersions is how many versions of one file are read at most, in
	// all the searches of a run; default DefaultMaxVersions.
	MaxVersions int
	// MaxBytes is how many bytes of one file's versions are read at most;
	// default DefaultMaxBytes.
	MaxBytes int64
	// MaxVersionBytes: a version larger than this is skipped, unread;
	// default DefaultMaxVersionBytes.
	MaxVersionBytes int64

	// root is the project root, from which the repository is found.
	root string
	// repo is the project's repository, found on first use.
	repo *gitRepo
	// files holds, by real path, what is known of each file's history.
	files map[string]*fileHistory
	// earlier holds, by real path, the contents of files as they were before
	// this pin run rewrote them, newest first: newer than any commit.
	earlier map[string][][]byte
	// fates holds what git's history says of missing paths (missing.go).
	fates map[string]pathFate
	// bytesRead and versionsRead count what was read from git, for tests.
	bytesRead    int64
	versionsRead int
}

// The default limits of a History: 1,000 versions or 256 MiB of one file
// (whichever comes first), and no version over 32 MiB.
const (
	DefaultMaxVersions     = 1000
	DefaultMaxBytes        = 256 << 20
	DefaultMaxVersionBytes = 32 << 20
)

// ErrHistoryLimit is the error of a search that stopped at a limit before
// it found the version (errors.Is); it also wraps errNoHistory.
var ErrHistoryLimit = errors.New("history search limit reached")

// fileHistory is what is known of the history of one file: the versions
// to search, in order, and how far the search has read.
type fileHistory struct {
	refs   []versionRef
	stage  int  // sources listed so far (sources)
	listed bool // every source is listed
	next   int  // refs[:next] are read or skipped
	// sums maps the md5 of each version read to its index in refs.
	sums  map[[16]byte]int
	blobs map[string]bool // blob ids read or skipped
	read  int
	bytes int64
	// skipped counts versions over MaxVersionBytes; limited says which
	// limit stopped the search ("" while none has).
	skipped int
	limited string
	err     error
}

// versionRef names one version of a file: the object git cat-file reads.
type versionRef struct {
	commit string // "" for the index
	path   string // the file's path in the repository at that commit
	source int    // which source listed it (sources)
	ref    string // the ref it was reached from, when git says
	blob   string // object id, once asked
	size   int64  // -1: no such file there
}

// sources are where versions are looked for, in order: HEAD's history
// (git log --follow) and the index; commits only other refs reach
// (branches, tags, remote-tracking branches, the upstream); those only
// ORIG_HEAD reaches (a branch as it was before a rebase, reset or merge);
// those only the reflog reaches.
var sources = []struct {
	args  []string // git log arguments before "--"
	where string   // how a version found there is described
}{
	{[]string{"HEAD"}, "in HEAD's history"},
	{[]string{"--source", "--all", "--not", "HEAD"}, "on %s, not in HEAD's history"},
	{[]string{"ORIG_HEAD", "--not", "HEAD", "--all"}, "reached only from ORIG_HEAD (the branch as it was before the last rebase, reset or merge)"},
	{[]string{"--reflog", "--not", "HEAD", "--all"}, "reached only from the reflog (no branch holds it any more)"},
}

// oldVersion is a version of a file found in history.
type oldVersion struct {
	commit  string // full hash; "" for the index (staged changes)
	path    string // repository path at that commit
	raw     []byte
	earlier bool   // given to Remember: the file as it was before this pin run rewrote it
	name    string // how to name it, if not so
	where   string // where it was found, for people
}

// describe names the version for people: "commit 1a2b3c4d5e6f (in HEAD's
// history)", "the version staged in the git index".
func (v *oldVersion) describe() string {
	switch {
	case v.earlier && v.name != "":
		return v.name
	case v.earlier:
		return "the file as it was before this pin run rewrote it"
	case v.commit == "":
		return "the version staged in the git index"
	}
	s := "commit " + v.commit[:min(len(v.commit), 12)]
	if v.where != "" {
		s += " (" + v.where + ")"
	}
	return s
}

// NewHistory returns the history of the files under the project root: the
// git repository at or above root, found on first use.
func NewHistory(root string) *History {
	return &History{root: root, files: map[string]*fileHistory{}, earlier: map[string][][]byte{}}
}

// Remember records the contents a file had before pin rewrote it.
func (h *History) Remember(real string, raw []byte) {
	h.earlier[real] = append([][]byte{raw}, h.earlier[real]...)
}

// errNoHistory wraps every reason why a file's history cannot be read.
var errNoHistory = errors.New("no history is available")

func (h *History) maxVersions() int {
	if h.MaxVersions > 0 {
		return h.MaxVersions
	}
	return DefaultMaxVersions
}

func (h *History) maxBytes() int64 {
	if h.MaxBytes > 0 {
		return h.MaxBytes
	}
	return DefaultMaxBytes
}

func (h *History) maxVersionBytes() int64 {
	if h.MaxVersionBytes > 0 {
		return h.MaxVersionBytes
	}
	return DefaultMaxVersionBytes
}

// find returns a version of the file at osPath (following renames) whose
// bytes have md5 want, or nil when no version within reach has it. err
// says why history could not be searched, or which limit stopped the
// search (ErrHistoryLimit). When match is not nil, it decides instead
// (an md5 of the text in another charset: md5=…,latin1), in a search of
// its own, bounded by the same limits.
func (h *History) find(osPath string, want [16]byte, match func(raw []byte) bool) (*oldVersion, error) {
	if h == nil {
		return nil, fmt.Errorf("%w: none was given", errNoHistory)
	}
	real, err := RealPath(osPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoHistory, err)
	}
	is := func(sum [16]byte, raw []byte) bool { return sum == want }
	if match != nil {
		is = func(_ [16]byte, raw []byte) bool { return match(raw) }
	}
	for _, raw := range h.earlier[real] {
		if is(md5.Sum(raw), raw) {
			return &oldVersion{raw: raw, earlier: true, name: h.RememberedName}, nil
		}
	}
	if h.repo == nil {
		h.repo = findRepo(h.root)
	}
	fh := h.files[real]
	if fh == nil {
		fh = &fileHistory{sums: map[[16]byte]int{}, blobs: map[string]bool{}}
		h.files[real] = fh
		fh.err = h.repo.err
	}
	if fh.err != nil {
		return nil, fh.err
	}
	if i, ok := fh.sums[want]; ok && match == nil {
		// Read before, for another link: read the one version again.
		return h.read(fh, real, i, &want)
	}
	if match != nil {
		// A search of its own, on the versions listed so far and more.
		own := &fileHistory{refs: fh.refs, stage: fh.stage, listed: fh.listed, sums: map[[16]byte]int{}, blobs: map[string]bool{}}
		defer func() { fh.refs, fh.stage, fh.listed = own.refs, own.stage, own.listed }()
		fh = own
	}
	v, err := h.search(fh, real, is)
	if err != nil || v != nil {
		return v, err
	}
	switch {
	case fh.limited != "":
		return nil, fmt.Errorf("%w: %w: %s", errNoHistory, ErrHistoryLimit, fh.limited)
	case fh.skipped > 0:
		return nil, fmt.Errorf("%w: %w: %d versions of the file are over %d bytes (History.MaxVersionBytes) and were not read", errNoHistory, ErrHistoryLimit, fh.skipped, h.maxVersionBytes())
	}
	return nil, nil
}

// read reads version i of fh again (its md5 is known to be want).
func (h *History) read(fh *fileHistory, real string, i int, want *[16]byte) (*oldVersion, error) {
	var found *oldVersion
	err := h.catBlobs([]string{fh.refs[i].blob}, func(_ int, raw []byte) bool {
		if md5.Sum(raw) == *want {
			found = h.version(fh.refs[i], raw)
		}
		return false
	})
	return found, err
}

func (h *History) version(r versionRef, raw []byte) *oldVersion {
	where := sources[r.source].where
	if strings.Contains(where, "%s") {
		ref := r.ref
		if ref == "" {
			ref = "another ref"
		}
		where = fmt.Sprintf(where, strings.TrimPrefix(ref, "refs/heads/"))
	}
	if r.commit == "" {
		where = ""
	}
	return &oldVersion{commit: r.commit, path: r.path, raw: raw, where: where}
}

// search reads the versions of fh not read yet, in order, source after
// source, until is reports true of one (given its md5) or a limit is
// reached.
func (h *History) search(fh *fileHistory, real string, is func(sum [16]byte, raw []byte) bool) (*oldVersion, error) {
	for {
		if fh.next == len(fh.refs) {
			if fh.listed || fh.limited != "" {
				return nil, nil
			}
			if err := h.list(fh, real); err != nil {
				return nil, err
			}
			continue
		}
		// Choose the versions to read: unread blobs within the limits.
		var ids []string
		var at []int
		for ; fh.next < len(fh.refs); fh.next++ {
			r := fh.refs[fh.next]
			if r.size < 0 || fh.blobs[r.blob] {
				continue
			}
			if r.size > h.maxVersionBytes() {
				fh.blobs[r.blob] = true
				fh.skipped++
				continue
			}
			if fh.read >= h.maxVersions() {
				fh.limited = fmt.Sprintf("read %d versions of the file (History.MaxVersions) without finding it", fh.read)
				break
			}
			if fh.bytes+r.size > h.maxBytes() {
				fh.limited = fmt.Sprintf("read %d bytes of the file's versions (History.MaxBytes is %d) without finding it", fh.bytes, h.maxBytes())
				break
			}
			fh.blobs[r.blob] = true
			fh.read++
			fh.bytes += r.size
			ids, at = append(ids, r.blob), append(at, fh.next)
		}
		var found *oldVersion
		err := h.catBlobs(ids, func(k int, raw []byte) bool {
			sum := md5.Sum(raw)
			if _, ok := fh.sums[sum]; !ok {
				fh.sums[sum] = at[k]
			}
			if is(sum, raw) {
				found = h.version(fh.refs[at[k]], raw)
				// Versions after this one are read by a later search.
				for _, j := range at[k+1:] {
					delete(fh.blobs, fh.refs[j].blob)
					fh.read--
					fh.bytes -= fh.refs[j].size
				}
				if k+1 < len(at) {
					fh.next = at[k+1]
				}
				return true
			}
			return false
		})
		if err != nil || found != nil {
			return found, err
		}
		if fh.limited != "" {
			return nil, nil
		}
	}
}

// list adds the versions of the next source to fh: the commits git log
// --follow lists, each with the file's name there, and their blob ids and
// sizes (git cat-file --batch-check: nothing is read).
func (h *History) list(fh *fileHistory, real string) error {
	if fh.stage >= len(sources) {
		fh.listed = true
		return nil
	}
	src := fh.stage
	fh.stage++
	rel, err := h.repo.relPath(real)
	if err != nil {
		fh.err = err
		return err
	}
	if src == 2 {
		// No ORIG_HEAD: nothing to list (git log would fail).
		if _, err := h.repo.run(nil, "rev-parse", "--verify", "--quiet", "ORIG_HEAD^{commit}"); err != nil {
			return nil
		}
	}
	// %x01 starts each commit, %x02 the ref it was reached from; -z ends
	// each name with NUL. --follow lists the name the file had in each
	// commit, across renames.
	args := append([]string{"log", "--follow", "--no-ext-diff", "--no-textconv", "--no-color", "--format=%x01%H%x02%S", "--name-only", "-z"}, sources[src].args...)
	out, err := h.repo.run(nil, append(args, "--", rel)...)
	if err != nil {
		if src == 0 {
			fh.err = err
			return err
		}
		return nil // other sources are a bonus: a failure there ends nothing
	}
	seen := map[string]bool{}
	for _, r := range fh.refs {
		seen[r.commit] = true
	}
	name := rel
	first := len(fh.refs)
	for _, rec := range strings.Split(string(out), "\x01") {
		if rec == "" {
			continue
		}
		head, names, _ := strings.Cut(rec, "\x00")
		hash, ref, _ := strings.Cut(head, "\x02")
		// A merge lists no names: the file kept the name it has in the
		// newer commits.
		for _, n := range strings.Split(strings.TrimLeft(names, "\n"), "\x00") {
			if n != "" && !strings.ContainsAny(n, "\n\r") {
				name = n
				break
			}
		}
		if seen[hash] {
			continue
		}
		seen[hash] = true
		fh.refs = append(fh.refs, versionRef{commit: hash, path: name, source: src, ref: ref})
	}
	if src == 0 {
		// Last of HEAD's, the index: a version staged but never committed.
		// (When it is also in a commit, the commit is the better name.)
		fh.refs = append(fh.refs, versionRef{path: rel, source: src})
	}
	return h.sizes(fh.refs[first:])
}

// relPath returns the repository path of the file at real path real.
func (repo *gitRepo) relPath(real string) (string, error) {
	rel, err := filepath.Rel(repo.top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%w: %s is outside the project's git work tree %s", errNoHistory, real, repo.top)
	}
	rel = filepath.ToSlash(rel)
	if strings.ContainsAny(rel, "\n\r") {
		return "", fmt.Errorf("%w: the file name holds a line break", errNoHistory)
	}
	return rel, nil
}

// sizes asks git for the object id and size of each version (cat-file
// --batch-check reads no content).
func (h *History) sizes(refs []versionRef) error {
	if len(refs) == 0 {
		return nil
	}
	var req bytes.Buffer
	for _, r := range refs {
		fmt.Fprintf(&req, "%s:%s\n", r.commit, r.path)
	}
	out, err := h.repo.run(&req, "cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)")
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i := range refs {
		refs[i].size = -1
		if i >= len(lines) {
			continue
		}
		f := strings.Fields(lines[i])
		if len(f) != 3 || f[1] != "blob" {
			continue // missing, ambiguous, or not a file there
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || n < 0 {
			continue
		}
		refs[i].blob, refs[i].size = f[0], n
	}
	return nil
}

// catBlobs reads the blobs ids with one git cat-file process, in order,
// and hands each to use (k its index in ids) until use returns true.
func (h *History) catBlobs(ids []string, use func(k int, raw []byte) bool) error {
	if len(ids) == 0 {
		return nil
	}
	var req bytes.Buffer
	for _, id := range ids {
		req.WriteString(id + "\n")
	}
	cmd := h.repo.command("cat-file", "--batch")
	cmd.Stdin = &req
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("%w: %v", errNoHistory, err)
	}
	if err := cmd.Start(); err != nil {
		return gitError(err, &stderr)
	}
	defer func() {
		// Stop reading as soon as a version matched; git then gets EPIPE.
		stdout.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	rd := bufio.NewReader(stdout)
	for k := range ids {
		header, err := rd.ReadString('\n')
		if err != nil {
			return fmt.Errorf("%w: git cat-file: %v %s", errNoHistory, err, strings.TrimSpace(stderr.String()))
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return fmt.Errorf("%w: git cat-file: unexpected header %q", errNoHistory, header)
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || size < 0 || size > h.maxVersionBytes() {
			return fmt.Errorf("%w: git cat-file: bad header %q", errNoHistory, header)
		}
		body := make([]byte, size+1) // the object and a newline
		if _, err := io.ReadFull(rd, body); err != nil {
			return fmt.Errorf("%w: git cat-file: %v", errNoHistory, err)
		}
		h.bytesRead += size
		h.versionsRead++
		if use(k, body[:size]) {
			return nil
		}
	}
	return nil
}
