package style

import (
	"regexp"
	"strings"
	"testing"
)

// rootElement is the <html> element as a theme's script leaves it.
type rootElement struct {
	classes []string
	attrs   map[string]string
}

// switchPart is one simple selector the switch rules are written with.
var switchPart = regexp.MustCompile(`^(?::root|\.[\w-]+|\[[\w-]+(?:[$^*]?="[^"]*")?\]|:not\(\.[\w-]+\))`)

// matches reports whether sel, a compound selector of :root, classes,
// attribute tests (=, $=, ^=, *=) and :not(.class), matches the root
// element, and its specificity (pseudo-classes, classes and attributes
// count alike; :not counts its argument). ok is false for a selector
// written otherwise, which the caller reports.
func (e rootElement) matches(sel string) (match bool, spec int, ok bool) {
	match = true
	for rest := sel; rest != ""; {
		part := switchPart.FindString(rest)
		if part == "" {
			return false, 0, false
		}
		rest = rest[len(part):]
		spec++
		switch {
		case part == ":root":
		case strings.HasPrefix(part, ":not(."):
			if e.hasClass(strings.TrimSuffix(strings.TrimPrefix(part, ":not(."), ")")) {
				match = false
			}
		case part[0] == '.':
			if !e.hasClass(part[1:]) {
				match = false
			}
		default:
			m := regexp.MustCompile(`^\[([\w-]+)(?:([$^*]?)="([^"]*)")?\]$`).FindStringSubmatch(part)
			v, has := e.attrs[m[1]]
			switch {
			case !has:
				match = false
			case !strings.Contains(part, "="):
			case m[2] == "" && v != m[3],
				m[2] == "$" && !strings.HasSuffix(v, m[3]),
				m[2] == "^" && !strings.HasPrefix(v, m[3]),
				m[2] == "*" && !strings.Contains(v, m[3]):
				match = false
			}
		}
	}
	return match, spec, true
}

func (e rootElement) hasClass(c string) bool {
	for _, have := range e.classes {
		if have == c {
			return true
		}
	}
	return false
}

// schemeOf is the --textfrag-color-scheme the stylesheet gives the root
// element, by the cascade: the matching rule of highest specificity, the
// later one of equal specificity; "" when none matches (the reader's).
func schemeOf(t *testing.T, rules []cssRule, e rootElement) string {
	t.Helper()
	got, best := "", -1
	for _, r := range rules {
		v, set := r.decls["--textfrag-color-scheme"]
		if !set || r.media != "" {
			continue
		}
		match, spec, ok := e.matches(r.selector)
		if !ok {
			t.Fatalf("switch selector %q: write it with :root, classes, attributes and :not(.class) only, or teach this test", r.selector)
		}
		if match && spec >= best {
			got, best = v, spec
		}
	}
	return got
}

// TestThemeSwitches: a box follows the light/dark switch of the most used
// Hugo documentation and blog themes, each modelled on what the theme's own
// script writes on <html> (read in each theme's source), whatever the
// reader's own setting. A theme state that leaves the choice to the reader
// ("auto", "system" already resolved by the theme, or no switch) must match
// no rule.
func TestThemeSwitches(t *testing.T) {
	rules := rulesOf(t)
	attrs := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, c := range []struct {
		theme string
		root  rootElement
		want  string
	}{
		// Stack: assets/ts/colorScheme.ts sets documentElement.dataset.scheme.
		{"Stack dark", rootElement{attrs: attrs("data-scheme", "dark")}, "dark"},
		{"Stack light", rootElement{attrs: attrs("data-scheme", "light")}, "light"},
		// FixIt: dataset.themeMode = auto | light | dark.
		{"FixIt dark", rootElement{attrs: attrs("data-theme-mode", "dark")}, "dark"},
		{"FixIt light", rootElement{attrs: attrs("data-theme-mode", "light")}, "light"},
		{"FixIt auto", rootElement{attrs: attrs("data-theme-mode", "auto")}, ""},
		// Docsy: dark-mode.js sets data-bs-theme on <html>.
		{"Docsy dark", rootElement{attrs: attrs("data-bs-theme", "dark")}, "dark"},
		{"Docsy light", rootElement{attrs: attrs("data-bs-theme", "light")}, "light"},
		// PaperMod: dataset.theme = dark | light (auto resolved by its script).
		{"PaperMod dark", rootElement{attrs: attrs("data-theme", "dark")}, "dark"},
		{"PaperMod light", rootElement{attrs: attrs("data-theme", "light")}, "light"},
		// hugo-book: data-theme = BookTheme, its variants named *-light,
		// *-dark, *-auto (auto follows the reader's setting).
		{"hugo-book light", rootElement{attrs: attrs("data-theme", "light")}, "light"},
		{"hugo-book dark", rootElement{attrs: attrs("data-theme", "dark")}, "dark"},
		{"hugo-book auto", rootElement{attrs: attrs("data-theme", "auto")}, ""},
		{"hugo-book contrast-dark", rootElement{attrs: attrs("data-theme", "contrast-dark")}, "dark"},
		{"hugo-book catppuccin-light", rootElement{attrs: attrs("data-theme", "catppuccin-light")}, "light"},
		{"hugo-book ayu-auto", rootElement{attrs: attrs("data-theme", "ayu-auto")}, ""},
		// hextra: class light or dark on <html> (system resolved by its script).
		{"hextra dark", rootElement{classes: []string{"dark"}}, "dark"},
		{"hextra light", rootElement{classes: []string{"light"}}, "light"},
		// Congo and Blowfish: class dark on <html> when dark, none when
		// light; <html> always has data-default-appearance.
		{"Congo dark", rootElement{classes: []string{"dark"}, attrs: attrs("data-default-appearance", "light", "data-auto-appearance", "true")}, "dark"},
		{"Congo light", rootElement{attrs: attrs("data-default-appearance", "light", "data-auto-appearance", "true")}, "light"},
		{"Blowfish dark", rootElement{classes: []string{"dark"}, attrs: attrs("data-default-appearance", "dark", "data-auto-appearance", "false")}, "dark"},
		{"Blowfish light", rootElement{attrs: attrs("data-default-appearance", "dark", "data-auto-appearance", "true")}, "light"},
		// Relearn: data-r-theme-variant names the variant.
		{"Relearn relearn-dark", rootElement{attrs: attrs("data-r-theme-variant", "relearn-dark")}, "dark"},
		{"Relearn zen-light", rootElement{attrs: attrs("data-r-theme-variant", "zen-light")}, "light"},
		{"Relearn neon", rootElement{attrs: attrs("data-r-theme-variant", "neon")}, "dark"},
		{"Relearn learn", rootElement{attrs: attrs("data-r-theme-variant", "learn")}, "light"},
		{"Relearn blue", rootElement{attrs: attrs("data-r-theme-variant", "blue")}, "light"},
		{"Relearn relearn-bright", rootElement{attrs: attrs("data-r-theme-variant", "relearn-bright")}, "light"},
		// geekdoc: color-theme on <html>, removed when it follows the reader.
		{"geekdoc dark", rootElement{attrs: attrs("color-theme", "dark")}, "dark"},
		{"geekdoc light", rootElement{attrs: attrs("color-theme", "light")}, "light"},
		// Ananke has no switch: the reader's setting stays in charge.
		{"Ananke", rootElement{attrs: attrs("lang", "en")}, ""},
	} {
		if got := schemeOf(t, rules, c.root); got != c.want {
			t.Errorf("%s (%v %v): --textfrag-color-scheme %q, want %q", c.theme, c.root.classes, c.root.attrs, got, c.want)
		}
	}
}
