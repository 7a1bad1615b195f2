package hugotest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// templateCalls reads Hugo's template metrics table: how many times each
// template ran (cached partial calls included).
func templateCalls(t *testing.T, metrics string) map[string]int {
	t.Helper()
	calls := map[string]int{}
	for _, l := range strings.Split(metrics, "\n") {
		f := strings.Fields(l)
		if len(f) < 5 {
			continue
		}
		n, err := strconv.Atoi(f[len(f)-2])
		if err != nil {
			continue
		}
		calls[f[len(f)-1]] = n
	}
	if len(calls) == 0 {
		t.Fatalf("no template metrics in:\n%s", metrics)
	}
	return calls
}

// TestShortPathIsTaken checks which links textfrag/transclude's short path
// renders. Each link is built alone with template metrics: a link the short
// path renders runs textfrag/target, which reads the file through
// textfrag/local, and never reaches the general path, which would call
// textfrag/local again (hugotest's TestCorpus holds the two paths' output
// equal).
func TestShortPathIsTaken(t *testing.T) {
	const text = "package a\n\nfunc A() {}\n\nfunc B() {}\n"
	sum := md5.Sum([]byte(text))
	good := hex.EncodeToString(sum[:])
	for _, tc := range []struct {
		name, markdown string
		short          bool // the short path renders it
		target         bool // the short path looks the file up, then hands over
	}{
		{"image with md5", "![A](../src/a.go#line=2,3;md5=" + good + ")", true, true},
		{"image without a check", "![A](../src/a.go#line=0,5)", true, true},
		{"root path", "![A](/src/a.go#line=2,3)", true, true},
		{"link alone in its paragraph", "[A](../src/a.go#line=2,3;md5=" + good + ")", true, true},
		{"link in running text", "See [A](../src/a.go#line=2,3) here.", true, true},
		{"title options", `![A](../src/a.go#line=2,3 "hl=3")`, false, false},
		{"length check", "![A](../src/a.go#line=2,3;length=36)", false, false},
		{"char scheme", "![A](../src/a.go#char=0,9)", false, false},
		{"escaped path", "![A](../src/%61.go#line=2,3)", false, false},
		{"leading zero", "![A](../src/a.go#line=02,3)", false, false},
		{"position", "![A](../src/a.go#line=2)", false, false},
		{"empty range", "![A](../src/a.go#line=2,2)", false, true},
		{"past the end", "![A](../src/a.go#line=2,9)", false, true},
		{"another md5", "![A](../src/a.go#line=2,3;md5=0123456789abcdef0123456789abcdef)", false, true},
		{"query", "![A](../src/a.go?x#line=2,3)", false, false},
		{"remote", "![A](https://example.org/a.go#line=2,3)", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "src", "a.go"), text)
			doc := "---\ntitle: t\n---\n\n" + tc.markdown + "\n"
			r := site{Root: root, Docs: map[string]string{"docs/page.md": doc}, Config: "templateMetrics = true\n"}.build(t)
			calls := templateCalls(t, r.Metrics)
			target, local := calls["_partials/textfrag/target.txt"], calls["_partials/textfrag/local.txt"]
			if got := target > 0; got != tc.target {
				t.Errorf("textfrag/target ran %d times, want it run: %v", target, tc.target)
			}
			if got := target > 0 && local == 1; got != tc.short {
				t.Errorf("short path taken: %v, want %v (target %d, local %d)\n%s", got, tc.short, target, local, r.Metrics)
			}
		})
	}
}

// TestDirectoryListedOncePerBuild checks that textfrag/locate looks each
// quoted file up in its directory's listing, read once per build
// (textfrag/listing, cached), not once per file: quoting n files of one
// directory cost n listings of n entries, each walked by the template.
func TestDirectoryListedOncePerBuild(t *testing.T) {
	const files = 30
	root := t.TempDir()
	var doc strings.Builder
	doc.WriteString("---\ntitle: t\n---\n")
	for i := range files {
		write(t, filepath.Join(root, "src", fmt.Sprintf("f%02d.go", i)), fmt.Sprintf("package a\n\nconst F%02d = 1\n", i))
		fmt.Fprintf(&doc, "\n![F](../src/f%02d.go#line=2,3)\n", i)
	}
	r := site{Root: root, Docs: map[string]string{"docs/page.md": doc.String()},
		Config: "templateMetrics = true\ntemplateMetricsHints = true\n"}.build(t)
	if r.Err != nil {
		t.Fatalf("build failed: %v\n%s", r.Err, r.Log)
	}
	if got := strings.Count(r.Pages["docs/page.md"], `class="textfrag textfrag-line"`); got != files {
		t.Fatalf("%d boxes, want %d", got, files)
	}
	// With hints, a row ends: cached count, total count, template.
	for _, l := range strings.Split(r.Metrics, "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || f[len(f)-1] != "_partials/textfrag/listing.txt" {
			continue
		}
		cached, err1 := strconv.Atoi(f[len(f)-3])
		total, err2 := strconv.Atoi(f[len(f)-2])
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read the metrics row %q", l)
		}
		// Each file's path has two steps: the root's listing and src's.
		if read := total - cached; total != 2*files || read != 2 {
			t.Errorf("textfrag/listing called %d times and run %d, want %d calls and 2 runs (the root and src/)\n%s", total, read, 2*files, r.Metrics)
		}
		return
	}
	t.Fatalf("no metrics for textfrag/listing in:\n%s", r.Metrics)
}
