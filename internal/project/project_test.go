package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// write creates the files of a tree under dir: name → content; a name
// ending in "/" is a directory.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func realTemp(t *testing.T) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestFindRoot(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		cwd    string
		root   string
		origin Origin
	}{
		{"git directory", map[string]string{"repo/.git/": "", "repo/docs/": ""}, "repo/docs", "repo", FromGit},
		{"git file of a linked work tree", map[string]string{"wt/.git": "gitdir: /elsewhere/.git/worktrees/wt\n", "wt/docs/a/": ""}, "wt/docs/a", "wt", FromGit},
		{"a .git file that is no gitdir file is not a repository", map[string]string{"x/.git": "hello", "x/docs/": ""}, "x/docs", "x/docs", FromWorkingDirectory},
		{"nearest textfrag.toml wins over git", map[string]string{"repo/.git/": "", "repo/docs/textfrag.toml": "", "repo/docs/guide/": ""}, "repo/docs/guide", "repo/docs", FromConfig},
		{"textfrag.toml beside .git", map[string]string{"repo/.git/": "", "repo/textfrag.toml": "", "repo/docs/": ""}, "repo/docs", "repo", FromConfig},
		{"textfrag.toml above a submodule", map[string]string{"textfrag.toml": "strict = true", "repo/.git/": "", "repo/sub/.git": "gitdir: ../.git/modules/sub\n", "repo/sub/docs/": ""}, "repo/sub/docs", ".", FromConfig},
		{"nested repositories: the nearest", map[string]string{"outer/.git/": "", "outer/inner/.git/": "", "outer/inner/docs/": ""}, "outer/inner/docs", "outer/inner", FromGit},
		{"a .git committed beside or below the working directory plays no part", map[string]string{"repo/.git/": "", "repo/docs/": "", "repo/docs/sub/.git/": "", "repo/src/.git/": ""}, "repo/docs", "repo", FromGit},
		{"toml root key", map[string]string{"repo/.git/": "", "repo/docs/textfrag.toml": "root = \"..\"\n", "repo/docs/": ""}, "repo/docs", "repo", FromConfig},
		{"nothing", map[string]string{"plain/docs/": ""}, "plain/docs", "plain/docs", FromWorkingDirectory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := realTemp(t)
			if IsGitTop(dir) || IsGitTop(filepath.Dir(dir)) {
				t.Skip("the temporary directory is inside a git work tree")
			}
			write(t, dir, tt.files)
			p, err := Find(filepath.Join(dir, tt.cwd))
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, tt.root); p.Root != want || p.Origin != tt.origin {
				t.Errorf("Find = %s (%v), want %s (%v)", p.Root, p.Origin, want, tt.origin)
			}
		})
	}
}

// TestFindAgreesWithGit checks the walk against git's own idea of the top
// of a work tree, for a repository and a linked work tree of it.
func TestFindAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test")
	}
	dir := realTemp(t)
	git := func(dir string, args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	repo := filepath.Join(dir, "repo")
	write(t, repo, map[string]string{"docs/a.md": "x"})
	git(dir, "init", "-q", repo)
	git(repo, "add", ".")
	git(repo, "commit", "-qm", "x")
	git(repo, "worktree", "add", "-q", filepath.Join(dir, "wt"))
	for _, top := range []string{repo, filepath.Join(dir, "wt")} {
		p, err := Find(filepath.Join(top, "docs"))
		if err != nil {
			t.Fatal(err)
		}
		if want := git(filepath.Join(top, "docs"), "rev-parse", "--show-toplevel"); p.Root != want {
			t.Errorf("Find from %s/docs = %s, git says %s", top, p.Root, want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := realTemp(t)
	write(t, dir, map[string]string{".git/": "", "docs/": "", "docs/textfrag.toml": `
root = ".."
source = "."
output = "../public"
charsets = ["*.latin1=ISO-8859-1", "*.w=windows-1252"]
allowHosts = ["raw.example.org"]
remoteMaxBytes = 1000
strict = true
highlight = false
`})
	c, err := Load(filepath.Join(dir, "docs", ConfigName))
	if err != nil {
		t.Fatal(err)
	}
	if *c.Root != dir || *c.Source != filepath.Join(dir, "docs") || *c.Output != filepath.Join(dir, "public") {
		t.Errorf("paths = %s, %s, %s: want them absolute against docs/", *c.Root, *c.Source, *c.Output)
	}
	var got []string
	for _, s := range c.Settings() {
		got = append(got, s.Flag+"="+strings.Join(s.Values, "|"))
	}
	want := []string{"root=" + dir, "o=" + filepath.Join(dir, "public"), "charset=*.latin1=ISO-8859-1|*.w=windows-1252",
		"remote-max-bytes=1000", "strict=true", "highlight=false"}
	if !slices.Equal(got, want) {
		t.Errorf("Settings:\n got %q\nwant %q", got, want)
	}
	// allowHosts is kept, not applied (only the command line opens the
	// network), and said so.
	if len(c.AllowHosts) != 1 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `--allow-host "raw.example.org"`) {
		t.Errorf("AllowHosts %q, Warnings %q", c.AllowHosts, c.Warnings)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, toml string
		want       []string
	}{
		{"unknown key names file, line and key", "strict = true\n\nallowhosts = [\"x\"]\n", []string{"textfrag.toml:3:", `unknown key "allowhosts"`, "allowHosts"}},
		{"unknown table key", "[remote]\ntimeout = \"1s\"\n", []string{"textfrag.toml:", `"remote`}},
		{"wrong type", "remoteMaxBytes = \"big\"\n", []string{"textfrag.toml:1:"}},
		{"syntax", "strict = \n", []string{"textfrag.toml:1:"}},
		{"root outside the repository", "root = \"../..\"\n", []string{"textfrag.toml: root:", "outside", "--root"}},
		{"absolute output outside", "output = \"/tmp/x\"\n", []string{"textfrag.toml: output:", "outside"}},
		{"empty path", "cacheDir = \"\"\n", []string{"cacheDir", "empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := realTemp(t)
			write(t, dir, map[string]string{"repo/.git/": "", "repo/docs/textfrag.toml": tt.toml})
			_, err := Find(filepath.Join(dir, "repo", "docs"))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestConfigSymlinkCannotWiden: a committed symbolic link inside the
// repository that leads out of it cannot serve as a root.
func TestConfigSymlinkCannotWiden(t *testing.T) {
	dir := realTemp(t)
	write(t, dir, map[string]string{"repo/.git/": "", "repo/textfrag.toml": "root = \"up\"\n"})
	if err := os.Symlink("/", filepath.Join(dir, "repo", "up")); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(filepath.Join(dir, "repo")); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Fatalf("Find = %v, want an error: root leads outside the repository", err)
	}
}

// A textfrag.toml that is not a regular file (a FIFO, say) fails at once
// instead of waiting for a writer.
func TestConfigNotRegular(t *testing.T) {
	dir := realTemp(t)
	if err := syscall.Mkfifo(filepath.Join(dir, ConfigName), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Find(dir); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Find = %v, want an error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Find waits on a FIFO named textfrag.toml")
	}
}

// The textfrag.toml files the repository shows, in README.md and in
// examples/site, are valid, with every key they name.
func TestShippedConfigs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```toml\n# textfrag.toml")
	block, _, ok2 := strings.Cut("# textfrag.toml"+block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no textfrag.toml example")
	}
	dir := realTemp(t)
	write(t, dir, map[string]string{".git/": "", ConfigName: block})
	c, err := Load(filepath.Join(dir, ConfigName))
	if err != nil {
		t.Fatalf("README.md's example: %v", err)
	}
	if c.Source == nil || c.Output == nil || len(c.AllowHosts) == 0 {
		t.Errorf("README.md's example sets %+v", c)
	}
	// Uncommented, every key of README.md's example is one Config knows.
	var lines []string
	for l := range strings.Lines(block) {
		lines = append(lines, strings.TrimPrefix(l, "# "))
	}
	write(t, dir, map[string]string{ConfigName: strings.Join(lines[1:], "")})
	if _, err := Load(filepath.Join(dir, ConfigName)); err != nil {
		t.Errorf("README.md's example, uncommented: %v", err)
	}

	example := filepath.Join("..", "..", "examples", "site", ConfigName)
	if _, err := Load(example); err != nil {
		t.Errorf("%s: %v", example, err)
	}
}
