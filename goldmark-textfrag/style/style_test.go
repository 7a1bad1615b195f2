package style

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
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
