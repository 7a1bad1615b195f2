// Package style holds the stylesheet for textfrag boxes, shared by the
// goldmark extension's users, the textfrag command and the Hugo module.
//
// textfrag.css draws each box's boundary and label, in light and dark
// schemes, and styles chroma's classes (light: DefaultLight, dark:
// DefaultDark), so highlighting works under a strict Content-Security-Policy
// with no inline styles.
package style

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// The chroma styles that textfrag.css is generated with.
const (
	DefaultLight = "github"
	DefaultDark  = "github-dark"
)

// FileName is the stylesheet's name, as the command writes it into a site.
const FileName = "textfrag.css"

//go:embed textfrag.css
var css []byte

// CSS returns the default stylesheet. Do not modify the result.
func CSS() []byte { return css }

// generatedMarker separates the hand-written rules from chroma's.
const generatedMarker = "/* Generated below from chroma styles; regenerate with: go test ./goldmark-textfrag/style -update */\n"

// WithStyles returns the stylesheet with chroma rules for other styles: light
// for the light scheme and dark (if not "") for prefers-color-scheme: dark.
// It fails on a style name chroma does not know.
func WithStyles(light, dark string) ([]byte, error) {
	i := bytes.Index(css, []byte(generatedMarker))
	if i < 0 {
		return nil, fmt.Errorf("style: textfrag.css lacks its generated section")
	}
	gen, err := ChromaCSS(light, dark)
	if err != nil {
		return nil, err
	}
	out := append([]byte{}, css[:i+len(generatedMarker)]...)
	return append(out, gen...), nil
}

// ChromaCSS returns chroma's class rules for a light style and, under
// prefers-color-scheme: dark, a dark style (skipped when dark is "").
func ChromaCSS(light, dark string) ([]byte, error) {
	var b bytes.Buffer
	if err := writeChroma(&b, light); err != nil {
		return nil, err
	}
	if dark != "" {
		b.WriteString("@media (prefers-color-scheme: dark) {\n")
		if err := writeChroma(&b, dark); err != nil {
			return nil, err
		}
		b.WriteString("}\n")
	}
	return b.Bytes(), nil
}

func writeChroma(b *bytes.Buffer, name string) error {
	s := lookup(name)
	if s == nil {
		return fmt.Errorf("style: chroma has no style %q", name)
	}
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true))
	return f.WriteCSS(b, s)
}

func lookup(name string) *chroma.Style {
	if s, ok := styles.Registry[name]; ok {
		return s
	}
	return nil
}
