package lsp

import (
	"strings"
	"testing"
)

// Inline ⇄ box: a quote inside running text gets a paragraph of its own
// (in a list item, indented to stay in it); a box joins the paragraph
// before it, else the one after; block quotes and headings are left alone.
func TestBoxActions(t *testing.T) {
	const l = "[a](x.go#line=1,2)"
	for _, c := range []struct{ src, title, want string }{
		{"Before " + l + " after.\n", "Make this quote a box", "Before\n\n" + l + "\n\nafter.\n"},
		{"Before " + l + "\n", "Make this quote a box", "Before\n\n" + l + "\n"},
		{"Intro text.\n\n" + l + "\n", "Make this quote inline: join it to the paragraph before", "Intro text. " + l + "\n"},
		{"# T\n\n" + l + "\n\nNext.\n", "Make this quote inline: join it to the paragraph after", "# T\n\n" + l + " Next.\n"},
		{"- item " + l + " more\n", "Make this quote a box", "- item\n\n  " + l + "\n\n  more\n"},
		{"> quoted " + l + " here\n", "", ""},
		{"# Title " + l + "\n", "", ""},
		{l + "\n", "", ""},
		{"text [b](x.go#intro) more\n", "", ""},
	} {
		start := strings.Index(c.src, l)
		if start < 0 {
			start = 0
		}
		actions := boxActions([]byte(c.src), start, start)
		if c.title == "" {
			if len(actions) != 0 {
				t.Errorf("%q: actions %+v, want none", c.src, actions)
			}
			continue
		}
		if len(actions) != 1 || !strings.HasPrefix(actions[0].title, c.title) {
			t.Errorf("%q: actions %+v, want one titled %q", c.src, actions, c.title)
			continue
		}
		got := []byte(c.src)
		edits := actions[0].edits
		for i := len(edits) - 1; i >= 0; i-- {
			e := edits[i]
			got = append(got[:e.Start:e.Start], append([]byte(e.Text), got[e.End:]...)...)
		}
		if string(got) != c.want {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
}
