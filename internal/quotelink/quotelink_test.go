package quotelink

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

func TestParseRef(t *testing.T) {
	for _, c := range []struct {
		ref   string
		chars bool
		file  string
		r     Range
	}{
		{"src/a.go:11-20", false, "src/a.go", Range{Lines, 11, 20, 0, 0}},
		{"src/a.go:11", false, "src/a.go", Range{Lines, 11, 11, 0, 0}},
		{"a.txt:101-150", true, "a.txt", Range{Chars, 101, 150, 0, 0}},
		{"a.txt:7", true, "a.txt", Range{Chars, 7, 7, 0, 0}},
		{"a.go:3:5-4:2", false, "a.go", Range{LineCols, 3, 4, 5, 2}},
		{"a.go:3:5", false, "a.go", Range{LineCols, 3, 3, 5, 5}},
		{"a.go:007-010", false, "a.go", Range{Lines, 7, 10, 0, 0}},
		{"we:ird.go:2", false, "we:ird.go", Range{Lines, 2, 2, 0, 0}},
		{"C:\\src\\a.go:2-3", false, "C:\\src\\a.go", Range{Lines, 2, 3, 0, 0}},
		{"a b.go:1", false, "a b.go", Range{Lines, 1, 1, 0, 0}},
	} {
		file, r, err := ParseRef(c.ref, c.chars)
		if err != nil || file != c.file || r != c.r {
			t.Errorf("ParseRef(%q, %v) = %q, %+v, %v; want %q, %+v", c.ref, c.chars, file, r, err, c.file, c.r)
		}
		if err == nil && c.file+":"+r.String() != strings.Replace(strings.Replace(c.ref, "007-010", "7-10", 1), ":3:5-4:2", ":3:5-4:2", 1) {
			t.Errorf("Range.String of %q: %q", c.ref, r.String())
		}
	}
	for _, c := range []struct {
		ref   string
		chars bool
		want  string
	}{
		{"a.go", false, "not FILE:START[-END]"},
		{"a.go:", false, "not FILE:START[-END]"},
		{":3", false, "not FILE:START[-END]"},
		{"a.go:-3", false, "not FILE:START[-END]"},
		{"a.go:3-", false, "not FILE:START[-END]"},
		{"a.go:x", false, "not FILE:START[-END]"},
		{"a.go:0-3", false, "line numbers start at 1"},
		{"a.go:0", true, "character numbers start at 1"},
		{"a.go:20-11", false, "20-11 starts after it ends"},
		{"a.go:4:2-3:9", false, "starts after it ends"},
		{"a.go:3:9-3:2", false, "starts after it ends"},
		{"a.go:3:0", false, "column numbers start at 1"},
		{"a.go:3:5-4", false, "both ends as LINE:COL"},
		{"a.go:3-4:5", false, "both ends as LINE:COL"},
		{"a.go:3:5-4:2", true, "--char takes character numbers"},
		{"a.go:99999999999999999999", false, "too large"},
	} {
		_, _, err := ParseRef(c.ref, c.chars)
		if !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseRef(%q, %v): %v; want ErrRange saying %q", c.ref, c.chars, err, c.want)
		}
	}
}

func mustText(t *testing.T, s string) *rfc5147.Text {
	t.Helper()
	txt, err := rfc5147.NewText([]byte(s), rfc5147.UTF8)
	if err != nil {
		t.Fatal(err)
	}
	return txt
}

func TestFragment(t *testing.T) {
	// Four lines with CR+LF, CR, NEL and none: 4, 4, 4 and 3 characters
	// with their endings; a BOM before them, which is no character.
	src := mustText(t, "\ufeffone\r\ntwo\rsix\u0085end")
	for _, c := range []struct {
		r    Range
		want string
	}{
		{Range{Lines, 1, 1, 0, 0}, "line=0,1"},
		{Range{Lines, 2, 4, 0, 0}, "line=1,4"},
		{Range{Chars, 1, 15, 0, 0}, "char=0,15"},
		{Range{Chars, 5, 5, 0, 0}, "char=4,5"},
		{Range{LineCols, 2, 3, 1, 2}, "char=4,10"},  // "two\rsi"
		{Range{LineCols, 1, 1, 4, 4}, "char=3,4"},   // the CR+LF, one character
		{Range{LineCols, 4, 4, 1, 3}, "char=12,15"}, // "end", no line ending
	} {
		f, err := c.r.Fragment(src)
		if err != nil || f.String() != c.want {
			t.Errorf("%v: %v, %v; want %s", c.r, f, err, c.want)
		}
	}
	for _, c := range []struct {
		r    Range
		want string
	}{
		{Range{Lines, 2, 5, 0, 0}, "line 5 is not in the file, which has 4 lines"},
		{Range{Chars, 1, 16, 0, 0}, "character 16 is not in the file, which has 15 characters"},
		{Range{LineCols, 4, 5, 1, 1}, "line 5 is not in the file, which has 4 lines"},
		{Range{LineCols, 1, 1, 5, 5}, "line 1 has 4 characters (its line ending counts one), so it has no column 5"},
		{Range{LineCols, 1, 4, 1, 4}, "line 4 has 3 characters"},
	} {
		_, err := c.r.Fragment(src)
		if !errors.Is(err, ErrPastEnd) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want ErrPastEnd saying %q", c.r, err, c.want)
		}
	}
	empty := mustText(t, "")
	if f, err := (Range{Lines, 1, 1, 0, 0}).Fragment(empty); err != nil || f.String() != "line=0,1" {
		t.Errorf("line 1 of an empty file: %v, %v", f, err)
	}
	if _, err := (Range{LineCols, 1, 1, 1, 1}).Fragment(empty); !errors.Is(err, ErrPastEnd) || !strings.Contains(err.Error(), "line 1 has 0 characters") {
		t.Errorf("column 1 of an empty file: %v", err)
	}
	if _, err := (Range{Lines, 3, 2, 0, 0}).Fragment(src); !errors.Is(err, ErrRange) {
		t.Errorf("misordered: %v", err)
	}
}

func TestDest(t *testing.T) {
	for _, c := range []struct{ page, file, want string }{
		{"docs/guide.md", "src/a.go", "../src/a.go"},
		{"guide.md", "src/a.go", "src/a.go"},
		{"docs/a/b.md", "docs/c/d.go", "../c/d.go"},
		{"docs/guide.md", "docs/guide.md", "guide.md"},
		{"docs/guide.md", "docs/sub/x.go", "sub/x.go"},
		{"src/a.go.md", "src/a.go", "a.go"},
		{"a/b/c.md", "a.go", "../../a.go"},
		{"", "src/a.go", "/src/a.go"},
		{"", "a b (1)#2%3?&amp;.go", "/a%20b%20%281%29%232%253%3F%26amp;.go"},
		{"x.md", "c:d/e.go", "./c:d/e.go"},
		{"x.md", "dir/c:e.go", "dir/c:e.go"},
		{"", "c:d.go", "/c:d.go"},
		{"x.md", "héllo/日本.go", "héllo/日本.go"},
		{"x.md", "nb\u00a0sp\u200bzw\u2028.go", "nb%C2%A0sp%E2%80%8Bzw%E2%80%A8.go"},
		{"x.md", "a\\b[c]{d}|^`\"<>.go", "a%5Cb%5Bc%5D%7Bd%7D%7C%5E%60%22%3C%3E.go"},
		{"x.md", "tab\there\x7f.go", "tab%09here%7F.go"},
	} {
		if got := Dest(c.page, c.file, ""); got != c.want {
			t.Errorf("Dest(%q, %q) = %q; want %q", c.page, c.file, got, c.want)
		}
	}
	if got := Dest("d/p.md", "a.go", "line=0,1"); got != "../a.go#line=0,1" {
		t.Errorf("with a fragment: %q", got)
	}
}

// parseLink parses md with goldmark and returns its only link's parts as
// CommonMark reads them.
func parseLink(t *testing.T, md string) (Link, bool) {
	t.Helper()
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var got *ast.Link
	n := 0
	ast.Walk(doc, func(n2 ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n2.(*ast.Link); ok && entering {
			got, n = l, n+1
		}
		return ast.WalkContinue, nil
	})
	if n != 1 || got.Parent().ChildCount() != 1 {
		return Link{}, false
	}
	for c := got.FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*ast.Text); !ok {
			return Link{}, false // markup in the text
		}
	}
	// The text as a box's caption shows it; the destination and title as
	// textfrag reads them: as written, unescaped, except that the title's
	// options are words without '\\' or '"'.
	title := string(util.UnescapePunctuations(got.Title))
	return Link{Text: textfrag.PlainText(got, src), Dest: string(got.Destination), Title: title}, true
}

func TestMarkdownReadsBack(t *testing.T) {
	texts := []string{
		"a.go lines 11–20", "snake_case_name.go", "_lead and trail_", "*star* **bold**",
		"[brackets] and \\backslash\\", "`code`", "<b>html</b> <http://x.y>", "Tom &amp; Jerry &#65; &", "a|b~~c~~",
		"![img](x.png)", "two\nlines\n\nand a blank one", "tab\there", "ctl\x01\x7fchars", "ends with \\",
	}
	dests := []string{
		"../src/a.go#line=10,20;md5=0123", "/a%20b.go#line=0,1", "a b.go#line=0,1", "a(b.go#line=0,1",
		"a)b(.go#line=0,1", "x<y>.go#line=0,1", "x\\y.go#line=0,1", "&amp;.go#line=0,1", "é.go#char=0,1", "",
		"ctl\x01.go",
	}
	titles := []string{"", "hl=12,15-17 dedent lang=go", `say "hi" \ there`, "quote"}
	for i, tx := range texts {
		for j, d := range dests {
			l := Link{Text: tx, Dest: d, Title: titles[(i+j)%len(titles)]}
			md := l.Markdown()
			got, ok := parseLink(t, md)
			want := Link{Text: OneLine(tx), Dest: strings.TrimPrefix(writeDest(d), "<>"), Title: l.Title}
			if !ok || got != want {
				t.Errorf("%q reads back as %+v (ok %v); want %+v", md, got, ok, want)
			}
			if strings.Contains(md, "\n") {
				t.Errorf("%q spans lines", md)
			}
		}
	}
	for _, c := range []struct{ in, want string }{
		{"a b.go#line=0,1", "a%20b.go#line=0,1"},
		{"a(b).go#x", "a%28b%29.go#x"},
		{"x<y>\\z.go", "x%3Cy%3E%5Cz.go"},
		{"&amp;&x&#1;.go", "%26amp;&x%26#1;.go"},
		{"t\tl\x01\x7f.go", "t%09l%01%7F.go"},
		{"é.go#char=0,1;md5=ab", "é.go#char=0,1;md5=ab"},
		{"", "<>"},
	} {
		if got := writeDest(c.in); got != c.want {
			t.Errorf("writeDest(%q) = %q; want %q", c.in, got, c.want)
		}
	}
	// Readable where nothing needs escaping.
	if md := (Link{Text: "snake_case.go lines 1–2", Dest: "a.go#line=0,2"}).Markdown(); md != "[snake_case.go lines 1–2](a.go#line=0,2)" {
		t.Errorf("escaped more than needed: %s", md)
	}
}

// A random text file: lines with every line ending RFC 5147 counts, a BOM
// sometimes, non-ASCII characters, and sometimes no final line ending. The
// oracle is built beside the bytes: each line as its characters, each
// character as stored (CR+LF is one).
type randomFile struct {
	raw   []byte
	lines [][]string
}

func newRandomFile(rng *rand.Rand) randomFile {
	endings := []string{"\n", "\r\n", "\r", "\u0085", "\r\u0085"}
	chars := []string{"a", "b", " ", "\t", "é", "日", "\u2028", "\f", "\v"}
	var f randomFile
	var b strings.Builder
	if rng.IntN(4) == 0 {
		b.WriteString("\ufeff") // no character
	}
	prevCR := false
	for i, n := 0, 1+rng.IntN(12); i < n; i++ {
		var line []string
		for k := rng.IntN(6); k > 0; k-- {
			line = append(line, chars[rng.IntN(len(chars))])
		}
		if i == n-1 && rng.IntN(3) == 0 {
			if len(line) > 0 { // text after the last ending is a line only if non-empty
				f.lines = append(f.lines, line)
				b.WriteString(strings.Join(line, ""))
			}
			break
		}
		eol := endings[rng.IntN(len(endings))]
		for prevCR && len(line) == 0 && (eol == "\n" || eol == "\u0085") {
			eol = endings[rng.IntN(len(endings))] // CR then LF would be one ending
		}
		prevCR = eol == "\r"
		line = append(line, eol)
		f.lines = append(f.lines, line)
		b.WriteString(strings.Join(line, ""))
	}
	if len(f.lines) == 0 {
		f.lines = [][]string{nil} // the empty entity is one line
	}
	f.raw = []byte(b.String())
	return f
}

// TestComposeRoundTrip: for random files and ranges, the link Compose
// writes, resolved by target.Resolver from the page as a build resolves it,
// selects exactly the lines or characters asked for, and its md5 is the
// file's (md5 of the bytes, computed here).
func TestComposeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5147, 0))
	names := []string{"a.go", "src/a b (1).go", "src/#x%41?y&amp;.txt", "héllo/日本.txt", "c:d/e.txt", "docs/in page dir.txt", "docs/deep/x.txt"}
	pages := []string{"", "index.md", "docs/guide.md", "docs/deep/er/page.md", "other/p.md"}
	for i := 0; i < 3000; i++ {
		f := newRandomFile(rng)
		name, page := names[rng.IntN(len(names))], pages[rng.IntN(len(pages))]
		fsys := fstest.MapFS{name: {Data: f.raw}}
		txt, err := rfc5147.NewText(f.raw, rfc5147.UTF8)
		if err != nil {
			t.Fatal(err)
		}
		var r Range
		var want string
		switch rng.IntN(3) {
		case 0:
			a := 1 + rng.Int64N(int64(len(f.lines)))
			b := a + rng.Int64N(int64(len(f.lines))-a+1)
			r = Range{Unit: Lines, Start: a, End: b}
			for _, l := range f.lines[a-1 : b] {
				want += strings.Join(l, "")
			}
		case 1:
			var all []string
			for _, l := range f.lines {
				all = append(all, l...)
			}
			if len(all) == 0 {
				continue
			}
			a := 1 + rng.Int64N(int64(len(all)))
			b := a + rng.Int64N(int64(len(all))-a+1)
			r = Range{Unit: Chars, Start: a, End: b}
			want = strings.Join(all[a-1:b], "")
		case 2:
			l1 := 1 + rng.Int64N(int64(len(f.lines)))
			l2 := l1 + rng.Int64N(int64(len(f.lines))-l1+1)
			if len(f.lines[l1-1]) == 0 || len(f.lines[l2-1]) == 0 {
				continue
			}
			c1 := 1 + rng.Int64N(int64(len(f.lines[l1-1])))
			c2 := 1 + rng.Int64N(int64(len(f.lines[l2-1])))
			if l1 == l2 && c2 < c1 {
				c1, c2 = c2, c1
			}
			r = Range{Unit: LineCols, Start: l1, StartCol: c1, End: l2, EndCol: c2}
			if l1 == l2 {
				want = strings.Join(f.lines[l1-1][c1-1:c2], "")
			} else {
				want = strings.Join(f.lines[l1-1][c1-1:], "")
				for _, l := range f.lines[l1 : l2-1] {
					want += strings.Join(l, "")
				}
				want += strings.Join(f.lines[l2-1][:c2], "")
			}
		}
		link, sel, err := Compose(name, r, txt, Options{Page: page})
		if err != nil {
			t.Fatalf("%q %v: %v", f.raw, r, err)
		}
		res, err := newResolver(t, fsys).Resolve(page, mustReadBack(t, link).Dest)
		if err != nil {
			t.Fatalf("%q %v: %s from %q: %v", f.raw, r, link.Dest, page, err)
		}
		sum := md5.Sum(f.raw)
		if got := string(res.Selection.Text); got != want || res.Path != name || res.Selection.Clamped {
			t.Fatalf("%q %v: %s from %q selects %q in %s (clamped %v); want %q", f.raw, r, link.Dest, page, got, res.Path, res.Selection.Clamped, want)
		}
		if len(res.Fragment.Checks) != 1 || res.Fragment.Checks[0].Value != hex.EncodeToString(sum[:]) || res.Selection.Checks[0].Status != rfc5147.Passed {
			t.Fatalf("%s: checks %+v; want the one md5 %x, passed", link.Dest, res.Selection.Checks, sum)
		}
		if wantText := path.Base(name) + " " + sel.Label(); link.Text != wantText {
			t.Fatalf("caption %q; want %q", link.Text, wantText)
		}
		if r.Unit != Chars {
			if sel.First.Line != r.Start || (r.Unit == LineCols && (sel.First.Column != r.StartCol || sel.Last.Line != r.End || sel.Last.Column != r.EndCol)) {
				t.Fatalf("%v selects %+v to %+v", r, sel.First, sel.Last)
			}
		}
	}
}

func newResolver(t *testing.T, fsys fstest.MapFS) *target.Resolver {
	t.Helper()
	r, err := target.New(target.Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mustReadBack parses the link's Markdown as CommonMark does and fails
// unless it reads back as the same link.
func mustReadBack(t *testing.T, l Link) Link {
	t.Helper()
	got, ok := parseLink(t, l.Markdown())
	if !ok || got.Dest != l.Dest || got.Text != l.Text || got.Title != l.Title {
		t.Fatalf("%s reads back as %+v", l.Markdown(), got)
	}
	return got
}

func TestComposeOptions(t *testing.T) {
	src := mustText(t, "one\ntwo\n")
	r := Range{Unit: LineCols, Start: 1, StartCol: 2, End: 2, EndCol: 1}
	l, _, err := Compose("a b.txt", r, src, Options{Caption: "the [first] word", Title: "hl=1", Quote: true})
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum([]byte("one\ntwo\n"))
	if want := fmt.Sprintf(`[the \[first\] word](/a%%20b.txt#char=1,5;md5=%x "hl=1 quote")`, sum); l.Markdown() != want {
		t.Errorf("got  %s\nwant %s", l.Markdown(), want)
	}
	if _, _, err := Compose("a.txt", Range{Start: 1, End: 2}, src, Options{Quote: true}); !errors.Is(err, ErrQuoteLines) {
		t.Errorf("quote on lines: %v", err)
	}
	if _, _, err := Compose("a.txt", Range{Start: 1, End: 3}, src, Options{}); !errors.Is(err, ErrPastEnd) || !strings.Contains(err.Error(), "which has 2 lines") {
		t.Errorf("past the end: %v", err)
	}
}

// TestDestWrittenPlainly: a destination Dest writes is one Markdown reads
// as written (no character reference, no backslash escape), so the build
// verifies it instead of failing it as escaped (target.ErrEscaped).
func TestDestWrittenPlainly(t *testing.T) {
	for _, file := range []string{`a&#35;b.txt`, `a\#b.txt`, `x&num;.go`, `d\.e/f&amp;g.txt`, "a&lt;b&gt;.txt"} {
		d := Dest("docs/p.md", file, "line=0,1")
		if read := target.MarkdownDecoded(d); read != d {
			t.Errorf("Dest(%q) = %q, which Markdown reads as %q", file, d, read)
		}
	}
}
