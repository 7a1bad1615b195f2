package pin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// This file runs git: on the project's own repository only, with
// settings that start no program from the tree.

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

// gitCommands counts the git processes made, for the tests that bound
// them.
var gitCommands atomic.Int64

// command returns git with args on the project's repository.
func (repo *gitRepo) command(args ...string) *exec.Cmd {
	gitCommands.Add(1)
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
