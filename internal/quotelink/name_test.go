package quotelink

import (
	"crypto/md5"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

func TestParseNameRef(t *testing.T) {
	files := map[string]bool{"we:ird.go": true}
	isFile := func(s string) bool { return files[s] }
	for _, c := range []struct {
		ref, file, name string
		ok              bool
	}{
		{"src/server.go:Server.Handle", "src/server.go", "Server.Handle", true},
		{"src/lib.rs:App::run", "src/lib.rs", "App::run", true},
		{"src/lib.rs:crate::App::run", "src/lib.rs", "crate::App::run", true},
		{"we:ird.go:F", "we:ird.go", "F", true}, // the file that exists
		{"no:such.go:F", "no", "such.go:F", true},
		{"a.go:x", "a.go", "x", true},
		{"a.go:12abc", "a.go", "12abc", true},
		{"d:ir/a.go:F", "d:ir/a.go", "F", true}, // a ':' before the last '/' is the path's
		{"src/a.go:11-20", "", "", false},       // a range, ParseRef's
		{"src/a.go:3:5", "", "", false},
		{"src/a.go", "", "", false},
		{"src/a.go:", "", "", false},
		{":F", "", "", false},
		{"a::b", "", "", false}, // "::" only: no file
	} {
		file, name, ok := ParseNameRef(c.ref, isFile)
		if file != c.file || name != c.name || ok != c.ok {
			t.Errorf("ParseNameRef(%q) = %q, %q, %v; want %q, %q, %v", c.ref, file, name, ok, c.file, c.name, c.ok)
		}
	}
}

func TestTitleName(t *testing.T) {
	for _, c := range []struct {
		title string
		sel   symbol.Selector
		lang  string
		named bool
	}{
		{"", symbol.Selector{}, "", false},
		{"hl=1 dedent lang=go", symbol.Selector{}, "go", false},
		{"sym=Server.Handle", symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handle"}, "", true},
		{"hl=2 sym=App::run doc lang=rust", symbol.Selector{Kind: symbol.Symbol, Name: "App::run", Doc: true}, "rust", true},
		{"region=set-up.1", symbol.Selector{Kind: symbol.Region, Name: "set-up.1"}, "", true},
	} {
		sel, lang, named, err := TitleName(c.title)
		if err != nil || sel != c.sel || lang != c.lang || named != c.named {
			t.Errorf("TitleName(%q) = %+v, %q, %v, %v; want %+v, %q, %v", c.title, sel, lang, named, err, c.sel, c.lang, c.named)
		}
	}
	for _, c := range []struct{ title, want string }{
		{"sym=A region=b", "name lines twice"},
		{"sym=A sym=B", "name lines twice"},
		{"doc", "doc only goes with sym=NAME"},
		{"region=b doc", "doc only goes with sym=NAME"},
		{"sym=", "names nothing"},
		{"sym=A..b", "is not a name"},
		{"region=-x", "is not a region name"},
		{"region=a/b", "is not a region name"},
	} {
		if _, _, _, err := TitleName(c.title); !errors.Is(err, ErrName) || !errors.Is(err, symbol.ErrOptions) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("TitleName(%q): %v; want ErrName saying %q", c.title, err, c.want)
		}
	}
}

// ComposeName writes the standard line link for the span, the name first
// in the title, the caption naming it; what contradicts a name is refused.
func TestComposeName(t *testing.T) {
	src := "package a\n\n// F does.\nfunc F() {\n}\n"
	txt := mustText(t, src)
	sum := fmt.Sprintf("%x", md5.Sum([]byte(src)))
	sel := symbol.Selector{Kind: symbol.Symbol, Name: "F"}
	l, s, err := ComposeName("src/a.go", sel, symbol.Span{Start: 3, End: 5, Name: "F", Kind: "func"}, txt, Options{Page: "docs/guide.md", Title: "hl=4"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `[a.go: F](../src/a.go#line=3,5;md5=` + sum + ` "sym=F hl=4")`; l.Markdown() != want {
		t.Errorf("got  %s\nwant %s", l.Markdown(), want)
	}
	if string(s.Text) != "func F() {\n}\n" {
		t.Errorf("selects %q", s.Text)
	}
	reg := symbol.Selector{Kind: symbol.Region, Name: "setup"}
	l, _, err = ComposeName("src/a.go", reg, symbol.Span{Start: 0, End: 1}, txt, Options{Caption: "Setup"})
	if want := `[Setup](/src/a.go#line=0,1;md5=` + sum + ` "region=setup")`; err != nil || l.Markdown() != want {
		t.Errorf("got  %s, %v\nwant %s", l.Markdown(), err, want)
	}
	if Caption("src/a.go", reg) != "a.go: region setup" {
		t.Errorf("caption %q", Caption("src/a.go", reg))
	}
	for _, c := range []struct {
		o    Options
		span symbol.Span
		is   error
	}{
		{Options{Title: "sym=G"}, symbol.Span{Start: 3, End: 5}, ErrName},
		{Options{Title: "region=x"}, symbol.Span{Start: 3, End: 5}, ErrName},
		{Options{Title: "doc"}, symbol.Span{Start: 3, End: 5}, ErrName},
		{Options{}, symbol.Span{Start: 3, End: 3}, ErrName}, // adjacent markers
		{Options{Quote: true}, symbol.Span{Start: 3, End: 5}, ErrQuoteLines},
		{Options{}, symbol.Span{Start: 3, End: 9}, ErrPastEnd},
	} {
		if _, _, err := ComposeName("src/a.go", sel, c.span, txt, c.o); !errors.Is(err, c.is) {
			t.Errorf("%+v %+v: %v; want %v", c.o, c.span, err, c.is)
		}
	}
}

// ExplainName names what is wrong and a "textfrag link" command that
// works instead.
func TestExplainName(t *testing.T) {
	sym := symbol.Selector{Kind: symbol.Symbol, Name: "Server.Handel"}
	for _, c := range []struct {
		err  *symbol.Error
		want []string
	}{
		{&symbol.Error{Selector: sym, Path: "src/s.go", Language: "Go", Err: symbol.ErrNotFound,
			Candidates: []symbol.Span{{Name: "Server.Handle"}, {Name: "Server.handle"}}},
			[]string{"sym=Server.Handel is not in src/s.go (Go)", "close names: Server.Handle, Server.handle", "`textfrag link ./s.go:Server.Handle`"}},
		{&symbol.Error{Selector: symbol.Selector{Kind: symbol.Symbol, Name: "init"}, Path: "src/s.go", Err: symbol.ErrAmbiguous,
			Candidates: []symbol.Span{{Start: 2, End: 5, Name: "init", Kind: "func"}, {Start: 8, End: 12, Name: "init", Kind: "func"}}},
			[]string{"matches 2 declarations in src/s.go: func init (lines 3–5), func init (lines 9–12)", "`textfrag link ./s.go:3-5`", "--region NAME"}},
		{&symbol.Error{Selector: symbol.Selector{Kind: symbol.Symbol, Name: "init"}, Path: "src/s.go", Err: symbol.ErrAmbiguous,
			Candidates: []symbol.Span{{Start: 2, End: 3, Name: "init", Kind: "func"}, {Start: 8, End: 9, Name: "init", Kind: "func"}}},
			[]string{"func init (line 3), func init (line 9)", "`textfrag link ./s.go:3`"}},
		{&symbol.Error{Selector: sym, Path: "src/a.rb", Err: symbol.ErrUnsupported},
			[]string{"no symbol parser for src/a.rb", "sym= works in Go, Python", "`textfrag link ./s.go --region NAME`", "`textfrag link ./s.go:START-END`"}},
		{&symbol.Error{Selector: sym, Path: "src/a.py", Language: "Python", Err: symbol.ErrParse, Detail: "line 3: unexpected"},
			[]string{"src/a.py does not parse as Python: line 3: unexpected", "fix the file"}},
		{&symbol.Error{Selector: sym, Path: "src/a.py", Language: "Python", Err: symbol.ErrParse, Line: 144, Detail: "unexpected `}`"},
			[]string{"src/a.py does not parse as Python (line 144): unexpected `}`"}},
		// Unclosed and ambiguous regions, as the engine reports them.
		{regionError(t, "a\n# textfrag:begin setup\nb\n", "setup"),
			[]string{"region=setup in src/a.sh begins at line 2 and is never closed", "add a line `# textfrag:end setup`"}},
		{regionError(t, "a\n# textfrag:end setup\nb\n", "setup"),
			[]string{"region=setup in src/a.sh ends at line 2", "add a line `# textfrag:begin setup`"}},
		{regionError(t, "// textfrag:begin x\n1\n// textfrag:end x\n// textfrag:begin x\n2\n// textfrag:end x\n", "x"),
			[]string{"region=x matches 2 begin markers in src/a.sh: region x (line 2), region x (line 5)", "give each region its own name"}},
	} {
		got := ExplainName("./s.go", c.err, []string{"Go", "Python"})
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: %q does not say %q", c.err, got, w)
			}
		}
	}
}

// regionError is the engine's error for region=name in src, as a file
// src/a.sh.
func regionError(t *testing.T, src, name string) *symbol.Error {
	t.Helper()
	_, err := symbol.Default().Find("src/a.sh", "", []byte(src), symbol.Selector{Kind: symbol.Region, Name: name})
	var se *symbol.Error
	if !errors.As(err, &se) {
		t.Fatalf("region=%s in %q: %v, want a *symbol.Error", name, src, err)
	}
	return se
}

// TestMarkersAdviceGo: for Go the advice is the directive form, which go
// doc leaves out; elsewhere a comment line.
func TestMarkersAdviceGo(t *testing.T) {
	if m := Markers("src/server.go", "setup"); !strings.Contains(m, "`//textfrag:begin setup`") || !strings.Contains(m, "`//textfrag:end setup`") {
		t.Errorf("Go: %s", m)
	}
	if m := Markers("conf/app.yaml", "setup"); strings.Contains(m, "//textfrag") || !strings.Contains(m, "# textfrag:begin setup") {
		t.Errorf("YAML: %s", m)
	}
}
