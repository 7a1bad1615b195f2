package refs

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibraryDoesNotImportGitDiff: the unified-diff parser
// (github.com/bluekeyes/go-gitdiff) is the command's dependency, through
// this package: it never enters goldmark-textfrag's import graph.
func TestLibraryDoesNotImportGitDiff(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "github.com/textfrag/textfrag/goldmark-textfrag/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if len(strings.Fields(string(out))) < 10 {
		t.Fatalf("go list listed too little: %q", out)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.Contains(d, "gitdiff") || strings.HasPrefix(d, "github.com/textfrag/textfrag/internal/refs") {
			t.Errorf("the library's import graph holds %s", d)
		}
	}
	out, err = exec.Command("go", "list", "-deps", "github.com/textfrag/textfrag/cmd/textfrag").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !strings.Contains(string(out), "github.com/bluekeyes/go-gitdiff/gitdiff\n") {
		t.Error("cmd/textfrag does not import go-gitdiff: is the test looking at the right graph?")
	}
}
