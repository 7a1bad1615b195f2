package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// The command line's conventions: usage asked for goes to stdout and
// succeeds; usage that answers a wrong command line goes to stderr and exits
// 2, a bare textfrag included; nothing of it reaches stdout, which a script
// may be reading.
func TestUsageStreams(t *testing.T) {
	for _, c := range []struct {
		name     string
		args     []string
		code     int
		toStdout bool
	}{
		{"bare", nil, exitUsage, false},
		{"help", []string{"help"}, exitOK, true},
		{"-h", []string{"-h"}, exitOK, true},
		{"--help", []string{"--help"}, exitOK, true},
		{"unknown command", []string{"frobnicate"}, exitUsage, false},
		{"unknown flag", []string{"resolve", "--frobnicate", "a.txt#line=1"}, exitUsage, false},
		{"command help", []string{"resolve", "-h"}, exitOK, false}, // flag's own -h: on stderr, as go's flag package does
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runIn(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			usage := stderr
			if c.toStdout {
				usage = stdout
				if stderr != "" {
					t.Errorf("stderr: %q", stderr)
				}
			} else if stdout != "" {
				t.Errorf("stdout holds %q; usage and errors go to stderr", stdout)
			}
			if !strings.Contains(usage, "Usage: textfrag") {
				t.Errorf("no usage on the expected stream:\nstdout %q\nstderr %q", stdout, stderr)
			}
		})
	}
}

// fakeParser stands for a symbol parser; unavailable ones stand for the
// tree-sitter parsers in a build without cgo.
type fakeParser struct {
	name        string
	unavailable bool
}

func (p fakeParser) Language() string                    { return p.name }
func (p fakeParser) Decls([]byte) ([]symbol.Decl, error) { return nil, nil }
func (p fakeParser) Unavailable() bool                   { return p.unavailable }

// --version names the languages sym= works in, and a build that lacks some
// (no cgo) names those, why, and what still works.
func TestVersionLanguages(t *testing.T) {
	set := symbol.Set{"go": fakeParser{name: "Go"}, "python": fakeParser{name: "Python", unavailable: true}, "rust": fakeParser{name: "Rust", unavailable: true}}
	v := readBuildVersion(set)
	if strings.Join(v.Symbols, ",") != "Go" || strings.Join(v.Missing, ",") != "Python,Rust" {
		t.Fatalf("symbols %q, missing %q", v.Symbols, v.Missing)
	}
	text := v.String()
	for _, want := range []string{"\nsym= languages: Go\n", "\nsym= lacks: Python, Rust (their tree-sitter parsers need cgo: rebuild with CGO_ENABLED=1 and a C compiler)"} {
		if !strings.Contains(text, want) {
			t.Errorf("--version lacks %q:\n%s", want, text)
		}
	}
	full := readBuildVersion(symbol.Set{"go": fakeParser{name: "Go"}, "python": fakeParser{name: "Python"}})
	if s := full.String(); strings.Contains(s, "lacks") || !strings.Contains(s, "sym= languages: Go, Python\n") {
		t.Errorf("a build with every parser:\n%s", s)
	}
	// The revision line says what is known, and nothing when it is not.
	v.Revision, v.Time, v.Modified = "0123abcd", "2026-11-27T10:00:00Z", true
	if s := v.String(); !strings.Contains(s, "\nrevision: 0123abcd (2026-11-27T10:00:00Z), with uncommitted changes\n") {
		t.Errorf("revision line:\n%s", s)
	}
}

// textfrag --version and textfrag version print the same, on stdout, and
// --format json gives the same facts to a program; this test binary's own
// build information is what they read (a test binary's main module version
// is "(devel)" or a pseudo-version, never empty).
func TestVersionCommand(t *testing.T) {
	out1, stderr, code := runIn(t, "--version")
	if code != 0 || stderr != "" || !strings.HasPrefix(out1, "textfrag ") || !strings.Contains(out1, "\nsym= languages: ") || !strings.Contains(out1, "Go") {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q", code, out1, stderr)
	}
	out2, _, _ := runIn(t, "version")
	if out1 != out2 {
		t.Errorf("textfrag version printed\n%s\nand --version\n%s", out2, out1)
	}
	out, _, code := runIn(t, "version", "--format", "json")
	var v buildVersion
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
		t.Fatalf("version --format json: exit %d, %v: %q", code, err, out)
	}
	if v.Version == "" || v.Go == "" || !strings.Contains(out1, v.Version) || len(v.Symbols) == 0 {
		t.Errorf("json %+v disagrees with the text %q", v, out1)
	}
	if _, stderr, code := runIn(t, "version", "extra"); code != exitUsage || !strings.Contains(stderr, "no arguments") {
		t.Errorf("version extra: exit %d, %q", code, stderr)
	}
}

// /dev/null is a character device but no terminal: a progress line or a
// terminal escape written there would be written for nobody, and a log
// redirected there must be treated as a log.
func TestIsTerminalDevNull(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("%s counts as a terminal", os.DevNull)
	}
	file, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if isTerminal(file) {
		t.Errorf("a regular file counts as a terminal")
	}
}

// runStdin runs the command in process with stdin as its standard input.
func runStdin(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut}
	code = e.main(args)
	return out.String(), errOut.String(), code
}

// render - reads the page on standard input; its links resolve from the
// current directory, and its problems are named <stdin>.
func TestRenderStdin(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "src/a.txt": "alpha\nbeta\n"})
	t.Chdir(dir)
	stdout, stderr, code := runStdin(t, "# Page\n\n[first line](src/a.txt#line=0,1)\n", "render", "-")
	if code != 0 || !strings.Contains(stdout, "alpha") || strings.Contains(stdout, "beta") {
		t.Fatalf("render -: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	_, stderr, code = runStdin(t, "# Page\n\n[gone](src/missing.txt#line=0,1)\n", "render", "-")
	if code != exitError || !strings.Contains(stderr, "<stdin>:3:1: error:") {
		t.Errorf("render - with a broken link: exit %d, stderr %q", code, stderr)
	}
}

// check - checks the page on standard input beside the files named, and
// names its problems <stdin>.
func TestCheckStdin(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "src/a.txt": "alpha\n", "docs/ok.md": "# OK\n\n[a](../src/a.txt#line=0,1)\n"})
	t.Chdir(dir)
	_, stderr, code := runStdin(t, "# In\n\n[b](src/missing.txt#line=0,1)\n", "check", "-", "docs/ok.md")
	if code != exitError || !strings.Contains(stderr, "<stdin>:3:1: error:") || !strings.Contains(stderr, "checked 2 links in 2 files: 1 error") {
		t.Errorf("check - docs/ok.md: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runStdin(t, "# In\n\n[a](src/a.txt#line=0,1)\n", "check", "-")
	if code != exitOK || !strings.Contains(stderr, "checked 1 link in 1 file") {
		t.Errorf("check - alone: exit %d, stderr %q (the default paths must not be added)", code, stderr)
	}
}

// check, pin and refs draw a progress line on a terminal, and nothing
// elsewhere, as build does (TestBuildProgressOnTerminalOnly).
func TestProgressOnTerminalOnly(t *testing.T) {
	saved := progressInterval
	progressInterval = time.Microsecond
	defer func() { progressInterval = saved }()
	dir := t.TempDir()
	files := map[string]string{"textfrag.toml": "", "docs/t.txt": "x\n"}
	for i := range progressPages + 10 {
		files[fmt.Sprintf("docs/p%d.md", i)] = fmt.Sprintf("# P%d\n\n[t](t.txt#line=,1)\n", i)
	}
	e2eWrite(t, dir, files)
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		line string
	}{
		{[]string{"check", "docs"}, "textfrag: checking "},
		{[]string{"pin", "docs"}, "textfrag: pinning "},
		{[]string{"refs", "docs/t.txt"}, "textfrag: reading pages "},
	} {
		for _, tty := range []bool{false, true} {
			var out, errOut strings.Builder
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, stderrIsTTY: tty}
			e.main(append([]string{}, c.args...))
			stderr := errOut.String()
			if !tty {
				if strings.Contains(stderr, "\r") || strings.Contains(stderr, "\033") {
					t.Errorf("%v, not a terminal: stderr %q", c.args, stderr)
				}
				continue
			}
			if !strings.Contains(stderr, "\r\033[K"+c.line) || !strings.Contains(stderr, "/60\r\033[K") {
				t.Errorf("%v on a terminal: stderr %q", c.args, stderr)
			}
			// A message never continues the progress line: it is cleared first.
			if regexp.MustCompile(regexp.QuoteMeta(c.line) + `\d+/60[^\r]`).MatchString(stderr) {
				t.Errorf("%v on a terminal: a message follows the progress line on the same line: %q", c.args, stderr)
			}
			if strings.Contains(out.String(), "\r") {
				t.Errorf("%v: the progress line reached stdout", c.args)
			}
		}
	}
}
