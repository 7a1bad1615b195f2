package textfrag_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A program that uses the goldmark extension gets goldmark, chroma and
// golang.org/x/text, the two small internal modules the library and the
// command share, and nothing of the command's (tree-sitter, TOML, YAML,
// x/net, the LSP): the test builds such a program in a module of its own,
// outside the repository's go.work, and reads its module graph.
func TestModuleGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy")
	}
	lib, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Dir(lib)
	const zero = "v0.0.0-00010101000000-000000000000"
	dir := t.TempDir()
	gomod := "module example.com/site\n\ngo 1.26.0\n\n" +
		"require github.com/textfrag/textfrag/goldmark-textfrag " + zero + "\n\n" +
		"replace (\n" +
		"\tgithub.com/textfrag/textfrag/goldmark-textfrag => " + lib + "\n" +
		"\tgithub.com/textfrag/textfrag/internal/corpus => " + filepath.Join(repo, "internal", "corpus") + "\n" +
		"\tgithub.com/textfrag/textfrag/internal/filetest => " + filepath.Join(repo, "internal", "filetest") + "\n" +
		"\tgithub.com/textfrag/textfrag/internal/htmlsafe => " + filepath.Join(repo, "internal", "htmlsafe") + "\n" +
		"\tgithub.com/textfrag/textfrag/internal/realm => " + filepath.Join(repo, "internal", "realm") + "\n" +
		"\tgithub.com/textfrag/textfrag/internal/termsafe => " + filepath.Join(repo, "internal", "termsafe") + "\n" +
		")\n"
	main := `package main

import (
	"os"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	_ "github.com/textfrag/textfrag/goldmark-textfrag/highlight"
	_ "github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	_ "github.com/textfrag/textfrag/goldmark-textfrag/style"
	_ "github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	_ "github.com/textfrag/textfrag/goldmark-textfrag/target"
)

func main() {
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot("."))))
	_ = md.Convert([]byte("# Site\n"), os.Stdout)
}
`
	for name, data := range map[string]string{"go.mod": gomod, "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd := func(args ...string) []string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		return strings.Fields(string(out))
	}
	gocmd("mod", "tidy")

	// The modules whose packages the program compiles.
	compiled := gocmd("list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", ".")
	slices.Sort(compiled)
	compiled = slices.Compact(compiled)
	wantCompiled := []string{
		"example.com/site",
		"github.com/alecthomas/chroma/v2",
		"github.com/dlclark/regexp2/v2", // chroma's
		"github.com/textfrag/textfrag/goldmark-textfrag",
		"github.com/textfrag/textfrag/internal/realm",
		"github.com/textfrag/textfrag/internal/termsafe",
		"github.com/yuin/goldmark",
		"golang.org/x/text",
	}
	if !slices.Equal(compiled, wantCompiled) {
		t.Errorf("the program compiles packages of\n%s\nwant\n%s", strings.Join(compiled, "\n"), strings.Join(wantCompiled, "\n"))
	}

	// Its module graph: those, what their own go.mod files require (read,
	// not compiled: chroma's test helpers, x/text's tools), and what the
	// library's tests use (go mod tidy reads the tests of the packages a
	// program imports): three internal modules of test helpers, and x/net,
	// whose HTML parser checks the library's output for script.
	graph := gocmd("list", "-m", "-f", "{{.Path}}", "all")
	slices.Sort(graph)
	wantGraph := append(slices.Clone(wantCompiled),
		"github.com/textfrag/textfrag/internal/corpus",   // the library's tests
		"github.com/textfrag/textfrag/internal/filetest", // the library's tests
		"github.com/textfrag/textfrag/internal/htmlsafe", // the library's tests
		"golang.org/x/net",                // internal/htmlsafe's
		"github.com/alecthomas/assert/v2", // chroma's go.mod
		"github.com/alecthomas/repr",      // chroma's go.mod
		"github.com/hexops/gotextdiff",    // chroma's go.mod
		"golang.org/x/mod",                // x/text's go.mod
		"golang.org/x/sync",               // x/text's go.mod
		"golang.org/x/tools",              // x/text's go.mod
	)
	slices.Sort(wantGraph)
	if !slices.Equal(graph, wantGraph) {
		t.Errorf("go list -m all:\n%s\nwant\n%s", strings.Join(graph, "\n"), strings.Join(wantGraph, "\n"))
	}
	for _, m := range graph {
		for _, bad := range []string{"tree-sitter", "go-toml", "yaml", "github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter"} {
			if strings.Contains(m, bad) {
				t.Errorf("a program using the library has %s in its module graph", m)
			}
		}
	}
}
