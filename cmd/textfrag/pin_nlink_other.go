//go:build !unix

package main

import "io/fs"

// pinLinkCount returns 1: where the system does not say how many hard links
// a file has, pin cannot tell.
func pinLinkCount(fs.FileInfo) uint64 { return 1 }
