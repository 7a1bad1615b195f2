package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refsSite is a project whose pages quote src/a.go in every way a link can.
func refsSite(t *testing.T) *pinSite {
	t.Helper()
	a := numberedSource(1, 30)
	return newPinSite(t, map[string]string{
		"textfrag.toml": "",
		"src/a.go":      a,
		"src/b.go":      a,
		"docs/guide.md": "# Guide\n\n" +
			"[pinned](../src/a.go#line=10,20;md5=" + md5hex(a) + ")\n\n" + // lines 11–20, line 3
			"[rooted](/src/a.go#line=1,3)\n\n" + // lines 2–3, line 5
			"[other](../src/b.go#line=10,20)\n\n" + // another file
			"[bad fragment](../src/a.go#line=x)\n\n" + // broken, lines unknown
			"[stale](../src/a.go#line=13,14;md5=00000000000000000000000000000000)\n", // line 14, stale, line 11
		"docs/sub/chars.md": "Text [chars](../../src/a.go#char=200,250) text.\n\n" + // lines touched: see below
			"{{< textfrag \"../../src/a.go#line=29,\" >}}\n", // line 30 to the end
		"docs/missing.md": "[gone](../src/gone.go#line=4,6)\n",
	})
}

func TestRefsLists(t *testing.T) {
	s := refsSite(t)
	// Each source line is "// line N é\n": 12 characters for N < 10, 13 after.
	// char=200,250 covers characters 201–250: line 17 starts after character
	// 9*12+7*13 = 199, line 20 after 238: line 17, col 2 to line 20, col 12.
	tests := []struct {
		ref  string
		dir  string
		want []string
	}{
		{"src/a.go", "", []string{
			"docs/guide.md:3:1: src/a.go lines 11–20, pinned",
			"docs/guide.md:5:1: src/a.go lines 2–3, unpinned",
			"docs/guide.md:9:1: src/a.go (range unknown), broken: ",
			"docs/guide.md:11:1: src/a.go line 14, pinned, stale: ",
			"docs/sub/chars.md:1:6: src/a.go line 17, col 2 – line 20, col 12, unpinned",
			"docs/sub/chars.md:3:1: src/a.go line 30, unpinned",
		}},
		{"src/a.go:14", "", []string{
			"docs/guide.md:3:1: src/a.go lines 11–20, pinned",
			"docs/guide.md:9:1: src/a.go (range unknown), broken: ",
			"docs/guide.md:11:1: src/a.go line 14, pinned, stale: ",
		}},
		{"../src/a.go:1-2", "docs", []string{
			"docs/guide.md:5:1: src/a.go lines 2–3, unpinned",
			"docs/guide.md:9:1: src/a.go (range unknown), broken: ",
		}},
		{"src/a.go:19-29", "", []string{
			"docs/guide.md:3:1: src/a.go lines 11–20, pinned",
			"docs/guide.md:9:1: src/a.go (range unknown), broken: ",
			"docs/sub/chars.md:1:6: src/a.go line 17, col 2 – line 20, col 12, unpinned",
		}},
		{"src/a.go:21-30", "", []string{
			"docs/guide.md:9:1: src/a.go (range unknown), broken: ",
			"docs/sub/chars.md:3:1: src/a.go line 30, unpinned",
		}},
		{"src/a.go:21-28", "", []string{
			"docs/guide.md:9:1: src/a.go (range unknown), broken: ",
		}},
		{"src/gone.go:5", "", []string{
			"docs/missing.md:1:1: src/gone.go lines 5–6, broken: target file not found", // lines from the fragment
		}},
		{"src/gone.go:7", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.ref, func(t *testing.T) {
			r := e2eRun(t, filepath.Join(s.dir, tc.dir), "refs", tc.ref)
			if r.code != 0 {
				t.Fatalf("exit status %d\n%s", r.code, r.stderr)
			}
			got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			if r.stdout == "" {
				got = nil
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got\n%s\nwant\n%s", r.stdout, strings.Join(tc.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("line %d:\n got %s\nwant %s…", i+1, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestRefsBrokenLinesSayWhy(t *testing.T) {
	s := refsSite(t)
	r := e2eRun(t, s.dir, "refs", "src/a.go:14")
	for _, want := range []string{"docs/guide.md:9:1: src/a.go (range unknown), broken: ", "line=x", "stale: ", "md5"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "3 links quote src/a.go:14 in 1 page\n" {
		t.Errorf("summary %q", r.stderr)
	}
}

func TestRefsJSON(t *testing.T) {
	s := refsSite(t)
	r := e2eRun(t, s.dir, "refs", "src/a.go:11", "--format", "json")
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("exit status %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if len(got) != 2 {
		t.Fatalf("want the pinned link and the broken one:\n%s", r.stdout)
	}
	first := got[0]
	for k, v := range map[string]any{"page": "docs/guide.md", "line": 3.0, "column": 1.0, "kind": "inline", "path": "src/a.go",
		"first_line": 11.0, "last_line": 20.0, "label": "lines 11–20", "pinned": true, "status": "ok"} {
		if first[k] != v {
			t.Errorf("%s = %v, want %v", k, first[k], v)
		}
	}
	if got[1]["status"] != "broken" || got[1]["first_line"] != 0.0 {
		t.Errorf("second: %v", got[1])
	}
	r = e2eRun(t, s.dir, "refs", "src/nothing.go", "--format", "json")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("no links: exit status %d, %q", r.code, r.stdout)
	}
}

func TestRefsUsage(t *testing.T) {
	s := refsSite(t)
	for _, args := range [][]string{
		{"refs"},
		{"refs", "a", "b"},
		{"refs", "src/a.go:20-10"},
		{"refs", "src/a.go", "--format", "github"},
		{"refs", "src/a.go", "--format", "ex"},
	} {
		if r := e2eRun(t, s.dir, args...); r.code != 2 {
			t.Errorf("%v: exit status %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
	if r := e2eRun(t, s.dir, "refs", "../outside.go"); r.code != 1 || !strings.Contains(r.stderr, "outside the project root") {
		t.Errorf("outside the root: exit status %d\n%s", r.code, r.stderr)
	}
	if r := e2eRun(t, s.dir, "refs", "-h"); r.code != 0 || !strings.Contains(r.stderr, "Usage: textfrag refs PATH[:LINES]") {
		t.Errorf("-h: exit status %d\n%s", r.code, r.stderr)
	}
}

// A page that is a symbolic link leading outside the project root (a pull
// request can add docs/notes.md -> /home/you/notes.md) is not read: refs
// names it, says why, exits 1 and lists nothing from it; a page linked
// from inside the root is read as usual.
func TestRefsPageSymlinkOutsideRoot(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	outside := filepath.Join(base, "private.md")
	e2eWrite(t, base, map[string]string{"private.md": "private [p](/src/a.go#line=0,1) token=hunter2\n"})
	e2eWrite(t, dir, map[string]string{
		"textfrag.toml": "", "src/a.go": "a\nb\n",
		"docs/guide.md": "[g](../src/a.go#line=0,1)\n",
	})
	if err := os.Symlink(outside, filepath.Join(dir, "docs/notes.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("guide.md", filepath.Join(dir, "docs/alias.md")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, code := runAs(t, false, "refs", "src/a.go")
	if code != 1 || strings.Contains(out, "notes.md:1") || strings.Contains(out, "hunter2") ||
		!strings.Contains(out, "notes.md: not read: a symbolic link that leads outside the project root") {
		t.Errorf("refs with a page linked from outside the root: exit %d\n%s", code, out)
	}
	os.Remove(filepath.Join(dir, "docs/notes.md"))
	out, code = runAs(t, false, "refs", "src/a.go")
	if code != 0 || !strings.Contains(out, "docs/alias.md:1:1: src/a.go line 1") || !strings.Contains(out, "docs/guide.md:1:1: src/a.go line 1") {
		t.Errorf("refs with a page linked from inside: exit %d\n%s", code, out)
	}
}

// A page refs cannot read is named with its control characters escaped: a
// line break in the name must not start a line of its own in the log.
func TestRefsUnreadPageNameEscaped(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	e2eWrite(t, base, map[string]string{"private.md": "[p](/src/a.go#line=0,1)\n"})
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "src/a.go": "a\nb\n"})
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	if err := os.Symlink(filepath.Join(base, "private.md"), filepath.Join(dir, "docs", "x\ntextfrag: forged\x1b[2J.md")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, code := runAs(t, false, "refs", "src/a.go")
	if code != 1 || !strings.Contains(out, `x\ntextfrag: forged\x1b[2J.md`) || strings.Contains(out, "\ntextfrag: forged") || strings.Contains(out, "\x1b") {
		t.Errorf("refs naming an unread page: exit %d\n%q", code, out)
	}
}
