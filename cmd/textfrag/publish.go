package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
)

// staging is the temporary directory a build writes into: a hidden sibling
// of the output directory, so that publishing it is a rename on the same
// file system.
type staging struct {
	out string // the output directory
	dir string // the staging directory
}

// checkOutput refuses output directories that a build must not replace: one
// that holds the source, one that is not a directory or is a symbolic link,
// and a non-empty one that no textfrag build made (it has no textfrag.css),
// which could be anything of the user's.
func checkOutput(out, src string) error {
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	srcAbs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	holds := within(srcAbs, outAbs)
	if !holds {
		// The same directories by another name: through a symbolic link
		// (SRC or a parent of OUT), or a bind mount. Replacing OUT would
		// delete the source.
		holds = sameOrAncestor(src, out)
	}
	if holds {
		return fmt.Errorf("output directory %s holds the source %s: the build replaces its output directory, so choose another -o", out, src)
	}
	info, err := os.Lstat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("output directory %s is a symbolic link: give the directory it points to", out)
	case !info.IsDir():
		return fmt.Errorf("output %s exists and is not a directory", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, style.FileName)); err != nil {
		return fmt.Errorf("output directory %s is not empty and was not made by textfrag build (it has no %s): the build would replace it, so remove it or choose another -o", out, style.FileName)
	}
	return nil
}

// within reports whether the absolute path p is dir or lies under it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// sameOrAncestor reports whether the directory out, if it exists, is the
// directory src or one of its ancestors, whatever names lead to them:
// src's ancestors are walked on its real path (symbolic links resolved)
// and compared with out by identity (device and inode), not by name.
func sameOrAncestor(src, out string) bool {
	outInfo, err := os.Stat(out)
	if err != nil || !outInfo.IsDir() {
		return false
	}
	dir, err := filepath.EvalSymlinks(src)
	if err != nil {
		return false
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return false
	}
	for {
		if info, err := os.Stat(dir); err == nil && os.SameFile(info, outInfo) {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// newStaging makes the staging directory for out.
func newStaging(out string) (*staging, error) {
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".textfrag-")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &staging{out: out, dir: dir}, nil
}

// write writes a file of the site, at slash path rel, into the staging
// directory.
func (s *staging) write(rel string, data []byte) error {
	name := filepath.Join(s.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// publish puts the staging directory in the output directory's place: the
// old output is renamed away, the new one renamed into place, and the old
// one removed. Should the second rename fail, the old output is put back.
// A failure to remove the old output is not an error of the build: it is
// returned as a warning.
func (s *staging) publish() (warning string, err error) {
	old := ""
	if _, err := os.Lstat(s.out); err == nil {
		old = s.dir + "-old"
		if err := os.Rename(s.out, old); err != nil {
			return "", fmt.Errorf("replacing %s: %w", s.out, err)
		}
	}
	if err := os.Rename(s.dir, s.out); err != nil {
		if old != "" {
			if err2 := os.Rename(old, s.out); err2 != nil {
				return "", fmt.Errorf("replacing %s: %w; the previous output is left in %s", s.out, err, old)
			}
		}
		return "", fmt.Errorf("replacing %s: %w", s.out, err)
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Sprintf("the previous output could not be removed from %s: %v", old, err), nil
		}
	}
	return "", nil
}

// discard removes the staging directory and everything in it.
func (s *staging) discard() { os.RemoveAll(s.dir) }
