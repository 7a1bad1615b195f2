package textfrag_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/yuin/goldmark"

	textfrag "github.com/textfrag/textfrag/goldmark-textfrag"
	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

// t.go's lines, for the links below: F spans lines 4–6 (#line=3,6), its
// doc comment is line 3, and region r is line 9 (#line=8,9).
const namesGo = `package t

// F is f.
func F() {
	_ = 1
}

// textfrag:begin r
var v = 1
// textfrag:end r
`

// A sym= or region= name is checked wherever the link stands, after the
// link itself resolved: a name that moved fails the build in every
// position, located at the link.
func TestNameCheckedInEveryPosition(t *testing.T) {
	root := writeProject(t, map[string]string{"t.txt": "one\ntwo\n", "t.go": namesGo})
	md := allExtensions(root)
	for _, name := range []struct{ good, bad string }{
		{`t.go#line=3,6 "sym=F"`, `t.go#line=3,5 "sym=F"`},
		{`t.go#line=2,6 "doc sym=F"`, `t.go#line=3,6 "doc sym=F"`},
		{`t.go#line=8,9 "region=r"`, `t.go#line=8,10 "region=r"`},
	} {
		for _, tt := range linkPositions() {
			t.Run(tt.name+" "+name.good, func(t *testing.T) {
				if _, _, err := convert(t, md, "doc.md", strings.ReplaceAll(tt.doc, "LINK", name.good)); err != nil {
					t.Fatalf("good link: %v", err)
				}
				out, _, err := convert(t, md, "doc.md", strings.ReplaceAll(tt.doc, "LINK", name.bad))
				var p *textfrag.Problem
				if !errors.As(err, &p) || p.Kind != "symbol" || p.Reason != "mismatch" || p.Line != tt.line || p.Column != tt.col {
					t.Fatalf("Convert returned %v (%+v), want a symbol mismatch at doc.md:%d:%d", err, p, tt.line, tt.col)
				}
				if strings.Contains(out, "_ = 1") {
					t.Errorf("the quote was written before the error:\n%s", out)
				}
			})
		}
	}
}

func TestNameMessages(t *testing.T) {
	root := writeProject(t, map[string]string{
		"src/t.go": namesGo, "src/b.go": "package b\n\nfunc init() {}\n\nfunc init() {\n}\n",
		"src/bad.go": "package b\n\nfunc (\n", "src/a.py": "def f():\n    pass\n", "src/a.rb": "def f; end\n",
		"src/open.sh": "# textfrag:begin setup\necho hi\n",
	})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	for _, c := range []struct{ link, reason, msg string }{
		{`../src/t.go#line=3,5 "sym=F"`, "mismatch",
			"sym=F spans lines 4–6 of src/t.go now (#line=3,6); the link quotes lines 4–5; run `textfrag pin --write docs/guide.md` to re-pin it"},
		{`../src/t.go#line=3,6 "sym=f"`, "not-found",
			"sym=f is not in src/t.go (Go); close names: F; fix the name, or quote by lines without sym="},
		{`../src/b.go#line=2,3 "sym=init"`, "ambiguous",
			"sym=init matches 2 declarations in src/b.go: func init (line 3), func init (lines 5–6); quote by a region= or by lines without sym="},
		{`../src/bad.go#line=0,1 "sym=F"`, "parse",
			"src/bad.go does not parse as Go (line 4): expected ')', found 'EOF'; fix the file, or quote by region= or by lines"},
		{`../src/a.py#line=0,2 "sym=f"`, "unsupported",
			"no symbol parser for src/a.py (Python); sym= works in Go; quote by region= (any language) or by lines; to look names up in Python, add textfrag.WithSymbols(treesitter.Parsers()) (package github.com/textfrag/textfrag/goldmark-textfrag/symbol/treesitter, which needs cgo)"},
		{`../src/a.rb#line=0,1 "sym=f"`, "unsupported",
			"no symbol parser for src/a.rb; sym= works in Go; quote by region= (any language) or by lines"},
		{`../src/open.sh#line=1,2 "region=setup"`, "unclosed",
			"region=setup in src/open.sh begins at line 1 and is never closed; add a line `# textfrag:end setup`"},
		{`../src/t.go#line=3,6 "sym=F region=r"`, "options", ""},
		{`../src/t.go#line=3,6 "doc"`, "options", ""},
		{`../src/t.go#line=3,6 "region=r doc"`, "options", ""},
		{`../src/t.go#line=3,6 "sym="`, "options", `link title: "sym=" names nothing; write sym=NAME`},
		{`../src/t.go#line=3,6 "region=a/b"`, "options", ""},
		{`../src/t.go#line=3 "sym=F"`, "options", ""},
		{`../src/t.go#char=0,5 "sym=F"`, "options", "link title: sym=F needs a line range (#line=a,b), not char=: a name spans whole lines; quote by lines, or drop sym=F"},
		{`../src/t.go#char=0,5 "quote sym=F"`, "options", ""},
	} {
		_, _, err := convert(t, md, "docs/guide.md", "See [F]("+c.link+").\n")
		var p *textfrag.Problem
		if !errors.As(err, &p) || p.Kind != "symbol" || p.Reason != c.reason {
			t.Errorf("%s: %v (%+v), want a symbol error, %s", c.link, err, p, c.reason)
			continue
		}
		if c.msg != "" && p.Message != c.msg {
			t.Errorf("%s: message\n%s\nwant\n%s", c.link, p.Message, c.msg)
		}
		if !strings.HasPrefix(err.Error(), "docs/guide.md:1:5: error: "+strings.Fields(c.link)[0]+": ") {
			t.Errorf("%s: %v does not name the document, place and link", c.link, err)
		}
	}
}

// The link's own errors come first: a stale md5 is an integrity error even
// when the name is wrong too.
func TestNameAfterResolution(t *testing.T) {
	root := writeProject(t, map[string]string{"t.go": namesGo})
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root))))
	for _, c := range [][2]string{
		{`t.go#line=3,6;md5=` + staleMD5 + ` "sym=Nope"`, "integrity"},
		{`none.go#line=3,6 "sym=F"`, "missing"},
		{`t.go#line=3,6 "sym=F bogus"`, "title"},
	} {
		_, _, err := convert(t, md, "doc.md", "[x]("+c[0]+")\n")
		var p *textfrag.Problem
		if !errors.As(err, &p) || p.Kind != c[1] {
			t.Errorf("%s: %v, want kind %s", c[0], err, c[1])
		}
	}
}

// pyDefs finds "def NAME" lines, counting its parses.
type pyDefs struct{ parses *atomic.Int64 }

func (pyDefs) Language() string { return "Python" }
func (p pyDefs) Decls(src []byte) ([]symbol.Decl, error) {
	p.parses.Add(1)
	var ds []symbol.Decl
	off := 0
	for _, line := range strings.SplitAfter(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "def "); ok {
			name, _, _ := strings.Cut(rest, "(")
			ds = append(ds, symbol.Decl{Name: name, Kind: "def", Start: off, End: off + len(line), DocStart: off})
		}
		off += len(line)
	}
	return ds, nil
}

// WithSymbols adds languages; a file is parsed once per conversion however
// many links name its symbols, and again in the next conversion.
func TestWithSymbolsParsesOncePerConversion(t *testing.T) {
	root := writeProject(t, map[string]string{"a.py": "def f():\n    pass\ndef g():\n", "t.go": namesGo})
	var parses atomic.Int64
	md := goldmark.New(goldmark.WithExtensions(textfrag.New(textfrag.WithRoot(root), textfrag.WithSymbols(symbol.Set{"python": pyDefs{&parses}}))))
	var doc strings.Builder
	for i := range 50 {
		fmt.Fprintf(&doc, "[f %d](a.py#line=0,1 \"sym=f\") and [g](a.py#line=2,3 \"sym=g\").\n\n", i)
	}
	doc.WriteString("[F](t.go#line=3,6 \"sym=F\")\n") // Go still works: merged over the default
	for round := int64(1); round <= 2; round++ {
		if _, _, err := convert(t, md, "doc.md", doc.String()); err != nil {
			t.Fatal(err)
		}
		if n := parses.Load(); n != round {
			t.Fatalf("after %d conversions: %d parses", round, n)
		}
	}
}
