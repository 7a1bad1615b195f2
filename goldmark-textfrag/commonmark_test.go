package textfrag_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

// TestCommonMarkUnchanged renders every CommonMark spec example shipped with
// goldmark (_test/spec.json in its module) with and without the extension:
// the output must be byte-identical, since none of them is an RFC 5147 link.
func TestCommonMarkUnchanged(t *testing.T) {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	if err != nil {
		t.Fatalf("locating goldmark: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "_test", "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []struct {
		Markdown string `json:"markdown"`
		Example  int    `json:"example"`
	}
	if err := json.Unmarshal(raw, &examples); err != nil {
		t.Fatal(err)
	}
	if len(examples) < 600 {
		t.Fatalf("only %d spec examples", len(examples))
	}
	plain := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe()))
	withExt := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe()),
		goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(t.TempDir()))))
	for _, ex := range examples {
		var want, got bytes.Buffer
		if err := plain.Convert([]byte(ex.Markdown), &want); err != nil {
			t.Fatalf("example %d without extension: %v", ex.Example, err)
		}
		if err := withExt.Convert([]byte(ex.Markdown), &got); err != nil {
			t.Errorf("example %d with extension: %v", ex.Example, err)
			continue
		}
		if got.String() != want.String() {
			t.Errorf("example %d differs:\n%s\nwant\n%s", ex.Example, got.String(), want.String())
		}
	}
}
