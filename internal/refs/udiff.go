package refs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/textfrag/textfrag/internal/realm"
)

// This file reads a unified diff (git diff, diff -u) for FromDiff, with
// github.com/bluekeyes/go-gitdiff (git's quoted names, renames, copies,
// binary files, "\ No newline at end of file"), and rebuilds each file's
// old side from its new side, the work tree. Lines are the diff's own: cut
// at LF, as diff tools cut them; the rebuilt bytes are then counted as
// RFC 5147 counts them. go-gitdiff is the command's dependency only:
// goldmark-textfrag never imports this package.

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

// parseUnifiedDiff reads the files of a unified diff. A diff go-gitdiff
// cannot read is refused whole: a change is never dropped, or given to
// another file. Without git's "diff --git" headers (diff -u), a name
// loses a leading "a/" or "b/", and the new name stands for both sides (a
// plain unified diff cannot say that a file was renamed).
func parseUnifiedDiff(data []byte) ([]*udFile, error) {
	parsed, _, err := gitdiff.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the diff on stdin: %v; textfrag cannot tell which file it names, and does not guess: give git's own output (git diff), which quotes names that need it", err)
	}
	plain := !bytes.HasPrefix(data, []byte("diff --git ")) && !bytes.Contains(data, []byte("\ndiff --git "))
	name := func(s string) string {
		if plain {
			if rest, ok := strings.CutPrefix(s, "b/"); ok {
				return rest
			}
			s = strings.TrimPrefix(s, "a/")
		}
		return s
	}
	// Every hunk header must have been read as one: go-gitdiff passes over
	// a line it does not take for a header, and a hunk left out would be a
	// change dropped.
	headers, hunks := 0, 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("@@")) {
			headers++
		}
	}
	for _, pf := range parsed {
		hunks += len(pf.TextFragments)
	}
	if headers != hunks {
		return nil, fmt.Errorf("the diff on stdin: %d hunk headers, of which %d could be read; textfrag does not guess: give git's own output (git diff)", headers, hunks)
	}
	files := make([]*udFile, 0, len(parsed))
	for _, pf := range parsed {
		f := &udFile{oldPath: name(pf.OldName), newPath: name(pf.NewName), binary: pf.IsBinary}
		switch {
		case pf.IsNew, pf.IsCopy: // a copy adds a file; its source is unchanged
			f.oldPath = ""
		case pf.IsDelete:
			f.newPath = ""
		}
		if f.oldPath == "" && f.newPath == "" {
			return nil, fmt.Errorf("the diff on stdin: a file with no name; textfrag cannot tell which file it names, and does not guess: give git's own output (git diff)")
		}
		for _, frag := range pf.TextFragments {
			h := udHunk{newStart: int(frag.NewPosition)}
			for _, l := range frag.Lines {
				switch l.Op {
				case gitdiff.OpContext:
					h.old, h.cur = append(h.old, l.Line), append(h.cur, l.Line)
				case gitdiff.OpDelete:
					h.old = append(h.old, l.Line)
				case gitdiff.OpAdd:
					h.cur = append(h.cur, l.Line)
				}
			}
			f.hunks = append(f.hunks, h)
		}
		files = append(files, f)
	}
	return files, nil
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
