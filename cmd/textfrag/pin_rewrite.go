package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/textfrag/textfrag/internal/pin"
)

// beforeRename, when tests set it, runs after the new contents are safely in
// the temporary file and before the original is checked for changes and
// replaced. An error from it aborts the write.
var beforeRename func(path string) error

// pinStep, when tests set it, runs before each step of pinWriteAtomic that
// changes the disk: "create" (the temporary file), "write", "chmod", "sync",
// "close" and "rename", with the path of the file being replaced and the
// temporary file's ("" before it exists). An error from it is that step's
// failure.
var pinStep func(step, path, tmp string) error

func pinAt(step, path, tmp string) error {
	if pinStep == nil {
		return nil
	}
	return pinStep(step, path, tmp)
}

// pinTempMarker names pin's temporary files: ".NAME.textfrag-pin-PID-RANDOM"
// beside the file NAME they replace, PID being the writing process's.
const pinTempMarker = ".textfrag-pin-"

// pinCleaned holds the directories whose stale temporary files this
// process has removed.
var pinCleaned sync.Map

// pinRemoveStale removes from dir the temporary files of pin processes that
// no longer run: a pin killed between creating its temporary file and
// renaming it over the original leaves one behind (the original is intact).
// Files of running processes, and anything not named as pin names its
// files, are left alone. It returns the names removed. dir is a directory
// of r, through which everything is done, so nothing outside r is removed.
func pinRemoveStale(r *os.Root, dir string) []string {
	d, err := r.Open(dir)
	if err != nil {
		return nil
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		pid, ok := pinTempPID(e.Name())
		if !ok || pid == os.Getpid() || !e.Type().IsRegular() || !pinProcessGone(pid) {
			continue
		}
		if r.Remove(filepath.Join(dir, e.Name())) == nil {
			removed = append(removed, e.Name())
		}
	}
	return removed
}

// pinTempPID returns the process id in the name of one of pin's temporary
// files, ".NAME.textfrag-pin-PID-RANDOM".
func pinTempPID(name string) (int, bool) {
	i := strings.LastIndex(name, pinTempMarker)
	if i < 2 || name[0] != '.' {
		return 0, false
	}
	pid, random, ok := strings.Cut(name[i+len(pinTempMarker):], "-")
	n, err := strconv.Atoi(pid)
	if !ok || err != nil || n <= 0 || random == "" || strings.Trim(random, "0123456789") != "" {
		return 0, false
	}
	return n, true
}

// pinProcessGone reports whether no process has the id pid. When it cannot
// tell (a process of another user, another system), the process counts as
// running.
func pinProcessGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true // Windows: no such process
	}
	defer p.Release()
	return errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// pinErrChangedSince reports a Markdown file that changed between pin reading
// it and replacing it.
var pinErrChangedSince = errors.New("the file changed while pin was working on it; it was left untouched: run pin again")

// pinWriteAtomic replaces the file at path, whose contents were orig when pin
// read them, with data: it writes a temporary file in the same directory,
// syncs it, gives it the original's mode, checks that the original still
// holds orig, and renames the temporary file over it. On any failure the
// original is untouched and the temporary file removed; should the process
// be killed, the original is intact and the next pin to write in that
// directory removes the temporary file (pinRemoveStale).
//
// Every step goes through an os.Root opened at the project root, so that
// nothing is written outside it. A symlink is followed when it leads to a
// file inside the root (that file is replaced); one leading outside is
// refused, and so are a read-only file and a file with other hard links,
// which a rename would split from the new contents.
func pinWriteAtomic(root, path string, orig, data []byte) (err error) {
	realRoot, err := pin.RealPath(root)
	if err != nil {
		return err
	}
	real, err := pin.RealPath(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		if abs, aerr := filepath.Abs(path); aerr == nil && abs != real {
			return fmt.Errorf("it is a symbolic link to %s, outside the project root %s; pin writes only inside the root: pin the file it leads to from its own project (--root), or replace the link by a copy", real, realRoot)
		}
		return fmt.Errorf("it is outside the project root %s; pin writes only inside the root: run pin with --root set to a directory that holds it", realRoot)
	}
	r, err := os.OpenRoot(realRoot)
	if err != nil {
		return err
	}
	defer r.Close()
	info, err := r.Lstat(rel)
	if err != nil {
		return err
	}
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("it is not a regular file (%s); pin replaces regular files only", info.Mode().Type())
	case info.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("it is read-only (mode %04o), and pin does not replace read-only files: make it writable (chmod u+w %s) if it should change, then run pin --write again", info.Mode().Perm(), path)
	}
	if n := pinLinkCount(info); n > 1 {
		return fmt.Errorf("it has %d hard links, and replacing it would leave the other names with the old text: make it a file of its own (cp %s %s.copy && mv %s.copy %s), then run pin --write again", n, path, path, path, path)
	}
	dir, relDir := filepath.Dir(real), filepath.Dir(rel)
	if _, done := pinCleaned.LoadOrStore(dir, true); !done {
		pinRemoveStale(r, relDir)
	}
	if err = pinAt("create", real, ""); err != nil {
		return err
	}
	tmp, tmpRel, err := pinCreateTemp(r, relDir, filepath.Base(real))
	if err != nil {
		return err
	}
	tmpName := filepath.Join(realRoot, tmpRel)
	defer func() {
		if err != nil {
			tmp.Close()
			r.Remove(tmpRel)
		}
	}()
	if err = pinAt("write", real, tmpName); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = pinAt("chmod", real, tmpName); err != nil {
		return err
	}
	if err = tmp.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if err = pinAt("sync", real, tmpName); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = pinAt("close", real, tmpName); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if beforeRename != nil {
		if err = beforeRename(real); err != nil {
			return err
		}
	}
	// The file pin read must still be there, unchanged: same file, same
	// contents.
	now, err := r.Lstat(rel)
	if err != nil {
		return err
	}
	if !os.SameFile(info, now) {
		return pinErrChangedSince
	}
	cur, err := r.ReadFile(rel)
	if err != nil {
		return err
	}
	if !bytes.Equal(cur, orig) {
		return pinErrChangedSince
	}
	if err = pinAt("rename", real, tmpName); err != nil {
		return err
	}
	if err = r.Rename(tmpRel, rel); err != nil {
		return err
	}
	pinSyncDir(dir)
	return nil
}

// pinCreateTemp creates pin's temporary file for the file base in the
// directory dir of r: ".BASE.textfrag-pin-PID-RANDOM", new, mode 0600.
func pinCreateTemp(r *os.Root, dir, base string) (*os.File, string, error) {
	prefix := "." + base + pinTempMarker + strconv.Itoa(os.Getpid()) + "-"
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", errors.New("cannot create a temporary file: too many tries")
}

// pinSyncDir makes a rename in dir durable where the system allows it.
func pinSyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// pinFileLabel is how a diff names a file after "a/" and "b/".
func pinFileLabel(name string) string {
	return filepath.ToSlash(name)
}
