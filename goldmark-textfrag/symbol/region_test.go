package symbol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
)

func region(name string) symbol.Selector { return symbol.Selector{Kind: symbol.Region, Name: name} }

// findRegion looks region name up in src, lines joined with "\n".
func findRegion(t *testing.T, name string, lines ...string) (symbol.Span, error) {
	t.Helper()
	return symbol.Set{}.Find("src/a.txt", "", []byte(strings.Join(lines, "\n")), region(name))
}

func TestRegionLeaders(t *testing.T) {
	for _, m := range [][2]string{
		{"// textfrag:begin r", "// textfrag:end r"},
		{"\t/// textfrag:begin r", "  //textfrag:end r  "},
		{"# textfrag:begin r", "## textfrag:end r"},
		{"-- textfrag:begin r", "--- textfrag:end r"},
		{"; textfrag:begin r", ";; textfrag:end r"},
		{"% textfrag:begin r", "%% textfrag:end r"},
		{"<!-- textfrag:begin r -->", "<!--textfrag:end r-->"},
		{"/* textfrag:begin r */", "/** textfrag:end r **/"},
		{"{{/* textfrag:begin r */}}", "{{- /* textfrag:end r */ -}}"},
		{"(* textfrag:begin r *)", "{- textfrag:end r -}"},
		{" \t# textfrag:begin r\t", "# textfrag:end\tr"},
	} {
		got, err := findRegion(t, "r", "one", m[0], "two", "three", m[1], "four")
		if err != nil || got.Start != 2 || got.End != 4 || got.Kind != "region" || got.Name != "r" {
			t.Errorf("%q … %q: %+v, %v; want lines 3–4", m[0], m[1], got, err)
		}
	}
}

// Lines that hold a marker's words but are not marker lines.
func TestRegionNotMarkers(t *testing.T) {
	for _, line := range []string{
		`fmt.Println("// textfrag:begin r")`,
		`x := 1 // textfrag:begin r`,
		`"# textfrag:begin r"`,
		`// textfrag:begin`,
		`// textfrag:beginr`,
		`// textfrag: begin r`,
		`// textfrag:begin r and more`,
		`// TEXTFRAG:begin r`,
		`* textfrag:begin r`,
		`// textfrag:begin r */ x`,
		`// textfrag:begin -r`,
		"// textfrag:begin r\u00a0",
	} {
		_, err := findRegion(t, "r", "a", line, "b", "// textfrag:end r")
		var e *symbol.Error
		// The end is then an end with no begin.
		if !errors.As(err, &e) || !errors.Is(err, symbol.ErrUnclosed) || e.Line != 4 {
			t.Errorf("%q counted as a begin marker: %v", line, err)
		}
	}
}

// A multi-line string's line that starts with a comment leader is a
// marker: the rule has no lexer (SYMBOLS.md says why).
func TestRegionInMultilineString(t *testing.T) {
	got, err := findRegion(t, "r", `s := `+"`", "# textfrag:begin r", "x", "# textfrag:end r", "`")
	if err != nil || got.Start != 2 || got.End != 3 {
		t.Errorf("%+v, %v", got, err)
	}
}

func TestRegionNested(t *testing.T) {
	lines := []string{
		"// textfrag:begin outer", // 1
		"a",                       // 2
		"// textfrag:begin inner", // 3
		"b",                       // 4
		"// textfrag:end inner",   // 5
		"c",                       // 6
		"// textfrag:end outer",   // 7
	}
	outer, err := findRegion(t, "outer", lines...)
	if err != nil || outer.Start != 1 || outer.End != 6 {
		t.Errorf("outer = %+v, %v; want lines 2–6, inner markers quoted", outer, err)
	}
	inner, err := findRegion(t, "inner", lines...)
	if err != nil || inner.Start != 3 || inner.End != 4 {
		t.Errorf("inner = %+v, %v; want line 4", inner, err)
	}
	spans, err := symbol.Regions([]byte(strings.Join(lines, "\n")))
	if err != nil || len(spans) != 2 || spans[0] != outer || spans[1] != inner {
		t.Errorf("Regions = %+v, %v", spans, err)
	}
	x := symbol.Set{}.Index("a.txt", "", []byte(strings.Join(lines, "\n")))
	if _, err := x.Find(region("inner")); err != nil {
		t.Fatal(err)
	}
	spans, err = x.Regions()
	if err != nil || len(spans) != 2 || spans[0] != outer || spans[1] != inner {
		t.Errorf("Index.Regions = %+v, %v", spans, err)
	}
}

func TestRegionAmbiguous(t *testing.T) {
	// Nested under one name, and repeated.
	for _, lines := range [][]string{
		{"// textfrag:begin r", "a", "// textfrag:begin r", "b", "// textfrag:end r", "// textfrag:end r"},
		{"// textfrag:begin r", "a", "// textfrag:end r", "// textfrag:begin r", "b", "// textfrag:end r"},
	} {
		_, err := findRegion(t, "r", lines...)
		var e *symbol.Error
		if !errors.As(err, &e) || !errors.Is(err, symbol.ErrAmbiguous) || len(e.Candidates) != 2 {
			t.Errorf("%q: %v, want ambiguous with 2 candidates", lines, err)
		}
	}
	_, err := findRegion(t, "r", "// textfrag:begin r", "a", "// textfrag:end r", "# textfrag:begin r", "b", "c", "# textfrag:end r")
	want := "region=r matches 2 begin markers in src/a.txt: region r (line 2), region r (lines 5–6); give each region a name of its own"
	if err == nil || err.Error() != want {
		t.Errorf("message\n%v\nwant\n%s", err, want)
	}
}

func TestRegionUnclosed(t *testing.T) {
	_, err := findRegion(t, "setup", "package a", "", "func f() {", "\t// textfrag:begin setup", "\tx := 1", "}")
	want := "region=setup in src/a.txt begins at line 4 and is never closed; add a line `// textfrag:end setup`"
	if err == nil || err.Error() != want || symbol.ErrorKind(err) != "unclosed" {
		t.Errorf("message\n%v\nwant\n%s", err, want)
	}
	_, err = findRegion(t, "setup", "<!-- textfrag:begin setup -->", "x")
	if err == nil || !strings.HasSuffix(err.Error(), "add a line `<!-- textfrag:end setup -->`") {
		t.Errorf("remedy keeps the comment's form: %v", err)
	}
	// An end before the begin, an end with no begin, an end after the end.
	for _, lines := range [][]string{
		{"# textfrag:end r", "# textfrag:begin r", "x", "# textfrag:end r"},
		{"x", "# textfrag:end r"},
		{"# textfrag:begin r", "x", "# textfrag:end r", "# textfrag:end r"},
	} {
		_, err := findRegion(t, "r", lines...)
		if !errors.Is(err, symbol.ErrUnclosed) || !strings.Contains(err.Error(), "closes no region") || !strings.Contains(err.Error(), "`# textfrag:begin r`") {
			t.Errorf("%q: %v, want an end that closes nothing", lines, err)
		}
	}
}

func TestRegionLineEndings(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r", "\u0085", "\r\u0085"} {
		src := strings.Join([]string{"a", "# textfrag:begin r", "b", "c", "# textfrag:end r", "d"}, nl)
		got, err := symbol.Set{}.Find("a.py", "", []byte(src), region("r"))
		if err != nil || got.Start != 2 || got.End != 4 {
			t.Errorf("%q: %+v, %v; want lines 3–4", nl, got, err)
		}
	}
	// Mixed endings, and a marker on the last line without an ending.
	got, err := symbol.Set{}.Find("a", "", []byte("# textfrag:begin r\rx\r\ny\u0085# textfrag:end r"), region("r"))
	if err != nil || got.Start != 1 || got.End != 3 {
		t.Errorf("mixed: %+v, %v", got, err)
	}
}

func TestRegionEmptyAndNotFound(t *testing.T) {
	got, err := findRegion(t, "r", "x", "// textfrag:begin r", "// textfrag:end r")
	if err != nil || got.Start != 2 || got.End != 2 {
		t.Errorf("empty region: %+v, %v", got, err)
	}
	_, err = findRegion(t, "setpu", "// textfrag:begin setup", "x", "// textfrag:end setup", "// textfrag:begin teardown", "// textfrag:end teardown")
	want := "region=setpu is not in src/a.txt; close names: setup; fix the name, or quote by lines without region="
	if err == nil || err.Error() != want || symbol.ErrorKind(err) != "not-found" {
		t.Errorf("message\n%v\nwant\n%s", err, want)
	}
	// Regions need no parser: a Go file's region with an empty Set.
	got, err = symbol.Set{}.Find("a.go", "", []byte("package a\n// textfrag:begin x\nvar v = 1\n// textfrag:end x\n"), region("x"))
	if err != nil || got.Start != 2 || got.End != 3 {
		t.Errorf("region in Go: %+v, %v", got, err)
	}
}

func TestRegionsReportsFirstProblem(t *testing.T) {
	src := "# textfrag:begin b\nx\n# textfrag:end b\n# textfrag:begin a\n# textfrag:begin c\ny\n# textfrag:end c\n"
	spans, err := symbol.Regions([]byte(src))
	if len(spans) != 2 || spans[0].Name != "b" || spans[1].Name != "c" {
		t.Errorf("Regions = %+v", spans)
	}
	var e *symbol.Error
	if !errors.As(err, &e) || e.Selector.Name != "a" || !errors.Is(err, symbol.ErrUnclosed) {
		t.Errorf("error %v, want region a unclosed", err)
	}
}
