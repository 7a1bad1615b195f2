package refs

import (
	"strings"
	"testing"
)

func TestParseUnifiedDiffGit(t *testing.T) {
	diff := "diff --git a/src/a.go b/src/a.go\nindex 1..2 100644\n--- a/src/a.go\n+++ b/src/a.go\n" +
		"@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n" +
		"@@ -9 +8,0 @@\n-nine\n" +
		"diff --git a/old name.txt b/new name.txt\nsimilarity index 100%\nrename from old name.txt\nrename to new name.txt\n" +
		"diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n--- not a header\n" +
		"diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+n\n" +
		"diff --git \"a/t\\303\\251\\tab.txt\" \"b/t\\303\\251\\tab.txt\"\n--- \"a/t\\303\\251\\tab.txt\"\n+++ \"b/t\\303\\251\\tab.txt\"\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"
	files, err := parseUnifiedDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ old, new string }
	wants := []want{{"src/a.go", "src/a.go"}, {"old name.txt", "new name.txt"}, {"gone.txt", ""}, {"", "new.txt"}, {"té\tab.txt", "té\tab.txt"}}
	if len(files) != len(wants) {
		t.Fatalf("%d files, want %d", len(files), len(wants))
	}
	for i, w := range wants {
		if files[i].oldPath != w.old || files[i].newPath != w.new {
			t.Errorf("file %d: %q → %q, want %q → %q", i, files[i].oldPath, files[i].newPath, w.old, w.new)
		}
	}
	// Reverse-applied to the new side, the hunks give the old side back.
	old, err := files[0].reverse([]byte("one\nTWO\nthree\n4\n5\n6\n7\n8\n"))
	if err != nil || string(old) != "one\ntwo\nthree\n4\n5\n6\n7\n8\nnine\n" {
		t.Errorf("reverse: %q, %v", old, err)
	}
	if got := string(files[2].deletedContent()); got != "x\n-- not a header\n" {
		t.Errorf("deleted content %q", got)
	}
	if old, err := files[4].reverse([]byte("b")); err != nil || string(old) != "a" {
		t.Errorf("no newline at the end: %q, %v", old, err)
	}
	if old, err := files[1].reverse([]byte("same\n")); err != nil || string(old) != "same\n" {
		t.Errorf("a pure rename: %q, %v", old, err)
	}
}

func TestParseUnifiedDiffRefuses(t *testing.T) {
	for _, diff := range []string{
		"@@ -1 +1 @@\n-a\n+b\n",
		"--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\n+b\n", // ends inside a hunk
		"--- a\n+++ b\n@@ bad @@\n",
	} {
		if _, err := parseUnifiedDiff([]byte(diff)); err == nil {
			t.Errorf("%q: parsed", diff)
		}
	}
	files, err := parseUnifiedDiff([]byte("--- a/f\n+++ b/f\n@@ -5 +5 @@\n-a\n+b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := files[0].reverse([]byte("1\n2\n")); err == nil {
		t.Error("a hunk past the end of the file applied")
	}
	if _, err := files[0].reverse([]byte("1\n2\n3\n4\nc\n")); err == nil || !strings.Contains(err.Error(), "f:5: the diff on stdin does not match the work tree there") {
		t.Errorf("a hunk that does not match: %v", err)
	}
}

// TestParseUnifiedDiffQuotedNames: git quotes a name holding a line break
// (or a quote, a backslash, a byte above 0x7f) in C style, also on its
// "diff --git" line, which alone names an empty file added or deleted and a
// change of mode. Such names are read exactly; a line that names a file in
// a way textfrag cannot read is an error, never dropped or given to
// another file.
func TestParseUnifiedDiffQuotedNames(t *testing.T) {
	diff := "diff --git \"a/docs/two\\nlines.md\" \"b/docs/two\\nlines.md\"\ndeleted file mode 100644\nindex e69de29..0000000\n" +
		"diff --git a/plain.md \"b/q\\\"uote\\\\d \\303\\251.md\"\nsimilarity index 100%\nrename from plain.md\nrename to \"q\\\"uote\\\\d \\303\\251.md\"\n" +
		"diff --git a/src/a.go b/src/copy.go\nsimilarity index 90%\ncopy from src/a.go\ncopy to src/copy.go\n--- a/src/a.go\n+++ b/src/copy.go\n@@ -1 +1 @@\n-a\n+b\n" +
		"--- \"o\\nld\"\t2026-01-01 00:00:00\n+++ \"n\\new\"\t2026-01-01 00:00:00\n@@ -1 +1 @@\n-x\n+y\n"
	files, err := parseUnifiedDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ old, new string }
	// A plain unified diff (no "diff --git") cannot say a file was
	// renamed: the new name stands for both sides.
	wants := []want{{"docs/two\nlines.md", ""}, {"plain.md", "q\"uote\\d é.md"}, {"", "src/copy.go"}, {"n\new", "n\new"}}
	if len(files) != len(wants) {
		t.Fatalf("%d files, want %d", len(files), len(wants))
	}
	for i, w := range wants {
		if files[i].oldPath != w.old || files[i].newPath != w.new {
			t.Errorf("file %d: %q → %q, want %q → %q", i, files[i].oldPath, files[i].newPath, w.old, w.new)
		}
	}

	for _, diff := range []string{
		// a name with a raw line break, as a tool that does not quote writes it
		"--- a/docs/two\nlines.md\n+++ b/docs/two\nlines.md\n@@ -1 +1 @@\n-a\n+b\n",
		"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/docs/two\nlines.md\n+++ b/docs/two\nlines.md\n@@ -1 +1 @@\n-a\n+b\n",
		// names that cannot be read, with nothing else naming the file
		"diff --git \"a/docs/two\\nlines.md\n",
		"diff --git a/x b/y\ndeleted file mode 100644\n",
		"diff --git \"a/bad\\q\" \"b/bad\\q\"\nold mode 100644\nnew mode 100755\n",
		// an unquoted name with a space beside a quoted one
		"diff --git \"a/x\\ty\" b/x y\nold mode 100644\nnew mode 100755\n",
		// malformed quotes where a name is read
		"--- \"a/bad\\q\"\n+++ \"b/bad\\q\"\n@@ -1 +1 @@\n-a\n+b\n",
		"diff --git a/a b/b\nrename from \"unterminated\nrename to b\n",
		"--- \"a/x\\400\"\n+++ \"b/x\\400\"\n@@ -1 +1 @@\n-a\n+b\n",
	} {
		if files, err := parseUnifiedDiff([]byte(diff)); err == nil || !strings.Contains(err.Error(), "textfrag cannot tell which file it names") {
			var names []string
			for _, f := range files {
				names = append(names, f.oldPath+" → "+f.newPath)
			}
			t.Errorf("%q: %q, %v; want it refused", diff, names, err)
		}
	}
}
