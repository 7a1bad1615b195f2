// Package realm opens files that an attacker may have committed: only
// regular files, without ever blocking on a FIFO or a device, and read up to
// a size limit.
//
//	Open(root, name)
//	  └─ os.Root.OpenFile(O_RDONLY|O_NONBLOCK): symlinks followed inside root only;
//	     a FIFO opens at once instead of waiting for a writer
//	  └─ Stat of the open file: not a regular file ─▶ ErrNotRegular (names the kind)
//	ReadFile(root, name, limit)
//	  └─ Open, then at most limit bytes ─▶ ErrTooLarge past it
//
// The check is made on the open file, not on the name, so a file swapped for
// a FIFO between a Stat and the read is still refused.
//
// Caches (cache.go) are directories of data textfrag wrote, which may lie in
// a repository: OpenCache confines every read, write and removal to the
// directory, and entries carry an HMAC under CacheKey, a per-user key kept
// outside any repository, so that a committed forgery is ignored.
package realm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

var (
	// ErrNotRegular: the file is a FIFO, a device, a socket or a directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is larger than the limit it is read with.
	ErrTooLarge = errors.New("file too large")
)

// Open opens the regular file name for reading: in root when root is not
// nil (name is then a slash path inside it, and symlinks are followed only
// while they stay inside), else as an OS path. Opening never blocks: a FIFO
// is opened non-blocking and then refused. Errors name the file.
func Open(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	const flag = os.O_RDONLY | syscall.O_NONBLOCK
	var f *os.File
	var err error
	if root != nil {
		f, err = root.OpenFile(name, flag, 0)
	} else {
		f, err = os.OpenFile(name, flag, 0)
	}
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(info.Mode()))}
	}
	return f, info, nil
}

// ReadFile reads the regular file name (see Open) whole. A limit above zero
// bounds it: a larger file is ErrTooLarge, found without reading more than
// limit+1 bytes, however the file grows meanwhile.
func ReadFile(root *os.Root, name string, limit int64) ([]byte, error) {
	f, info, err := Open(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if limit > 0 && info.Size() > limit {
		return nil, tooLarge(name, limit)
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	// Room for the size Stat gave, so that a file read whole is read
	// into one buffer (io.ReadAll would grow one from 512 bytes); one
	// that grows meanwhile, or reports no size, grows it.
	size := 0
	if info.Size() < 1<<30 {
		size = int(info.Size())
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	b := buf.Bytes()
	if limit > 0 && int64(len(b)) > limit {
		return nil, tooLarge(name, limit)
	}
	return b, nil
}

func tooLarge(name string, limit int64) error {
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)}
}

// Kind names the type of file mode m, for messages: "a FIFO", "a device",
// "a socket", "a directory", "a symbolic link", "a regular file", or
// "an irregular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// A Dir is a directory that paths are judged against (Inside). Its own real
// path is evaluated once, when it is made: judging each file of a build
// would otherwise follow the directory's symlinks, and lstat each of its
// ancestors, once per file. The zero Dir holds nothing.
type Dir struct{ real string }

// NewDir evaluates the symlinks of dir, an OS path. A directory that does
// not resolve gives the zero Dir, inside which nothing lies.
func NewDir(dir string) Dir {
	if dir == "" {
		return Dir{}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return Dir{}
	}
	return Dir{real: real}
}

// Inside follows every symlink on rel, a slash path in the directory, and
// returns the real path relative to the directory's real path when it lies
// inside it. os.Root refuses absolute symlinks even when they point inside
// the root; the realm judges the real path.
func (d Dir) Inside(rel string) (string, bool) {
	if d.real == "" {
		return "", false
	}
	real, err := filepath.EvalSymlinks(filepath.Join(d.real, filepath.FromSlash(rel)))
	if err != nil {
		return "", false
	}
	inside, err := filepath.Rel(d.real, real)
	if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) || filepath.IsAbs(inside) {
		return "", false
	}
	return filepath.ToSlash(inside), true
}

// Inside is NewDir(dir).Inside(rel), for one path.
func Inside(dir, rel string) (string, bool) { return NewDir(dir).Inside(rel) }
