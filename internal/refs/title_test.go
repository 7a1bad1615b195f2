package refs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/mdlink"
)

// TestResolveTitleWords: a title the build refuses (a word that is no
// option, a bad hl= list, misused name options) names nothing and marks
// the link stale with the build's message, whatever sym= it also carries;
// a title the build accepts keeps its name.
func TestResolveTitleWords(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "p.go"), []byte("package p\n\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		title, status, name, says string
	}{
		{"sym=A bogus", "stale", "", `link title: unknown option "bogus"; options are`},
		{"region=bad name", "stale", "", `link title: unknown option "name"; options are`},
		{"sym=A hl=0", "stale", "", `link title: bad line list "0" in hl=`},
		{"sym=A quote", "stale", "", "quote shows characters inside running text"},
		{"sym=A dedent hl=1", "ok", "sym=A", ""},
	} {
		l := Resolve(r, "docs/p.md", mdlink.Link{Line: 1, Column: 1, Dest: "../src/p.go#line=2,3", Title: tc.title})
		if l == nil {
			t.Fatalf("%q: no link", tc.title)
		}
		if l.Status != tc.status || l.Name != tc.name || !strings.Contains(l.Error, tc.says) || (tc.says == "") != (l.Error == "") {
			t.Errorf("%q: status %q name %q error %q, want %q, %q, saying %q", tc.title, l.Status, l.Name, l.Error, tc.status, tc.name, tc.says)
		}
	}
}
