package refs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/textfrag/textfrag/internal/realm"
)

// This file reads a unified diff (git diff, diff -u) for FromDiff, and
// rebuilds each file's old side from its new side, the work tree. Lines are
// the diff's own: cut at LF, as diff tools cut them; the rebuilt bytes are
// then counted as RFC 5147 counts them.

// udFile is one file of a unified diff.
type udFile struct {
	oldPath, newPath string // "" for /dev/null: added, or deleted
	hunks            []udHunk
	binary           bool
}

// udHunk is one hunk: the new side's first line (1-based; for an empty new
// side, the line before it) and both sides' lines with their LF.
type udHunk struct {
	newStart int
	old, cur []string
}

var udHunkHeader = regexp.MustCompile(`^@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@`)

// parseUnifiedDiff reads the files of a unified diff. Paths lose git's
// "a/" and "b/" prefixes and any timestamp after a tab.
func parseUnifiedDiff(data []byte) ([]*udFile, error) {
	lines := strings.SplitAfter(string(data), "\n")
	var files []*udFile
	var cur *udFile
	var gitOld, gitNew string // from "diff --git" and "rename from/to"
	newFile := func() {
		cur = &udFile{oldPath: gitOld, newPath: gitNew}
		files = append(files, cur)
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r\n")
		switch {
		case strings.HasPrefix(line, "diff --git "):
			gitOld, gitNew = udGitPaths(line)
			newFile()
		case cur != nil && strings.HasPrefix(line, "rename from "):
			cur.oldPath = udPath(strings.TrimPrefix(line, "rename from "), "")
		case cur != nil && strings.HasPrefix(line, "rename to "):
			cur.newPath = udPath(strings.TrimPrefix(line, "rename to "), "")
		case cur != nil && strings.HasPrefix(line, "new file mode"):
			cur.oldPath = ""
		case cur != nil && strings.HasPrefix(line, "deleted file mode"):
			cur.newPath = ""
		case strings.HasPrefix(line, "Binary files ") && cur != nil:
			cur.binary = true
		case strings.HasPrefix(line, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			if cur == nil || len(cur.hunks) > 0 {
				gitOld, gitNew = "", ""
				newFile()
			}
			cur.oldPath = udPath(line[4:], "a/")
			cur.newPath = udPath(strings.TrimRight(lines[i+1][4:], "\r\n"), "b/")
			i++
		case strings.HasPrefix(line, "@@ "):
			if cur == nil {
				return nil, fmt.Errorf("the diff on stdin: a hunk before any file header: %q", line)
			}
			m := udHunkHeader.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("the diff on stdin: a bad hunk header: %q", line)
			}
			nOld, nNew := udCount(m[2]), udCount(m[4])
			start, _ := strconv.Atoi(m[3])
			h := udHunk{newStart: start}
			for i+1 < len(lines) && (nOld > 0 || nNew > 0 || strings.HasPrefix(lines[i+1], "\\")) {
				i++
				l := lines[i]
				if l == "" {
					return nil, fmt.Errorf("the diff on stdin ends inside a hunk of %s", cur.newPath)
				}
				switch l[0] {
				case ' ':
					h.old, h.cur = append(h.old, l[1:]), append(h.cur, l[1:])
					nOld, nNew = nOld-1, nNew-1
				case '-':
					h.old = append(h.old, l[1:])
					nOld--
				case '+':
					h.cur = append(h.cur, l[1:])
					nNew--
				case '\\': // "\ No newline at end of file": the line before has none
					prev := lines[i-1]
					if len(prev) > 0 && (prev[0] == ' ' || prev[0] == '-') && len(h.old) > 0 {
						h.old[len(h.old)-1] = strings.TrimSuffix(h.old[len(h.old)-1], "\n")
					}
					if len(prev) > 0 && (prev[0] == ' ' || prev[0] == '+') && len(h.cur) > 0 {
						h.cur[len(h.cur)-1] = strings.TrimSuffix(h.cur[len(h.cur)-1], "\n")
					}
				default:
					return nil, fmt.Errorf("the diff on stdin: an unexpected line in a hunk of %s: %q", cur.newPath, strings.TrimRight(l, "\n"))
				}
				if nOld < 0 || nNew < 0 {
					return nil, fmt.Errorf("the diff on stdin: a hunk of %s is longer than its header says", cur.newPath)
				}
			}
			cur.hunks = append(cur.hunks, h)
		}
	}
	return files, nil
}

func udCount(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}

// udGitPaths reads "diff --git a/X b/Y" when it is unambiguous (X == Y, as
// for every change but a rename, whose "rename" lines name both).
func udGitPaths(line string) (string, string) {
	rest := strings.TrimPrefix(line, "diff --git ")
	if n := len(rest); n%2 == 1 {
		a, b := rest[:n/2], rest[n/2+1:]
		if strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
			return a[2:], b[2:]
		}
	}
	return "", ""
}

// udPath reads a path of a "---" or "+++" line: "" for /dev/null, git's
// C-style quotes undone, the prefix and a trailing timestamp removed.
func udPath(s, prefix string) string {
	if strings.HasPrefix(s, "\"") {
		if end := strings.LastIndex(s, "\""); end > 0 {
			if u, err := strconv.Unquote(s[:end+1]); err == nil {
				s = u
			}
		}
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if s == "/dev/null" {
		return ""
	}
	if prefix != "" {
		s = strings.TrimPrefix(s, prefix)
	}
	return s
}

// deletedContent is a deleted file's content: its hunks' old lines.
func (f *udFile) deletedContent() []byte {
	var b bytes.Buffer
	for _, h := range f.hunks {
		for _, l := range h.old {
			b.WriteString(l)
		}
	}
	return b.Bytes()
}

// reverse rebuilds the old side of the file from its new side, cur: each
// hunk's new lines must be found in cur where the hunk says.
func (f *udFile) reverse(cur []byte) ([]byte, error) {
	lines := strings.SplitAfter(string(cur), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out bytes.Buffer
	at := 0
	for _, h := range f.hunks {
		idx := h.newStart - 1
		if len(h.cur) == 0 {
			idx = h.newStart
		}
		if idx < at || idx+len(h.cur) > len(lines) {
			return nil, fmt.Errorf("%s: the diff on stdin does not apply to the work tree (its hunk at line %d lies outside the file); the diff's new side must be the work tree", f.newPath, h.newStart)
		}
		for i, l := range h.cur {
			if lines[idx+i] != l {
				return nil, fmt.Errorf("%s:%d: the diff on stdin does not match the work tree there; the diff's new side must be the work tree", f.newPath, idx+i+1)
			}
		}
		for _, l := range lines[at:idx] {
			out.WriteString(l)
		}
		for _, l := range h.old {
			out.WriteString(l)
		}
		at = idx + len(h.cur)
	}
	for _, l := range lines[at:] {
		out.WriteString(l)
	}
	return out.Bytes(), nil
}

// FromDiff reads a unified diff whose new side is the work tree under
// root (paths relative to it), and rebuilds the old side of each file it
// changes from the two. A diff that does not apply is an error.
func FromDiff(in io.Reader, root *os.Root) (*Changes, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	files, err := parseUnifiedDiff(data)
	if err != nil {
		return nil, err
	}
	src := &Changes{Name: "the diff on stdin", Files: map[string]*Change{}}
	olds := map[string][]byte{}
	added := map[string]bool{} // added or renamed here: no BASE page of that name
	for _, f := range files {
		if f.newPath != f.oldPath {
			added[f.newPath] = true
		}
		if f.oldPath == "" || f.binary {
			continue // added, or nothing to rebuild
		}
		c := &Change{oldPath: f.oldPath, newPath: f.newPath}
		if f.newPath == "" {
			c.old = f.deletedContent()
		} else {
			c.cur, err = realm.ReadFile(root, filepath.FromSlash(f.newPath), 0)
			if err != nil {
				return nil, fmt.Errorf("%s: %v; the diff's new side must be the work tree", f.newPath, err)
			}
			if c.old, err = f.reverse(c.cur); err != nil {
				return nil, err
			}
		}
		olds[f.oldPath] = c.old
		src.Files[c.oldPath] = c
		if c.newPath != "" {
			src.Files[c.newPath] = c
		}
	}
	src.BasePage = func(page string) []byte {
		if old, ok := olds[page]; ok {
			return old
		}
		if added[page] {
			return nil
		}
		data, err := realm.ReadFile(root, filepath.FromSlash(page), 0)
		if err != nil {
			return nil
		}
		return data
	}
	return src, nil
}
