package treesitter

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goCmd runs the go command in the module's root with extra environment.
func goCmd(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Join("..", "..", "..")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// The goldmark library stays pure Go: no tree-sitter module and no package
// with cgo files but the standard library's (net and runtime/cgo, which
// build without cgo when CGO_ENABLED=0) is in its import graph; and the
// command and the library build with CGO_ENABLED=0.
func TestLibraryHasNoCgo(t *testing.T) {
	deps := goCmd(t, nil, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{len .CgoFiles}}", "./goldmark-textfrag")
	n := 0
	for line := range strings.Lines(deps) {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("go list: %q", line)
		}
		n++
		if strings.Contains(f[0], "tree-sitter") || strings.Contains(f[0], "/symbol/treesitter") {
			t.Errorf("the library's import graph holds %s", f[0])
		}
		if f[1] == "false" && f[2] != "0" {
			t.Errorf("the library's import graph holds %s, with cgo files", f[0])
		}
	}
	if n < 10 || !strings.Contains(deps, "github.com/textfrag/textfrag/goldmark-textfrag/symbol false 0\n") {
		t.Fatalf("go list listed %d packages, without the symbol engine: is it looking at the library?", n)
	}
	// The parsers' package does hold tree-sitter and cgo, or this test
	// proves nothing.
	if ts := goCmd(t, nil, "list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}", "./goldmark-textfrag/symbol/treesitter"); !strings.Contains(ts, "github.com/tree-sitter/go-tree-sitter ") || strings.Contains(ts, "github.com/tree-sitter/go-tree-sitter 0\n") {
		t.Errorf("the parsers' import graph has no tree-sitter with cgo: %s", ts)
	}
	goCmd(t, []string{"CGO_ENABLED=0"}, "build", "-o", os.DevNull, "./cmd/textfrag")
	goCmd(t, []string{"CGO_ENABLED=0"}, "build", "./goldmark-textfrag/...")
}

// A program built without cgo has the languages, and a sym= link in them
// fails with the reason and the remedies: testdata/nocgo is built and run
// with CGO_ENABLED=0, so the !cgo file is the one compiled. (The list after
// "sym= works in" is the engine's: it names every language of the set.)
func TestNoCgoMessage(t *testing.T) {
	out := goCmd(t, []string{"CGO_ENABLED=0"}, "run", "./goldmark-textfrag/symbol/treesitter/testdata/nocgo")
	for _, want := range []string{
		"no symbol parser for src/app.py (Python: built without cgo; rebuild textfrag with CGO_ENABLED=1 and a C compiler); sym= works in ",
		"; quote by region= (any language) or by lines\n",
		"\nkind unsupported\n",
		"\nlanguages: c cpp go java javascript python rust tsx typescript\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("got\n%s\nwant it to hold %q", out, want)
		}
	}
	// With cgo (as this test runs) the same program finds the name.
	if out := goCmd(t, nil, "run", "./goldmark-textfrag/symbol/treesitter/testdata/nocgo"); !strings.HasPrefix(out, "<nil>\n") {
		t.Errorf("with cgo: %s", out)
	}
}
