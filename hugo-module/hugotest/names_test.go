package hugotest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/textfrag/textfrag/internal/corpus"
)

// Names in link titles (issue 15): region= is verified by the templates,
// sym= is refused unless params.textfrag.symbols = "checked-in-ci".

// namesDoc writes one link with a title in the three places a link can be:
// a standalone image (line 5), a link alone in its paragraph (line 7) and a
// link in running text (line 9, column 5).
func namesDoc(link, title string) string {
	return fmt.Sprintf("---\ntitle: t\n---\n\n![q](%s %q)\n\n[q](%s %q)\n\nSee [q](%s %q) here.\n", link, title, link, title, link, title)
}

// A Go file with one region, "setup", on lines 4–6 (positions 3 to 6); a
// marker written in a one-line string inside it is not a marker.
const regionGo = "package main\n\n// textfrag:begin setup\nfunc setup() {\n\tfmt.Println(\"// textfrag:begin setup\")\n}\n// textfrag:end setup\n"

func sumOf(s string) string {
	h := md5.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// Every comment leader of the marker rule, and every line ending of the
// project's rule, finds the same lines the engine finds.
func TestRegionsQuoteTheirLines(t *testing.T) {
	root := t.TempDir()
	files := map[string]struct {
		text, name, link, body string
	}{
		"main.go":     {regionGo, "setup", "line=3,6", "func setup() {\n\tfmt.Println(\"// textfrag:begin setup\")\n}\n"},
		"run.py":      {"def f():\n    # textfrag:begin loop\n    for x in y:\n        pass\n    #textfrag:end loop\n", "loop", "line=2,4", "    for x in y:\n        pass\n"},
		"page.html":   {"<ul>\n  <!-- textfrag:begin nav -->\n  <li>Home</li>\n  <!--textfrag:end nav-->\n</ul>\n", "nav", "line=2,3", "  <li>Home</li>\n"},
		"style.css":   {"/* textfrag:begin colors */\nbody { color: red; }\n/** textfrag:end colors **/\n", "colors", "line=1,2", "body { color: red; }\n"},
		"head.html":   {"{{/* textfrag:begin head */}}\n<title>x</title>\n{{- /* textfrag:end head */ -}}\n", "head", "line=1,2", "<title>x</title>\n"},
		"q.sql":       {"-- textfrag:begin query\nSELECT 1;\n--- textfrag:end query\n", "query", "line=1,2", "SELECT 1;\n"},
		"a.lisp":      {";; textfrag:begin x.y-z\n(car l)\n; textfrag:end x.y-z\n", "x.y-z", "line=1,2", "(car l)\n"},
		"m.tex":       {"%% textfrag:begin eq\n$x$\n% textfrag:end eq\n", "eq", "line=1,2", "$x$\n"},
		"f.ml":        {"(* textfrag:begin f *)\nlet f x = x\n(* textfrag:end f *)\n", "f", "line=1,2", "let f x = x\n"},
		"h.hs":        {"{- textfrag:begin h -}\nh = id\n{- textfrag:end h -}\n", "h", "line=1,2", "h = id\n"},
		"endings.txt": {"# textfrag:begin e\r\nA\rB\u0085C\r\u0085# textfrag:end e\n", "e", "line=1,4", "A\nB\nC\n"},
		// Other names' markers inside a region are quoted, and the box
		// leaves them out (SYMBOLS.md section 3a).
		"outer.go": {"// textfrag:begin outer\n// textfrag:begin inner\nx := 1\n// textfrag:end inner\n// textfrag:end outer\n", "outer", "line=1,4", "x := 1\n"},
	}
	var doc strings.Builder
	doc.WriteString("---\ntitle: t\n---\n")
	names := sortedKeys(files)
	for _, name := range names {
		f := files[name]
		write(t, filepath.Join(root, "src", name), f.text)
		fmt.Fprintf(&doc, "\n## %s\n\n![%s](src/%s#%s;md5=%s \"region=%s\")\n", strings.ReplaceAll(name, ".", "-"), name, name, f.link, sumOf(f.text), f.name)
	}
	r := site{Root: root, Docs: map[string]string{"page.md": doc.String()}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	got := sections(r.Pages["page.md"])
	for _, name := range names {
		html := got[strings.ReplaceAll(name, ".", "-")]
		box, ok := corpus.FindBox(html)
		if !ok {
			t.Errorf("%s: no box:\n%s", name, html)
			continue
		}
		if want := files[name].body; box.Text != want {
			t.Errorf("%s: the box shows %q, want %q", name, box.Text, want)
		}
	}
}

// The title's other options still apply with a name, and a title that
// only looks like one ("doc" inside a word) is options as before.
func TestNamesKeepOtherOptions(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "b.py"), "def f():\n    # textfrag:begin loop\n    for x in y:\n        pass\n    # textfrag:end loop\n")
	write(t, filepath.Join(root, "src", "Dockerfile"), "FROM scratch\nCOPY a /a\n")
	doc := "---\ntitle: t\n---\n\n## a\n\n![q](src/b.py#line=2,4 \"dedent region=loop hl=4\")\n\n## b\n\n![q](src/Dockerfile#line=0,2 \"lang=docker\")\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	got := sections(r.Pages["page.md"])
	box, _ := corpus.FindBox(got["a"])
	if want := "for x in y:\n    pass\n"; box.Text != want {
		t.Errorf("box %q, want %q", box.Text, want)
	}
	mustContain(t, "the box", got["a"], `<span class="line hl"><span class="ln">4</span>`)
	mustContain(t, "the box", got["b"], `data-lang="docker"`)
}

// TestRegionErrors: each way a region can fail names the page, the link,
// what is wrong and the remedy, in every place a link can be.
func TestRegionErrors(t *testing.T) {
	for _, c := range []struct {
		name, file, link, title string
		want                    []string
	}{
		{"moved", regionGo, "src/a.go#line=2,6", "region=setup",
			[]string{"region=setup spans lines 4–6 of src/a.go now (#line=3,6); the link quotes lines 3–6", "Run `textfrag pin --write docs/page.md` to re-pin it."}},
		{"grown", regionGo, "src/a.go#line=3,5", "region=setup",
			[]string{"region=setup spans lines 4–6 of src/a.go now (#line=3,6); the link quotes lines 4–5"}},
		{"clamped", regionGo, "src/a.go#line=3,60", "region=setup",
			[]string{"(#line=3,6); the link quotes lines 4–7"}},
		{"to the end", regionGo, "src/a.go#line=3,", "region=setup",
			[]string{"(#line=3,6); the link quotes lines 4–7"}},
		{"duplicate", regionGo + "// textfrag:begin setup\nx\n// textfrag:end setup\n", "src/a.go#line=3,6", "region=setup",
			[]string{"region=setup matches 2 begin markers in src/a.go: region setup (lines 4–6), region setup (line 9)", "Give each region a name of its own."}},
		{"nested in itself", "// textfrag:begin s\n// textfrag:begin s\nx\n// textfrag:end s\n// textfrag:end s\n", "src/a.go#line=1,4", "region=s",
			[]string{"region=s matches 2 begin markers in src/a.go: region s (lines 2–3), region s (line 3)"}},
		{"never closed", "x\n  /* textfrag:begin s */\ny\n", "src/a.go#line=2,3", "region=s",
			[]string{"region=s in src/a.go begins at line 2 and is never closed", "Add a line `/* textfrag:end s */`."}},
		{"end before begin", "# textfrag:end s\n# textfrag:begin s\ny\n", "src/a.go#line=2,3", "region=s",
			[]string{"region=s in src/a.go ends at line 1, which closes no region (no begin marker before it, or the region ended already)", "Add a line `# textfrag:begin s` where the region starts, or remove that end marker."}},
		{"end only", "x\n-- textfrag:end s\n", "src/a.go#line=0,1", "region=s",
			[]string{"region=s in src/a.go ends at line 2, which closes no region"}},
		{"not found", regionGo + "// textfrag:begin teardown\n// textfrag:end teardown\n", "src/a.go#line=3,6", "region=Setup",
			[]string{"region=Setup is not in src/a.go; close names: setup. Fix the name, or quote by lines without region="}},
		{"only in a string", "s := \"// textfrag:begin s\"\nx\ns2 := \"// textfrag:end s\"\n", "src/a.go#line=1,2", "region=s",
			[]string{"region=s is not in src/a.go. Fix the name"}},
		{"swapped letters", "// textfrag:begin setuq\n// textfrag:end setuq\n// textfrag:begin setpu\n// textfrag:end setpu\n", "src/a.go#line=1,2", "region=setup",
			[]string{"region=setup is not in src/a.go; close names: setpu, setuq. "}},
		{"name prefix is another name", "// textfrag:begin set\nx\n// textfrag:end set\n// textfrag:begin setup-2\n// textfrag:end setup-2\n", "src/a.go#line=1,2", "region=setup",
			// As the engine: set and setup-2 are two edits away, more
			// than a fifth of the name.
			[]string{"region=setup is not in src/a.go. Fix the name"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "src", "a.go"), c.file)
			link := strings.Replace(c.link, "src/", "../src/", 1)
			r := site{Root: root, Docs: map[string]string{"docs/page.md": namesDoc(link, c.title)}}.build(t)
			if r.Err == nil {
				t.Fatalf("the build succeeded:\n%s", r.Pages["docs/page.md"])
			}
			page := filepath.Join(root, "docs", "page.md")
			for _, at := range []string{
				fmt.Sprintf("%s:5:1: textfrag symbol error: image %q: ", page, link),
				fmt.Sprintf("%s:7:1: textfrag symbol error: link %q: ", page, link),
				fmt.Sprintf("%s:9:5: textfrag symbol error: link %q: ", page, link),
			} {
				mustContain(t, "the log", r.Log, at)
			}
			mustContain(t, "the log", r.Log, c.want...)
		})
	}
}

// TestNameOptionErrors: misused titles fail as the library's do (kind
// symbol, sub-kind options), before the file's names are looked at, whatever
// params.textfrag.symbols says.
func TestNameOptionErrors(t *testing.T) {
	for _, c := range []struct{ link, title, want string }{
		{"src/a.go#line=3,6", "sym=setup region=setup", `"region=setup" and sym=setup name lines twice; a link carries one sym= or one region=`},
		{"src/a.go#line=3,6", "region=setup region=setup", `"region=setup" and region=setup name lines twice`},
		{"src/a.go#line=3,6", "region=setup doc", "doc only goes with sym=NAME (it starts the quote at the declaration's doc comment)"},
		{"src/a.go#line=3,6", "doc", "doc only goes with sym=NAME"},
		{"src/a.go#line=3,6", "doc sym=setup doc", "doc is given twice; write it once"},
		{"src/a.go#line=3,6", "region=", `"region=" names nothing; write region=NAME`},
		{"src/a.go#line=3,6", "sym=", `"sym=" names nothing; write sym=NAME`},
		{"src/a.go#line=3,6", "region=-x", `"region=-x" is not a region name: letters, digits and _ first, then also . and -, as in region=setup`},
		{"src/a.go#line=3,6", "sym=Server..Handle", `"sym=Server..Handle" is not a name: components between`},
		{"src/a.go#line=3,6", "sym=::Handle", `"sym=::Handle" is not a name`},
		{"src/a.go#line=3,6", "region=a/b", `"region=a/b" is not a region name`},
		{"src/a.go#char=3,6", "region=setup", "region=setup needs a line range (#line=a,b), not char=: a name spans whole lines; quote by lines, or drop region=setup"},
		{"src/a.go#line=3", "sym=main", "sym=main needs a line range (#line=a,b), not the single position line=3"},
		{"src/a.go#line=3,6", "quote region=setup", "quote shows characters inside running text, and region=setup names whole lines; drop one of them"},
	} {
		for _, symbols := range []string{"", `symbols = "checked-in-ci"`} {
			t.Run(c.title+"/"+symbols, func(t *testing.T) {
				root := t.TempDir()
				write(t, filepath.Join(root, "src", "a.go"), regionGo)
				doc := fmt.Sprintf("---\ntitle: t\n---\n\n![q](%s %q)\n", c.link, c.title)
				r := site{Root: root, Docs: map[string]string{"page.md": doc}, Params: symbols}.build(t)
				if r.Err == nil {
					t.Fatalf("the build succeeded:\n%s", r.Pages["page.md"])
				}
				mustContain(t, "the log", r.Log,
					fmt.Sprintf("%s:5:1: textfrag symbol error: image %q: link title: %s", filepath.Join(root, "page.md"), c.link, c.want),
					"The title of an RFC 5147 link holds options")
			})
		}
	}
}

// An option word that is not one fails as a title error before any name is
// looked at, as in the library.
func TestUnknownOptionBeforeNames(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.go"), regionGo)
	for _, title := range []string{"region= bogus", "sym=x region=y bogus", "bogus region=nope"} {
		doc := fmt.Sprintf("---\ntitle: t\n---\n\n![q](src/a.go#line=3,6 %q)\n", title)
		r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
		if r.Err == nil {
			t.Fatalf("%q: the build succeeded", title)
		}
		mustContain(t, "the log", r.Log, `textfrag title error: image "src/a.go#line=3,6": link title: unknown option "bogus"; options are hl=12,15-17, dedent, lang=NAME, quote, sym=NAME, region=NAME and doc`)
	}
}

// TestSymbolsNeedCI: sym= fails the build by default; with "checked-in-ci"
// the link is quoted by its lines (its md5= still verified) and one warning
// at the end of the build counts the links Hugo did not check.
func TestSymbolsNeedCI(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.go"), regionGo)
	write(t, filepath.Join(root, "_layouts", "baseof.html"), `<head>{{ partial "textfrag/head.html" . }}</head>{{ block "main" . }}{{ end }}`)
	write(t, filepath.Join(root, "_layouts", "single.html"), `{{ define "main" }}{{ .Content }}{{ end }}`)
	link := "../src/a.go#line=3,6;md5=" + sumOf(regionGo)
	docs := map[string]string{
		"docs/page.md":  namesDoc(link, "sym=setup doc hl=5"),
		"docs/other.md": "---\ntitle: t\n---\n\n{{< textfrag src=\"" + link + "\" options=\"sym=setup\" >}}\n",
		"docs/plain.md": "---\ntitle: t\n---\n\n![q](" + link + ")\n",
	}

	// By default: refused, in every place, naming the remedy.
	r := site{Root: root, Docs: docs, keepLayout: true}.build(t)
	if r.Err == nil {
		t.Fatal("a sym= link built without params.textfrag.symbols")
	}
	page := filepath.Join(root, "docs", "page.md")
	mustContain(t, "the log", r.Log,
		fmt.Sprintf("%s:5:1: textfrag symbol error: image %q: Hugo cannot check sym=setup", page, link),
		fmt.Sprintf("%s:7:1: textfrag symbol error: link %q: Hugo cannot check sym=setup", page, link),
		fmt.Sprintf("%s:9:5: textfrag symbol error: link %q: Hugo cannot check sym=setup", page, link),
		fmt.Sprintf("%s:5:1: textfrag symbol error: shortcode %q: Hugo cannot check sym=setup", filepath.Join(root, "docs", "other.md"), link),
		"add `textfrag check` to CI", `set params.textfrag.symbols = "checked-in-ci"`)

	// Checked in CI: the same boxes as without sym=, one warning.
	r = site{Root: root, Docs: docs, keepLayout: true, Params: `symbols = "checked-in-ci"`}.build(t)
	if r.Err != nil {
		t.Fatalf("%v\n%s", r.Err, r.Log)
	}
	plain := sections("<h2 id=\"x\"></h2>\n" + r.Pages["docs/plain.md"])["x"]
	plainBox, _ := corpus.FindBox(plain)
	for name, html := range map[string]string{"page": r.Pages["docs/page.md"], "shortcode": r.Pages["docs/other.md"]} {
		if box, ok := corpus.FindBox(html); !ok || box.Text != plainBox.Text || box.Label != plainBox.Label {
			t.Errorf("%s: box %+v, want the box of the link without sym= %+v:\n%s", name, box, plainBox, html)
		}
	}
	mustContain(t, "the page", r.Pages["docs/page.md"], `<span class="line hl"><span class="ln">5</span>`)
	warning := "textfrag: 4 links with sym= quoted by their lines without checking the name"
	// Besides, the link in running text says its hl=5 emphasizes nothing
	// (TestInlineHlWarns).
	if n := strings.Count(r.Log, "WARN") - strings.Count(r.Log, "emphasizes lines of a box"); n != 1 || !strings.Contains(r.Log, warning) {
		t.Errorf("want one warning %q, got %d:\n%s", warning, n, r.Log)
	}

	// md5= is still verified.
	stale := strings.Replace(link, "md5=", "md5=0", 1)[:len(link)]
	r = site{Root: root, Docs: map[string]string{"docs/page.md": namesDoc(stale, "sym=setup")}, keepLayout: true, Params: `symbols = "checked-in-ci"`}.build(t)
	if r.Err == nil || !strings.Contains(r.Log, "textfrag integrity error: image") {
		t.Errorf("a stale sym= link built: %v\n%s", r.Err, r.Log)
	}

	// Any other setting is an error, on every page, sym= or not.
	r = site{Root: root, Docs: map[string]string{"docs/plain.md": docs["docs/plain.md"]}, keepLayout: true, Params: `symbols = "yes"`}.build(t)
	if r.Err == nil {
		t.Fatal("params.textfrag.symbols = \"yes\" built")
	}
	mustContain(t, "the log", r.Log, `textfrag config error: params.textfrag.symbols = "yes" is not a setting the module knows`)
}

// A name is written into messages with its control characters escaped:
// a bidirectional control in a name Hugo refuses, and a C0 control, which
// makes the name malformed.
func TestNamesInMessagesAreEscaped(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "src", "a.go"), regionGo)
	doc := "---\ntitle: t\n---\n\n![q](src/a.go#line=3,6 \"sym=a\u202eb\")\n\n![q](src/a.go#line=3,6 \"sym=a\x1b[2Jb\")\n"
	r := site{Root: root, Docs: map[string]string{"page.md": doc}}.build(t)
	if r.Err == nil {
		t.Fatal("the build succeeded")
	}
	mustContain(t, "the log", r.Log, `Hugo cannot check sym=a\u202eb`, `link title: "sym=a\x1b[2Jb" is not a name`)
	if strings.ContainsAny(r.Log, "\x1b\u202e") {
		t.Errorf("raw control characters in the log: %q", r.Log)
	}
}

// TestNamesOnThemes: on a theme with hooks of its own, composed by the
// README's recipe, region= is verified and the sym= warning comes through
// the theme's head partial.
func TestNamesOnThemes(t *testing.T) {
	for _, theme := range []string{"newtab", "delegate", "checking"} {
		t.Run(theme, func(t *testing.T) {
			recipe := delegateRecipe
			if theme != "delegate" {
				recipe = readmeRecipe(t, theme)
			}
			link := "../src/a.go#line=3,6;md5=" + sumOf(regionGo)
			s := themeSite{theme: theme, recipe: recipe, files: map[string]string{"src/a.go": regionGo},
				params: `symbols = "checked-in-ci"`,
				page:   themePage("![Setup](" + link + " \"region=setup\")\n\nSee [setup](" + link + " \"sym=setup\").\n")}
			out, log, err := s.build(t)
			if err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			mustContain(t, "the page", out, `<span class="textfrag-title">Setup</span>`, `>lines 4–6</span>`)
			mustContain(t, "the log", log, "textfrag: 1 link with sym= quoted by its lines without checking the name")

			s.page = themePage("See [setup](" + strings.Replace(link, "3,6", "3,5", 1) + " \"region=setup\").\n")
			_, log, err = s.build(t)
			if err == nil {
				t.Fatal("a moved region built")
			}
			mustContain(t, "the log", err.Error()+log, "textfrag symbol error: link", "region=setup spans lines 4–6 of src/a.go now (#line=3,6)")
		})
	}
}

// BenchmarkRegions builds one page of 500 links into a 5,000-line Go file
// holding 50 regions, without highlighting, in turn by lines only and with
// region= on the same links, which the templates verify. It reports the
// fastest build of each (the least disturbed by other work on the machine)
// and the difference per link: what a region= check costs.
func BenchmarkRegions(b *testing.B) {
	const fileLines, regions, links = 5000, 50, 500
	root := b.TempDir()
	var src strings.Builder
	src.WriteString("package p\n\n")
	line := 2
	type span struct{ s, e int }
	var spans []span
	for line < fileLines {
		if r := len(spans); r < regions && line%100 == 10 {
			fmt.Fprintf(&src, "// textfrag:begin r%d\n", r)
			for k := 0; k < 20; k++ {
				fmt.Fprintf(&src, "\tx%d := compute(%d) // body\n", line+k, k)
			}
			fmt.Fprintf(&src, "// textfrag:end r%d\n", r)
			spans = append(spans, span{line + 1, line + 21})
			line += 22
			continue
		}
		fmt.Fprintf(&src, "func F%d(a int) int { return a + %d }\n", line, line)
		line++
	}
	text := src.String()
	write(b, filepath.Join(root, "src", "big.go"), text)
	sum := sumOf(text)
	sites := make([]site, 2)
	for v, withRegion := range []bool{false, true} {
		var doc strings.Builder
		doc.WriteString("---\ntitle: t\n---\n\n")
		for i := range links {
			sp := spans[i%regions]
			title := ""
			if withRegion {
				title = fmt.Sprintf(" \"region=r%d\"", i%regions)
			}
			fmt.Fprintf(&doc, "![q](src/big.go#line=%d,%d;md5=%s%s)\n\n", sp.s, sp.e, sum, title)
		}
		sites[v] = site{Root: root, Docs: map[string]string{"page.md": doc.String()}, Params: "highlight = false"}
	}
	fastest := []time.Duration{time.Hour, time.Hour}
	for b.Loop() {
		for v, s := range sites {
			start := time.Now()
			if r := s.build(b); r.Err != nil {
				b.Fatal(r.Err, r.Log)
			}
			fastest[v] = min(fastest[v], time.Since(start))
		}
	}
	b.ReportMetric(float64(fastest[0].Milliseconds()), "lines-ms")
	b.ReportMetric(float64(fastest[1].Milliseconds()), "region-ms")
	b.ReportMetric(float64((fastest[1]-fastest[0]).Microseconds())/links, "region-µs/link")
}
