package main

// pin --write never loses data: interrupted at any step, in process by
// injected failures and from outside by SIGKILL, every Markdown file is
// byte for byte either as it was or as pin means to write it, and the only
// files left behind are temporary files of killed processes, which the next
// pin to write in their directory removes.

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pinDocFor is the i-th Markdown file of an interruption test: links to pin,
// line endings and a BOM that must survive.
func pinDocFor(i int) string {
	doc := fmt.Sprintf("# Page %d\n\n[box](../../src/a.go#line=%d,%d \"dedent\")\n\nInline [x](../../src/a.go#char=%d,%d) and [y](/src/a.go#line=%d).\n\n[stale length](../../src/a.go#line=1,2;length=1;md5=%s)\n",
		i, i%20, i%20+3, i, i+9, i%30, md5hex(numberedSource(1, 40)))
	switch i % 3 {
	case 1:
		doc = strings.ReplaceAll(doc, "\n", "\r\n")
	case 2:
		doc = "\uFEFF" + doc + "no final newline"
	}
	return doc
}

// pinInterruptSite writes n Markdown files over dirs directories under
// docs/, all quoting src/a.go, and returns their slash paths and contents.
func pinInterruptSite(t *testing.T, dir string, n, dirs int) map[string]string {
	t.Helper()
	old := map[string]string{}
	files := map[string]string{"src/a.go": numberedSource(1, 40)}
	for i := range n {
		name := fmt.Sprintf("docs/d%02d/p%03d.md", i%dirs, i)
		old[name] = pinDocFor(i)
		files[name] = old[name]
	}
	e2eWrite(t, dir, files)
	return old
}

// pinGolden returns what pin --write makes of the files old: it pins a copy.
func pinGolden(t *testing.T, old map[string]string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"src/a.go": numberedSource(1, 40)}
	for name, content := range old {
		files[name] = content
	}
	e2eWrite(t, dir, files)
	if _, stderr, code := pinRunIn("pin", "--write", "--root", dir, filepath.Join(dir, "docs")); code != 0 {
		t.Fatalf("golden pin --write: exit %d\n%s", code, stderr)
	}
	golden := map[string]string{}
	for name, content := range old {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) == content {
			t.Fatalf("golden pin did not change %s", name)
		}
		golden[name] = string(b)
	}
	return golden
}

// pinOldOrNew checks that every file is byte for byte its old or its new
// version, and returns how many are new.
func pinOldOrNew(t *testing.T, dir string, old, golden map[string]string) (nNew int) {
	t.Helper()
	for name := range old {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		switch {
		case err != nil:
			t.Errorf("%s: %v", name, err)
		case string(b) == golden[name]:
			nNew++
		case string(b) != old[name]:
			t.Errorf("%s is neither the old nor the new version:\n%q", name, b)
		}
	}
	return nNew
}

// pinTempFiles lists the files under dir named as pin names its
// temporary files, and any other file that is neither old nor a target.
func pinTempFiles(t *testing.T, dir string, old map[string]string) []string {
	t.Helper()
	var found []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if _, ok := old[rel]; !ok && rel != "src/a.go" {
			found = append(found, rel)
		}
		return nil
	})
	return found
}

// pinReset writes every file's old version back.
func pinReset(t *testing.T, dir string, old map[string]string) {
	t.Helper()
	for name, content := range old {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var errInjected = errors.New("injected failure")

// TestPinWriteInterruptedAtEachStep fails each step of the atomic write in
// turn, for each file in turn: the file pin was writing keeps its old
// contents, the others get their new ones, no temporary file is left, and
// the next run finishes the job.
func TestPinWriteInterruptedAtEachStep(t *testing.T) {
	dir := t.TempDir()
	old := pinInterruptSite(t, dir, 6, 2)
	golden := pinGolden(t, old)
	defer func() { pinStep = nil }()
	for _, step := range []string{"create", "write", "chmod", "sync", "close", "rename"} {
		for k := range len(old) {
			pinReset(t, dir, old)
			calls := 0
			failed := ""
			pinStep = func(s, path, tmp string) error {
				if s != step {
					return nil
				}
				calls++
				if calls != k+1 {
					return nil
				}
				failed = path
				if tmp != "" {
					// A write that got halfway: the temporary file holds part
					// of the new contents and garbage.
					if err := os.WriteFile(tmp, []byte("# half written\x00\xff"), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				return errInjected
			}
			_, stderr, code := pinRunIn("pin", "--write", "--root", dir, filepath.Join(dir, "docs"))
			pinStep = nil
			what := fmt.Sprintf("%s failing for file %d", step, k+1)
			if code != exitError || !strings.Contains(stderr, "not written: "+errInjected.Error()) || failed == "" {
				t.Fatalf("%s: exit %d, failed %q\n%s", what, code, failed, stderr)
			}
			if n := pinOldOrNew(t, dir, old, golden); n != len(old)-1 {
				t.Errorf("%s: %d files new, want all but the one that failed", what, n)
			}
			rel, _ := filepath.Rel(dir, failed)
			if b, _ := os.ReadFile(failed); string(b) != old[filepath.ToSlash(rel)] {
				t.Errorf("%s: %s changed", what, rel)
			}
			if left := pinTempFiles(t, dir, old); len(left) > 0 {
				t.Errorf("%s: files left behind: %v", what, left)
			}
			if _, stderr, code := pinRunIn("pin", "--write", "--root", dir, filepath.Join(dir, "docs")); code != 0 {
				t.Errorf("%s: the next run: exit %d\n%s", what, code, stderr)
			}
			if n := pinOldOrNew(t, dir, old, golden); n != len(old) {
				t.Errorf("%s: after the next run %d of %d files are new", what, n, len(old))
			}
		}
	}
}

// deadPID returns the id of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(e2eBin(t), "help")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestPinRemovesStaleTempFiles: temporary files of pin processes that are
// gone are removed by the next pin that writes in their directory; those of
// running processes and files merely looking alike are left alone.
func TestPinRemovesStaleTempFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process ids are checked differently on Windows")
	}
	s := newPinSite(t, map[string]string{"src/a.go": numberedSource(1, 5), "docs/a.md": "[a](../src/a.go#line=1,2)\n", "other/b.md": "# B\n"})
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() { live.Process.Kill(); live.Wait() }()
	dead := deadPID(t)
	stale := []string{
		fmt.Sprintf("docs/.a.md.textfrag-pin-%d-123456", dead),
		fmt.Sprintf("docs/.gone.md.textfrag-pin-%d-1", dead),
	}
	kept := []string{
		fmt.Sprintf("docs/.a.md.textfrag-pin-%d-123456", live.Process.Pid), // running
		"docs/.a.md.textfrag-pin-123456",                                   // no process id
		fmt.Sprintf("docs/a.md.textfrag-pin-%d-1", dead),                   // not hidden
		fmt.Sprintf("docs/.a.md.textfrag-pin-%d-1x", dead),                 // not pin's random part
		fmt.Sprintf("docs/.a.md.textfrag-pin-%d-", dead),
		fmt.Sprintf("other/.b.md.textfrag-pin-%d-7", dead), // a directory pin does not write in
	}
	for _, name := range append(append([]string{}, stale...), kept...) {
		s.write(name, "leftover")
	}
	if err := os.Mkdir(s.path(fmt.Sprintf("docs/.d.md.textfrag-pin-%d-9", dead)), 0o755); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, fmt.Sprintf("docs/.d.md.textfrag-pin-%d-9", dead)) // a directory
	if _, stderr, code := pinRunIn("pin", "--write", "--root", s.dir, s.dir); code != 0 {
		t.Fatalf("pin --write: exit %d\n%s", code, stderr)
	}
	for _, name := range stale {
		if _, err := os.Lstat(s.path(name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("stale %s not removed: %v", name, err)
		}
	}
	for _, name := range kept {
		if _, err := os.Lstat(s.path(name)); err != nil {
			t.Errorf("%s removed: %v", name, err)
		}
	}
	for _, tt := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{".a.md.textfrag-pin-42-1234", 42, true},
		{".x.textfrag-pin-.textfrag-pin-7-1", 7, true},
		{".a.md.textfrag-pin-0-1", 0, false},
		{".a.md.textfrag-pin--1-1", 0, false},
		{".textfrag-pin-7-1", 0, false},
		{"a.md.textfrag-pin-7-1", 0, false},
		{".a.md.textfrag-pin-7-", 0, false},
		{".a.md.textfrag-pin-x-1", 0, false},
	} {
		if pid, ok := pinTempPID(tt.name); pid != tt.pid || ok != tt.ok {
			t.Errorf("pinTempPID(%q) = %d, %v; want %d, %v", tt.name, pid, ok, tt.pid, tt.ok)
		}
	}
}

// TestPinE2EKilledWhileWriting kills pin --write with SIGKILL at random
// moments while it rewrites 200 files, a bounded number of times. After each
// kill every file is its old or its new version, and nothing but temporary
// files of the killed processes is left; a run to the end then removes
// those and writes every file.
func TestPinE2EKilledWhileWriting(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL is a Unix signal")
	}
	t.Parallel()
	dir := t.TempDir()
	old := pinInterruptSite(t, dir, 200, 10)
	golden := pinGolden(t, old)
	docs := filepath.Join(dir, "docs")

	// How long a whole run takes, here and now.
	start := time.Now()
	cmd := exec.Command(e2eBin(t), "pin", "--write", "--root", dir, docs)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pin --write: %v\n%s", err, out)
	}
	full := time.Since(start)
	if n := pinOldOrNew(t, dir, old, golden); n != len(old) {
		t.Fatalf("a whole run wrote %d of %d files", n, len(old))
	}

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 7))
	t.Logf("a whole run takes %v; seed %d", full.Round(time.Millisecond), seed)
	first := filepath.Join(docs, "d00", "p000.md")
	killed := map[int]bool{}
	tempRE := regexp.MustCompile(`^docs/d\d\d/\.p\d{3}\.md\.textfrag-pin-(\d+)-\d+$`)
	const rounds = 12
	var mixed, temps int
	for round := range rounds {
		pinReset(t, dir, old)
		cmd := exec.Command(e2eBin(t), "pin", "--write", "--root", dir, docs)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if round%2 == 0 {
			// At a random moment of a whole run's time.
			time.Sleep(time.Duration(rng.Int64N(int64(full) + 1)))
		} else {
			// Once writing has begun, a little later.
			for deadline := time.Now().Add(full + time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
				if b, err := os.ReadFile(first); err == nil && string(b) != old["docs/d00/p000.md"] {
					break
				}
			}
			time.Sleep(time.Duration(rng.Int64N(int64(full)/2 + 1)))
		}
		cmd.Process.Kill()
		cmd.Wait()
		killed[cmd.Process.Pid] = true

		n := pinOldOrNew(t, dir, old, golden)
		if n > 0 && n < len(old) {
			mixed++
		}
		for _, f := range pinTempFiles(t, dir, old) {
			m := tempRE.FindStringSubmatch(f)
			if m == nil {
				t.Errorf("round %d: left behind %s, not a temporary file of pin", round, f)
				continue
			}
			if pid, _ := strconv.Atoi(m[1]); !killed[pid] {
				t.Errorf("round %d: left behind %s of process %s, which was not killed", round, f, m[1])
			}
			temps++
		}
		if t.Failed() {
			t.Fatalf("round %d (%d files new)", round, n)
		}
	}
	t.Logf("%d rounds: %d killed with some files written and some not; temporary files seen %d times", rounds, mixed, temps)

	// A run to the end, from the old files: every directory is written in,
	// so every stale temporary file goes.
	pinReset(t, dir, old)
	if out, err := exec.Command(e2eBin(t), "pin", "--write", "--root", dir, docs).CombinedOutput(); err != nil {
		t.Fatalf("pin --write after the kills: %v\n%s", err, out)
	}
	if n := pinOldOrNew(t, dir, old, golden); n != len(old) {
		t.Errorf("after the kills a whole run wrote %d of %d files", n, len(old))
	}
	if left := pinTempFiles(t, dir, old); len(left) > 0 {
		t.Errorf("left behind after a whole run: %v", left)
	}
}
