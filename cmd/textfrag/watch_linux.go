package main

import (
	"io/fs"
	"os"
	"syscall"
)

// sysStamp returns the inode, device and change time of the file info
// describes.
func sysStamp(info fs.FileInfo) (ino, dev uint64, ctime int64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Dev, st.Ctim.Nano()
	}
	return 0, 0, 0
}

// openNonBlocking opens the file at p for reading without blocking on a
// FIFO.
func openNonBlocking(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
