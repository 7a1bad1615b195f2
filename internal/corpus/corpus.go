// Package corpus loads the shared conformance corpus in testdata/conformance
// (format: testdata/README.md) and materializes its cases on disk, so that every
// front end (engine, goldmark extension, command, Hugo module) runs the same cases.
package corpus

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// ModulePath is the module whose root holds testdata/.
const ModulePath = "github.com/textfrag/textfrag"

// DefaultDoc is the Markdown document of a case that names none.
const DefaultDoc = "page.md"

// Errors are the words allowed in Want.Error.
var Errors = []string{"syntax", "misordered", "integrity", "missing", "outside", "directory", "not-text", "symbol", "escaped"}

// Symbols are the words allowed in Want.Symbol: how a sym= or region= name
// fails (testdata/SYMBOLS.md).
var Symbols = []string{"mismatch", "not-found", "ambiguous", "parse", "unclosed", "unsupported", "options", "empty"}

// Case is one conformance case.
type Case struct {
	Name     string            `json:"name"`
	Rule     string            `json:"rule"`
	Files    map[string]File   `json:"files"`
	Dirs     []string          `json:"dirs,omitempty"`
	Symlinks map[string]string `json:"symlinks,omitempty"`
	Charsets map[string]string `json:"charsets,omitempty"`
	// Doc is the root-relative path of the Markdown document holding the link;
	// Load sets it to DefaultDoc when the case leaves it out.
	Doc  string `json:"doc,omitempty"`
	Link string `json:"link"`
	// Text is the link text (or image alt) as written in Markdown; front
	// ends write their own when it is empty.
	Text string `json:"text,omitempty"`
	// Title is the link's title as written (its options: "sym=F",
	// "region=setup dedent"); front ends write [text](link "title"). It
	// holds no '"'.
	Title string `json:"title,omitempty"`
	// Markdown, when set, is a document of its own in which "{link}" stands
	// for Link and "{title}" for Title: front ends render it instead of
	// theirs and hold it to Want.Boxes and Want.Links (the placement rule
	// of OUTPUT.md).
	Markdown string `json:"markdown,omitempty"`
	Want     Want   `json:"want"`

	// Source is the corpus file the case came from (base name), for messages.
	Source string `json:"-"`
}

// File is the content of one file of a case: exactly one of Text (UTF-8 written
// as is) or Hex (raw bytes) is set.
type File struct {
	Text *string `json:"text,omitempty"`
	Hex  *string `json:"hex,omitempty"`
}

// Bytes returns the bytes to write to disk.
func (f File) Bytes() ([]byte, error) {
	switch {
	case f.Text != nil && f.Hex != nil:
		return nil, errors.New("file has both text and hex")
	case f.Text != nil:
		return []byte(*f.Text), nil
	case f.Hex != nil:
		return hex.DecodeString(*f.Hex)
	}
	return nil, errors.New("file has neither text nor hex")
}

// Want is the expected outcome. A nil pointer or empty field is not asserted.
type Want struct {
	Text    *string `json:"text,omitempty"`
	Chars   []int   `json:"chars,omitempty"`
	Lines   []int   `json:"lines,omitempty"`
	Clamped *bool   `json:"clamped,omitempty"`
	Label   *string `json:"label,omitempty"`
	// Fragment is the box's data-textfrag-fragment: the fragment in
	// canonical form (OUTPUT.md), every number as written.
	Fragment *string `json:"fragment,omitempty"`

	// Title is the box's title as plain text (TITLE in OUTPUT.md,
	// unescaped) for the link written with Text; "" when there is none.
	Title *string `json:"title,omitempty"`
	// Shown is the text the box shows when it differs from Text: the
	// selection without its region marker lines (SYMBOLS.md section 3),
	// line endings as LF. Numbers are the human numbers of the lines the
	// box shows, in order (a gap where a marker line is left out).
	Shown   *string `json:"shown,omitempty"`
	Numbers []int   `json:"numbers,omitempty"`

	// Boxes are the titles of the boxes Markdown gives, in document order;
	// Links the texts of the RFC 5147 links in it that stay links.
	Boxes []string `json:"boxes,omitempty"`
	Links []string `json:"links,omitempty"`

	Error string `json:"error,omitempty"`
	// Symbol is how a name fails, with Error "symbol": one of Symbols.
	Symbol        string   `json:"symbol,omitempty"`
	Ignored       bool     `json:"ignored,omitempty"`
	UnknownChecks []string `json:"unknown_checks,omitempty"`
}

// BoxText is the text the box shows, line endings as LF: Shown, else
// Text; nil when neither is given.
func (w Want) BoxText() *string {
	if w.Shown != nil {
		return w.Shown
	}
	if w.Text != nil {
		t := DisplayText(*w.Text)
		return &t
	}
	return nil
}

// Document returns the case's Markdown with the link and title written
// in, or "".
func (c Case) Document() string {
	return strings.NewReplacer("{link}", c.Link, "{title}", c.Title).Replace(c.Markdown)
}

// WantWith is what c wants from a front end whose symbol parsers are set:
// Want, but for a sym= name in a language set has no parser for, which
// must fail as unsupported, never pass unchecked (fail closed). So
// 15-symbols-treesitter.json runs, and asserts, in a build without the
// tree-sitter parsers too. Errors that come before any parser runs (the
// link's own, and misused title options) stay as they are.
func (c Case) WantWith(set symbol.Set) Want {
	sel, ok, err := symbol.ParseSelector(c.Title)
	if err != nil || !ok || sel.Kind != symbol.Symbol || c.Want.Symbol == "options" ||
		(c.Want.Error != "" && c.Want.Error != "symbol") {
		return c.Want
	}
	path, _, _ := strings.Cut(c.Link, "#")
	language := symbol.LanguageOf(path, c.TitleLang())
	if language == "" || set[language] != nil {
		return c.Want
	}
	return Want{Error: "symbol", Symbol: "unsupported"}
}

// TitleLang returns the value of the title's last lang= option, or "".
func (c Case) TitleLang() string { return symbol.TitleLang(c.Title) }

// Destination returns what goes between a link's parentheses: the link
// (in angle brackets when it holds a space or tab, which the corpus uses
// for syntax errors), then the title in double quotes when there is one.
func (c Case) Destination() string {
	d := c.Link
	if strings.ContainsAny(d, " \t") {
		d = "<" + d + ">"
	}
	if c.Title != "" {
		d += ` "` + c.Title + `"`
	}
	return d
}

// IsSelection reports whether the case expects a selection (neither an error
// nor an ignored link).
func (w Want) IsSelection() bool {
	return w.Text != nil || w.Chars != nil || w.Lines != nil || w.Clamped != nil || w.Label != nil
}

type corpusFile struct {
	Description string `json:"description"`
	Cases       []Case `json:"cases"`
}

// Load reads dir/conformance/*.json (dir is the testdata directory), in file-name
// order and then case order. Unknown JSON fields are an error.
func Load(dir string) ([]Case, error) {
	names, err := filepath.Glob(filepath.Join(dir, "conformance", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("corpus: no conformance/*.json in %s", dir)
	}
	sort.Strings(names)
	var all []Case
	for _, name := range names {
		cases, err := loadFile(name)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	return all, nil
}

func loadFile(name string) ([]Case, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cf corpusFile
	if err := dec.Decode(&cf); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("corpus: %s: data after the top-level object", name)
	}
	base := filepath.Base(name)
	for i := range cf.Cases {
		c := &cf.Cases[i]
		c.Source = base
		if c.Doc == "" {
			c.Doc = DefaultDoc
		}
	}
	return cf.Cases, nil
}

// Materialize writes the case's files, empty directories and symlinks under
// root, which should be an empty directory. It does not write the document.
func (c Case) Materialize(root string) error {
	for _, p := range sortedKeys(c.Files) {
		full, err := join(root, p)
		if err != nil {
			return fmt.Errorf("corpus: %s: file %q: %w", c.Name, p, err)
		}
		data, err := c.Files[p].Bytes()
		if err != nil {
			return fmt.Errorf("corpus: %s: file %q: %w", c.Name, p, err)
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return err
		}
	}
	for _, d := range c.Dirs {
		full, err := join(root, d)
		if err != nil {
			return fmt.Errorf("corpus: %s: dir %q: %w", c.Name, d, err)
		}
		if err := os.MkdirAll(full, 0o755); err != nil {
			return err
		}
	}
	for _, l := range sortedKeys(c.Symlinks) {
		full, err := join(root, l)
		if err != nil {
			return fmt.Errorf("corpus: %s: symlink %q: %w", c.Name, l, err)
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(filepath.FromSlash(c.Symlinks[l]), full); err != nil {
			return err
		}
	}
	return nil
}

// CheckPath reports whether p is a clean, relative, slash-separated path that
// stays inside the root, as the corpus requires of file, dir, symlink and doc paths.
func CheckPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.HasPrefix(p, "/"):
		return errors.New("path is absolute")
	case strings.Contains(p, `\`):
		return errors.New("path contains a backslash")
	case path.Clean(p) != p:
		return errors.New("path is not clean")
	case p == ".." || strings.HasPrefix(p, "../"):
		return errors.New("path leaves the root")
	}
	return nil
}

func join(root, p string) (string, error) {
	if err := CheckPath(p); err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(p)), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Dir returns the repository's testdata directory: it walks up from the
// working directory to the first go.mod whose module is ModulePath (skipping
// nested modules such as hugo-module/hugotest). It panics if there is none,
// since every caller is a test that cannot run without the corpus.
func Dir() string {
	dir, err := os.Getwd()
	if err != nil {
		panic("corpus: " + err.Error())
	}
	for {
		if modulePath(filepath.Join(dir, "go.mod")) == ModulePath {
			return filepath.Join(dir, "testdata")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			panic("corpus: no go.mod of module " + ModulePath + " above the working directory")
		}
		dir = parent
	}
}

// modulePath returns the module path declared in the go.mod file name, or "".
func modulePath(name string) string {
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"') {
			continue
		}
		return strings.Trim(strings.TrimSpace(rest), `"`)
	}
	return ""
}
