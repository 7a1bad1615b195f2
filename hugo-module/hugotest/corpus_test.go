package hugotest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/corpus"
)

// hugoLimits are the corpus cases the Hugo module cannot pass, and why. Each
// is still run: the build must fail (never quote the wrong text) with the
// error class given here.
var hugoLimits = map[string]struct{ class, why string }{
	"path-symlink-inside-root":             {"symlink", "Hugo's os functions drop symbolic links, so templates cannot follow one"},
	"path-symlinked-directory-inside-root": {"symlink", "Hugo's os functions drop symbolic links, so templates cannot follow one"},
	"path-symlink-chain-inside-root":       {"symlink", "Hugo's os functions drop symbolic links, so templates cannot follow one"},
	"path-symlink-to-outside-file":         {"symlink", "templates cannot read a link's target, so the error says symlink, not outside"},
	"path-symlinked-directory-to-outside":  {"symlink", "templates cannot read a link's target, so the error says symlink, not outside"},
	"path-symlink-dangling":                {"symlink", "templates cannot read a link's target, so the error says symlink, not missing"},
	"path-symlink-loop":                    {"symlink", "templates cannot read a link's target, so the error says symlink, not missing"},
}

// The document every case is rendered in: the link as a standalone image
// (the block box), as a link alone in its paragraph (the box that is valid
// inside <p>), and as a link in running text (which stays a link).
const (
	blockLine  = 7
	aloneLine  = 11
	inlineLine = 15
	inlineCol  = 5
)

func caseDoc(c corpus.Case) string {
	if c.Markdown != "" {
		return "---\ntitle: case\n---\n\n" + c.Document()
	}
	dest := c.Destination()
	text := c.Text
	if text == "" {
		text = "quote"
	}
	return "---\ntitle: case\n---\n\n## block\n\n![" + text + "](" + dest + ")\n\n## alone\n\n[" + text + "](" + dest + ")\n\n## inline\n\nSee [" + text + "](" + dest + ") here.\n"
}

// sections splits a rendered case document at its headings.
func sections(page string) map[string]string {
	out := map[string]string{}
	parts := strings.Split(page, "<h2 id=\"")
	for _, p := range parts[1:] {
		id, rest, _ := strings.Cut(p, "\"")
		_, body, _ := strings.Cut(rest, "</h2>\n")
		out[id] = body
	}
	return out
}

var errClassRE = regexp.MustCompile(`textfrag ([a-z-]+) error`)

func TestCorpus(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}

	// What Hugo renders without the module, for every case at once: links
	// the module leaves alone must come out byte for byte the same.
	plain := site{Root: t.TempDir(), Docs: map[string]string{}, NoModule: true}
	for _, c := range cases {
		plain.Docs[c.Name+".md"] = caseDoc(c)
	}
	ref := plain.build(t)
	if ref.Err != nil {
		t.Fatalf("build without the module: %v\n%s", ref.Err, ref.Log)
	}

	var (
		mu       sync.Mutex
		passed   []string
		failed   []string
		limited  []string
		failures = map[string]bool{}
	)
	t.Cleanup(func() {
		sort.Strings(failed)
		t.Logf("corpus in Hugo: %d cases, %d pass, %d known Hugo limits (build fails safely), %d fail", len(cases), len(passed), len(limited), len(failed))
		for _, n := range limited {
			t.Logf("  known limit %s: %s", n, hugoLimits[n].why)
		}
		for _, n := range failed {
			t.Logf("  FAIL %s", n)
		}
	})

	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				switch _, lim := hugoLimits[c.Name]; {
				case t.Failed():
					failed = append(failed, c.Name)
					failures[c.Name] = true
				case lim:
					limited = append(limited, c.Name)
				default:
					passed = append(passed, c.Name)
				}
			}()
			runCase(t, c, sections(ref.Pages[c.Name+".md"]))
		})
	}
}

// runCase runs a case as Hugo builds it. Hugo has no symbol parser, so a
// sym= link fails as unsupported (corpus.Case.WantWith) unless
// params.textfrag.symbols = "checked-in-ci": a case that passes elsewhere
// then runs again with that setting, and must give the same box.
func runCase(t *testing.T, c corpus.Case, plain map[string]string) {
	short := runCaseWant(t, c, plain, c.WantWith(symbol.Set{}), "")
	if short.Err == nil && !t.Failed() {
		t.Run("general-path", func(t *testing.T) { sameWithoutShortPath(t, c, short) })
	}
	w := c.Want
	if sel, ok, err := symbol.ParseSelector(c.Title); err == nil && ok && sel.Kind == symbol.Symbol && w.Error == "" && !w.Ignored {
		t.Run("checked-in-ci", func(t *testing.T) {
			runCaseWant(t, c, plain, w, `symbols = "checked-in-ci"`)
		})
	}
}

// symbolKinds tell the sub-kind of a symbol error (corpus.Symbols) from
// the message Hugo prints after the link.
var symbolKinds = []struct {
	kind string
	re   *regexp.Regexp
}{
	{"options", regexp.MustCompile(`^link title: `)},
	{"mismatch", regexp.MustCompile(`^(?:sym|region)=\S+(?: doc)? spans (?:lines \d+–\d+|line \d+|no lines \(before line \d+\)) of .* now \(#line=\d+,\d+\); the link quotes `)},
	{"not-found", regexp.MustCompile(`^(?:sym|region)=\S+(?: doc)? is not in `)},
	{"ambiguous", regexp.MustCompile(`^(?:sym|region)=\S+(?: doc)? matches \d+ (?:begin markers|declarations) in `)},
	{"unclosed", regexp.MustCompile(`^region=\S+ in .* (?:begins at line \d+ and is never closed|ends at line \d+, which closes no region)`)},
	{"unsupported", regexp.MustCompile(`^Hugo cannot check sym=`)},
	{"empty", regexp.MustCompile(`^region=\S+ spans no line of .*: its markers \(lines \d+ and \d+\) are adjacent`)},
}

// symbolKind returns the sub-kind of the symbol error message msg, or "".
func symbolKind(msg string) string {
	for _, k := range symbolKinds {
		if k.re.MatchString(msg) {
			return k.kind
		}
	}
	return ""
}

// sameWithoutShortPath builds case c again with params.textfrag.shortPath =
// false, so that every link takes textfrag/transclude's general path: the
// page and the warnings must be what the build with the short path gave.
func sameWithoutShortPath(t *testing.T, c corpus.Case, short result) {
	r, _ := buildCase(t, c, "shortPath = false")
	if r.Err != nil {
		t.Fatalf("the short path built the case, the general path failed: %v\n%s", r.Err, r.Log)
	}
	if got, want := r.Pages[c.Doc], short.Pages[c.Doc]; got != want {
		t.Errorf("the short path and the general path render differently\n short: %q\ngeneral: %q", want, got)
	}
	if got, want := warnings(r), warnings(short); !slices.Equal(got, want) {
		t.Errorf("the short path and the general path warn differently\n short: %q\ngeneral: %q", want, got)
	}
}

// warnings returns the textfrag warnings of a build, sorted, its root
// written as $ROOT.
func warnings(r result) []string {
	var w []string
	for _, l := range strings.Split(r.Log, "\n") {
		if strings.Contains(l, "WARN") && strings.Contains(l, "textfrag") {
			w = append(w, strings.ReplaceAll(l, r.Root, "$ROOT"))
		}
	}
	sort.Strings(w)
	return w
}

// buildCase builds the case's files and document with the params in extra
// (TOML under [params.textfrag]) and its charsets.
func buildCase(t *testing.T, c corpus.Case, extra string) (result, string) {
	root := t.TempDir()
	if err := c.Materialize(root); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Files[c.Doc]; ok {
		t.Fatalf("case %s: the document %s is also a target file", c.Name, c.Doc)
	}
	var params strings.Builder
	params.WriteString(extra + "\n")
	if len(c.Charsets) > 0 {
		params.WriteString("charsets = [")
		for i, k := range sortedKeys(c.Charsets) {
			if i > 0 {
				params.WriteString(", ")
			}
			fmt.Fprintf(&params, "{ pattern = %q, charset = %q }", k, c.Charsets[k])
		}
		params.WriteString("]\n")
	}
	return site{Root: root, Docs: map[string]string{c.Doc: caseDoc(c)}, Params: params.String()}.build(t), root
}

// runCaseWant builds case c and checks the result against w; it returns
// the result.
func runCaseWant(t *testing.T, c corpus.Case, plain map[string]string, w corpus.Want, extra string) result {
	r, root := buildCase(t, c, extra)
	docFile := filepath.Join(root, filepath.FromSlash(c.Doc))
	at := func(line, col int) string { return fmt.Sprintf("%s:%d:%d", docFile, line, col) }

	if lim, ok := hugoLimits[c.Name]; ok {
		w.Error = lim.class
	}

	switch {
	case w.Error != "":
		if r.Err == nil {
			t.Fatalf("want a %s error, the build succeeded:\n%s", w.Error, r.Pages[c.Doc])
		}
		// The block image's error names its file, line and column, the
		// link as written, and the class.
		want := fmt.Sprintf("%s: textfrag %s error: image %q", at(blockLine, 1), w.Error, c.Link)
		if !strings.Contains(r.Log, want) {
			classes := errClassRE.FindAllStringSubmatch(r.Log, -1)
			t.Fatalf("want an error containing\n  %s\ngot classes %v, log:\n%s\nbuild error: %v", want, classes, r.Log, r.Err)
		}
		for _, pos := range []string{at(aloneLine, 1), at(inlineLine, inlineCol)} {
			if !strings.Contains(r.Log, pos+": textfrag "+w.Error+" error") {
				t.Errorf("no %s error at %s:\n%s", w.Error, pos, r.Log)
			}
		}
		if w.Symbol != "" {
			_, msg, _ := strings.Cut(r.Log, want+": ")
			msg, _, _ = strings.Cut(msg, "\n")
			if got := symbolKind(msg); got != w.Symbol {
				t.Errorf("want a symbol error of kind %s, got %q from the message\n%s", w.Symbol, got, msg)
			}
		}

	case w.Ignored:
		if r.Err != nil {
			t.Fatalf("ignored link, but the build failed: %v\n%s", r.Err, r.Log)
		}
		got := sections(r.Pages[c.Doc])
		for _, s := range []string{"block", "alone", "inline"} {
			if got[s] != plain[s] {
				t.Errorf("%s: the module changed an ignored link\n got: %q\nwant: %q", s, got[s], plain[s])
			}
		}
		if strings.Contains(r.Log, "textfrag") {
			t.Errorf("ignored link, but textfrag logged:\n%s", r.Log)
		}

	case c.Markdown != "":
		if r.Err != nil {
			t.Fatalf("build failed: %v\n%s", r.Err, r.Log)
		}
		// The placement rule: the same boxes and links as the goldmark extension.
		boxes, links := corpus.Placement(r.Pages[c.Doc])
		if !slices.Equal(boxes, w.Boxes) || !slices.Equal(links, w.Links) {
			t.Errorf("boxes %q and links %q, want %q and %q; page:\n%s", boxes, links, w.Boxes, w.Links, r.Pages[c.Doc])
		}

	default:
		if r.Err != nil {
			t.Fatalf("build failed: %v\n%s", r.Err, r.Log)
		}
		got := sections(r.Pages[c.Doc])
		// The fragment the box names is the engine's canonical form.
		_, frag, _ := strings.Cut(c.Link, "#")
		if f, err := rfc5147.Parse(frag); err != nil {
			t.Errorf("the engine rejects %q: %v", frag, err)
		} else if attr := fmt.Sprintf("data-textfrag-fragment=%q", f.String()); !strings.Contains(got["block"], attr) || !strings.Contains(got["alone"], attr) {
			t.Errorf("want %s in both boxes:\n%s%s", attr, got["block"], got["alone"])
		}
		checkBox(t, "block", got["block"], w, "<figure ")
		// The goldmark extension writes the same block box, byte for byte.
		if lib := libraryBox(t, root, c); got["block"] != lib {
			t.Errorf("block: Hugo and the goldmark extension differ\nhugo: %q\n lib: %q", got["block"], lib)
		}
		checkBox(t, "alone", got["alone"], w, "<p><span ")
		// In running text the link stays the link Hugo writes.
		if got["inline"] != plain["inline"] {
			t.Errorf("inline: the link changed\n got: %q\nwant: %q", got["inline"], plain["inline"])
		}
		clampMsg := fmt.Sprintf("%s: textfrag: image %q: ", at(blockLine, 1), c.Link)
		clamped := strings.Contains(r.Log, clampMsg) && strings.Contains(r.Log, "; clamped to ")
		if w.Clamped != nil && *w.Clamped != clamped {
			t.Errorf("clamped: got %v, want %v; log:\n%s", clamped, *w.Clamped, r.Log)
		}
		for _, u := range w.UnknownChecks {
			if !strings.Contains(r.Log, fmt.Sprintf("unknown integrity check %q ignored", u)) {
				t.Errorf("no warning for the unknown check %q:\n%s", u, r.Log)
			}
		}
		if strings.Contains(r.Log, "ERROR") {
			t.Errorf("errors logged:\n%s", r.Log)
		}
	}
	return r
}

// checkBox asserts the box in one section of the page.
func checkBox(t *testing.T, name, html string, w corpus.Want, prefix string) {
	t.Helper()
	if !strings.HasPrefix(html, prefix) {
		t.Errorf("%s: want a box starting %q, got:\n%s", name, prefix, html)
		return
	}
	box, ok := corpus.FindBox(html)
	if !ok {
		t.Errorf("%s: no box in:\n%s", name, html)
		return
	}
	if w.Label != nil && box.Label != *w.Label {
		t.Errorf("%s: label %q, want %q", name, box.Label, *w.Label)
	}
	if w.Fragment != nil && box.Fragment != *w.Fragment {
		t.Errorf("%s: data-textfrag-fragment %q, want %q", name, box.Fragment, *w.Fragment)
	}
	if w.Title != nil && box.Title != *w.Title {
		t.Errorf("%s: title %q, want %q", name, box.Title, *w.Title)
	}
	if want := w.BoxText(); want != nil && box.Text != *want {
		t.Errorf("%s: text %q, want %q", name, box.Text, *want)
	}
	if w.Numbers != nil && !slices.Equal(box.Numbers, w.Numbers) {
		t.Errorf("%s: line numbers %v, want %v", name, box.Numbers, w.Numbers)
	}
	if len(w.Chars) == 2 {
		zero := w.Chars[0] == w.Chars[1]
		if zero == box.HasBody {
			t.Errorf("%s: zero-length %v, but has a body %v", name, zero, box.HasBody)
		}
		if zero != strings.Contains(html, " textfrag-position\"") {
			t.Errorf("%s: zero-length %v, but the textfrag-position class disagrees:\n%s", name, zero, html)
		}
	}
}

// libraryBox renders the case's link as a standalone image with the goldmark
// extension, as the textfrag command would.
func libraryBox(t *testing.T, root string, c corpus.Case) string {
	t.Helper()
	var rules []target.CharsetRule
	for _, k := range sortedKeys(c.Charsets) {
		rules = append(rules, target.CharsetRule{Glob: k, Charset: c.Charsets[k]})
	}
	// Hugo's default Markdown extensions, the typographer among them.
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList, extension.Typographer,
		textfrag.New(textfrag.WithRoot(root), textfrag.WithCharsets(rules...))))
	pc := parser.NewContext()
	textfrag.SetDocument(pc, c.Doc)
	// The box a sym= link gives is the box of its lines: the library,
	// which would look the name up, gets the title without it.
	lc := c
	if sel, ok, err := symbol.ParseSelector(c.Title); err == nil && ok && sel.Kind == symbol.Symbol {
		var words []string
		for _, w := range strings.Fields(c.Title) {
			if !strings.HasPrefix(w, "sym=") && w != "doc" {
				words = append(words, w)
			}
		}
		lc.Title = strings.Join(words, " ")
	}
	dest := lc.Destination()
	var out bytes.Buffer
	text := c.Text
	if text == "" {
		text = "quote"
	}
	if err := md.Convert([]byte("!["+text+"]("+dest+")\n"), &out, parser.WithContext(pc)); err != nil {
		t.Errorf("the goldmark extension: %v", err)
	}
	return out.String()
}
