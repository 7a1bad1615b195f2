package main

// Tests of "textfrag link": the links it prints build, pinned and without
// warnings, and what it refuses it refuses with a reason.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// linkRun runs the built command in dir, killed after 20 s so that a
// command that blocks (on a FIFO) fails instead of hanging the tests.
func linkRun(t *testing.T, dir string, args ...string) e2eResult {
	t.Helper()
	bin := e2eBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("textfrag %q did not finish in 20 s", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return e2eResult{stdout.String(), stderr.String(), code}
}

// linkRepo writes a repository with source files in every line-ending
// style, a BOM, names that need encoding, and a Latin-1 file that its
// textfrag.toml configures.
func linkRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var lf, crlf, mixed strings.Builder
	for i := 1; i <= 30; i++ {
		lf.WriteString("line " + itoa(i) + "\n")
		crlf.WriteString("line " + itoa(i) + "\r\n")
		mixed.WriteString("line " + itoa(i) + []string{"\r", "\u0085", "\r\u0085", "\n", "\r\n"}[i%5])
	}
	e2eWrite(t, dir, map[string]string{
		".git/HEAD":               "ref: refs/heads/main\n",
		"textfrag.toml":           "charsets = [\"*.latin1=ISO-8859-1\"]\n",
		"src/a.go":                lf.String(),
		"src/crlf.txt":            crlf.String(),
		"src/mixed.txt":           "\ufeff" + mixed.String(),
		"src/we ird (1)#x%.txt":   "one\ntwo\nthree",
		"src/héllo/日本.txt":        "ni\nhon\n",
		"src/old.latin1":          "caf\xe9\nna\xefve\n",
		"src/not-utf8.txt":        "caf\xe9\n",
		".env":                    "TOKEN=x\n",
		"docs/.keep":              "",
		"docs/sub/.keep":          "",
		"docs/assets/.keep":       "",
		"src/dir/.keep":           "",
		"src/empty.txt":           "",
		"src/no-final-ending.txt": "a\nb",
		"src/big.txt":             strings.Repeat("x\n", 600),
		"src/utf16.txt":           utf16LE("\ufeffone\r\ntwo\r\nthree\r\n"),
	})
	return dir
}

// utf16LE encodes s, which holds only BMP characters, as UTF-16LE.
func utf16LE(s string) string {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

func itoa(i int) string { return fmt.Sprintf("%02d", i) }

// TestLinkBuildsPinned: the links "link" prints, pasted into pages as
// boxes and in running text, build, and pass "check --strict": every one
// pinned, none with a warning; each box shows the lines asked for.
func TestLinkBuildsPinned(t *testing.T) {
	dir := linkRepo(t)
	cases := []struct {
		args  []string
		from  string // page the link goes in, "" for rooted
		label string // the box's range label, "" for inline links
		body  string // text the box must show
	}{
		{[]string{"src/a.go:11-20"}, "docs/guide.md", "lines 11–20", "line 11\nline 12"},
		{[]string{"src/a.go:30"}, "docs/guide.md", "line 30", "line 30\n"},
		{[]string{"src/crlf.txt:2-3"}, "docs/sub/deep.md", "lines 2–3", "line 02\nline 03\n"},
		{[]string{"src/mixed.txt:4-7"}, "docs/guide.md", "lines 4–7", "line 04\nline 05\nline 06\nline 07\n"},
		{[]string{"src/mixed.txt:1"}, "", "line 1", "line 01\n"},
		{[]string{"src/we ird (1)#x%.txt:2-3"}, "docs/guide.md", "lines 2–3", "two\nthree"},
		{[]string{"src/héllo/日本.txt:2"}, "docs/sub/deep.md", "line 2", "hon\n"},
		{[]string{"src/old.latin1:2"}, "docs/guide.md", "line 2", "naïve\n"},
		{[]string{"src/utf16.txt:2-3"}, "docs/guide.md", "lines 2–3", "two\nthree\n"},
		{[]string{"src/empty.txt:1"}, "docs/guide.md", "line 1", ""},
		{[]string{"src/no-final-ending.txt:2"}, "docs/guide.md", "line 2", "b"},
		{[]string{"src/a.go:2:3-3:4", "--title", "the [2nd] *line*", "--options", "lang=text"}, "docs/guide.md", "line 2, col 3 – line 3, col 4", "ne 02\nline"},
		{[]string{"src/a.go:9-11", "--char"}, "docs/guide.md", "line 2, col 1 – line 2, col 3", "lin"},
		{[]string{"src/a.go:5-6", "--inline"}, "docs/guide.md", "", ""},
		{[]string{"src/a.go:1:1-1:4", "--quote"}, "docs/sub/deep.md", "", ""},
	}
	pages := map[string]string{}
	for _, c := range cases {
		args := append([]string{"link"}, c.args...)
		if c.from != "" {
			args = append(args, "--from", c.from)
		}
		res := linkRun(t, dir, args...)
		if res.code != 0 || res.stderr != "" || strings.Count(res.stdout, "\n") != 1 {
			t.Fatalf("textfrag %q: code %d, stdout %q, stderr %q", args, res.code, res.stdout, res.stderr)
		}
		link := strings.TrimSuffix(res.stdout, "\n")
		if !regexp.MustCompile(`;md5=[0-9a-f]{32}[) ]`).MatchString(link) {
			t.Errorf("%q: %s is not pinned", args, link)
		}
		if (c.from == "") != strings.Contains(link, "](/") {
			t.Errorf("%q: %s: rooted only without --from", args, link)
		}
		page := c.from
		if page == "" {
			page = "docs/rooted.md"
		}
		if c.label == "" {
			pages[page] += "Some text " + link + " and more.\n\n"
		} else {
			pages[page] += link + "\n\n"
		}
	}
	for name, content := range pages {
		e2eWrite(t, dir, map[string]string{name: "# Page\n\n" + content})
	}
	if res := linkRun(t, dir, "check", "--strict", "docs"); res.code != 0 || !strings.Contains(res.stderr, " 0 errors, 0 warnings") {
		t.Fatalf("check --strict: code %d, stderr %s\npages: %q", res.code, res.stderr, pages)
	}
	res := linkRun(t, dir, "build", "docs", "-o", "public")
	if res.code != 0 || !strings.Contains(res.stderr, "(0 warnings)") {
		t.Fatalf("build: code %d, stderr %s", res.code, res.stderr)
	}
	html := ""
	for _, s := range e2eTree(t, filepath.Join(dir, "public")) {
		html += s
	}
	for _, c := range cases {
		if c.label != "" && !strings.Contains(html, `<span class="textfrag-range">`+c.label+`</span>`) {
			t.Errorf("%q: no box labelled %q", c.args, c.label)
		}
	}
	if !strings.Contains(html, `<q class="textfrag-quote"`) || !strings.Contains(html, `>line</q>`) {
		t.Errorf("--quote: no inline quotation of \"line\"")
	}
	// The box bodies, seen as text (no markup), hold the lines asked for.
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(html, "")
	text = regexp.MustCompile(`(?m)^\d+`).ReplaceAllString(text, "") // line numbers
	for _, c := range cases {
		if c.body != "" && !strings.Contains(strings.ReplaceAll(text, "&#39;", "'"), c.body) {
			t.Errorf("%q: the built site does not show %q", c.args, c.body)
		}
	}
}

// TestLinkJSON: --format json gives editors the parts of the link.
func TestLinkJSON(t *testing.T) {
	dir := linkRepo(t)
	res := linkRun(t, dir, "link", "--format", "json", "--from", "docs/guide.md", "--inline", "src/we ird (1)#x%.txt:2")
	var got linkJSON
	if err := json.Unmarshal([]byte(res.stdout), &got); err != nil || res.code != 0 {
		t.Fatalf("code %d, %v: %s %s", res.code, err, res.stdout, res.stderr)
	}
	sum := e2eMD5("one\ntwo\nthree")
	want := linkJSON{
		Markdown: "[we ird (1)#x%.txt line 2](../src/we%20ird%20%281%29%23x%25.txt#line=1,2;md5=" + sum + ")",
		Dest:     "../src/we%20ird%20%281%29%23x%25.txt#line=1,2;md5=" + sum,
		Fragment: "line=1,2;md5=" + sum,
		Path:     "src/we ird (1)#x%.txt",
		Label:    "line 2",
		Form:     "inline",
	}
	if got != want {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	// FILE and PAGE are found as the shell finds them, from where it runs.
	res = linkRun(t, filepath.Join(dir, "docs"), "link", "../src/a.go:1", "--from", "sub/x.md")
	if !strings.HasPrefix(res.stdout, "[a.go line 1](../../src/a.go#line=0,1;md5=") || res.code != 0 {
		t.Errorf("from docs/: code %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
}

// TestLinkRefuses: what cannot be quoted is refused with a reason and a
// remedy, exit 1; a command line that cannot be right, exit 2.
func TestLinkRefuses(t *testing.T) {
	dir := linkRepo(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "src", "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"-outside.go")
	if err := os.WriteFile(outside, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(outside) })
	if err := os.Symlink(outside, filepath.Join(dir, "src", "link.go")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"src/a.go:25-31"}, 1, []string{"src/a.go:25-31", "line 31 is not in the file, which has 30 lines"}},
		{[]string{"src/a.go:31"}, 1, []string{"which has 30 lines"}},
		{[]string{"src/a.go:1-1000", "--char"}, 1, []string{"character 1000 is not in the file, which has 240 characters"}},
		{[]string{"src/a.go:2:9"}, 1, []string{"line 2 has 8 characters (its line ending counts one), so it has no column 9"}},
		{[]string{"src/a.go:20-11"}, 2, []string{"src/a.go:20-11", "starts after it ends"}},
		{[]string{"src/a.go:0-3"}, 2, []string{"line numbers start at 1"}},
		{[]string{"src/a.go"}, 2, []string{"not FILE:START[-END]"}},
		{[]string{"src/a.go:1", "--box", "--inline"}, 2, []string{"give one"}},
		{[]string{"src/a.go:1-2", "--quote"}, 2, []string{"quote", "character ranges only"}},
		{[]string{"src/a.go:1", "--format", "yaml"}, 2, []string{"want text or json"}},
		{[]string{"src/a.go:1", "--from", "docs"}, 2, []string{"a directory"}},
		{[]string{"src/a.go:1-2", "--options", "hl=1 bogus"}, 1, []string{`unknown option "bogus"`}},
		{[]string{"src/big.txt:1-600"}, 1, []string{"the box would show 600 lines", "narrow the range", "(--inline)"}},
		{[]string{"src/missing.go:1"}, 1, []string{"src/missing.go", "not found"}},
		{[]string{"src/dir:1"}, 1, []string{"directory"}},
		{[]string{"src/fifo.txt:1"}, 1, []string{"FIFO"}},
		{[]string{"src/not-utf8.txt:1"}, 1, []string{"invalid UTF-8", "--charset", "textfrag.toml"}},
		{[]string{".env:1"}, 1, []string{"commonly holds secrets", "--allow-secret '.env'"}},
		{[]string{"../" + filepath.Base(outside) + ":1"}, 1, []string{"outside the project root", "the project root is " + dir, "give a wider --root DIR"}},
		{[]string{"src/link.go:1"}, 1, []string{"outside", "give a wider --root DIR"}},
		{[]string{"src/a.go:1", "--from", "../elsewhere.md"}, 1, []string{"--from ../elsewhere.md: outside the project root"}},
	} {
		res := linkRun(t, dir, append([]string{"link"}, c.args...)...)
		if res.code != c.code || res.stdout != "" {
			t.Errorf("%q: code %d (want %d), stdout %q, stderr %q", c.args, res.code, c.code, res.stdout, res.stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(res.stderr, w) {
				t.Errorf("%q: stderr %q does not say %q", c.args, res.stderr, w)
			}
		}
	}
	// Allowed by name, the secret-looking file is quoted.
	if res := linkRun(t, dir, "link", ".env:1", "--allow-secret", ".env"); res.code != 0 {
		t.Errorf("--allow-secret: code %d, %s", res.code, res.stderr)
	}
	// Not as a box, but as a link in running text.
	if res := linkRun(t, dir, "link", "src/big.txt:1-600", "--inline"); res.code != 0 {
		t.Errorf("--inline of 600 lines: code %d, %s", res.code, res.stderr)
	}
	// A warning does not stop the link, but is printed.
	res := linkRun(t, dir, "link", "src/a.go:1-2", "--options", "hl=9")
	if res.code != 0 || !strings.Contains(res.stderr, "warning:") || !strings.Contains(res.stderr, "hl=9") || !strings.Contains(res.stdout, `"hl=9")`) {
		t.Errorf("hl= outside the box: code %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
	// textfrag.toml is read as by every command: a mistake in it stops link too.
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "charsets = [\"*.latin1=ISO-8859-1\"]\nStrict = true\n"})
	if res := linkRun(t, dir, "link", "src/a.go:1"); res.code != 1 || !strings.Contains(res.stderr, `textfrag.toml:2:1: unknown key "Strict"`) {
		t.Errorf("unknown key: code %d, %q", res.code, res.stderr)
	}
	// -h is a success, and names what the command does.
	if res := linkRun(t, dir, "link", "-h"); res.code != 0 || !strings.Contains(res.stderr, "Usage: textfrag link FILE:START[-END]") {
		t.Errorf("link -h: code %d, %q", res.code, res.stderr)
	}
}

// FILE as a stranger types it. A Windows path (src\a.go, a name that does
// not exist on this system) is not found with a remedy that works when
// followed: the same command with /. A missing file is explained as a
// path from the current directory, not as a link resolved from its page.
// A file name holding a newline and an escape is written escaped, on one
// line, whatever fails.
func TestLinkStrangerPaths(t *testing.T) {
	dir := t.TempDir()
	odd := "src/e\x1b[31mvil\nname.txt"
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "src/a.go": "package a\n\nfunc A() {}\n", odd: "a\nb\n"})

	r := linkRun(t, dir, "link", `src\a.go:3`, "--from", "docs/p.md")
	want := "`textfrag link src/a.go:3`"
	if r.code != 1 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "document's directory") {
		t.Fatalf("src\\a.go:3: exit %d, %q; want 1 and the remedy %s", r.code, r.stderr, want)
	}
	if again := linkRun(t, dir, "link", "src/a.go:3", "--from", "docs/p.md"); again.code != 0 || !strings.Contains(again.stdout, "(../src/a.go#line=2,3;md5=") {
		t.Errorf("the remedy: exit %d, %q %q", again.code, again.stdout, again.stderr)
	}

	r = linkRun(t, dir, "link", "src/gone.go:3")
	if r.code != 1 || !strings.Contains(r.stderr, "from the current directory") || strings.Contains(r.stderr, "document's directory") {
		t.Errorf("a missing file: exit %d, %q; want it explained as a path from the current directory", r.code, r.stderr)
	}

	for _, arg := range []string{odd + ":2", odd + ":9", odd + ":X", "src/gone\n\x1b[2J.go:1"} {
		r = linkRun(t, dir, "link", arg)
		if r.code == 0 || strings.Count(r.stderr, "\n") != 1 || strings.ContainsAny(r.stderr, "\x1b\a") || !strings.Contains(r.stderr, `\x1b`) {
			t.Errorf("%q: exit %d, stderr %q; want a failure on one line, the escape written as \\x1b", arg, r.code, r.stderr)
		}
	}
}
