//go:build cgo

// Package alloccount tracks the memory blocks the tree-sitter library has
// allocated and not freed, so tests can show that parsing leaks nothing.
package alloccount

/*
#include <stdlib.h>
*/
import "C"

import (
	"sync"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

var (
	mu    sync.Mutex
	live  = map[uintptr]bool{}
	total int64
)

// Install routes tree-sitter's allocations through tracking wrappers of
// the C library's allocator. Frees of blocks it did not see allocated
// (go-tree-sitter frees the C strings it makes with the same function) are
// passed on and not counted.
func Install() {
	ts.SetAllocator(
		func(size uint) unsafe.Pointer { return track(nil, C.malloc(C.size_t(size))) },
		func(num, size uint) unsafe.Pointer { return track(nil, C.calloc(C.size_t(num), C.size_t(size))) },
		func(p unsafe.Pointer, size uint) unsafe.Pointer { return track(p, C.realloc(p, C.size_t(size))) },
		func(p unsafe.Pointer) {
			mu.Lock()
			delete(live, uintptr(p))
			mu.Unlock()
			C.free(p)
		},
	)
}

// Uninstall restores tree-sitter's default allocator.
func Uninstall() { ts.SetAllocator(nil, nil, nil, nil) }

// Live returns the number of blocks allocated since Install and not freed.
func Live() int {
	mu.Lock()
	defer mu.Unlock()
	return len(live)
}

// Total returns the number of blocks allocated while Install was in
// effect.
func Total() int64 {
	mu.Lock()
	defer mu.Unlock()
	return total
}

// track records that q replaces old (nil for a new block).
func track(old, q unsafe.Pointer) unsafe.Pointer {
	mu.Lock()
	defer mu.Unlock()
	if q == nil {
		return q // a failed realloc leaves old allocated
	}
	if old != nil {
		delete(live, uintptr(old))
	} else {
		total++
	}
	live[uintptr(q)] = true
	return q
}
