package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// fuzzFiles are the files of FuzzCheck's project, under root; "outside.txt"
// lies beside root.
var fuzzFiles = map[string]string{
	"t.txt":      "<script>x</script>\r\nline two\u0085three\n\x1b[31mred\x1b[0m\n",
	"sub/u.go":   "package u\n\nfunc U() {}\n",
	"sub/é.txt":  "accent\u202egrave\n",
	"latin1.txt": "caf\xe9\n",
	"empty.txt":  "",
}

// fuzzPaths are the destinations links take, relative to docs/doc.md: files
// of the project, in several spellings, and ones that fail (missing,
// outside the root, a directory, not UTF-8).
var fuzzPaths = []string{
	"../t.txt", "/t.txt", "../sub/u.go", "../sub/%C3%A9.txt", "../sub/é.txt", "../latin1.txt",
	"../empty.txt", "../missing.txt", "../../outside.txt", "../sub/", "%2e%2e/t.txt", "../T.TXT",
}

// fuzzGen builds a Markdown document from fuzz input: prog picks the
// constructs, paths and fragments, text fills in the words.
type fuzzGen struct {
	prog []byte
	text string
	doc  strings.Builder
	// wrong holds the destinations written with a wrong md5 in a place
	// where they are links: check must report an error for each.
	wrong []string
	refs  int // reference labels used
	// lenient runs check --lenient.
	lenient bool
}

// next returns the next byte of prog, 0 when it is used up.
func (g *fuzzGen) next() int {
	if len(g.prog) == 0 {
		return 0
	}
	b := g.prog[0]
	g.prog = g.prog[1:]
	return int(b)
}

// words returns up to n bytes of the fuzz text, without the characters
// that would change the Markdown around them (so that a link stays a
// link); other characters, control characters and invalid UTF-8 included,
// stay.
func (g *fuzzGen) words(n int) string {
	n = min(n, len(g.text))
	w := g.text[:n]
	g.text = g.text[n:]
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("[]()<>`*_\\!|#&\n\r-+=~:\"'", r) {
			return ' '
		}
		return r
	}, w)
}

// fragment writes a random RFC 5147 fragment for the file path p, and
// reports whether its md5 is wrong.
func (g *fuzzGen) fragment(p string) (string, bool) {
	var b strings.Builder
	scheme := []string{"line=", "char=", "LINE=", "line=", "char="}[g.next()%5]
	b.WriteString(scheme)
	num := func() string {
		v := g.next()
		if v >= 250 {
			return fmt.Sprint(int64(v) << 40)
		}
		return fmt.Sprint(v % 12)
	}
	switch g.next() % 5 {
	case 0:
		b.WriteString(num())
	case 1:
		b.WriteString("," + num())
	case 2:
		b.WriteString(num() + ",")
	default:
		b.WriteString(num() + "," + num())
	}
	wrong := false
	content, exists := fuzzFiles[strings.TrimPrefix(strings.TrimPrefix(p, "../"), "/")]
	switch g.next() % 6 {
	case 0, 1:
		if exists {
			b.WriteString(";md5=" + e2eMD5(content))
			break
		}
		fallthrough
	case 2:
		b.WriteString(";md5=0123456789abcdef0123456789abcdef")
		wrong = true
	case 3:
		fmt.Fprintf(&b, ";length=%d", g.next()%40)
	case 4:
		b.WriteString(";x=" + strings.ReplaceAll(g.words(g.next()%8), " ", "%20"))
	}
	return b.String(), wrong
}

// link writes one link or image, in a place where it is one when inLink.
func (g *fuzzGen) link(inLink bool) string {
	p := fuzzPaths[g.next()%len(fuzzPaths)]
	frag, wrong := g.fragment(p)
	dest := p + "#" + frag
	if _, err := rfc5147.Parse(frag); wrong && inLink && (err == nil || !g.lenient) {
		// --lenient leaves a malformed fragment a plain link, whatever
		// checks it holds; a well-formed one is verified all the same.
		g.wrong = append(g.wrong, dest)
	}
	title := ""
	switch g.next() % 6 {
	case 0:
		title = ` "hl=1 dedent"`
	case 1:
		title = ` "quote"`
	case 2:
		title = ` "lang=go"`
	}
	bang := ""
	if g.next()%4 == 0 {
		bang = "!"
	}
	// The text starts with a letter: "- [x](…)" is a task list item's
	// checkbox followed by text, not a link.
	return fmt.Sprintf("%s[L%s](%s%s)", bang, g.words(g.next()%10), dest, title)
}

// block writes one block holding links.
func (g *fuzzGen) block() {
	w := func() string { return g.words(g.next() % 16) }
	switch g.next() % 12 {
	case 0: // alone in a paragraph: a box
		g.doc.WriteString(g.link(true))
	case 1: // inside running text
		fmt.Fprintf(&g.doc, "%s %s %s", "a"+w(), g.link(true), w())
	case 2: // a tight list, and a loose one
		fmt.Fprintf(&g.doc, "- %s\n- x%s %s", g.link(true), w(), g.link(true))
	case 3:
		fmt.Fprintf(&g.doc, "1. %s\n\n2. %s", g.link(true), g.link(true))
	case 4:
		fmt.Fprintf(&g.doc, "> %s\n>\n> > %s", g.link(true), g.link(true))
	case 5:
		fmt.Fprintf(&g.doc, "## %s %s", "h"+w(), g.link(true))
	case 6:
		fmt.Fprintf(&g.doc, "| a | b |\n| --- | --- |\n| %s | c%s |", g.link(true), w())
	case 7: // in an image's alt text
		fmt.Fprintf(&g.doc, "![see %s alt](pic.png)", g.link(true))
	case 8: // emphasis
		fmt.Fprintf(&g.doc, "*em %s* and **%s**", g.link(true), g.link(true))
	case 9: // reference style, each label once (a second definition is not used)
		g.refs++
		n := g.refs
		fmt.Fprintf(&g.doc, "[ref %d][r%d]\n\n[r%d]: %s", n, n, n, strings.TrimSuffix(strings.SplitN(g.link(true), "](", 2)[1], ")"))
	case 10: // not links: code
		fmt.Fprintf(&g.doc, "`%s`\n\n```\n%s\n```", g.link(false), g.link(false))
	default:
		g.doc.WriteString("p" + w())
	}
	g.doc.WriteString("\n\n")
}

// FuzzCheck runs check over random Markdown with random RFC 5147 links to
// the files of a small project: it must never panic, every problem must be
// located inside the document, no message may hold a raw control
// character, and a link with a wrong md5 must always be an error (fail
// closed).
func FuzzCheck(f *testing.F) {
	for _, seed := range []struct {
		prog []byte
		text string
	}{
		{[]byte{0, 0, 3, 1, 2}, "hello"},
		{[]byte{1, 0, 1, 1, 3, 1, 0, 2, 0, 0, 0, 0, 0}, "x\x1by\u202e"},
		{[]byte{2, 2, 4, 3, 1, 2, 4, 5, 7, 1, 2, 3, 7, 8, 9, 9}, "\xff\xfe words"},
		{[]byte{7, 1, 0, 0, 4, 2, 2, 0, 0, 0, 0}, "alt"},
		{[]byte{9, 5, 10, 1, 1, 2, 3, 4, 4, 250, 3, 7}, "\x00\x7f\u0085 e\u0301"},
		{[]byte{6, 11, 1, 3, 3, 2, 1, 8, 8, 8, 8, 8, 8, 8, 8, 8}, "table"},
	} {
		f.Add(seed.prog, seed.text)
	}
	dir := f.TempDir()
	root := filepath.Join(dir, "root")
	for name, content := range fuzzFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "outside.txt"), []byte("outside\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		f.Fatal(err)
	}
	doc := filepath.Join(root, "docs", "doc.md")

	f.Fuzz(func(t *testing.T, prog []byte, text string) {
		g := &fuzzGen{prog: prog, text: text}
		opts := g.next()
		g.lenient = opts&1 != 0
		args := []string{"--root", root, "-j", "1", "--lenient=" + fmt.Sprint(g.lenient), "--strict=" + fmt.Sprint(opts&2 != 0)}
		for range 1 + g.next()%6 {
			g.block()
		}
		src := g.doc.String()
		if err := os.WriteFile(doc, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(src, "\n")

		var out, errOut strings.Builder
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		code := runCheck(e, append(args, "--format", "json", doc))
		var recs []checkRecord
		if err := json.Unmarshal([]byte(out.String()), &recs); err != nil {
			t.Fatalf("json: %v\n%s\n%s", err, out.String(), errOut.String())
		}
		errors := 0
		for _, r := range recs {
			if r.File != filepath.ToSlash(doc) || r.Line < 1 || r.Line > len(lines) ||
				r.Column < 1 || r.Column > utf8.RuneCountInString(lines[r.Line-1])+1 {
				t.Fatalf("problem not located inside the document: %+v\n%s", r, src)
			}
			if r.Severity == "error" {
				errors++
			}
		}
		if (code == exitError) != (errors > 0 || opts&2 != 0 && len(recs) > 0) || (code != exitOK && code != exitError) {
			t.Fatalf("exit code %d with %d errors\n%s", code, errors, src)
		}
		for _, dest := range g.wrong {
			found := false
			for _, r := range recs {
				found = found || r.Link == dest && r.Severity == "error"
			}
			if !found {
				t.Fatalf("link with a wrong md5 passed: %q\nproblems: %+v\n%s", dest, recs, src)
			}
		}

		// The text format, as a terminal or CI log shows it.
		out.Reset()
		errOut.Reset()
		runCheck(e, append(args, doc))
		for _, s := range []string{out.String(), errOut.String()} {
			for _, r := range strings.ReplaceAll(s, "\n", "") {
				if r != '\t' && (r < 0x20 || r == 0x7f || 0x80 <= r && r <= 0x9f || termsafe.IsBidiControl(r)) {
					t.Fatalf("raw control character %U in the messages:\n%q", r, s)
				}
			}
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 in the messages:\n%q", s)
			}
		}
	})
}
