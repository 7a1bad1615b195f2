package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal: what is written to tty is read from
// pty, as a terminal would show it.
func openPTY(t *testing.T) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pty.Close() })
	var n uint32
	var unlock int32
	for req, arg := range map[uintptr]unsafe.Pointer{syscall.TIOCGPTN: unsafe.Pointer(&n), syscall.TIOCSPTLCK: unsafe.Pointer(&unlock)} {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, pty.Fd(), req, uintptr(arg)); errno != 0 {
			t.Fatal(errno)
		}
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return pty, tty
}

// resolve writes a quoted file's control characters to a terminal escaped,
// so that a file in the repository cannot drive the terminal of whoever
// looks at a quote (clear the screen, set the title, hide text behind a
// bare CR); redirected, the text stays exact.
func TestResolveTerminalEscapes(t *testing.T) {
	root := t.TempDir()
	e2eWrite(t, root, map[string]string{"textfrag.toml": "", "a.txt": "x\x1b[2J\x1b]0;pwned\x07\tcol\nfake\rreal\n"})
	pty, tty := openPTY(t)
	var errOut strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: tty, stderr: &errOut}
	if code := e.main([]string{"resolve", "--root", root, "a.txt#line=0,3"}); code != exitOK {
		t.Fatalf("resolve: code %d\n%s", code, errOut.String())
	}
	tty.Close()
	got, _ := io.ReadAll(pty) // ends with EIO once tty is closed
	// The terminal turns "\n" into "\r\n" (onlcr) on its way out.
	shown := strings.ReplaceAll(string(got), "\r\n", "\n")
	if r := rawControl(shown); r >= 0 {
		t.Errorf("a raw control character %U reached the terminal: %q", r, shown)
	}
	if want := `x\x1b[2J\x1b]0;pwned\a` + "\tcol\n" + `fake\rreal` + "\n"; shown != want {
		t.Errorf("shown %q, want %q", shown, want)
	}

	stdout, _, code := runIn(t, "resolve", "--root", root, "a.txt#line=0,1")
	if want := "x\x1b[2J\x1b]0;pwned\x07\tcol\n"; code != exitOK || stdout != want {
		t.Errorf("redirected: code %d, %q, want %q", code, stdout, want)
	}
}
