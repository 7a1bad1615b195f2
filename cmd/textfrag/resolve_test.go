package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn runs the command in process with the given arguments.
func runIn(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = e.main(args)
	return out.String(), errOut.String(), code
}

// The same four lines with each line ending RFC 5147 counts as one character.
var endings = map[string]string{
	"lf":     "\n",
	"crlf":   "\r\n",
	"cr":     "\r",
	"nel":    "\u0085",
	"cr-nel": "\r\u0085",
}

func TestResolveEachLineEnding(t *testing.T) {
	root := t.TempDir()
	for name, eol := range endings {
		text := "alpha" + eol + "beta" + eol + "gamma" + eol + "delta" + eol
		if err := os.WriteFile(filepath.Join(root, name+".txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		// Human lines 2 and 3, exactly as stored.
		stdout, stderr, code := runIn(t, "resolve", "--root", root, name+".txt#line=1,3")
		if want := "beta" + eol + "gamma" + eol; code != 0 || stdout != want || stderr != "" {
			t.Errorf("%s line=1,3: code %d, stdout %q (want %q), stderr %q", name, code, stdout, want, stderr)
		}
		// Characters 6 to 9: "beta" follows "alpha" and one line-ending character.
		stdout, _, code = runIn(t, "resolve", "--root", root, name+".txt#char=6,10")
		if code != 0 || stdout != "beta" {
			t.Errorf("%s char=6,10: code %d, stdout %q", name, code, stdout)
		}
		// 4 lines of 5, 4, 5, 5 characters, each plus one line ending.
		stdout, _, code = runIn(t, "resolve", "--json", "--root", root, name+".txt#line=3,;length=23")
		var got struct {
			Label  string `json:"label"`
			Text   string `json:"text"`
			Entity struct {
				Length int64 `json:"length"`
				Lines  int64 `json:"lines"`
			} `json:"entity"`
			Checks []struct {
				Check, Status string
			} `json:"checks"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != 0 {
			t.Fatalf("%s --json: code %d, %v in %q", name, code, err, stdout)
		}
		if got.Label != "line 4" || got.Text != "delta"+eol || got.Entity.Length != 23 || got.Entity.Lines != 4 ||
			len(got.Checks) != 1 || got.Checks[0].Status != "passed" {
			t.Errorf("%s --json: %+v", name, got)
		}
	}
}

func TestResolveOutcomes(t *testing.T) {
	root := t.TempDir()
	// md5 of "one\ntwo\n" is 2094b601daac3d68f5aed51d3c20f7cd (md5sum).
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args             []string
		code             int
		stdout, inStderr string
	}{
		{[]string{"a.txt#line=1"}, 0, "", ""},   // a position prints nothing
		{[]string{"a.txt#line=1,1"}, 0, "", ""}, // so does an empty range
		{[]string{"a.txt#line=1,9"}, 0, "two\n", "warning: a.txt#line=1,9: line=1,9 goes past the end"}, // clamped
		{[]string{"a.txt#line=0,1;md5=2094b601daac3d68f5aed51d3c20f7cd"}, 0, "one\n", ""},
		{[]string{"a.txt#line=0,1;md5=2094b601daac3d68f5aed51d3c20f7ce"}, 1, "", "md5 mismatch: the file changed since the link was pinned; the file now has md5=2094b601daac3d68f5aed51d3c20f7cd;"},
		{[]string{"a.txt#line=0,1;sha256=ab"}, 0, "one\n", `warning: a.txt#line=0,1;sha256=ab: unknown integrity check "sha256" ignored`},
		{[]string{"a.txt#line=2,1"}, 1, "", "range start 2 is after its end 1"},
		{[]string{"a.txt#line=1-2"}, 1, "", "a range is written with a comma"},
		{[]string{"a.txt#LINE=1"}, 1, "", "scheme names are lower case"},
		{[]string{"a.txt"}, 1, "", "no fragment"},
		{[]string{"a.txt#intro"}, 1, "", `starts with "char=" or "line="`},
		{[]string{"nope.txt#line=1"}, 1, "", "target file not found"},
		{[]string{"dir#line=1"}, 1, "", "target is a directory"},
		{[]string{"../outside.txt#line=1"}, 1, "", "outside the allowed roots"},
		{[]string{"file:///etc/passwd#line=0,1"}, 1, "", "outside the allowed roots"},
		{[]string{}, 2, "", "Usage: textfrag resolve"},
		{[]string{"a.txt#line=1", "b.txt#line=1"}, 2, "", "Usage: textfrag resolve"},
		{[]string{"--bogus", "a.txt#line=1"}, 2, "", "flag provided but not defined"},
	} {
		args := append([]string{"resolve", "--root", root}, c.args...)
		stdout, stderr, code := runIn(t, args...)
		if code != c.code || stdout != c.stdout || !strings.Contains(stderr, c.inStderr) {
			t.Errorf("%v: code %d (want %d), stdout %q (want %q), stderr %q (want it to contain %q)", c.args, code, c.code, stdout, c.stdout, stderr, c.inStderr)
		}
		if c.code == 1 && strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: error is not one line: %q", c.args, stderr)
		}
	}
}

// A BOM is never written out, and resolve defaults to the current directory.
func TestResolveBOMAndDefaultRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "b.txt"), []byte("\uFEFFfirst\nsecond\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	stdout, _, code := runIn(t, "resolve", "b.txt#line=0,1")
	if code != 0 || stdout != "first\n" {
		t.Errorf("code %d, stdout %q", code, stdout)
	}
	stdout, _, _ = runIn(t, "resolve", "b.txt#char=0,1")
	if stdout != "f" {
		t.Errorf("char=0,1 = %q, want %q", stdout, "f")
	}
}
