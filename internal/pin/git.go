package pin

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

// History finds old versions of files in git history. It runs the git
// command on the project's own repository only (gitRepo); without git, or
// outside a repository, there is no history.
type History struct {
	// root is the project root, from which the repository is found.
	root string
	// repo is the project's repository, found on first use.
	repo *gitRepo
	// versions caches each file's list of versions, newest first.
	versions map[string]*fileVersions
	// earlier holds, by real path, the contents of files as they were before
	// this pin run rewrote them, newest first: newer than any commit.
	earlier map[string][][]byte
	// RememberedName names the versions given to Remember in messages;
	// default "the file as it was before this pin run rewrote it".
	RememberedName string
}

// fileVersions is where the versions of one file are found.
type fileVersions struct {
	repo *gitRepo
	refs []versionRef // commits newest first, then the index
	err  error        // why there is no history
}

// versionRef names one version of a file: the object git cat-file reads.
type versionRef struct {
	commit string // "" for the index
	path   string // the file's path in the repository at that commit
}

// oldVersion is a version of a file found in history.
type oldVersion struct {
	commit  string // full hash; "" for the index (staged changes)
	path    string // repository path at that commit
	raw     []byte
	earlier bool   // given to Remember: the file as it was before this pin run rewrote it
	name    string // how to name it, if not so
}

// describe names the version for people: "commit 1a2b3c4d" or "the index".
func (v *oldVersion) describe() string {
	switch {
	case v.earlier && v.name != "":
		return v.name
	case v.earlier:
		return "the file as it was before this pin run rewrote it"
	case v.commit == "":
		return "the version staged in the git index"
	}
	return "commit " + v.commit[:min(len(v.commit), 12)]
}

// NewHistory returns the history of the files under the project root: the
// git repository at or above root, found on first use.
func NewHistory(root string) *History {
	return &History{root: root, versions: map[string]*fileVersions{}, earlier: map[string][][]byte{}}
}

// Remember records the contents a file had before pin rewrote it.
func (h *History) Remember(real string, raw []byte) {
	h.earlier[real] = append([][]byte{raw}, h.earlier[real]...)
}

// remembers reports whether raw is one of the versions given to Remember
// for the file at osPath (the very bytes, not a copy).
func (h *History) remembers(osPath string, raw []byte) bool {
	if h == nil || len(raw) == 0 {
		return false
	}
	real, err := RealPath(osPath)
	if err != nil {
		return false
	}
	for _, e := range h.earlier[real] {
		if len(e) == len(raw) && &e[0] == &raw[0] {
			return true
		}
	}
	return false
}

// errNoHistory wraps every reason why a file's history cannot be read.
var errNoHistory = errors.New("no history is available")

// find returns the newest version of the file at osPath (following renames)
// for which match reports true, or nil when no version matches. err says
// why history could not be searched.
func (h *History) find(osPath string, match func(raw []byte) bool) (*oldVersion, error) {
	if h == nil {
		return nil, fmt.Errorf("%w: none was given", errNoHistory)
	}
	real, err := RealPath(osPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoHistory, err)
	}
	for _, raw := range h.earlier[real] {
		if match(raw) {
			return &oldVersion{raw: raw, earlier: true, name: h.RememberedName}, nil
		}
	}
	fv, ok := h.versions[real]
	if !ok {
		if h.repo == nil {
			h.repo = findRepo(h.root)
		}
		fv = h.repo.listVersions(real)
		h.versions[real] = fv
	}
	if fv.err != nil {
		return nil, fv.err
	}
	return fv.search(match)
}

func (repo *gitRepo) listVersions(real string) *fileVersions {
	fv := &fileVersions{repo: repo}
	if repo.err != nil {
		fv.err = repo.err
		return fv
	}
	top := repo.top
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		fv.err = fmt.Errorf("%w: %s is outside the project's git work tree %s", errNoHistory, real, top)
		return fv
	}
	rel = filepath.ToSlash(rel)
	if strings.ContainsAny(rel, "\n\r") {
		fv.err = fmt.Errorf("%w: the file name holds a line break", errNoHistory)
		return fv
	}
	// %x01 starts each commit; -z ends each name with NUL. --follow lists
	// the name the file had in each commit, across renames.
	out, err := repo.run(nil, "log", "--follow", "--no-ext-diff", "--no-textconv", "--no-color", "--format=%x01%H", "--name-only", "-z", "--", rel)
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
		fv.refs = append(fv.refs, versionRef{commit: hash, path: name})
	}
	// Last, the index: a version staged but never committed. (When it is
	// also in a commit, the commit is the better name for it.)
	fv.refs = append(fv.refs, versionRef{path: rel})
	return fv
}

// search reads the versions with one git cat-file process, newest first,
// and returns the first that matches.
func (fv *fileVersions) search(match func(raw []byte) bool) (*oldVersion, error) {
	var req bytes.Buffer
	for _, r := range fv.refs {
		fmt.Fprintf(&req, "%s:%s\n", r.commit, r.path)
	}
	cmd := fv.repo.command("cat-file", "--batch")
	cmd.Stdin = &req
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoHistory, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, gitError(err, &stderr)
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
			return nil, fmt.Errorf("%w: git cat-file: %v %s", errNoHistory, err, strings.TrimSpace(stderr.String()))
		}
		if h := strings.TrimRight(header, "\n"); strings.HasSuffix(h, " missing") || strings.HasSuffix(h, " ambiguous") {
			continue // no such file at that commit (the name may hold spaces)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, fmt.Errorf("%w: git cat-file: unexpected header %q", errNoHistory, header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("%w: git cat-file: bad header %q", errNoHistory, header)
		}
		body := make([]byte, size+1) // the object and a newline
		if _, err := io.ReadFull(rd, body); err != nil {
			return nil, fmt.Errorf("%w: git cat-file: %v", errNoHistory, err)
		}
		if f[1] != "blob" || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		if raw := body[:size]; match(raw) {
			return &oldVersion{commit: r.commit, path: r.path, raw: raw}, nil
		}
	}
	return nil, nil
}

// gitRepo is the project's own git repository, named explicitly on every
// git command line: git never discovers a repository by itself, so a
// directory in the tree that looks like one (a committed bare repository
// with its own config) is never used.
type gitRepo struct {
	top    string // the work tree's top directory, symlinks resolved
	gitDir string // its git directory, absolute
	err    error  // why there is no repository: wraps errNoHistory
}

// findRepo finds the repository of the project root once, as git finds
// it from there (the root's own work tree, or one enclosing it), but never a
// bare repository: safe.bareRepository=explicit.
func findRepo(root string) *gitRepo {
	repo := &gitRepo{}
	abs, err := filepath.Abs(root)
	if err != nil {
		repo.err = fmt.Errorf("%w: %v", errNoHistory, err)
		return repo
	}
	cmd := exec.Command("git", append(gitSafety(), "rev-parse", "--show-toplevel", "--absolute-git-dir")...)
	cmd.Dir = abs
	out, err := gitOutput(cmd)
	if err != nil {
		repo.err = err
		return repo
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 || lines[0] == "" || lines[1] == "" {
		repo.err = fmt.Errorf("%w: the project root %s is not in a git work tree", errNoHistory, abs)
		return repo
	}
	repo.top, repo.gitDir = lines[0], lines[1]
	if t, err := filepath.EvalSymlinks(repo.top); err == nil {
		repo.top = t
	}
	// git's work tree is what the repository's configuration says
	// (core.worktree, "/" or another directory); what is compared must be
	// the directory that holds the repository's .git, the project's own
	// files, or a config would make every file of the project look absent
	// from history (refs --diff would then find nothing).
	holder, err := gitHolder(abs)
	if err != nil || holder != repo.top {
		if err == nil {
			err = fmt.Errorf("%s holds the repository's .git", holder)
		}
		repo.err = fmt.Errorf("%w: the repository %s sets its work tree to %s (core.worktree), not the directory that holds it (%v); textfrag compares only the project's own files: unset it (git --git-dir=%s config --unset core.worktree)",
			errNoHistory, repo.gitDir, repo.top, err, repo.gitDir)
	}
	return repo
}

// gitHolder returns the nearest directory at or above dir (symlinks
// resolved) that holds a .git entry (a directory, or a "gitdir:" file of a
// linked work tree or a submodule): the top of the work tree git finds from
// dir when no configuration moves it.
func gitHolder(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	for d := real; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no .git at or above %s", real)
		}
	}
}

// gitSafety are the options every git command starts with. Configuration
// is read from the usual places (system, the user's global file, the
// repository's own .git/config; files in the tree are never configuration),
// and the settings below override it, wherever it comes from, so that
// nothing makes git start another program: no pager, no fsmonitor hook, no
// hooks, no external diff or textconv, no credential helper, ssh or askpass,
// no transport at all (a partial clone's lazy fetch included), no signature
// checks (gpg). The commands pin runs (rev-parse, log, cat-file --batch)
// read only: no filters, no index refresh.
func gitSafety() []string {
	return []string{
		"--no-pager", "--literal-pathspecs", "--no-optional-locks",
		"-c", "safe.bareRepository=explicit",
		"-c", "core.fsmonitor=",
		"-c", "core.hooksPath=" + os.DevNull,
		"-c", "core.pager=cat",
		"-c", "diff.external=",
		"-c", "credential.helper=",
		"-c", "core.sshCommand=",
		"-c", "core.askPass=",
		"-c", "core.gitProxy=",
		"-c", "protocol.allow=never",
		"-c", "log.showSignature=false",
		"-c", "core.untrackedCache=false",
		"-c", "gc.auto=0",
		"-c", "maintenance.auto=false",
		"-c", "color.ui=false",
	}
}

// command returns git with args on the project's repository.
func (repo *gitRepo) command(args ...string) *exec.Cmd {
	pre := append(gitSafety(), "--git-dir="+repo.gitDir, "--work-tree="+repo.top)
	cmd := exec.Command("git", append(pre, args...)...)
	cmd.Dir = repo.top
	cmd.Env = gitEnv()
	return cmd
}

// run runs git with args on the project's repository and returns its
// standard output.
func (repo *gitRepo) run(stdin io.Reader, args ...string) ([]byte, error) {
	cmd := repo.command(args...)
	cmd.Stdin = stdin
	return gitOutput(cmd)
}

func gitOutput(cmd *exec.Cmd) ([]byte, error) {
	if cmd.Env == nil {
		cmd.Env = gitEnv()
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, gitError(err, &stderr)
	}
	return out, nil
}

// gitKeptEnv are the GIT_* variables passed on to git: they choose the
// user's own configuration files (trusted, and where safe.directory is set)
// or stop repository discovery early. No other GIT_* variable reaches git:
// none can then name another repository, work tree, index or object store,
// or a program (GIT_DIR, GIT_INDEX_FILE, GIT_PAGER, GIT_EXTERNAL_DIFF,
// GIT_SSH_COMMAND, GIT_TRACE…).
var gitKeptEnv = map[string]bool{
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_NOSYSTEM": true, "GIT_CEILING_DIRECTORIES": true,
}

// gitEnv is the environment git runs in: the user's, with only the GIT_*
// variables of gitKeptEnv, with messages in English so that "not a git
// repository" can be recognized, no prompts, no optional locks and no lazy
// fetches.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(strings.ToUpper(name), "GIT_") && !gitKeptEnv[name], name == "LC_ALL", name == "LANGUAGE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "LANGUAGE=", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0",
		"GIT_NO_LAZY_FETCH=1", "GIT_NO_REPLACE_OBJECTS=1")
}

func gitError(err error, stderr *bytes.Buffer) error {
	msg := strings.TrimSpace(stderr.String())
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("%w: git is not installed", errNoHistory)
	case strings.Contains(msg, "not a git repository"):
		return fmt.Errorf("%w: not in a git repository", errNoHistory)
	case msg != "":
		return fmt.Errorf("%w: git: %s", errNoHistory, oneLine(msg))
	}
	return fmt.Errorf("%w: git: %v", errNoHistory, err)
}

// RealPath returns the absolute path of name with symlinks followed.
func RealPath(name string) (string, error) {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
}

// Git runs git with args on the project's repository, with the settings
// every command of this package runs with (gitSafety, gitEnv), and
// returns its standard output. It is for read-only commands that need no
// work tree content (rev-parse, merge-base, diff --cached, cat-file
// --batch): a command that reads the work tree may run the filters the
// tree's .gitattributes name. The error wraps no history being available
// when there is no repository.
func (h *History) Git(stdin io.Reader, args ...string) ([]byte, error) {
	if h.repo == nil {
		h.repo = findRepo(h.root)
	}
	if h.repo.err != nil {
		return nil, h.repo.err
	}
	return h.repo.run(stdin, args...)
}

// GitStream runs git as Git does, but hands its standard output to read
// as it comes instead of holding all of it: for output as large as the
// files it names (cat-file --batch). What read leaves unread is
// discarded; read's error is returned unless git failed.
func (h *History) GitStream(stdin io.Reader, read func(io.Reader) error, args ...string) error {
	if h.repo == nil {
		h.repo = findRepo(h.root)
	}
	if h.repo.err != nil {
		return h.repo.err
	}
	cmd := h.repo.command(args...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return gitError(err, &stderr)
	}
	rerr := read(out)
	_, _ = io.Copy(io.Discard, out) // so that git can finish writing
	if err := cmd.Wait(); err != nil {
		return gitError(err, &stderr)
	}
	return rerr
}

// Top returns the top directory of the project's git work tree (symlinks
// resolved), or an error when there is none.
func (h *History) Top() (string, error) {
	if h.repo == nil {
		h.repo = findRepo(h.root)
	}
	return h.repo.top, h.repo.err
}
