package target_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

func TestMarkdownDecoded(t *testing.T) {
	for in, want := range map[string]string{
		"a.txt#line=1":         "a.txt#line=1",
		"a.txt&#35;line=1":     "a.txt#line=1",
		"a.txt&num;line=1":     "a.txt#line=1",
		"a.txt&#x23;line=1":    "a.txt#line=1",
		"a.txt#&#108;ine=1":    "a.txt#line=1",
		`a.txt\#line=1`:        "a.txt#line=1",
		"a.txt&#35line=1":      "a.txt&#35line=1", // a reference needs its ';'
		"a.txt#line%3D1":       "a.txt#line%3D1",  // percent-encoding is not Markdown's
		"a.txt&#043;line=1":    "a.txt#line=1",    // goldmark: a leading zero is octal
		"a.txt&#38;num;line=1": "a.txt#line=1",    // goldmark: numeric, then named
		`a\b.txt#line=1`:       `a\b.txt#line=1`,  // b is not punctuation
	} {
		if got := target.MarkdownDecoded(in); got != want {
			t.Errorf("MarkdownDecoded(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMayQuote(t *testing.T) {
	for dest, want := range map[string]bool{
		"a.txt#line=1":       true,
		"a.txt&#35;line=1":   true,
		"a.txt&#35;LINE=1":   true,
		"a.txt&#0035;char=1": true, // CommonMark's reading (goldmark's is U+001D)
		"a.txt&#043;line=1":  true, // goldmark's reading (CommonMark's is '+')
		`a.txt\#line=1`:      true,
		"a.txt&#35;intro":    false,
		"a.txt&#35line=1":    false,
		"a.txt#line%3D1":     false,
		"a.txt&#37;23line=1": false,
		"a.txt":              false,
	} {
		if got := target.MayQuote(dest); got != want {
			t.Errorf("MayQuote(%q) = %v, want %v", dest, got, want)
		}
	}
}

// A destination Markdown reads otherwise fails when either spelling is one
// the Resolver reads; the message names the reference and what it reads
// as, and its plain spelling, followed, is verified.
func TestResolveEscaped(t *testing.T) {
	root, _ := project(t, map[string]string{"src/a.txt": "first\nsecond\n", "src/my file.txt": "space\n"})
	r := newResolver(t, target.Options{Root: root})
	for _, c := range []struct{ link, ref, means, plain string }{
		{"../src/a.txt&#35;line=0,1", "&#35;", "#", "../src/a.txt#line=0,1"},
		{"../src/a.txt&num;line=0,1", "&num;", "#", "../src/a.txt#line=0,1"},
		{"../src/a.txt&#x23;line=0,1", "&#x23;", "#", "../src/a.txt#line=0,1"},
		{"../src/a.txt#&#108;ine=0,1", "&#108;", "l", "../src/a.txt#line=0,1"},
		{`../src/a.txt\#line=0,1`, `\#`, "#", "../src/a.txt#line=0,1"},
		{`../src/a\.txt#line=0,1`, `\.`, ".", "../src/a.txt#line=0,1"},
		{"../src/a.txt&#043;line=0,1", "&#043;", "#", "../src/a.txt#line=0,1"},
		{"../src/a.txt&#0035;line=0,1", "&#0035;", "#", "../src/a.txt#line=0,1"},
		{"../src/my&#32;file.txt#line=0,1", "&#32;", " ", "../src/my%20file.txt#line=0,1"},
		{"file://" + strings.ReplaceAll(root, `\`, "/") + "/src/a.txt&#35;line=0,1", "&#35;", "#", "file://" + strings.ReplaceAll(root, `\`, "/") + "/src/a.txt#line=0,1"},
	} {
		te := fails(t, r, "docs/p.md", c.link, target.ErrEscaped, "escaped")
		if te == nil {
			continue
		}
		var ee *target.EscapedError
		if !errors.As(te, &ee) || ee.Ref != c.ref || ee.Means != c.means || ee.Plain != c.plain {
			t.Errorf("%q: %+v, want ref %q means %q plain %q", c.link, ee, c.ref, c.means, c.plain)
			continue
		}
		msg := target.Explain(te, "docs/p.md")
		if !strings.Contains(msg, "("+c.ref+")") || !strings.HasSuffix(msg, "write the link plainly, as "+c.plain) {
			t.Errorf("%q: message %q", c.link, msg)
		}
		if target.Lenient(te) {
			t.Errorf("%q: lenient mode would publish it as a plain link", c.link)
		}
		// The remedy, followed, is verified.
		if _, err := r.Resolve("docs/p.md", c.plain); err != nil {
			t.Errorf("%q: the plain spelling %q: %v", c.link, c.plain, err)
		}
	}
	// Not ours as written nor as read: untouched.
	for _, link := range []string{
		"../src/a.txt&#35;intro", "../src/a.txt&#35line=0,1", "../src/a.txt#line%3D1", "../src/a.txt&#37;23line=0,1",
		"https://example.org/a.txt&#35;line=0,1", "//example.org/a.txt&#35;line=0,1", "mailto:x&#35;line=1",
	} {
		if _, err := r.Resolve("docs/p.md", link); !errors.Is(err, target.ErrNotOurs) {
			t.Errorf("Resolve(%q) = %v, want ErrNotOurs", link, err)
		}
	}
}
