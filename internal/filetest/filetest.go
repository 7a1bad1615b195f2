// Package filetest holds file helpers that tests of several packages share.
package filetest

import (
	"os"
	"testing"
)

// RewriteSameStamp gives the file new content of the same size and puts
// its modification time back, as a second write within the file system's
// timestamp granularity leaves it: no stat tells the change, only reading.
func RewriteSameStamp(t testing.TB, name, content string) {
	t.Helper()
	info, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(content)) != info.Size() {
		t.Fatalf("rewrite of %s changes its size", name)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
}
