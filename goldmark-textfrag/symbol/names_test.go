package symbol

import "testing"

// TestTitleLang: the last lang= word of a title counts, whatever the other
// words; "lang=" alone gives "", as no lang= does.
func TestTitleLang(t *testing.T) {
	for title, want := range map[string]string{
		"":                            "",
		"sym=F":                       "",
		"lang=py sym=f":               "py",
		"hl=2 lang=go dedent lang=rs": "rs",
		"lang=":                       "",
		"xlang=go":                    "",
		"sym=lang=go":                 "",
		"\tlang=C++\n":                "C++",
	} {
		if got := TitleLang(title); got != want {
			t.Errorf("TitleLang(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestSpanLines: how messages name a span's lines, the empty span (markers
// with no line between them) included.
func TestSpanLines(t *testing.T) {
	for _, c := range []struct {
		span Span
		want string
	}{
		{Span{Start: 11, End: 30}, "lines 12–30"},
		{Span{Start: 11, End: 12}, "line 12"},
		{Span{Start: 11, End: 11}, "no lines (before line 12)"},
		{Span{Start: 0, End: 2}, "lines 1–2"},
	} {
		if got := c.span.Lines(); got != c.want {
			t.Errorf("%+v.Lines() = %q, want %q", c.span, got, c.want)
		}
	}
}
