package pin

import (
	"fmt"
	"strings"
)

// This file holds the line diff that pin uses three ways: to print the
// unified diff of a Markdown file, to show how quoted text changed, and to
// find where a quoted region went in a new version of its file.

type editKind uint8

const (
	opEqual editKind = iota
	opDelete
	opInsert
)

// edit is one step of a line diff: a line kept (opEqual: a and b are its
// indexes), removed (opDelete: a is its index, b the number of lines of b
// before it) or added (opInsert: b is its index, a the lines of a before it).
type edit struct {
	kind editKind
	a, b int
}

// maxDiffD bounds the number of differing lines the Myers search explores
// (memory grows with its square). Beyond it the differing middle of the two
// texts is treated as one replaced block, which is still a correct diff,
// only not a minimal one.
const maxDiffD = 2000

// diffLines returns an edit script turning a into b: every line of a and of
// b appears once, in order, and in each run of changes every deletion
// comes before every insertion, as unified diffs show a replaced block
// (Myers' backtrace yields them so; TestDiffLinesMinimal holds it). Equal common prefixes and suffixes are kept
// first, and the rest is diffed with Myers' O(ND) algorithm.
func diffLines(a, b []string) []edit {
	x, y := lineIDs(a, b)
	return diffIDs(x, y)
}

// diffIDs is diffLines on lines numbered by lineIDs.
func diffIDs(x, y []int) []edit {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var out []edit
	for i := 0; i < pre; i++ {
		out = append(out, edit{opEqual, i, i})
	}
	mid, ok := myers(x[pre:len(x)-suf], y[pre:len(y)-suf])
	if !ok {
		mid = mid[:0]
		for i := 0; i < len(x)-pre-suf; i++ {
			mid = append(mid, edit{opDelete, i, 0})
		}
		for j := 0; j < len(y)-pre-suf; j++ {
			mid = append(mid, edit{opInsert, len(x) - pre - suf, j})
		}
	}
	for _, e := range mid {
		e.a += pre
		e.b += pre
		out = append(out, e)
	}
	for i := 0; i < suf; i++ {
		out = append(out, edit{opEqual, len(x) - suf + i, len(y) - suf + i})
	}
	return out
}

// myers finds a shortest edit script from a to b, or reports false when it
// needs more than maxDiffD insertions and deletions.
func myers(a, b []int) ([]edit, bool) {
	n, m := len(a), len(b)
	maxD := min(n+m, maxDiffD)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := false
	for d := 0; d <= maxD && !found; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	if !found {
		return nil, false
	}
	var rev []edit
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			rev = append(rev, edit{opEqual, x - 1, y - 1})
			x, y = x-1, y-1
		}
		if d > 0 {
			if x == prevX {
				rev = append(rev, edit{opInsert, x, y - 1})
			} else {
				rev = append(rev, edit{opDelete, x - 1, y})
			}
		}
		x, y = prevX, prevY
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out, true
}

// splitKeepNL splits s after each '\n'; a last line without one is kept.
func splitKeepNL(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// UnifiedDiff returns the diff of a file's old and new contents in unified
// format with three lines of context, as "diff -u" and git print it, or ""
// when they are equal. name is the file as shown after "a/" and "b/".
func UnifiedDiff(name string, oldText, newText []byte) string {
	if string(oldText) == string(newText) {
		return ""
	}
	a, b := splitKeepNL(string(oldText)), splitKeepNL(string(newText))
	edits := diffLines(a, b)
	var out strings.Builder
	label := strings.TrimPrefix(name, "/")
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", label, label)
	for _, h := range groupHunks(edits, 3) {
		writeHunk(&out, edits[h[0]:h[1]], a, b)
	}
	return out.String()
}

// groupHunks groups the changes of edits into [start, end) ranges of edits with
// ctx lines of context, merging groups whose contexts touch.
func groupHunks(edits []edit, ctx int) [][2]int {
	var out [][2]int
	for i := 0; i < len(edits); i++ {
		if edits[i].kind == opEqual {
			continue
		}
		start := max(0, i-ctx)
		last := i
		for j := i + 1; j < len(edits); j++ {
			if edits[j].kind == opEqual {
				continue
			}
			if j-last-1 > 2*ctx {
				break
			}
			last = j
		}
		end := min(len(edits), last+ctx+1)
		out = append(out, [2]int{start, end})
		i = end - 1
	}
	return out
}

// writeHunk writes one hunk: its @@ header and its lines.
func writeHunk(out *strings.Builder, es []edit, a, b []string) {
	oldStart, newStart, oldN, newN := -1, -1, 0, 0
	oldBefore, newBefore := 0, 0 // lines before the hunk, for empty sides
	for _, e := range es {
		if e.kind != opInsert {
			if oldStart < 0 {
				oldStart = e.a
			}
			oldN++
		}
		if e.kind != opDelete {
			if newStart < 0 {
				newStart = e.b
			}
			newN++
		}
	}
	// A side with no lines in the hunk (only insertions, or only deletions)
	// names the line before the hunk.
	if oldStart < 0 {
		oldBefore = es[0].a
	}
	if newStart < 0 {
		newBefore = es[0].b
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(oldStart, oldN, oldBefore), hunkRange(newStart, newN, newBefore))
	for _, e := range es {
		var prefix byte
		var line string
		switch e.kind {
		case opEqual:
			prefix, line = ' ', a[e.a]
		case opDelete:
			prefix, line = '-', a[e.a]
		case opInsert:
			prefix, line = '+', b[e.b]
		}
		out.WriteByte(prefix)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange writes one side of a hunk header: "start,count", with the
// count left out when it is 1, and the line before the hunk when it is 0.
func hunkRange(start, n, before int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", before)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
