package style

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This file reads textfrag.css as a browser would, with its own small CSS
// reader and WCAG 2 arithmetic (nothing from style.go), and checks that every
// colour a box shows reads at AA (4.5:1) in both colour schemes.

// TestContrast computes, for the light and the dark scheme, the contrast of
// every chroma class the stylesheet colours against the backgrounds it can
// stand on (the code's and an emphasized line's, or its own), of line numbers
// and of the caption's text, and fails below 4.5:1. A class coloured with a
// single colour rather than a light-dark() pair fails: the dark scheme would
// not colour it. Run with -v for the table.
func TestContrast(t *testing.T) {
	rows, problems := checkContrast(string(css))
	for _, p := range problems {
		t.Error(p)
	}
	if len(rows) < 60 {
		t.Errorf("only %d colours checked; the stylesheet's structure changed?", len(rows))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %6s %6s\n", "class", "light", "dark")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-22s %6.2f %6.2f\n", r.name, r.light, r.dark)
	}
	t.Log("\n" + b.String())
}

// TestContrastOtherStyles holds the generator to the same bar for chroma
// styles that do not meet it as they are.
func TestContrastOtherStyles(t *testing.T) {
	for _, p := range [][2]string{{"monokailight", "monokai"}, {"solarized-light", "dracula"}, {"friendly", "native"}, {"autumn", ""}} {
		out, err := WithStyles(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		_, problems := checkContrast(string(out))
		for _, pr := range problems {
			t.Errorf("%s/%s: %s", p[0], p[1], pr)
		}
	}
}

// TestContrastCatchesFaults is the checker's own test: the kinds of fault
// it exists for are reported.
func TestContrastCatchesFaults(t *testing.T) {
	base := string(css)
	for _, c := range []struct{ name, from, to, want string }{
		{"single colour", ".chroma .k { color: light-dark(", ".chroma .k { color: #cf222e; x: light-dark(", "k: color #cf222e is one colour for both schemes"},
		{"dark unreadable", "--textfrag-line-number: light-dark(", "--textfrag-line-number: light-dark(#6e7681, #6e7681); x: light-dark(", "line numbers"},
	} {
		css := strings.Replace(base, c.from, c.to, 1)
		if css == base {
			t.Fatalf("%s: %q not in textfrag.css", c.name, c.from)
		}
		_, problems := checkContrast(css)
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, c.want) }) {
			t.Errorf("%s: problems %q lack %q", c.name, problems, c.want)
		}
	}
}

type contrastRow struct {
	name        string
	light, dark float64
}

type cssRule struct {
	media    string // the enclosing at-rule, if any
	selector string
	decls    map[string]string
}

var commentRE = regexp.MustCompile(`(?s)/\*.*?\*/`)

// parseCSS returns the style rules of a stylesheet, those inside an at-rule
// (one level) with its prelude in media.
func parseCSS(s string) (rules []cssRule, err error) {
	s = commentRE.ReplaceAllString(s, "")
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			if strings.TrimSpace(s) != "" {
				return nil, fmt.Errorf("text after the last rule: %q", s)
			}
			return rules, nil
		}
		sel := strings.Join(strings.Fields(s[:open]), " ")
		if strings.HasPrefix(sel, "@") {
			depth, end := 0, -1
			for i := open; i < len(s) && end < 0; i++ {
				switch s[i] {
				case '{':
					depth++
				case '}':
					if depth--; depth == 0 {
						end = i
					}
				}
			}
			if end < 0 {
				return nil, fmt.Errorf("unbalanced braces in %q", sel)
			}
			inner, err := parseCSS(s[open+1 : end])
			if err != nil {
				return nil, err
			}
			for _, r := range inner {
				r.media = sel
				rules = append(rules, r)
			}
			s = s[end+1:]
			continue
		}
		end := strings.IndexByte(s, '}')
		if end < open {
			return nil, fmt.Errorf("unbalanced braces near %q", s[:min(len(s), 80)])
		}
		r := cssRule{selector: sel, decls: map[string]string{}}
		for _, d := range strings.Split(s[open+1:end], ";") {
			name, value, ok := strings.Cut(d, ":")
			if ok {
				r.decls[strings.TrimSpace(name)] = strings.Join(strings.Fields(value), " ")
			}
		}
		rules = append(rules, r)
		s = s[end+1:]
	}
}

// A pair is a colour in the light and the dark scheme; none marks
// "transparent" (the background behind shows).
type schemePair struct {
	light, dark  [3]float64
	lnone, dnone bool
	single       bool // one colour for both schemes
}

var (
	lightDarkRE = regexp.MustCompile(`^light-dark\((.+), (.+)\)$`)
	varRE       = regexp.MustCompile(`^var\((--[a-z-]+)(?:, (.+))?\)$`)
)

func parseHex(s string) ([3]float64, bool) {
	if len(s) != 7 || s[0] != '#' {
		return [3]float64{}, false
	}
	var c [3]float64
	for i := range 3 {
		v, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return c, false
		}
		c[i] = float64(v)
	}
	return c, true
}

// resolve reads a colour value, following var() through custom properties.
func resolve(v string, props map[string]string) (schemePair, error) {
	for range 10 {
		m := varRE.FindStringSubmatch(v)
		if m == nil {
			break
		}
		p, ok := props[m[1]]
		switch {
		case ok:
			v = p
		case m[2] != "":
			v = m[2]
		default:
			return schemePair{}, fmt.Errorf("%s is not defined", m[1])
		}
	}
	one := func(s string) ([3]float64, bool, error) {
		if s == "transparent" {
			return [3]float64{}, true, nil
		}
		c, ok := parseHex(s)
		if !ok {
			return c, false, fmt.Errorf("colour %q is not #rrggbb", s)
		}
		return c, false, nil
	}
	var p schemePair
	var err error
	if m := lightDarkRE.FindStringSubmatch(v); m != nil {
		if p.light, p.lnone, err = one(m[1]); err != nil {
			return p, err
		}
		p.dark, p.dnone, err = one(m[2])
		return p, err
	}
	p.light, p.lnone, err = one(v)
	p.dark, p.dnone, p.single = p.light, p.lnone, true
	return p, err
}

func luminance(c [3]float64) float64 {
	var l [3]float64
	for i, v := range c {
		s := v / 255
		if s <= 0.03928 {
			l[i] = s / 12.92
		} else {
			l[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

func ratio(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

var tokenRuleRE = regexp.MustCompile(`^:is\(\.textfrag, \.textfrag-highlight, #textfrag-highlight\) \.chroma \.([a-z0-9]+)$`)

// checkContrast returns the worst contrast of each colour in each scheme,
// and what falls short.
func checkContrast(css string) (rows []contrastRow, problems []string) {
	rules, err := parseCSS(css)
	if err != nil {
		return nil, []string{err.Error()}
	}
	for _, r := range rules {
		if r.media != "" {
			return nil, []string{fmt.Sprintf("%s { %s }: colours must depend on color-scheme (light-dark()), not on an at-rule, or the site's switch cannot reach them", r.media, r.selector)}
		}
	}
	props := map[string]string{}
	for _, r := range rules {
		for k, v := range r.decls {
			if strings.HasPrefix(k, "--") && strings.HasPrefix(v, "light-dark(") {
				props[k] = v
			}
		}
	}
	decl := func(selector, prop string) (schemePair, bool) {
		for _, r := range slices.Backward(rules) {
			if r.selector == selector {
				if v, ok := r.decls[prop]; ok {
					p, err := resolve(v, props)
					if err != nil {
						problems = append(problems, fmt.Sprintf("%s { %s }: %v", selector, prop, err))
						return p, false
					}
					return p, true
				}
			}
		}
		problems = append(problems, fmt.Sprintf("no %s in a rule %q", prop, selector))
		return schemePair{}, false
	}
	const scope = ":is(.textfrag, .textfrag-highlight, #textfrag-highlight)"
	codeBg, _ := decl(scope+" .chroma", "background-color")
	codeFg, _ := decl(scope+" .chroma", "color")
	hlBg, _ := decl(scope+" .chroma .hl", "background-color")
	lineNo, _ := decl(scope+" .chroma :is(.ln, .lnt)", "color")
	labelBg, _ := decl(".textfrag .textfrag-caption", "background")
	label, _ := decl(".textfrag .textfrag-caption", "color")
	muted, _ := decl(".textfrag-caption::before", "color")
	link, _ := decl(".textfrag .textfrag-source", "color")
	rng, _ := decl(".textfrag .textfrag-range", "color")
	trunc, _ := decl(".textfrag-truncated", "color")
	truncBg, _ := decl(".textfrag .textfrag-truncated", "background")

	// check records the worst ratio of fg on each background, per scheme.
	check := func(name string, fg schemePair, bgs ...schemePair) {
		if fg.single {
			problems = append(problems, fmt.Sprintf("%s: color %s is one colour for both schemes: the dark scheme does not colour it", name, hexOf(fg.light)))
		}
		row := contrastRow{name: name, light: math.Inf(1), dark: math.Inf(1)}
		for _, bg := range bgs {
			row.light = min(row.light, ratio(fg.light, bg.light))
			row.dark = min(row.dark, ratio(fg.dark, bg.dark))
		}
		if row.light < 4.5 {
			problems = append(problems, fmt.Sprintf("%s: light scheme contrast %.2f:1 < 4.5:1", name, row.light))
		}
		if row.dark < 4.5 {
			problems = append(problems, fmt.Sprintf("%s: dark scheme contrast %.2f:1 < 4.5:1", name, row.dark))
		}
		rows = append(rows, row)
	}
	check("code text", codeFg, codeBg, hlBg)
	check("line numbers", lineNo, codeBg, hlBg)
	check("caption", label, labelBg)
	check("caption muted", muted, labelBg)
	check("caption source link", link, labelBg)
	check("caption range", rng, labelBg)
	check("truncation note", trunc, truncBg)
	if r := ratio(hlBg.light, codeBg.light); r < 1.1 {
		problems = append(problems, fmt.Sprintf("emphasized line: light background %.2f:1 against the code's, not visible", r))
	}
	if r := ratio(hlBg.dark, codeBg.dark); r < 1.1 {
		problems = append(problems, fmt.Sprintf("emphasized line: dark background %.2f:1 against the code's, not visible", r))
	}
	for _, r := range rules {
		m := tokenRuleRE.FindStringSubmatch(r.selector)
		v, ok := r.decls["color"]
		if m == nil || !ok || v == "inherit" {
			continue
		}
		fg, err := resolve(v, props)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", m[1], err))
			continue
		}
		bgs := []schemePair{codeBg, hlBg}
		if b, ok := r.decls["background-color"]; ok {
			own, err := resolve(b, props)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", m[1], err))
				continue
			}
			// A token's own background covers the line's in a scheme
			// that has one.
			bgs = nil
			for _, under := range []schemePair{codeBg, hlBg} {
				p := own
				if own.lnone {
					p.light = under.light
				}
				if own.dnone {
					p.dark = under.dark
				}
				bgs = append(bgs, p)
			}
		}
		check(m[1], fg, bgs...)
	}
	return rows, problems
}

func hexOf(c [3]float64) string {
	return fmt.Sprintf("#%02x%02x%02x", int(c[0]), int(c[1]), int(c[2]))
}
