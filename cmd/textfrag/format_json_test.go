package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fourClassSite is a git site whose docs/a.md holds a quote of each class
// a person meets: lines 3–4 of src/a.go move down two lines, line 12 of
// the quote of lines 11–13 changes, the quote of lines 7–8 is pinned to a
// version no history holds (review), and the quote of src/b.go has no
// md5 (unpinned).
func fourClassSite(t *testing.T) *pinSite {
	t.Helper()
	src := numberedSource(1, 20)
	s := newPinSite(t, map[string]string{"src/a.go": src, "src/b.go": numberedSource(1, 3), "docs/a.md": "# A\n\n" +
		"[moved](../src/a.go#line=2,4;md5=" + md5hex(src) + ")\n\n" +
		"[changed](../src/a.go#line=10,13;md5=" + md5hex(src) + ")\n\n" +
		"[review](../src/a.go#line=6,8;md5=00000000000000000000000000000000)\n\n" +
		"[unpinned](../src/b.go#line=0,1)\n"})
	s.git("init", "-q")
	s.commit("start")
	s.write("src/a.go", "// new 1\n// new 2\n"+strings.Replace(src, "line 12 é", "line twelve", 1))
	return s
}

// pinJSONDoc decodes pin --format json's stdout: exactly one document.
func pinJSONDoc(t *testing.T, stdout string) pinJSON {
	t.Helper()
	var doc pinJSON
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("stdout is not pin's JSON document: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document on stdout:\n%s", stdout)
	}
	return doc
}

// TestPinFormatJSON: pin --format json writes what the text reports (each
// quote with its class, place, id, remedy and diff lines; each page's
// diff; the counts by class and a command per class) as one JSON document
// on stdout, with the exit status of text, and writes what text writes.
func TestPinFormatJSON(t *testing.T) {
	s := fourClassSite(t)
	before := s.read("docs/a.md")
	textOut, textErr, textCode := s.run("pin", "docs")
	stdout, stderr, code := s.run("pin", "--format", "json", "docs")
	if code != textCode || code != 1 {
		t.Fatalf("exit %d with json, %d with text; want 1 for both\n%s", code, textCode, stderr)
	}
	if s.read("docs/a.md") != before {
		t.Fatal("pin without --write wrote the page")
	}
	doc := pinJSONDoc(t, stdout)

	byClass := map[string]pinJSONQuote{}
	for _, q := range doc.Quotes {
		if q.File != "docs/a.md" {
			t.Errorf("quote in %q, want docs/a.md", q.File)
		}
		byClass[q.Class] = q
	}
	if len(doc.Quotes) != 4 {
		t.Errorf("%d quotes, want 4: %+v", len(doc.Quotes), doc.Quotes)
	}
	want := []struct {
		class      string
		line       int
		link       string
		written    bool
		needsQuote bool
		says       string
	}{
		{"moved", 3, "../src/a.go#line=2,4;md5=", true, false, ""},
		{"changed", 5, "../src/a.go#line=10,13;md5=", false, true, "accept it with `textfrag pin --write --accept docs/a.md:5`"},
		{"review", 7, "../src/a.go#line=6,8;md5=00000000000000000000000000000000", false, true, "run `textfrag link src/a.go:FIRST-LAST --title review --from docs/a.md`"},
		{"pinned", 9, "../src/b.go#line=0,1", true, false, ""},
	}
	for _, w := range want {
		q, ok := byClass[w.class]
		if !ok {
			t.Errorf("no %s quote: %+v", w.class, doc.Quotes)
			continue
		}
		if q.Line != w.line || q.Column != 1 || !strings.HasPrefix(q.Link, w.link) || q.Written != w.written || !strings.Contains(q.Message, w.says) {
			t.Errorf("%s quote: %+v; want line %d column 1, link %q…, written %v, message saying %q", w.class, q, w.line, w.link, w.written, w.says)
		}
		// The id is the one text prints for the quote, and accepts it.
		m := regexp.MustCompile(`docs/a\.md:` + strconv.Itoa(q.Line) + `:1: ` + w.class + `: [^\n]*\(quote ([0-9a-f]{8})\)\n`).FindStringSubmatch(textErr)
		switch {
		case w.needsQuote && (m == nil || q.Quote != m[1]):
			t.Errorf("%s quote: id %q; text says:\n%s", w.class, q.Quote, textErr)
		case !w.needsQuote && q.Quote != "":
			t.Errorf("%s quote has an id %q: nothing to accept", w.class, q.Quote)
		}
	}
	if d := strings.Join(byClass["changed"].Detail, "\n"); !strings.Contains(d, "- // line 12 é") || !strings.Contains(d, "+ // line twelve") {
		t.Errorf("the changed quote's detail is not its diff: %q", byClass["changed"].Detail)
	}
	// The diff is in the document, not on stdout as text.
	if len(doc.Files) != 1 || doc.Files[0].Path != "docs/a.md" || doc.Files[0].Diff != textOut ||
		!strings.Contains(doc.Files[0].Diff, "+[moved](../src/a.go#line=4,6;md5=") || !strings.Contains(doc.Files[0].Diff, "+[unpinned](../src/b.go#line=0,1;md5=") {
		t.Errorf("files: %+v; want docs/a.md with text's diff:\n%s", doc.Files, textOut)
	}
	wantCounts := map[string]int{"refreshed": 0, "moved": 1, "changed": 1, "gone": 0, "review": 1, "unpinned": 1, "accepted": 0, "error": 0}
	for k, v := range wantCounts {
		if n, ok := doc.Counts[k]; !ok || n != v {
			t.Errorf("counts[%s] = %d (present %v), want %d: %v", k, n, ok, v, doc.Counts)
		}
	}
	commands := map[string]pinJSONCommand{}
	for _, c := range doc.Commands {
		commands[strings.Join(c.Classes, ",")] = c
		if !strings.Contains(textErr, c.Advice+"\n") {
			t.Errorf("advice %q is not a line text prints:\n%s", c.Advice, textErr)
		}
	}
	for classes, w := range map[string]struct {
		count   int
		command string
	}{"gone,review,error": {1, ""}, "changed": {1, "textfrag pin -i docs"}, "refreshed,moved,unpinned": {2, "textfrag pin --write docs"}} {
		if c, ok := commands[classes]; !ok || c.Count != w.count || c.Command != w.command {
			t.Errorf("command for %s: %+v; want count %d, command %q (all: %+v)", classes, c, w.count, w.command, doc.Commands)
		}
	}
	// Per-quote lines leave stderr; the summary stays.
	if strings.Contains(stderr, "docs/a.md:3:1: moved") || !strings.Contains(stderr, "pin: 0 refreshed, 1 moved, 1 changed, 0 gone, 1 review, 1 unpinned\n") {
		t.Errorf("stderr with --format json:\n%s", stderr)
	}

	// --check: the same status; --format is not among the flags advised.
	_, _, textCheck := s.run("pin", "--check", "docs")
	stdout, stderr, code = s.run("pin", "--check", "--format", "json", "docs")
	if code != textCheck || code != 1 {
		t.Errorf("--check: exit %d with json, %d with text", code, textCheck)
	}
	if doc := pinJSONDoc(t, stdout); len(doc.Quotes) != 4 || strings.Contains(stderr, "--format") {
		t.Errorf("--check --format json: %d quotes\n%s", len(doc.Quotes), stderr)
	}

	// --write: the same page as text writes, and the same status; no diff.
	twin := fourClassSite(t)
	_, _, textWrite := twin.run("pin", "--write", "docs")
	stdout, _, code = s.run("pin", "--write", "--format", "json", "docs")
	if code != textWrite || code != 1 || s.read("docs/a.md") != twin.read("docs/a.md") || s.read("docs/a.md") == before {
		t.Errorf("--write: exit %d with json, %d with text; pages:\n%s\n%s", code, textWrite, s.read("docs/a.md"), twin.read("docs/a.md"))
	}
	doc = pinJSONDoc(t, stdout)
	if len(doc.Files) != 1 || doc.Files[0].Diff != "" {
		t.Errorf("--write files: %+v", doc.Files)
	}
	for _, c := range doc.Commands {
		if strings.Contains(c.Classes[0], "refreshed") && c.Command != "" {
			t.Errorf("written quotes still advise %q", c.Command)
		}
	}

	// A bad format is bad usage, as for check.
	if _, _, code := s.run("pin", "--format", "xml", "docs"); code != exitUsage {
		t.Errorf("--format xml: exit %d, want %d", code, exitUsage)
	}
}

// TestBuildFormatJSON: build --format json writes the problems as check
// --format json does and the counts of its last line, as one document on
// stdout, with the exit status of text.
func TestBuildFormatJSON(t *testing.T) {
	s := fourClassSite(t)
	textOut, textErr, textCode := s.run("build", "docs", "-o", "public")
	stdout, stderr, code := s.run("build", "docs", "-o", "public", "--format", "json")
	if code != textCode || code != 1 || textOut != "" {
		t.Fatalf("exit %d with json, %d with text (stdout %q); want 1\n%s", code, textCode, textOut, stderr)
	}
	var r buildReport
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || dec.More() {
		t.Fatalf("stdout is not one build report: %v\n%s", err, stdout)
	}
	if r.Built || r.Errors != 3 || r.Warnings != 0 || r.Out != "public" {
		t.Errorf("report %+v; want not built, 3 errors, no warnings (build does not warn about unpinned links)", r)
	}
	at := map[int]checkRecord{}
	for _, p := range r.Problems {
		at[p.Line] = p
		// Each problem is a line text printed.
		if !strings.Contains(textErr, p.File+":"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column)+": "+p.Severity+": ") {
			t.Errorf("problem %+v is not in text's output:\n%s", p, textErr)
		}
	}
	for line, w := range map[int]struct{ severity, kind, link string }{
		3: {"error", "integrity", "../src/a.go#line=2,4;md5="},
		5: {"error", "integrity", "../src/a.go#line=10,13;md5="},
		7: {"error", "integrity", "../src/a.go#line=6,8;md5=0000"},
	} {
		p := at[line]
		if p.File != "docs/a.md" || p.Column != 1 || p.Severity != w.severity || p.Kind != w.kind || !strings.HasPrefix(p.Link, w.link) || p.Message == "" {
			t.Errorf("line %d: %+v; want %s %s for %s", line, p, w.severity, w.kind, w.link)
		}
	}
	if !strings.Contains(stderr, "build failed (3 errors, 0 warnings)") || strings.Contains(stderr, "docs/a.md:3:1") {
		t.Errorf("stderr with --format json:\n%s", stderr)
	}

	// Pinned: the build succeeds, with the counts text prints.
	s.write("docs/a.md", "# A\n\n[unpinned](../src/b.go#line=0,1)\n\n[b](../src/b.go#line=1,2)\n")
	s.write("docs/b.md", "# B\n")
	s.write("docs/app.js", "alert(1)\n") // left out (script outside static/), with a warning
	_, textErr, textCode = s.run("build", "docs", "-o", "public")
	stdout, stderr, code = s.run("build", "docs", "-o", "public2", "--format", "json")
	r = buildReport{}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 0 || textCode != 0 {
		t.Fatalf("exit %d (text %d), %v\n%s%s", code, textCode, err, stdout, textErr)
	}
	if !r.Built || r.Pages != 2 || r.Links != 2 || r.Errors != 0 || r.Warnings != 0 || len(r.Problems) != 1 || r.Problems[0].Kind != "skipped" || r.Problems[0].Severity != "warning" ||
		!strings.Contains(r.Problems[0].Message, "app.js") || !strings.Contains(textErr, "warning: "+r.Problems[0].Message+"\n") || strings.Contains(stderr, "app.js") || r.Out != "public2" ||
		!strings.Contains(textErr, "built 2 pages and copied "+strconv.Itoa(r.Files)+" ") {
		t.Errorf("report %+v; text said:\n%s", r, textErr)
	}
}
