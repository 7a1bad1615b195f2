package pin

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// importHistory makes a repository in a new directory whose branch main
// has one commit per version of file (git fast-import: fast), the last
// checked out.
func importHistory(t testing.TB, file string, versions []string) string {
	t.Helper()
	dir := t.TempDir()
	var s strings.Builder
	// Commits to one branch follow each other: each is the next's parent.
	for i, v := range versions {
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter t <t@x> %d +0000\ndata 2\nv\n", 1700000000+i)
		fmt.Fprintf(&s, "M 644 inline %s\ndata %d\n%s\n", file, len(v), v)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"fast-import", "--quiet"}, {"checkout", "-q", "-f", "main"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if args[0] == "fast-import" {
			cmd.Stdin = strings.NewReader(s.String())
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// grown returns n versions of a file of about size bytes, each adding one
// line at the top of the one before (so a quote moves by one line).
func grown(n, size int) []string {
	body := strings.Repeat("filler line of the file, the same in every version\n", size/50)
	out := make([]string, n)
	top := ""
	for i := range out {
		top = fmt.Sprintf("added line %d\n", i) + top
		out[i] = top + "quoted one\nquoted two\n" + body
	}
	return out
}

func planWith(t testing.TB, dir string, h *History, page string) []Change {
	t.Helper()
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: h}
	return p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))
}

// quoteAt links the two quoted lines of version v of grown (index i).
func quoteAt(vs []string, i int) string {
	return lineLink("f.txt", i+1, i+3, vs[i])
}

// TestHistorySearchBounded: history search reads versions newest first,
// each blob once per run, and stops at the pinned one: what it reads
// grows with how far back the pinned version is, not with the length of
// the history. Many links into one file read its versions once.
func TestHistorySearchBounded(t *testing.T) {
	var largest int
	read := func(n int) (int64, int) {
		vs := grown(n, 4000)
		largest = len(vs[n-1])
		dir := importHistory(t, "f.txt", vs)
		h := NewHistory(dir)
		// Ten links pinned to the version five commits back, one to the
		// version ten back.
		page := strings.Repeat(quoteAt(vs, n-6), 10) + quoteAt(vs, n-11)
		for _, c := range planWith(t, dir, h, page) {
			if c.Class != Moved {
				t.Fatalf("%d versions: %s: %s", n, c.Class, c.Message)
			}
		}
		return h.bytesRead, h.versionsRead
	}
	b50, v50 := read(50)
	b400, v400 := read(400)
	if v50 != v400 || b400 > int64(v400*largest) {
		t.Errorf("50 versions: %d bytes in %d versions read; 400 versions: %d in %d (each at most %d bytes): the cost grows with the history", b50, v50, b400, v400, largest)
	}
	// Newest first, each blob once, up to 10 back (the index's blob is
	// HEAD's): 11 reads; the ten links pinned to one version search once.
	if v50 != 11 {
		t.Errorf("%d versions read for two pinned versions 5 and 10 commits back", v50)
	}
}

// TestHistorySearchLimits: a version over MaxVersionBytes is never read
// (a 400 MB blob in history costs nothing); a search that reaches
// MaxVersions or MaxBytes stops, and the quote is review, with the limit
// named and what to do.
func TestHistorySearchLimits(t *testing.T) {
	vs := grown(30, 2000)
	huge := strings.Repeat("x", 200_000) + "\n"
	vs[20] = vs[20] + huge // one large version in the middle of history
	dir := importHistory(t, "f.txt", vs)

	h := NewHistory(dir)
	h.MaxVersionBytes = 50_000
	c := planWith(t, dir, h, quoteAt(vs, 10))[0]
	if c.Class != Moved {
		t.Errorf("past a large version: %s: %s", c.Class, c.Message)
	}
	if h.bytesRead > 30*int64(len(vs[0])+100) {
		t.Errorf("read %d bytes: the large version was read", h.bytesRead)
	}
	// The pinned version is the large one: it is not read, and the quote
	// is review, naming the limit.
	h = NewHistory(dir)
	h.MaxVersionBytes = 50_000
	c = planWith(t, dir, h, lineLink("f.txt", 10, 12, vs[20]))[0]
	if c.Class != Review || !strings.Contains(c.Message, "over 50000 bytes (History.MaxVersionBytes) and were not read") ||
		!strings.Contains(c.Remedy, "remove the link's md5= and run `textfrag pin --write") {
		t.Errorf("large pinned version: %s: %s", c.Class, c.Message)
	}
	mustNotApply(t, "large pinned version", c)

	h = NewHistory(dir)
	h.MaxVersions = 5
	c = planWith(t, dir, h, quoteAt(vs, 3))[0]
	if c.Class != Review || !strings.Contains(c.Message, "read 5 versions of the file (History.MaxVersions) without finding it") || h.versionsRead != 5 {
		t.Errorf("MaxVersions: %d read: %s: %s", h.versionsRead, c.Class, c.Message)
	}
	h = NewHistory(dir)
	h.MaxBytes = int64(len(vs[29])) * 3
	c = planWith(t, dir, h, quoteAt(vs, 3))[0]
	if c.Class != Review || !strings.Contains(c.Message, "(History.MaxBytes is") || h.bytesRead > h.MaxBytes {
		t.Errorf("MaxBytes: %d read: %s: %s", h.bytesRead, c.Class, c.Message)
	}
}

// BenchmarkHistorySearch relocates a quote pinned 10 commits back in a
// history of 300 versions of a 200 KB file; bytes/op is what git handed
// over.
func BenchmarkHistorySearch(b *testing.B) {
	vs := grown(300, 200_000)
	dir := importHistory(b, "f.txt", vs)
	page := quoteAt(vs, 289)
	var read int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := NewHistory(dir)
		if c := planWith(b, dir, h, page)[0]; c.Class != Moved {
			b.Fatalf("%s: %s", c.Class, c.Message)
		}
		read += h.bytesRead
	}
	b.ReportMetric(float64(read)/float64(b.N), "git-bytes/op")
}
