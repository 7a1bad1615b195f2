package textfrag_test

// Fail closed in every Markdown position (issue 11, C8): a link is verified
// wherever it stands, with the goldmark extensions users combine with
// textfrag, and its error fails Convert even where no renderer writes the
// link (an image's alt text, a link reference definition).

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
)

const (
	staleMD5 = "00000000000000000000000000000000"
	goodLink = "t.txt#line=0,1"
	badLink  = "t.txt#line=0,1;md5=" + staleMD5
)

// allExtensions is textfrag with the extensions goldmark itself ships.
func allExtensions(root string) goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(
		extension.GFM, extension.Footnote, extension.Typographer, extension.DefinitionList,
		extension.CJK, textfrag.New(textfrag.WithRoot(root)),
	))
}

// positionCase is a document that holds LINK once, in one Markdown
// position; line and col locate its first character ('[' or '!', or the
// '[' of a definition).
type positionCase struct {
	name, doc string
	line, col int
}

// linkPositions are the places a link with a destination and a title can
// stand. Every check of a link runs in each (TestFailClosedInEveryPosition,
// TestNameCheckedInEveryPosition).
func linkPositions() []positionCase {
	return []positionCase{
		{"box", "[x](LINK)\n", 1, 1},
		{"inline link", "See [x](LINK) here.\n", 1, 5},
		{"image alone", "![x](LINK)\n", 1, 1},
		{"image alt", "Intro.\n\n![see [x](LINK) alt](pic.png)\n", 3, 7},
		{"image alt, image alone", "![see [x](LINK) alt](t.txt#line=0,1)\n", 1, 7},
		{"image alt, reference image", "![see [x](LINK)][pic]\n\n[pic]: pic.png\n", 1, 7},
		{"nested image alt", "![a ![b [x](LINK)](i.png)](o.png)\n", 1, 9},
		{"link text in link text", "[outer [x](LINK) text](other.txt)\n", 1, 8},
		{"image in link text", "[![x](LINK)](other.txt)\n", 1, 2},
		{"atx heading", "# Title [x](LINK)\n", 1, 9},
		{"setext heading", "Title [x](LINK)\n===\n", 1, 7},
		{"table cell", "| a | b |\n|---|---|\n| 1 | [x](LINK) |\n", 3, 7},
		{"table header", "| [x](LINK) | b |\n|---|---|\n| 1 | 2 |\n", 1, 3},
		{"footnote", "Text[^1].\n\n[^1]: See [x](LINK).\n", 3, 11},
		{"footnote, link alone", "Text[^1].\n\n[^1]: [x](LINK)\n", 3, 7},
		{"footnote no reference uses", "Text.\n\n[^1]: See [x](LINK).\n", 3, 11},
		{"definition list", "Term\n: [x](LINK)\n", 2, 3},
		{"task list", "- [ ] [x](LINK)\n", 1, 7},
		{"strikethrough", "~~[x](LINK)~~\n", 1, 3},
		{"emphasis in a blockquote", "> *[x](LINK)*\n", 1, 4},
		{"tight list", "- a\n- [q](LINK)\n", 2, 3}, // not [x]: a task list item
		{"typographer around it", "\"Quoted\" -- [x](LINK) ...\n", 1, 13},
		{"reference link", "[x][r]\n\n[r]: LINK\n", 1, 1},
		{"reference image in alt", "![a [x][r] b](p.png)\n\n[r]: LINK\n", 1, 5},
		{"unused definition", "Text.\n\n[r]: LINK\n", 3, 1},
		{"unused definition in a list", "- a\n\n  [r]: LINK\n", 3, 3},
		{"duplicate definition", "[x][r]\n\n[r]: t.txt#line=0,1\n[r]: LINK\n", 4, 1},
	}
}

func TestFailClosedInEveryPosition(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n"})
	tests := linkPositions()
	// Autolinks take an absolute URL, file:///ROOT/t.txt#…, located at their "<".
	tests = append(tests, []positionCase{
		{"autolink", "See <FILE>.\n", 1, 5},
		{"autolink alone", "<FILE>\n", 1, 1},
		{"autolink in image alt", "![a <FILE> b](p.png)\n", 1, 5},
	}...)
	fileURL := "file://" + filepath.ToSlash(root) + "/"
	md := allExtensions(root)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, link := tt.doc, badLink
			if strings.Contains(doc, "FILE") {
				doc, link = strings.ReplaceAll(doc, "FILE", fileURL+"LINK"), fileURL+badLink
			}
			// With a good link, no error.
			if _, _, err := convert(t, md, "doc.md", strings.ReplaceAll(doc, "LINK", goodLink)); err != nil {
				t.Fatalf("good link: %v", err)
			}
			out, problems, err := convert(t, md, "doc.md", strings.ReplaceAll(doc, "LINK", badLink))
			var p *textfrag.Problem
			if !errors.As(err, &p) {
				t.Fatalf("Convert returned %v, want the integrity error; output:\n%s", err, out)
			}
			if p.Kind != "integrity" || p.Link != link || p.Line != tt.line || p.Column != tt.col || p.Document != "doc.md" {
				t.Errorf("got %v (kind %s), want an integrity error at doc.md:%d:%d", p, p.Kind, tt.line, tt.col)
			}
			if strings.Contains(out, "one") {
				t.Errorf("the quote was written before the error:\n%s", out)
			}
			if len(problems) == 0 || problems[0] != p {
				t.Errorf("Problems = %v, want the returned error first", problems)
			}
		})
	}
}

// The first error in document order is the one Convert returns, even when
// the renderer writes the places in another order (footnotes at the end)
// or not at all.
func TestFailClosedFirstErrorWins(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n"})
	doc := fmt.Sprintf("![alt [a](%s)](p.png)\n\nText [b](t.txt#line=2,1).\n\n[r]: t.txt#line=9\n", badLink)
	_, problems, err := convert(t, allExtensions(root), "doc.md", doc)
	var p *textfrag.Problem
	if !errors.As(err, &p) || p.Line != 1 || p.Kind != "integrity" {
		t.Fatalf("Convert returned %v, want the alt text's integrity error at line 1", err)
	}
	var got []string
	for _, q := range problems {
		got = append(got, fmt.Sprintf("%d:%d %s %s", q.Line, q.Column, q.Severity, q.Kind))
	}
	want := []string{"1:7 error integrity", "3:6 error misordered", "5:1 warning warning"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("problems\n got %q\nwant %q", got, want)
	}
}

// A definition that links use is verified at each use, not again at its own
// line; lenient mode applies to definitions as to links.
func TestDefinitionsVerifiedOnce(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n"})
	md := allExtensions(root)
	_, problems, err := convert(t, md, "doc.md", "[a][r] and [b][r]\n\n[r]: t.txt#line=9\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range problems {
		got = append(got, fmt.Sprintf("%d:%d", q.Line, q.Column))
	}
	if strings.Join(got, " ") != "1:1 1:12" {
		t.Errorf("clamping warnings at %v, want at the two uses 1:1 1:12", got)
	}

	lenient := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithLenient(true))))
	_, problems, err = convert(t, lenient, "doc.md", "Text.\n\n[r]: t.txt#line=2,1\n")
	if err != nil || len(problems) != 1 || problems[0].Severity != textfrag.Warning || problems[0].Line != 3 {
		t.Errorf("lenient, unused misordered definition: err %v, problems %v; want one warning at line 3", err, problems)
	}
	// A definition whose destination is not ours is left alone.
	if _, problems, err := convert(t, md, "doc.md", "[r]: other.txt#intro\n[s]: missing.txt\n"); err != nil || len(problems) != 0 {
		t.Errorf("other definitions: err %v, problems %v", err, problems)
	}
}

// Problems on one long line are located by counting each character once:
// columns are right however many come before.
func TestPositionsOnOneLongLine(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n"})
	var src strings.Builder
	var want []string
	src.WriteString("intro\n")
	col := 1
	for i := range 200 {
		link := fmt.Sprintf("[é%d](t.txt#line=0,%d) ✓ ", i, 5+i%2*5) // past the end: a warning each
		want = append(want, fmt.Sprintf("2:%d", col))
		src.WriteString(link)
		col += len([]rune(link))
	}
	src.WriteString("\n")
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	var out bytes.Buffer
	pc := parser.NewContext()
	if err := md.Convert([]byte(src.String()), &out, parser.WithContext(pc)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range textfrag.Problems(pc) {
		got = append(got, fmt.Sprintf("%d:%d", p.Line, p.Column))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("positions\n got %v\nwant %v", got, want)
	}
}
