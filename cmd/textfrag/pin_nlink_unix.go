//go:build unix

package main

import (
	"io/fs"
	"syscall"
)

// pinLinkCount returns the number of hard links to the file info describes.
func pinLinkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
