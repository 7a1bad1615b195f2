package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRefsDiff runs refs --diff - in process on a project of 200 pages
// with 10 links each into 50 source files of 1000 lines, and a diff that
// edits each source file in 10 places: about a third of the links are
// affected (changed, moved or refreshed).
func BenchmarkRefsDiff(b *testing.B) {
	dir := b.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("textfrag.toml", "")
	var diff strings.Builder
	sums := make([]string, 50)
	for f := range 50 {
		var old, cur strings.Builder
		name := fmt.Sprintf("src/f%02d.go", f)
		fmt.Fprintf(&diff, "--- a/%s\n+++ b/%s\n", name, name)
		shift := 0
		for i := 1; i <= 1000; i++ {
			line := fmt.Sprintf("// file %d line %d\n", f, i)
			old.WriteString(line)
			if i%100 == 50 {
				fmt.Fprintf(&diff, "@@ -%d +%d,2 @@\n-%s+%s+inserted\n", i, i+shift, line, strings.ToUpper(line))
				cur.WriteString(strings.ToUpper(line) + "inserted\n")
				shift++
				continue
			}
			cur.WriteString(line)
		}
		sums[f] = md5hex(old.String())
		write(name, cur.String())
	}
	for p := range 200 {
		var page strings.Builder
		for k := range 10 {
			f, start := (p*10+k)%50, (p*37+k*91)%990
			fmt.Fprintf(&page, "[q](../src/f%02d.go#line=%d,%d;md5=%s)\n\n", f, start, start+5, sums[f])
		}
		write(fmt.Sprintf("docs/p%03d.md", p), page.String())
	}
	b.Chdir(dir)
	input := diff.String()
	b.ResetTimer()
	for b.Loop() {
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut}
		if code := e.main([]string{"refs", "--diff", "-", "--format", "json"}); code != exitError {
			b.Fatalf("exit status %d\n%s", code, errOut.String())
		}
		io.Discard.Write(out.Bytes())
	}
}

// BenchmarkRefsDiffNames runs refs --diff - in process on 200 pages with
// 10 links each that quote functions by name (sym=) in 50 Go files of
// 1,001 lines, and a diff that inserts two lines at the top of each file:
// every quote moved, each followed by its name (one parse per file).
func BenchmarkRefsDiffNames(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{"textfrag.toml": ""}
	var diff strings.Builder
	old := lspNamesSource(200)
	sum := md5hex(old)
	for f := range 50 {
		name := fmt.Sprintf("src/f%02d.go", f)
		fmt.Fprintf(&diff, "--- a/%s\n+++ b/%s\n@@ -0,0 +1,2 @@\n+// header\n+\n", name, name)
		files[name] = "// header\n\n" + old
	}
	for p := range 200 {
		var page strings.Builder
		for k := range 10 {
			f, fn := (p*10+k)%50, (p*37+k*91)%200
			start := 1 + 5*fn + 2
			fmt.Fprintf(&page, "[F%d](../src/f%02d.go#line=%d,%d;md5=%s \"sym=F%d\")\n\n", fn, f, start, start+3, sum, fn)
		}
		files[fmt.Sprintf("docs/p%03d.md", p)] = page.String()
	}
	e2eWrite(b, dir, files)
	b.Chdir(dir)
	input := diff.String()
	b.ResetTimer()
	for b.Loop() {
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut}
		if code := e.main([]string{"refs", "--diff", "-", "--format", "json"}); code != exitOK || !strings.Contains(errOut.String(), "2000 quotes affected (the diff on stdin): 0 refreshed, 2000 moved, 0 changed") {
			b.Fatalf("exit status %d\n%s", code, errOut.String())
		}
	}
}
