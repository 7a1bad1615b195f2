// Package style holds the stylesheet for textfrag boxes, shared by the
// goldmark extension's users, the textfrag command and the Hugo module.
//
// textfrag.css draws each box's boundary and label and colours chroma's
// classes (light: DefaultLight, dark: DefaultDark), so highlighting works
// under a strict Content-Security-Policy with no inline styles. Every colour
// is a CSS light-dark() pair, so a box is light or dark by its color-scheme
// alone: the reader's preference by default, or the site's own switch (a
// class or data attribute on <html>, or --textfrag-color-scheme). Chroma's
// classes are styled only inside .textfrag and .textfrag-highlight, so a
// site's own highlighting of fenced code keeps its colours.
//
// The chroma section is generated (ChromaCSS): the two styles' colours are
// paired class by class, and a colour that would read below WCAG AA (4.5:1)
// against the code background or an emphasized line is darkened or lightened
// until it does.
package style

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"slices"

	"github.com/alecthomas/chroma/v2"
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
// for the light scheme and dark (if not "") for the dark one; with no dark
// style, boxes are light in every scheme. It fails on a style name chroma
// does not know.
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

// scope is what every chroma rule is scoped under: a box, or an element a
// site marks to have its fenced code look like boxes. The id lifts the rules
// above a theme's own (html.dark .chroma .k, .dark .highlight .chroma .k),
// as :is() takes its most specific argument's specificity.
const scope = ":is(.textfrag, .textfrag-highlight, #textfrag-highlight)"

// propScope is where the colours' custom properties are set: with no
// specificity, so that a site's .textfrag { --textfrag-code-bg: … } wins.
const propScope = ":where(.textfrag, .textfrag-highlight, #textfrag-highlight)"

// minContrast is WCAG 2's AA level for text (success criterion 1.4.3).
const minContrast = 4.5

// minStep is the least contrast between an emphasized line's background and
// the code's, so that emphasis stays visible.
const minStep = 1.2

// ChromaCSS returns the rules for chroma's classes with colours from a light
// style and a dark one (the light one again when dark is ""), scoped under
// .textfrag and .textfrag-highlight.
func ChromaCSS(light, dark string) ([]byte, error) {
	ls := lookup(light)
	if ls == nil {
		return nil, fmt.Errorf("style: chroma has no style %q", light)
	}
	ds := ls
	if dark != "" {
		if ds = lookup(dark); ds == nil {
			return nil, fmt.Errorf("style: chroma has no style %q", dark)
		}
	}
	l, d := newScheme(ls), newScheme(ds)
	var b bytes.Buffer
	fmt.Fprintf(&b, "/* light: %s; dark: %s */\n", light, orElse(dark, light))
	if dark == "" {
		fmt.Fprintf(&b, "%s { color-scheme: light; }\n", scope)
	}
	fmt.Fprintf(&b, "%s {\n", propScope)
	fmt.Fprintf(&b, "  --textfrag-code-bg: %s;\n", pair(l.bg, d.bg))
	fmt.Fprintf(&b, "  --textfrag-code-fg: %s;\n", pair(l.fg, d.fg))
	fmt.Fprintf(&b, "  --textfrag-hl-bg: %s;\n", pair(l.hl, d.hl))
	fmt.Fprintf(&b, "  --textfrag-line-number: %s;\n", pair(l.ln, d.ln))
	b.WriteString("}\n")
	for _, tt := range tokenTypes() {
		le, de := ls.Get(tt), ds.Get(tt)
		lfg, lbg, lok := l.token(le)
		dfg, dbg, dok := d.token(de)
		var decls []string
		if lfg != l.fg || dfg != d.fg {
			decls = append(decls, "color: "+pair(lfg, dfg))
		}
		if lok || dok {
			decls = append(decls, "background-color: light-dark("+orNone(lbg, lok)+", "+orNone(dbg, dok)+")")
		}
		// light-dark() pairs colours only, so the light style's weights
		// and slants hold in both schemes.
		if le.Bold == chroma.Yes {
			decls = append(decls, "font-weight: bold")
		}
		if le.Italic == chroma.Yes {
			decls = append(decls, "font-style: italic")
		}
		if le.Underline == chroma.Yes {
			decls = append(decls, "text-decoration: underline")
		}
		if len(decls) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s .chroma .%s { ", scope, chroma.StandardTypes[tt])
		for i, d := range decls {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(d)
		}
		b.WriteString(" }\n")
	}
	return b.Bytes(), nil
}

func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// tokenTypes returns the token types that have a class of their own and
// glyphs to colour, in a stable order: not the meta types (lines, line
// numbers, the background), not whitespace and not plain text.
func tokenTypes() []chroma.TokenType {
	var out []chroma.TokenType
	for tt, class := range chroma.StandardTypes {
		if class == "" || tt == chroma.Whitespace || tt == chroma.Other || (tt < 0 && tt != chroma.Error) {
			continue
		}
		out = append(out, tt)
	}
	slices.Sort(out)
	return out
}

func lookup(name string) *chroma.Style {
	if s, ok := styles.Registry[name]; ok {
		return s
	}
	return nil
}

// A scheme is one chroma style's code colours, made readable: the
// background, the text colour, an emphasized line's background and the
// line numbers' colour.
type scheme struct{ bg, fg, hl, ln rgb }

func newScheme(s *chroma.Style) scheme {
	var sc scheme
	bg := s.Get(chroma.Background)
	sc.bg = fromChroma(bg.Background)
	if !bg.Background.IsSet() {
		sc.bg = rgb{0xff, 0xff, 0xff}
	}
	sc.fg = fromChroma(bg.Colour)
	if !bg.Colour.IsSet() {
		// A style with no text colour (github) means the page's; pick
		// a near-black or near-white that reads on its background.
		sc.fg = rgb{0x1f, 0x23, 0x28}
		if sc.bg.luminance() < 0.18 {
			sc.fg = rgb{0xe6, 0xed, 0xf3}
		}
	}
	// An emphasized line keeps the style's tint, but only as far from the
	// background as keeps every token colour that reads on the background
	// readable on it too (and at least a visible step), so that token
	// colours stay the style's.
	sc.hl = sc.bg
	if hl := s.Get(chroma.LineHighlight).Background; hl.IsSet() {
		want := fromChroma(hl)
		var fgs []rgb
		for _, tt := range append(tokenTypes(), chroma.Text) {
			e := s.Get(tt)
			c := sc.fg
			if e.Colour.IsSet() {
				c = fromChroma(e.Colour)
			}
			if (e.Background.IsSet() && fromChroma(e.Background) != sc.bg) || contrast(c, sc.bg) < minContrast {
				continue
			}
			fgs = append(fgs, c)
		}
		for t := 1.0; t > 0; t -= 0.02 {
			sc.hl = mix(sc.bg, want, t)
			if contrast(sc.hl, sc.bg) < minStep || !slices.ContainsFunc(fgs, func(c rgb) bool { return contrast(c, sc.hl) < minContrast }) {
				break
			}
		}
	}
	sc.fg = readable(sc.fg, sc.bg, sc.hl)
	sc.ln = readable(fromChroma(s.Get(chroma.LineNumbers).Colour), sc.bg, sc.hl)
	return sc
}

// token returns a token's text colour, made readable on its own background
// or, without one (ok false), on the code's and an emphasized line's.
func (sc scheme) token(e chroma.StyleEntry) (fg, bg rgb, ok bool) {
	fg = sc.fg
	if e.Colour.IsSet() {
		fg = fromChroma(e.Colour)
	}
	if e.Background.IsSet() && fromChroma(e.Background) != sc.bg {
		bg = fromChroma(e.Background)
		return readable(fg, bg), bg, true
	}
	return readable(fg, sc.bg, sc.hl), rgb{}, false
}

func pair(l, d rgb) string { return fmt.Sprintf("light-dark(%s, %s)", l, d) }

func orNone(c rgb, ok bool) string {
	if !ok {
		return "transparent"
	}
	return c.String()
}

// rgb is an sRGB colour.
type rgb struct{ r, g, b uint8 }

func fromChroma(c chroma.Colour) rgb { return rgb{c.Red(), c.Green(), c.Blue()} }

func (c rgb) String() string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

// luminance is WCAG 2's relative luminance.
func (c rgb) luminance() float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is WCAG 2's contrast ratio, from 1 to 21.
func contrast(a, b rgb) float64 {
	x, y := a.luminance(), b.luminance()
	if x < y {
		x, y = y, x
	}
	return (x + 0.05) / (y + 0.05)
}

// mix returns a+(b-a)*t.
func mix(a, b rgb, t float64) rgb {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return rgb{m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)}
}

// readable returns fg, moved towards black on light backgrounds or white on
// dark ones by as little as makes its contrast with every background at
// least minContrast.
func readable(fg rgb, bgs ...rgb) rgb {
	worst := func(c rgb) float64 {
		m := math.Inf(1)
		for _, bg := range bgs {
			m = min(m, contrast(c, bg))
		}
		return m
	}
	if worst(fg) >= minContrast {
		return fg
	}
	var lum float64
	for _, bg := range bgs {
		lum += bg.luminance() / float64(len(bgs))
	}
	// Against a mid-grey background, the end with more contrast.
	end := rgb{0, 0, 0}
	if lum < 0.18 {
		end = rgb{0xff, 0xff, 0xff}
	}
	for t := 0.01; t < 1; t += 0.01 {
		if c := mix(fg, end, t); worst(c) >= minContrast {
			return c
		}
	}
	return end
}
