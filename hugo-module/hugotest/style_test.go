package hugotest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A Hugo module cannot mount files from outside its own directory, and a Go
// module zip of hugo-module would not hold them anyway, so the module ships
// a copy of the one stylesheet. It must stay byte-identical to the library's.
func TestStylesheetIsTheLibraryOne(t *testing.T) {
	lib := filepath.Join("..", "..", "goldmark-textfrag", "style", "textfrag.css")
	mod := filepath.Join("..", "assets", "textfrag", "textfrag.css")
	want, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from %s; copy it: cp goldmark-textfrag/style/textfrag.css hugo-module/assets/textfrag/textfrag.css", mod, lib)
	}
}
