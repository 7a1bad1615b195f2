package hugotest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// The README's line for themes that set color-scheme on <html> for each of
// their variants (Relearn, hugo-book, hextra) makes boxes inherit it. It works
// only while its selectors outrank every selector of the stylesheet that sets
// a box's color-scheme, whichever stylesheet comes first in the page.
func TestColorSchemeRecipeOutranksStylesheet(t *testing.T) {
	var recipe string
	for _, line := range strings.Split(readme(t), "\n") {
		if strings.HasPrefix(line, "<style>") && strings.Contains(line, "color-scheme: inherit") {
			recipe = strings.TrimSuffix(strings.TrimPrefix(line, "<style>"), "</style>")
		}
	}
	if recipe == "" {
		t.Fatal("the README has no <style> line with color-scheme: inherit")
	}
	css, err := os.ReadFile(filepath.Join("..", "assets", "textfrag", "textfrag.css"))
	if err != nil {
		t.Fatal(err)
	}
	sheet := regexp.MustCompile(`/\*(?s:.*?)\*/`).ReplaceAllString(string(css), "")
	ruleRE := regexp.MustCompile(`([^{}]+)\{([^{}]*)\}`)
	mine := map[string][3]int{} // the recipe's specificity per class it styles
	for _, m := range ruleRE.FindAllStringSubmatch(recipe, -1) {
		for _, sel := range strings.Split(m[1], ",") {
			sel = strings.TrimSpace(sel)
			last := sel[strings.LastIndexAny(sel, " >")+1:]
			mine[last] = specificity(t, sel)
		}
	}
	checked := 0
	for _, m := range ruleRE.FindAllStringSubmatch(sheet, -1) {
		if !strings.Contains(m[2], "color-scheme:") {
			continue
		}
		for _, sel := range strings.Split(m[1], ",") {
			sel = strings.TrimSpace(sel)
			last := sel[strings.LastIndexAny(sel, " >")+1:]
			if last != ".textfrag" && last != ".textfrag-highlight" {
				continue
			}
			checked++
			got, ok := mine[last]
			if !ok {
				t.Errorf("the README's line does not style %s, which the stylesheet gives a color-scheme (%s)", last, sel)
			} else if want := specificity(t, sel); !outranks(got, want) {
				t.Errorf("the README's selector for %s has specificity %v, not above the stylesheet's %q (%v)", last, got, sel, want)
			}
		}
	}
	if checked == 0 {
		t.Fatal("the stylesheet sets no color-scheme on .textfrag: update this test")
	}
}

// specificity of a selector made of type, class, id, attribute and
// pseudo-class parts (no :is, :where, :not, which would need more).
func specificity(t *testing.T, sel string) [3]int {
	t.Helper()
	if regexp.MustCompile(`:(is|where|not|has)\(`).MatchString(sel) {
		t.Fatalf("specificity: %q needs a fuller parser", sel)
	}
	var s [3]int
	for _, part := range regexp.MustCompile(`#[\w-]+|\.[\w-]+|\[[^\]]*\]|::?[\w-]+|[a-zA-Z][\w-]*|\*`).FindAllString(sel, -1) {
		switch {
		case part[0] == '#':
			s[0]++
		case part[0] == '.' || part[0] == '[' || (part[0] == ':' && !strings.HasPrefix(part, "::")):
			s[1]++
		case part == "*":
		default:
			s[2]++
		}
	}
	return s
}

func outranks(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}
