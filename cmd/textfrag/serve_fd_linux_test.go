package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// openFiles counts the process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(fds)
}

// A preview runs for hours and rebuilds at every save: the directories a
// round opens are closed again, so that open files stay bounded however
// many rounds there are.
func TestServeRoundsCloseWhatTheyOpen(t *testing.T) {
	dir := t.TempDir()
	s, ts := fieldServer(t, dir)
	code, body := fieldRound(t, s, ts)
	wantBox(t, code, body)
	fieldRound(t, s, ts) // settle: targets stamped during the first rounds
	// Without collections in between, as in the command (GOGC=400, a small
	// heap), where a dropped os.Root is closed only when the collector
	// finds it: 2 files a round stayed open, 100 after 50 saves.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := openFiles(t)
	const rounds = 60
	for i := range rounds {
		serveWriteNow(t, filepath.Join(dir, "docs/other.md"), "# Other\n\n"+string(rune('a'+i%26))+"\n")
		code, body := fieldRound(t, s, ts)
		wantBox(t, code, body)
		if code, _ := serveGet(t, ts.URL+"/other.md"); code != 200 {
			t.Fatalf("GET /other.md: %d", code)
		}
	}
	// Closing an old round's directory waits for its requests: give the
	// goroutines that close them a moment.
	for range 100 {
		if openFiles(t)-before < 10 {
			break
		}
		waitABit()
	}
	if after := openFiles(t); after-before >= 10 {
		t.Errorf("%d rounds left %d more files open (%d, then %d)", rounds, after-before, before, after)
	}
}
