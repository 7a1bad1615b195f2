package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitIn runs git in dir with the site's environment.
func (s *pinSite) gitIn(dir string, args ...string) {
	s.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Pin Test", "-c", "user.email=pin@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = s.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// runEnv runs the built textfrag in the site's directory with extra
// environment variables.
func (s *pinSite) runEnv(extra []string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	return s.runWith(extra, "", args...)
}

// plantFakeRepo commits, under dir in the site, a directory that git takes
// for a repository when run below dir/sub: a real repository's git
// directory (HEAD, objects/, refs/, index) whose config makes git run
// programs that create files named marker-KEY in markers.
func (s *pinSite) plantFakeRepo(dir, markers string) {
	s.t.Helper()
	src := s.t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "sub"), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "sub", "a.txt"), []byte("evil\n"), 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.gitIn(src, "init", "-q")
	s.gitIn(src, "add", "-A")
	s.gitIn(src, "commit", "-q", "-m", "evil")
	if err := os.CopyFS(s.path(dir), os.DirFS(filepath.Join(src, ".git"))); err != nil {
		s.t.Fatal(err)
	}
	os.RemoveAll(s.path(dir + "/hooks"))
	run := func(key string) string { return "touch " + filepath.Join(markers, "marker-"+key) + "; false" }
	cfg := s.path(dir + "/config")
	for _, kv := range [][2]string{
		{"core.bare", "false"},
		{"core.worktree", "sub"},
		{"core.fsmonitor", run("fsmonitor")},
		{"core.pager", run("pager")},
		{"pager.log", run("pagerlog")},
		{"diff.external", run("diffexternal")},
		{"core.sshCommand", run("ssh")},
		{"credential.helper", "!" + run("credential")},
		{"core.askPass", run("askpass")},
		{"gpg.program", run("gpg")},
		{"log.showSignature", "true"},
		{"core.hooksPath", filepath.Join(s.path(dir), "evilhooks")},
	} {
		s.gitIn(s.dir, "config", "-f", cfg, kv[0], kv[1])
	}
}

// TestPinGitRunsNoProgramFromTheTree: a committed directory that git takes
// for a repository, whose config names programs, must not make pin run
// them, with or without --write, whether or not the project itself is a
// git repository, and whatever GIT_DIR says. History comes from the
// project's own repository.
func TestPinGitRunsNoProgramFromTheTree(t *testing.T) {
	old := "one\ntwo\nthree\n"
	for _, projectRepo := range []bool{true, false} {
		markers := t.TempDir()
		s := newPinSite(t, nil)
		if projectRepo {
			s.git("init", "-q")
		}
		s.plantFakeRepo("vendor/evil", markers)
		s.write("vendor/evil/sub/a.txt", old)
		// The second link's md5 is in no version: pin reads every one,
		// the index's too (which is what runs an fsmonitor).
		s.write("doc.md", "[q](vendor/evil/sub/a.txt#line=1,2;md5="+md5hex(old)+")\n\n[r](vendor/evil/sub/a.txt#line=0,1;md5=00000000000000000000000000000000)\n")
		if projectRepo {
			s.commit("project")
		}
		s.write("vendor/evil/sub/a.txt", "zero\n"+old) // the quoted text moved down one line
		// The user's own configuration is read (it may hold safe.directory),
		// but its programs do not run either.
		userCfg := "[core]\n\tfsmonitor = \"touch " + filepath.Join(markers, "marker-user-fsmonitor") + "\"\n" +
			"[diff]\n\texternal = \"touch " + filepath.Join(markers, "marker-user-diff") + "\"\n"
		if err := os.WriteFile(filepath.Join(s.home, ".gitconfig"), []byte(userCfg), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"pin", "doc.md"}, {"pin", "--check", "doc.md"}, {"pin", "--write", "--accept-changed", "doc.md"}} {
			_, stderr, _ := s.runEnv([]string{"GIT_DIR=" + s.path("vendor/evil"), "GIT_WORK_TREE=" + s.path("vendor/evil/sub")}, args...)
			if entries, _ := os.ReadDir(markers); len(entries) > 0 {
				t.Fatalf("project repo %v: %v ran a program named in git configuration: %s created\n%s", projectRepo, args, entries[0].Name(), stderr)
			}
			if projectRepo && args[1] == "doc.md" && !strings.Contains(stderr, "doc.md:1:1: moved: vendor/evil/sub/a.txt line 2 → line 3") {
				t.Errorf("%v: the project's own history should relocate the quote:\n%s", args, stderr)
			}
			if !projectRepo && !strings.Contains(stderr, "review: ") {
				t.Errorf("%v: without a project repository there is no history:\n%s", args, stderr)
			}
		}
		if projectRepo && !strings.Contains(s.read("doc.md"), "#line=2,3;md5=") {
			t.Errorf("pin --write did not relocate the link: %s", s.read("doc.md"))
		}
	}
}
