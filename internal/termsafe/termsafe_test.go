package termsafe

import "testing"

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, keep, want string }{
		{"plain é text\twith tab", "", "plain é text\twith tab"},
		{"red \x1b[31m", "", `red \x1b[31m`},
		{"two\nlines", "", `two\nlines`},
		{"two\nlines", "\n", "two\nlines"},
		{"abc\u202edef", "\n", `abc\u202edef`},
		{"c1 \u0085 nel", "", `c1 \u0085 nel`},
		{"bad \xff byte", "", `bad \xff byte`},
		{"del \x7f", "", `del \x7f`},
	} {
		if got := Escape(c.in, c.keep); got != c.want {
			t.Errorf("Escape(%q, %q) = %q, want %q", c.in, c.keep, got, c.want)
		}
	}
}

func TestIsBidiControl(t *testing.T) {
	for _, r := range []rune{0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069} {
		if !IsBidiControl(r) {
			t.Errorf("%U is a bidi control", r)
		}
	}
	for _, r := range []rune{'a', 0x200D, 0x2029, 0x202F, 0x206A} {
		if IsBidiControl(r) {
			t.Errorf("%U is not a bidi control", r)
		}
	}
}

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"docs/a.md"}, "docs/a.md"},
		{[]string{"docs/my guide.md"}, "'docs/my guide.md'"},
		{[]string{"docs/$(touch x).md"}, "'docs/$(touch x).md'"},
		{[]string{"it's.md"}, `'it'\''s.md'`},
		{[]string{"a\nb.md"}, `$'a\nb.md'`},
		{[]string{""}, "''"},
		{[]string{"a", "b c"}, "a 'b c'"},
	} {
		if got := ShellWords(c.words...); got != c.want {
			t.Errorf("%q: %s, want %s", c.words, got, c.want)
		}
	}
}
