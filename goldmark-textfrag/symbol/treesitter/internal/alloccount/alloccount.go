//go:build cgo

// Package alloccount counts the memory blocks the tree-sitter library has
// allocated and not freed, so tests can show that parsing leaks nothing.
package alloccount

/*
#include <stdlib.h>
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

var live atomic.Int64

// Install routes tree-sitter's allocations through counting wrappers of
// the C library's allocator. Blocks allocated before Install and freed
// after it are counted as -1: call it before the parses it is to watch.
func Install() {
	ts.SetAllocator(
		func(size uint) unsafe.Pointer { return count(C.malloc(C.size_t(size))) },
		func(num, size uint) unsafe.Pointer { return count(C.calloc(C.size_t(num), C.size_t(size))) },
		func(p unsafe.Pointer, size uint) unsafe.Pointer {
			q := C.realloc(p, C.size_t(size))
			if p == nil && q != nil {
				live.Add(1)
			}
			return q
		},
		func(p unsafe.Pointer) {
			if p != nil {
				live.Add(-1)
			}
			C.free(p)
		},
	)
}

// Uninstall restores tree-sitter's default allocator.
func Uninstall() { ts.SetAllocator(nil, nil, nil, nil) }

// Live returns the number of blocks allocated since Install and not freed.
func Live() int64 { return live.Load() }

func count(p unsafe.Pointer) unsafe.Pointer {
	if p != nil {
		live.Add(1)
	}
	return p
}
