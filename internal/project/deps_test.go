package project

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibraryDoesNotImportTOML: the TOML reader is a dependency of the
// command only. Neither it nor this package may enter the import graph of
// the library, which promises goldmark, chroma and golang.org/x/text alone.
func TestLibraryDoesNotImportTOML(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-test", "github.com/textfrag/textfrag/goldmark-textfrag/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list listed %d packages: %q", len(deps), deps)
	}
	for _, d := range deps {
		if strings.Contains(d, "toml") || strings.HasPrefix(d, "github.com/textfrag/textfrag/internal/project") {
			t.Errorf("the library's import graph holds %s", d)
		}
	}
	// The command does use it, or this test proves nothing.
	out, err = exec.Command("go", "list", "-deps", "github.com/textfrag/textfrag/cmd/textfrag").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !strings.Contains(string(out), "github.com/pelletier/go-toml/v2\n") {
		t.Error("cmd/textfrag does not import the TOML reader: is the test looking at the right graph?")
	}
}
