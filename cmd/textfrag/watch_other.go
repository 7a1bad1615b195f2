//go:build !linux && !darwin

package main

import (
	"errors"
	"io/fs"
	"os"
)

// sysStamp returns zeros where the inode and change time are not read:
// stamps there compare modification times, sizes and modes, and racy files'
// text.
func sysStamp(fs.FileInfo) (ino, dev uint64, ctime int64) { return 0, 0, 0 }

// openNonBlocking refuses: where a FIFO could block the open, racy files
// are not hashed but count as changed until they are no longer racy.
func openNonBlocking(string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
