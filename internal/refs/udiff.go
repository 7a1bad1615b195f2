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
	// header is the "diff --git" line when its names could not be read,
	// named is set once "---"/"+++" or both "rename" lines named the file:
	// a file never named is an error, not a change to no file.
	header               string
	named                bool
	renameFrom, renameTo bool
	copied               bool // "copy from": the source is unchanged
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
	// unattributed is the error for a line that names a file in a way
	// textfrag cannot read: the diff is refused rather than a file's
	// change dropped or given to another file.
	unattributed := func(line, why string) error {
		return fmt.Errorf("the diff on stdin: %s: %q; textfrag cannot tell which file it names, and does not guess: give git's own output (git diff), which quotes such names", why, line)
	}
	path := func(s, prefix, line string) (string, error) {
		p, ok := udPath(s, prefix)
		if !ok {
			return "", unattributed(line, "a file name in malformed quotes")
		}
		return p, nil
	}
	var err error
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r\n")
		switch {
		case strings.HasPrefix(line, "diff --git "):
			var ok bool
			gitOld, gitNew, ok = udGitPaths(line)
			newFile()
			if !ok {
				cur.header = line
			}
		case cur != nil && strings.HasPrefix(line, "rename from "):
			if cur.oldPath, err = path(strings.TrimPrefix(line, "rename from "), "", line); err != nil {
				return nil, err
			}
			cur.renameFrom = true
		case cur != nil && strings.HasPrefix(line, "rename to "):
			if cur.newPath, err = path(strings.TrimPrefix(line, "rename to "), "", line); err != nil {
				return nil, err
			}
			cur.renameTo = true
		case cur != nil && strings.HasPrefix(line, "copy from "):
			cur.copied = true
		case cur != nil && strings.HasPrefix(line, "copy to "):
			if cur.newPath, err = path(strings.TrimPrefix(line, "copy to "), "", line); err != nil {
				return nil, err
			}
			cur.renameFrom, cur.renameTo = true, true
		case cur != nil && strings.HasPrefix(line, "new file mode"):
			cur.oldPath = ""
		case cur != nil && strings.HasPrefix(line, "deleted file mode"):
			cur.newPath = ""
		case (strings.HasPrefix(line, "Binary files ") || line == "GIT binary patch") && cur != nil:
			cur.binary = true
		case strings.HasPrefix(line, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			if cur == nil || len(cur.hunks) > 0 {
				gitOld, gitNew = "", ""
				newFile()
			}
			if cur.oldPath, err = path(line[4:], "a/", line); err != nil {
				return nil, err
			}
			next := strings.TrimRight(lines[i+1], "\r\n")
			if cur.newPath, err = path(next[4:], "b/", next); err != nil {
				return nil, err
			}
			cur.named = true
			i++
		case strings.HasPrefix(line, "--- "):
			return nil, unattributed(line, `a "---" line without its "+++" line`)
		case strings.HasPrefix(line, "+++ "):
			return nil, unattributed(line, `a "+++" line without its "---" line`)
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
	for _, f := range files {
		if f.header != "" && !f.named && !(f.renameFrom && f.renameTo) {
			return nil, unattributed(f.header, "a file header whose names cannot be read")
		}
		if f.copied {
			f.oldPath = "" // a copy adds a file; its source is unchanged
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

// udGitPaths reads the names of "diff --git a/X b/Y", each in git's C-style
// quotes when it needs them. Unquoted names with spaces are read only when
// unambiguous (X == Y, as for every change but a rename or copy, whose
// own lines name both); ok is false when they cannot be read.
func udGitPaths(line string) (oldPath, newPath string, ok bool) {
	rest := strings.TrimPrefix(line, "diff --git ")
	var a, b string
	switch {
	case strings.HasPrefix(rest, `"`):
		var after string
		if a, after, ok = udUnquote(rest); !ok || !strings.HasPrefix(after, " ") {
			return "", "", false
		}
		if b, after = after[1:], ""; strings.HasPrefix(b, `"`) {
			if b, after, ok = udUnquote(b); !ok || after != "" {
				return "", "", false
			}
		}
	case strings.HasSuffix(rest, `"`):
		// An unquoted name, then a quoted one: the quoted one is the
		// first ` "` from which a quoted name runs to the end.
		for i := 0; !ok; i++ {
			j := strings.Index(rest[i:], ` "`)
			if j < 0 {
				return "", "", false
			}
			i += j
			var after string
			if b, after, ok = udUnquote(rest[i+1:]); ok && after != "" {
				ok = false
			}
			a = rest[:i]
		}
	default:
		n := len(rest)
		if n%2 == 0 {
			return "", "", false
		}
		a, b = rest[:n/2], rest[n/2+1:]
		if rest[n/2] != ' ' || strings.TrimPrefix(a, "a/") != strings.TrimPrefix(b, "b/") {
			return "", "", false
		}
	}
	a, okA := strings.CutPrefix(a, "a/")
	b, okB := strings.CutPrefix(b, "b/")
	if !okA || !okB || a == "" || b == "" {
		return "", "", false
	}
	return a, b, true
}

// udPath reads a path of a "---", "+++", "rename" or "copy" line: "" for
// /dev/null, git's C-style quotes undone, the prefix and a trailing
// timestamp (after a tab) removed. ok is false for malformed quotes.
func udPath(s, prefix string) (string, bool) {
	if strings.HasPrefix(s, `"`) {
		name, rest, ok := udUnquote(s)
		if !ok || rest != "" && rest[0] != '\t' {
			return "", false
		}
		s = name
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if s == "/dev/null" {
		return "", true
	}
	if prefix != "" {
		s = strings.TrimPrefix(s, prefix)
	}
	return s, true
}

// udUnquote reads the name in C-style quotes at the start of s, as git
// (quote_c_style) and GNU diff write a name with a control character, a
// quote, a backslash or (core.quotePath) a byte above 0x7f: \a \b \t \n
// \v \f \r \" \\ and three octal digits for any byte. It returns the name
// and what follows the closing quote; ok is false unless s starts with a
// well-formed quoted name.
func udUnquote(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			return b.String(), s[i+1:], true
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i++; i == len(s) {
			break
		}
		if e := strings.IndexByte(`abtnvfr"\`, s[i]); e >= 0 {
			b.WriteByte("\a\b\t\n\v\f\r\"\\"[e])
			continue
		}
		if i+2 < len(s) && '0' <= s[i] && s[i] <= '3' && '0' <= s[i+1] && s[i+1] <= '7' && '0' <= s[i+2] && s[i+2] <= '7' {
			b.WriteByte((s[i]-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
			i += 2
			continue
		}
		break
	}
	return "", s, false
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
