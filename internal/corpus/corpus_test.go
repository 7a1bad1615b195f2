package corpus

import (
	"bytes"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func load(t *testing.T) []Case {
	t.Helper()
	cases, err := Load(Dir())
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("corpus has %d cases, want at least 100", len(cases))
	}
	return cases
}

// TestCorpusConsistent checks every case against the rules of testdata/README.md.
func TestCorpusConsistent(t *testing.T) {
	seen := map[string]string{}
	for _, c := range load(t) {
		id := c.Source + ": " + c.Name
		if !kebab.MatchString(c.Name) {
			t.Errorf("%s: name is not kebab-case", id)
		}
		if prev, dup := seen[c.Name]; dup {
			t.Errorf("%s: name already used in %s", id, prev)
		}
		seen[c.Name] = c.Source
		if strings.TrimSpace(c.Rule) == "" {
			t.Errorf("%s: no rule", id)
		}
		if c.Link == "" {
			t.Errorf("%s: no link", id)
		}
		if err := CheckPath(c.Doc); err != nil {
			t.Errorf("%s: doc %q: %v", id, c.Doc, err)
		}
		for p, f := range c.Files {
			if err := CheckPath(p); err != nil {
				t.Errorf("%s: file %q: %v", id, p, err)
			}
			if _, err := f.Bytes(); err != nil {
				t.Errorf("%s: file %q: %v", id, p, err)
			}
		}
		for _, d := range c.Dirs {
			if err := CheckPath(d); err != nil {
				t.Errorf("%s: dir %q: %v", id, d, err)
			}
		}
		for l, target := range c.Symlinks {
			if err := CheckPath(l); err != nil {
				t.Errorf("%s: symlink %q: %v", id, l, err)
			}
			if target == "" {
				t.Errorf("%s: symlink %q has no target", id, l)
			}
		}
		for pat := range c.Charsets {
			if _, err := path.Match(pat, ""); err != nil {
				t.Errorf("%s: charset pattern %q: %v", id, pat, err)
			}
		}
		checkWant(t, id, c)
	}
}

func checkWant(t *testing.T, id string, c Case) {
	w := c.Want
	if w.Title != nil && (c.Text == "" || !w.IsSelection()) {
		t.Errorf("%s: want.title needs text and a selection", id)
	}
	if (w.Boxes != nil || w.Links != nil) != (c.Markdown != "") {
		t.Errorf("%s: markdown goes with want.boxes or want.links, and they with markdown", id)
	}
	if c.Markdown != "" && (!strings.Contains(c.Markdown, "{link}") || !w.IsSelection()) {
		t.Errorf("%s: markdown needs {link} and a selection", id)
	}
	kinds := 0
	if w.Error != "" {
		kinds++
		if !slices.Contains(Errors, w.Error) {
			t.Errorf("%s: error %q is not one of %v", id, w.Error, Errors)
		}
	}
	if (w.Error == "symbol") != (w.Symbol != "") || (w.Symbol != "" && !slices.Contains(Symbols, w.Symbol)) {
		t.Errorf("%s: error symbol goes with want.symbol, one of %v, and it with the error", id, Symbols)
	}
	if strings.Contains(c.Title, `"`) {
		t.Errorf("%s: the title holds a double quote", id)
	}
	if w.Ignored {
		kinds++
	}
	if w.IsSelection() {
		kinds++
	}
	if kinds != 1 {
		t.Errorf("%s: want has %d of error / ignored / selection, need exactly one", id, kinds)
		return
	}
	_, frag, _ := strings.Cut(c.Link, "#")
	for _, u := range w.UnknownChecks {
		if !strings.Contains(frag+";", ";"+u+";") {
			t.Errorf("%s: unknown check %q is not in the fragment %q as written", id, u, frag)
		}
	}
	if !w.IsSelection() {
		if w.UnknownChecks != nil {
			t.Errorf("%s: unknown_checks without a selection", id)
		}
		return
	}
	if !strings.HasPrefix(frag, "line=") && !strings.HasPrefix(frag, "char=") {
		t.Errorf("%s: a selection needs a fragment starting line= or char=, link is %q", id, c.Link)
	}
	if w.Text == nil || w.Chars == nil || w.Clamped == nil || w.Label == nil {
		t.Errorf("%s: a selection needs text, chars, clamped and label", id)
		return
	}
	if !utf8.ValidString(*w.Text) {
		t.Errorf("%s: want.text is not UTF-8", id)
	}
	if len(w.Chars) != 2 || w.Chars[0] < 0 || w.Chars[0] > w.Chars[1] {
		t.Errorf("%s: chars %v is not an ordered pair", id, w.Chars)
		return
	}
	if n := countChars(*w.Text); n != w.Chars[1]-w.Chars[0] {
		t.Errorf("%s: want.text has %d characters but chars %v spans %d", id, n, w.Chars, w.Chars[1]-w.Chars[0])
	}
	if *w.Label == "" {
		t.Errorf("%s: empty label", id)
	}
	if strings.HasPrefix(frag, "line=") {
		if len(w.Lines) != 2 || w.Lines[0] < 0 || w.Lines[0] > w.Lines[1] {
			t.Errorf("%s: line-scheme selection needs lines as an ordered pair, got %v", id, w.Lines)
		}
	} else if w.Lines != nil {
		t.Errorf("%s: lines given for a char-scheme selection", id)
	}
}

// countChars counts characters as SEMANTICS.md section 2 does: code points, with
// CR+LF and CR+NEL each one character.
func countChars(s string) int {
	n := 0
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "\r\n"):
			i += 2
		case strings.HasPrefix(s[i:], "\r\u0085"):
			i += 3
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		n++
	}
	return n
}

// TestSelectionTextInFile checks that the selected text of every case whose
// target is a plain UTF-8 text file (reached without symlinks, name normalization
// or charset configuration) occurs in that file.
func TestSelectionTextInFile(t *testing.T) {
	checked := 0
	for _, c := range load(t) {
		if !c.Want.IsSelection() || c.Want.Text == nil {
			continue
		}
		target, ok := lexicalTarget(c)
		if !ok {
			continue
		}
		f, ok := c.Files[target]
		if !ok || f.Text == nil || len(c.Charsets) > 0 {
			continue
		}
		checked++
		if !strings.Contains(*f.Text, *c.Want.Text) {
			t.Errorf("%s: %s: want.text %q is not in %s", c.Source, c.Name, *c.Want.Text, target)
		}
	}
	t.Logf("checked %d selection cases against their file", checked)
	if checked < 100 {
		t.Errorf("checked only %d selection cases against their file, want at least 100", checked)
	}
}

// lexicalTarget resolves a case's link without the file system: relative to the
// document's directory, or to the root for a leading slash.
func lexicalTarget(c Case) (string, bool) {
	p, _, _ := strings.Cut(c.Link, "#")
	if strings.Contains(p, ":") || strings.Contains(strings.ToLower(p), "%2f") {
		return "", false
	}
	var joined string
	if strings.HasPrefix(p, "/") {
		joined = path.Clean(p)[1:]
	} else {
		joined = path.Join(path.Dir(c.Doc), p)
	}
	decoded, err := url.PathUnescape(joined)
	if err != nil || CheckPath(decoded) != nil {
		return "", false
	}
	return decoded, true
}

// TestMaterialize writes every case to disk and reads it back.
func TestMaterialize(t *testing.T) {
	for _, c := range load(t) {
		if len(c.Symlinks) > 0 && runtime.GOOS == "windows" {
			continue
		}
		root := t.TempDir()
		if err := c.Materialize(root); err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		for p, f := range c.Files {
			want, _ := f.Bytes()
			got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
			} else if !bytes.Equal(got, want) {
				t.Errorf("%s: %s holds % x, want % x", c.Name, p, got, want)
			}
		}
		for _, d := range c.Dirs {
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(d))); err != nil || !fi.IsDir() {
				t.Errorf("%s: dir %s not created: %v", c.Name, d, err)
			}
		}
		for l, target := range c.Symlinks {
			got, err := os.Readlink(filepath.Join(root, filepath.FromSlash(l)))
			if err != nil || got != filepath.FromSlash(target) {
				t.Errorf("%s: symlink %s -> %q, want %q (%v)", c.Name, l, got, target, err)
			}
		}
	}
}

func TestMaterializeRejectsEscapingPaths(t *testing.T) {
	text := "x"
	for _, p := range []string{"../x", "/x", "a/../../x", "a//b", ""} {
		c := Case{Name: "bad", Files: map[string]File{p: {Text: &text}}}
		if err := c.Materialize(t.TempDir()); err == nil {
			t.Errorf("Materialize accepted file path %q", p)
		}
	}
}

func TestFileBytes(t *testing.T) {
	text, hx, bad := "a\r\n", "efbbbf61", "zz"
	if b, err := (File{Text: &text}).Bytes(); err != nil || string(b) != "a\r\n" {
		t.Errorf("text: %q %v", b, err)
	}
	if b, err := (File{Hex: &hx}).Bytes(); err != nil || string(b) != "\xef\xbb\xbfa" {
		t.Errorf("hex: %q %v", b, err)
	}
	for _, f := range []File{{}, {Text: &text, Hex: &hx}, {Hex: &bad}} {
		if _, err := f.Bytes(); err == nil {
			t.Errorf("Bytes accepted %+v", f)
		}
	}
}

func TestLoadOrderAndStrictness(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "conformance")
	if err := os.Mkdir(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(conf, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.json", `{"description": "", "cases": [{"name": "b1", "rule": "r", "link": "x", "want": {"ignored": true}}]}`)
	write("a.json", `{"description": "", "cases": [
		{"name": "a1", "rule": "r", "link": "x", "want": {"ignored": true}},
		{"name": "a2", "rule": "r", "doc": "d/p.md", "link": "x", "want": {"error": "missing"}}]}`)
	cases, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.Name+"@"+c.Source+"@"+c.Doc)
	}
	want := []string{"a1@a.json@page.md", "a2@a.json@d/p.md", "b1@b.json@page.md"}
	if !slices.Equal(names, want) {
		t.Errorf("Load order: got %v, want %v", names, want)
	}

	write("c.json", `{"description": "", "cases": [{"name": "c1", "rule": "r", "link": "x", "want": {"ignored": true, "colour": 1}}]}`)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Errorf("Load accepted an unknown field: %v", err)
	}
}

func TestDirSkipsNestedModules(t *testing.T) {
	root := t.TempDir()
	nested := filepath.Join(root, "hugo-module", "hugotest")
	if err := os.MkdirAll(filepath.Join(nested, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("// comment\nmodule "+ModulePath+" // main\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(nested, "go.mod"), []byte("module "+ModulePath+"/hugo-module/hugotest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(nested, "sub"))
	got, want := Dir(), filepath.Join(root, "testdata")
	if got != want {
		// The temporary directory may be reached through a symlink (macOS /var).
		if g, err := filepath.EvalSymlinks(filepath.Dir(got)); err != nil || g != mustEval(t, root) {
			t.Errorf("Dir() = %q, want %q", got, want)
		}
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDirFindsRepositoryTestdata(t *testing.T) {
	if _, err := os.Stat(filepath.Join(Dir(), "conformance")); err != nil {
		t.Fatal(err)
	}
}
