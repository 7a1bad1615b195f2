package integration

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// moduleRoot is the directory of this repository's go.mod.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			bytes.HasPrefix(data, []byte("module github.com/textfrag/textfrag\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of github.com/textfrag/textfrag above the test's directory")
		}
		dir = parent
	}
}

// result is what a command did.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) output() string { return r.stdout + r.stderr }

// run runs a command in dir with exactly the environment env. A command that
// cannot start fails the test; a non-zero exit status is returned.
func run(t testing.TB, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// mustRun runs a command that must succeed and returns its standard output.
func mustRun(t testing.TB, dir string, env []string, name string, args ...string) string {
	t.Helper()
	r := run(t, dir, env, name, args...)
	if r.code != 0 {
		t.Fatalf("%s %s in %s: exit status %d\n%s", name, strings.Join(args, " "), dir, r.code, r.output())
	}
	return r.stdout
}

// gitEnv is the environment for git and the tools that run it: the test's,
// without the GIT_ variables of any git that runs the tests, with a global
// configuration of its own (an identity, no signing, no system file).
func gitEnv(t testing.TB) []string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	writeFile(t, cfg, "[user]\n\tname = textfrag test\n\temail = test@textfrag.invalid\n"+
		"[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_GLOBAL="+cfg, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
}

// setEnv returns env with the variables kvs ("K=V") set, replacing earlier
// values.
func setEnv(env []string, kvs ...string) []string {
	out := make([]string, 0, len(env)+len(kvs))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		replaced := false
		for _, n := range kvs {
			if strings.HasPrefix(n, k+"=") {
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, kv)
		}
	}
	return append(out, kvs...)
}

// writeFile writes a file, making its directory.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeExecutable writes a shell script.
func writeExecutable(t testing.TB, path, content string) {
	t.Helper()
	writeFile(t, path, content)
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// snapshotRepo makes a git repository at dst holding this repository's work
// tree as it is now (tracked and untracked files, not the ignored ones), in
// one commit, and returns that commit. pre-commit clones a hook repository
// at a rev, so the hooks under test must be committed somewhere: here, not
// in the developer's own repository.
func snapshotRepo(t testing.TB, root, dst string, env []string) string {
	t.Helper()
	list := mustRun(t, root, env, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	n := 0
	for _, rel := range strings.Split(list, "\x00") {
		if rel == "" {
			continue
		}
		src := filepath.Join(root, filepath.FromSlash(rel))
		info, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			link, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			err = os.Symlink(link, to)
			if err != nil {
				t.Fatal(err)
			}
		case info.Mode().IsRegular():
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
				t.Fatal(err)
			}
		default:
			continue // a submodule's directory
		}
		n++
	}
	if n == 0 {
		t.Fatalf("git ls-files listed no file in %s", root)
	}
	mustRun(t, dst, env, "git", "init", "-q")
	mustRun(t, dst, env, "git", "add", "-A")
	mustRun(t, dst, env, "git", "commit", "-q", "-m", "snapshot of the work tree under test")
	return strings.TrimSpace(mustRun(t, dst, env, "git", "rev-parse", "HEAD"))
}

var (
	textfragOnce sync.Once
	textfragBin  string
	textfragErr  string
)

// textfragBinary builds cmd/textfrag once per test binary.
func textfragBinary(t testing.TB) string {
	t.Helper()
	textfragOnce.Do(func() {
		dir, err := os.MkdirTemp("", "textfrag-integration-")
		if err != nil {
			textfragErr = err.Error()
			return
		}
		textfragBin = filepath.Join(dir, "textfrag")
		cmd := exec.Command("go", "build", "-o", textfragBin, "./cmd/textfrag")
		cmd.Dir = moduleRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			textfragErr = "go build ./cmd/textfrag: " + err.Error() + "\n" + string(out)
		}
	})
	if textfragErr != "" {
		t.Fatal(textfragErr)
	}
	return textfragBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if textfragBin != "" {
		os.RemoveAll(filepath.Dir(textfragBin))
	}
	os.Exit(code)
}
