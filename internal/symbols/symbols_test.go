package symbols

import (
	"os/exec"
	"strings"
	"testing"
)

// The command's set knows Go and every tree-sitter language, under the
// names symbol.LanguageOf gives, and finds a Python method (so the cgo
// parsers are the real ones, not the !cgo stand-ins that refuse).
func TestSetKnowsEveryLanguage(t *testing.T) {
	set := Set()
	for _, lang := range []string{"go", "python", "javascript", "typescript", "tsx", "rust", "java", "c", "cpp"} {
		if set[lang] == nil {
			t.Errorf("no parser for %s", lang)
		}
	}
	if len(Languages()) < 8 {
		t.Errorf("Languages() = %q", Languages())
	}
	src := "class C:\n    def m(self):\n        pass\n"
	decls, err := set["python"].Decls([]byte(src))
	if err != nil || len(decls) != 2 || decls[1].Name != "C.m" {
		t.Errorf("python: %+v, %v", decls, err)
	}
}

// The tree-sitter parsers (cgo) reach the command through this package,
// and never the goldmark library's import graph.
func TestLibraryDoesNotImportTreeSitter(t *testing.T) {
	lib := "github.com/textfrag/textfrag/goldmark-textfrag"
	out, err := exec.Command("go", "list", "-deps", lib, lib+"/target", lib+"/symbol", lib+"/rfc5147", lib+"/highlight").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.Contains(d, "tree-sitter") || d == lib+"/symbol/treesitter" || d == "github.com/textfrag/textfrag/internal/symbols" {
			t.Errorf("the library's import graph holds %s", d)
		}
	}
	out, err = exec.Command("go", "list", "-deps", "github.com/textfrag/textfrag/cmd/textfrag").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !strings.Contains(string(out), "github.com/textfrag/textfrag/internal/symbols\n") || !strings.Contains(string(out), "tree-sitter") {
		t.Error("cmd/textfrag does not import the parsers through internal/symbols")
	}
}
