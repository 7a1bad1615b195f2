package migrate

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines around each change.
const diffContext = 3

// Diff writes the file's change as a unified diff (as "diff -u" and git
// write it, paths a/PATH and b/PATH). Lines are written without their line
// endings; the text is as the files hold it, for the caller to make safe
// for a terminal.
func (f File) Diff() string {
	if len(f.Edits) == 0 {
		return ""
	}
	old := newLines(f.Old)
	n := old.count()
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", f.Path, f.Path)
	delta := 0 // new line number minus old, before the hunk
	for i := 0; i < len(f.Edits); {
		// A hunk: edits whose context touches.
		j := i + 1
		for j < len(f.Edits) && f.Edits[j].Start-f.Edits[j-1].End <= 2*diffContext {
			j++
		}
		start := max(0, f.Edits[i].Start-diffContext)
		end := min(n, f.Edits[j-1].End+diffContext)
		var body strings.Builder
		oldCount, newCount := 0, 0
		k := start
		for _, e := range f.Edits[i:j] {
			for ; k < e.Start; k++ {
				t, _ := old.text(k)
				body.WriteString(" " + t + "\n")
				oldCount++
				newCount++
			}
			for ; k < e.End; k++ {
				t, _ := old.text(k)
				body.WriteString("-" + t + "\n")
				oldCount++
			}
			added := newLines(e.Text)
			for a := 0; a < added.count(); a++ {
				t, _ := added.text(a)
				body.WriteString("+" + t + "\n")
				newCount++
			}
		}
		for ; k < end; k++ {
			t, _ := old.text(k)
			body.WriteString(" " + t + "\n")
			oldCount++
			newCount++
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(start, oldCount), hunkRange(start+delta, newCount))
		b.WriteString(body.String())
		delta += newCount - oldCount
		i = j
	}
	return b.String()
}

// hunkRange writes a hunk's start and length as diff -u does.
func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if count == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}
