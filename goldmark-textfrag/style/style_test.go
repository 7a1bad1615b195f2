package style

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

var update = flag.Bool("update", false, "rewrite the generated section of textfrag.css")

// TestGeneratedSectionIsCurrent holds textfrag.css's chroma rules equal to
// what chroma generates for DefaultLight and DefaultDark, so a chroma upgrade
// cannot leave the shipped file stale.
func TestGeneratedSectionIsCurrent(t *testing.T) {
	want, err := WithStyles(DefaultLight, DefaultDark)
	if *update {
		i := bytes.Index(css, []byte(generatedMarker))
		if i < 0 {
			// First generation: append the marker.
			want = append(append(append([]byte{}, css...), generatedMarker...), mustChroma(t)...)
		}
		if err := os.WriteFile("textfrag.css", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, css) {
		t.Fatal("textfrag.css is stale: run go test ./goldmark-textfrag/style -update")
	}
}

func mustChroma(t *testing.T) []byte {
	b, err := ChromaCSS(DefaultLight, DefaultDark)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStylesheetCoversOutputClasses(t *testing.T) {
	for _, class := range []string{".textfrag ", ".textfrag-caption", ".textfrag-title", ".textfrag-source", ".textfrag-range", ".textfrag-position", ".textfrag-truncated", ".textfrag-quote", ".textfrag-cite", "--textfrag-color-scheme", "light-dark(", ".chroma :is(.ln, .lnt)", ".chroma .hl "} {
		if !bytes.Contains(css, []byte(class)) {
			t.Errorf("textfrag.css has no rule for %q", class)
		}
	}
}

func TestWithStylesRejectsUnknownStyle(t *testing.T) {
	if _, err := WithStyles("no-such-style", ""); err == nil || !strings.Contains(err.Error(), "no-such-style") {
		t.Fatalf("err = %v, want one naming the style", err)
	}
	out, err := WithStyles("monokai", "")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(scope+" { color-scheme: light; }")) {
		t.Error("no dark style, but boxes are not held light")
	}
	if !bytes.HasPrefix(out, css[:bytes.Index(css, []byte(generatedMarker))]) {
		t.Error("hand-written rules not kept")
	}
}

// rulesOf returns textfrag.css's rules, each selector of a list on its own.
func rulesOf(t *testing.T) []cssRule { return rulesIn(t, css) }

func rulesIn(t *testing.T, css []byte) []cssRule {
	t.Helper()
	rules, err := parseCSS(string(css))
	if err != nil {
		t.Fatal(err)
	}
	var out []cssRule
	for _, r := range rules {
		depth, start := 0, 0
		for i, c := range r.selector + "," {
			switch {
			case c == '(':
				depth++
			case c == ')':
				depth--
			case c == ',' && depth == 0:
				out = append(out, cssRule{media: r.media, selector: strings.TrimSpace(r.selector[start:i]), decls: r.decls})
				start = i + 1
			}
		}
	}
	return out
}

// TestChromaRulesScoped: no rule for chroma's classes reaches code outside a
// box or an element marked .textfrag-highlight, so a site's own highlighting
// of fenced code keeps its colours.
func TestChromaRulesScoped(t *testing.T) {
	classes := map[string]bool{"chroma": true, "bg": true}
	for _, c := range chroma.StandardTypes {
		if c != "" {
			classes[c] = true
		}
	}
	classRE := regexp.MustCompile(`\.([a-z0-9]+)`)
	n := 0
	for _, r := range rulesOf(t) {
		for _, m := range classRE.FindAllStringSubmatch(r.selector, -1) {
			if !classes[m[1]] {
				continue
			}
			n++
			if !strings.HasPrefix(r.selector, ":is(.textfrag, .textfrag-highlight, #textfrag-highlight) ") && !strings.HasPrefix(r.selector, ".textfrag ") {
				t.Errorf("%q styles chroma's .%s outside boxes", r.selector, m[1])
			}
			break
		}
	}
	if n < 50 {
		t.Errorf("only %d chroma rules found", n)
	}
}

// TestRulesAgainstThemes holds the declarations that keep a box whole under
// a theme's CSS and colour switch (what scripts/screenshots/shoot.sh shows
// and measures in a browser).
func TestRulesAgainstThemes(t *testing.T) {
	rules := rulesOf(t)
	get := func(sel, prop string) string {
		v := ""
		for _, r := range rules {
			if r.selector == sel {
				if d, ok := r.decls[prop]; ok {
					v = d
				}
			}
		}
		return v
	}
	for _, c := range []struct{ sel, prop, want string }{
		// The site's switch on <html>, and the reader's scheme otherwise.
		{":root.dark", "--textfrag-color-scheme", "dark"},
		{`[data-theme="dark"]`, "--textfrag-color-scheme", "dark"},
		{`[data-bs-theme="dark"]`, "--textfrag-color-scheme", "dark"},
		{":root.light", "--textfrag-color-scheme", "light"},
		{`[data-theme="light"]`, "--textfrag-color-scheme", "light"},
		{`[data-bs-theme="light"]`, "--textfrag-color-scheme", "light"},
		{".textfrag", "color-scheme", "var(--textfrag-color-scheme, light dark)"},
		// No band above the caption under "figure figcaption" rules.
		{".textfrag .textfrag-caption", "margin", "0"},
		{".textfrag .textfrag-caption", "display", "block"},
		{".textfrag .textfrag-caption", "text-align", "start"},
		{".textfrag", "padding", "0"},
		// Long paths wrap.
		{".textfrag .textfrag-caption", "overflow-wrap", "anywhere"},
		// One font and size on code, in both forms, whatever pre's.
		{".textfrag pre.chroma", "font", "inherit"},
		{".textfrag pre.chroma > code", "font", "var(--textfrag-code-size, 0.85em)/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, \"Liberation Mono\", monospace"},
		{".textfrag code.chroma", "font", "var(--textfrag-code-size, 0.85em)/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, \"Liberation Mono\", monospace"},
		{".textfrag pre.chroma > code", "tab-size", "4"},
		{".textfrag code.chroma", "tab-size", "4"},
		// An emphasized line as wide as the longest line.
		{".textfrag pre.chroma > code", "grid-template-columns", "minmax(max-content, 1fr)"},
		{".textfrag code.chroma", "grid-template-columns", "minmax(max-content, 1fr)"},
	} {
		if got := get(c.sel, c.prop); got != c.want {
			t.Errorf("%s { %s: %q }, want %q", c.sel, c.prop, got, c.want)
		}
	}
}
