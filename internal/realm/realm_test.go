package realm

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// guard fails the test if f does not return: a hang, not a timing.
func guard(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s hung", what)
	}
}

func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("fifo", filepath.Join(dir, "to-fifo")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for name, kind := range map[string]string{"fifo": "a FIFO", "to-fifo": "a FIFO", "dir": "a directory"} {
		guard(t, "ReadFile("+name+")", func() {
			_, err := ReadFile(root, name, 0)
			var pe *fs.PathError
			if !errors.Is(err, ErrNotRegular) || !errors.As(err, &pe) || pe.Path != name || !strings.Contains(err.Error(), kind) {
				t.Errorf("ReadFile(%s): %v, want ErrNotRegular naming %s and %s", name, err, name, kind)
			}
		})
	}
	guard(t, "ReadFile(/dev/zero)", func() {
		_, err := ReadFile(nil, "/dev/zero", 0)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
			t.Errorf("ReadFile(/dev/zero): %v, want ErrNotRegular (a device)", err)
		}
	})
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if b, err := ReadFile(root, "a", 5); err != nil || string(b) != "12345" {
		t.Errorf("limit 5: %q, %v", b, err)
	}
	if _, err := ReadFile(root, "a", 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit 4: %v, want ErrTooLarge", err)
	}
	if b, err := ReadFile(root, "a", 0); err != nil || string(b) != "12345" {
		t.Errorf("no limit: %q, %v", b, err)
	}
}

func TestInside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "root")
	for _, d := range []string{filepath.Join(dir, ".git"), filepath.Join(base, "out")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, ".git", "config"), nil, 0o644)
	os.WriteFile(filepath.Join(base, "out", "x"), nil, 0o644)
	os.Symlink(".git/config", filepath.Join(dir, "notes.txt"))
	os.Symlink("../out/x", filepath.Join(dir, "escape"))
	if got, ok := Inside(dir, "notes.txt"); !ok || got != ".git/config" {
		t.Errorf("Inside(notes.txt) = %q, %v", got, ok)
	}
	if got, ok := Inside(dir, "escape"); ok {
		t.Errorf("Inside(escape) = %q, inside", got)
	}
}

// A Dir reached through a symlink judges paths against its real path, once
// evaluated: an absolute link naming the symlinked spelling is inside, a
// sibling of the real directory is not, and a Dir that does not resolve
// holds nothing.
func TestDirThroughSymlink(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(filepath.Join(real, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(real, "src", "a.go"), nil, 0o644)
	os.WriteFile(filepath.Join(base, "secret"), nil, 0o644)
	link := filepath.Join(base, "link")
	os.Symlink("real", link)
	os.Symlink(filepath.Join(link, "src", "a.go"), filepath.Join(real, "abs"))
	os.Symlink("../secret", filepath.Join(real, "up"))

	d := NewDir(link)
	if got, ok := d.Inside("abs"); !ok || got != "src/a.go" {
		t.Errorf("Inside(abs) = %q, %v; want src/a.go, inside", got, ok)
	}
	if got, ok := d.Inside("src/a.go"); !ok || got != "src/a.go" {
		t.Errorf("Inside(src/a.go) = %q, %v", got, ok)
	}
	if got, ok := d.Inside("up"); ok {
		t.Errorf("Inside(up) = %q, inside", got)
	}
	if got, ok := d.Inside("../secret"); ok {
		t.Errorf("Inside(../secret) = %q, inside", got)
	}
	if got, ok := NewDir(filepath.Join(base, "none")).Inside("a"); ok {
		t.Errorf("a missing Dir: Inside(a) = %q, inside", got)
	}
	if got, ok := (Dir{}).Inside("."); ok {
		t.Errorf("the zero Dir: Inside(.) = %q, inside", got)
	}
}
