package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// pinHistory finds old versions of files in git history. It runs the git
// command; without git, or outside a repository, there is no history.
type pinHistory struct {
	// versions caches each file's list of versions, newest first.
	versions map[string]*pinFileVersions
	// earlier holds, by real path, the contents of files as they were before
	// this pin run rewrote them, newest first: newer than any commit.
	earlier map[string][][]byte
}

// pinFileVersions is where the versions of one file are found.
type pinFileVersions struct {
	top  string          // the repository's top directory
	refs []pinVersionRef // commits newest first, then the index
	err  error           // why there is no history
}

// pinVersionRef names one version of a file: the object git cat-file reads.
type pinVersionRef struct {
	commit string // "" for the index
	path   string // the file's path in the repository at that commit
}

// pinOldVersion is a version of a file found in history.
type pinOldVersion struct {
	commit  string // full hash; "" for the index (staged changes)
	path    string // repository path at that commit
	raw     []byte
	earlier bool // the file as it was before this pin run rewrote it
}

// describe names the version for people: "commit 1a2b3c4d" or "the index".
func (v *pinOldVersion) describe() string {
	switch {
	case v.earlier:
		return "the file as it was before this pin run rewrote it"
	case v.commit == "":
		return "the version staged in the git index"
	}
	return "commit " + v.commit[:min(len(v.commit), 12)]
}

func newPinHistory() *pinHistory {
	return &pinHistory{versions: map[string]*pinFileVersions{}, earlier: map[string][][]byte{}}
}

// remember records the contents a file had before pin rewrote it.
func (h *pinHistory) remember(real string, raw []byte) {
	h.earlier[real] = append([][]byte{raw}, h.earlier[real]...)
}

// pinErrNoHistory wraps every reason why a file's history cannot be read.
var pinErrNoHistory = errors.New("no history is available")

// find returns the newest version of the file at osPath (following renames)
// for which match reports true, or nil when no version matches. err says
// why history could not be searched.
func (h *pinHistory) find(osPath string, match func(raw []byte) bool) (*pinOldVersion, error) {
	real, err := pinRealPath(osPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", pinErrNoHistory, err)
	}
	for _, raw := range h.earlier[real] {
		if match(raw) {
			return &pinOldVersion{raw: raw, earlier: true}, nil
		}
	}
	fv, ok := h.versions[real]
	if !ok {
		fv = pinListVersions(real)
		h.versions[real] = fv
	}
	if fv.err != nil {
		return nil, fv.err
	}
	return fv.search(match)
}

func pinListVersions(real string) *pinFileVersions {
	fv := &pinFileVersions{}
	dir := filepath.Dir(real)
	out, err := pinRunGit(dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		fv.err = err
		return fv
	}
	top := strings.TrimRight(string(out), "\r\n")
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || strings.HasPrefix(rel, "..") {
		fv.err = fmt.Errorf("%w: %s is outside the git work tree %s", pinErrNoHistory, real, top)
		return fv
	}
	rel = filepath.ToSlash(rel)
	if strings.ContainsAny(rel, "\n\r") {
		fv.err = fmt.Errorf("%w: the file name holds a line break", pinErrNoHistory)
		return fv
	}
	fv.top = top
	// %x01 starts each commit; -z ends each name with NUL. --follow lists
	// the name the file had in each commit, across renames.
	out, err = pinRunGit(top, nil, "log", "--follow", "--format=%x01%H", "--name-only", "-z", "--", rel)
	if err != nil {
		fv.err = err
		return fv
	}
	name := rel
	for _, rec := range strings.Split(string(out), "\x01") {
		if rec == "" {
			continue
		}
		hash, names, _ := strings.Cut(rec, "\x00")
		// A merge lists no names: the file kept the name it has in the
		// newer commits.
		for _, n := range strings.Split(strings.TrimLeft(names, "\n"), "\x00") {
			if n != "" && !strings.ContainsAny(n, "\n\r") {
				name = n
				break
			}
		}
		fv.refs = append(fv.refs, pinVersionRef{commit: hash, path: name})
	}
	// Last, the index: a version staged but never committed. (When it is
	// also in a commit, the commit is the better name for it.)
	fv.refs = append(fv.refs, pinVersionRef{path: rel})
	return fv
}

// search reads the versions with one git cat-file process, newest first,
// and returns the first that matches.
func (fv *pinFileVersions) search(match func(raw []byte) bool) (*pinOldVersion, error) {
	var req bytes.Buffer
	for _, r := range fv.refs {
		fmt.Fprintf(&req, "%s:%s\n", r.commit, r.path)
	}
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = fv.top
	cmd.Stdin = &req
	cmd.Env = pinGitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", pinErrNoHistory, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, pinGitError(err, &stderr)
	}
	defer func() {
		// Stop reading as soon as a version matched; git then gets EPIPE.
		stdout.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	rd := bufio.NewReader(stdout)
	seen := map[string]bool{}
	for _, r := range fv.refs {
		header, err := rd.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("%w: git cat-file: %v %s", pinErrNoHistory, err, strings.TrimSpace(stderr.String()))
		}
		if h := strings.TrimRight(header, "\n"); strings.HasSuffix(h, " missing") || strings.HasSuffix(h, " ambiguous") {
			continue // no such file at that commit (the name may hold spaces)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, fmt.Errorf("%w: git cat-file: unexpected header %q", pinErrNoHistory, header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("%w: git cat-file: bad header %q", pinErrNoHistory, header)
		}
		body := make([]byte, size+1) // the object and a newline
		if _, err := io.ReadFull(rd, body); err != nil {
			return nil, fmt.Errorf("%w: git cat-file: %v", pinErrNoHistory, err)
		}
		if f[1] != "blob" || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		if raw := body[:size]; match(raw) {
			return &pinOldVersion{commit: r.commit, path: r.path, raw: raw}, nil
		}
	}
	return nil, nil
}

// pinRunGit runs git in dir and returns its standard output.
func pinRunGit(dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	cmd.Env = pinGitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, pinGitError(err, &stderr)
	}
	return out, nil
}

// pinGitEnv is the environment git runs in: the user's, with messages in
// English so that "not a git repository" can be recognized.
func pinGitEnv() []string {
	return append(os.Environ(), "LC_ALL=C", "LANGUAGE=", "GIT_TERMINAL_PROMPT=0")
}

func pinGitError(err error, stderr *bytes.Buffer) error {
	msg := strings.TrimSpace(stderr.String())
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("%w: git is not installed", pinErrNoHistory)
	case strings.Contains(msg, "not a git repository"):
		return fmt.Errorf("%w: not in a git repository", pinErrNoHistory)
	case msg != "":
		return fmt.Errorf("%w: git: %s", pinErrNoHistory, oneLine(msg))
	}
	return fmt.Errorf("%w: git: %v", pinErrNoHistory, err)
}
