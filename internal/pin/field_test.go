package pin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// A name that spans one line is said to span "line N", not "lines N".
func TestPlannerNameOneLine(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nvar Limit = 10\n"
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r}
	// Unpinned, at the wrong line: pinned at the name's.
	page := "[x](../src/p.go#line=0,1 \"sym=Limit\")\n"
	c := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))[0]
	if c.Class != Pinned || !strings.Contains(c.Message, "→ line 3 md5=") || !strings.Contains(c.Message, "(sym=Limit spans line 3 now)") {
		t.Errorf("%s: %s", c.Class, c.Message)
	}
}
