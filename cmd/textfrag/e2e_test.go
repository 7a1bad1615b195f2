package main

// End-to-end tests of build, check and render: the command is built once
// into a temporary directory and run on temporary sites, as a user would.

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/style"
)

// e2eBinary is where the command is built, on first use (e2eBin): fuzzing
// runs this package's test binary in several processes, and none of them
// needs it.
var (
	e2eBinary   string
	e2eBuild    sync.Once
	e2eBuildErr error
)

// e2eBin returns the built command, building it the first time.
func e2eBin(t testing.TB) string {
	t.Helper()
	e2eBuild.Do(func() {
		if out, err := exec.Command("go", "build", "-o", e2eBinary, ".").CombinedOutput(); err != nil {
			e2eBuildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if e2eBuildErr != nil {
		t.Fatal(e2eBuildErr)
	}
	return e2eBinary
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "textfrag-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e2eBinary = filepath.Join(dir, "textfrag")
	// Commands keep highlighted code in the user cache directory; the
	// tests' builds keep it in theirs. The go command keeps its build
	// cache there too: it stays where it was, or every run of these tests
	// would compile the tree-sitter grammars anew (minutes).
	if os.Getenv("GOCACHE") == "" {
		if user, err := os.UserCacheDir(); err == nil {
			os.Setenv("GOCACHE", filepath.Join(user, "go-build"))
		}
	}
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	if runtime.GOOS == "windows" {
		e2eBinary += ".exe"
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// e2eResult is what one run of the command did.
type e2eResult struct {
	stdout, stderr string
	code           int
}

// e2eRun runs the command in dir.
func e2eRun(t *testing.T, dir string, args ...string) e2eResult {
	t.Helper()
	cmd := exec.Command(e2eBin(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return e2eResultOf(t, stdout.String(), stderr.String(), err)
}

// e2eResultOf is the result of a run of the built command that ended with
// err: its exit status, or the test fails when it did not run.
func e2eResultOf(t testing.TB, stdout, stderr string, err error) e2eResult {
	t.Helper()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return e2eResult{stdout, stderr, code}
}

// e2eWrite writes files (slash paths relative to root).
func e2eWrite(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// e2eTree reads every file under dir, by slash path.
func e2eTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func e2eMD5(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

const e2eHello = "one\ntwo\nthree\nfour\n"

// e2eSite writes a small site under dir/docs that exercises titles, link
// rewriting, assets and the files a build leaves out.
func e2eSite(t *testing.T, dir string) {
	e2eWrite(t, dir, map[string]string{
		"docs/index.md": "---\ntitle: Front Title\nauthor: someone\n---\n\n# Heading One\n\n" +
			"See [the guide](guide.md#setup), [its source](guide.md#line=0,1), [home](./README.md?x=1#top) and [the web](https://example.com/a.md).\n\n" +
			"[Hello lines](src/hello.txt#line=1,3;md5=" + e2eMD5(e2eHello) + ")\n",
		"docs/guide.md":         "# The Guide\n\n## Setup\n\nText.\n",
		"docs/notitle.md":       "Just a paragraph, no heading.\n",
		"docs/sub/README.md":    "# Sub\n\n[up](../index.md)\n\n[hello](../src/hello.txt#line=,1)\n",
		"docs/src/hello.txt":    e2eHello,
		"docs/img/logo.svg":     "<svg xmlns=\"http://www.w3.org/2000/svg\"/>", // active content: only from static/
		"docs/static/logo.svg":  "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
		"docs/.hidden/x.md":     "# Hidden\n",
		"docs/_draft.md":        "# Draft\n",
		"docs/_partials/p.md":   "# Partial\n",
		"docs/notes/.secret.md": "# Secret\n",
	})
}

func TestE2EBuildSite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eSite(t, dir)
	r := e2eRun(t, dir, "build", "docs", "-o", "out")
	if r.code != 0 {
		t.Fatalf("build: code %d\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "\r") {
		t.Errorf("progress shown although stderr is not a terminal: %q", r.stderr)
	}
	out := e2eTree(t, filepath.Join(dir, "out"))
	var names []string
	for n := range out {
		names = append(names, n)
	}
	want := []string{"guide.html", "guide.md", "index.html", "notitle.html", "src/hello.txt", "static/logo.svg", "sub/index.html", "textfrag.css"}
	if got := strings.Join(slices.Sorted(slices.Values(names)), " "); got != strings.Join(want, " ") {
		t.Errorf("output files:\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	index := out["index.html"]
	for _, want := range []string{
		"<title>Front Title</title>",      // front matter wins over the H1
		`href="guide.html#setup"`,         // .md page link rewritten, fragment kept
		`href="guide.md#line=0,1"`,        // RFC 5147 link left to textfrag
		`href="./index.html?x=1#top"`,     // README.md is index.html; query kept
		`href="https://example.com/a.md"`, // not relative: untouched
		`href="./textfrag.css"`,           // stylesheet linked relatively
		`<figure class="textfrag textfrag-line" data-textfrag-fragment="line=1,3;md5=`,
		`<span class="textfrag-title">Hello lines</span> <a class="textfrag-source" href="src/hello.txt#line=1,3;md5=`,
		`<span class="textfrag-range">lines 2–3</span>`,
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if got := out["guide.html"]; !strings.Contains(got, "<title>The Guide</title>") {
		t.Errorf("guide.html: title is not the first H1")
	}
	if got := out["notitle.html"]; !strings.Contains(got, "<title>notitle</title>") {
		t.Errorf("notitle.html: title is not the file name")
	}
	sub := out["sub/index.html"]
	for _, want := range []string{`href="../index.html"`, `href="../textfrag.css"`, `<span class="textfrag-range">line 1</span>`} {
		if !strings.Contains(sub, want) {
			t.Errorf("sub/index.html lacks %s", want)
		}
	}
	if out["src/hello.txt"] != e2eHello || out["guide.md"] != "# The Guide\n\n## Setup\n\nText.\n" {
		t.Errorf("assets not copied as they are")
	}
	if out["textfrag.css"] != string(style.CSS()) {
		t.Errorf("textfrag.css is not the default stylesheet")
	}
}

func TestE2ELayoutOverride(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eSite(t, dir)
	e2eWrite(t, dir, map[string]string{"docs/_layout.html": `<html><head><title>[{{.Title}}]</title><link rel="stylesheet" href="{{.StylesheetURL}}"></head>` +
		`<body data-path="{{.Path}}" data-root="{{.Root}}" data-source="{{.Source}}" data-author="{{.Params.author}}">{{.Content}}{{.LiveReload}}</body></html>`})
	r := e2eRun(t, dir, "build", "docs", "-o", "out")
	if r.code != 0 {
		t.Fatalf("build: code %d\n%s", r.code, r.stderr)
	}
	out := e2eTree(t, filepath.Join(dir, "out"))
	if _, ok := out["_layout.html"]; ok {
		t.Errorf("the layout was copied into the site")
	}
	sub := out["sub/index.html"]
	want := `<html><head><title>[Sub]</title><link rel="stylesheet" href="../textfrag.css"></head><body data-path="sub/index.html" data-root="../" data-source="sub/README.md" data-author="">`
	if !strings.HasPrefix(sub, want) {
		t.Errorf("sub/index.html:\n got %.300s\nwant %s…", sub, want)
	}
	if !strings.Contains(out["index.html"], `data-author="someone"`) {
		t.Errorf("front matter not passed as .Params")
	}

	e2eWrite(t, dir, map[string]string{"docs/_layout.html": "{{.Nope"})
	r = e2eRun(t, dir, "build", "docs", "-o", "out")
	if r.code != 1 || !strings.Contains(r.stderr, "_layout.html") {
		t.Errorf("broken layout: code %d, stderr %s", r.code, r.stderr)
	}
}

func TestE2EExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		"good/a.md":    "# A\n\n[x](t.txt#line=,1)\n",
		"good/t.txt":   "text\n",
		"bad/a.md":     "# A\n\n[x](t.txt#line=,1;md5=00000000000000000000000000000000)\n",
		"bad/t.txt":    "text\n",
		"plain/a.md":   "# A\n",
		"clamp/a.md":   "[x](t.txt#line=5,9)\n",
		"clamp/t.txt":  "text\n",
		"syntax/a.md":  "[x](t.txt#line=2,1)\n",
		"syntax/t.txt": "text\n",
	})
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"build", "good", "-o", "out-good"}, 0},
		{[]string{"build", "bad", "-o", "out-bad"}, 1},
		{[]string{"build", "missing-dir", "-o", "out-x"}, 1},
		{[]string{"build", "good", "-o", "out-clamp", "--bogus"}, 2},
		{[]string{"build", "good", "bad"}, 2},
		{[]string{"build", "good", "-j", "0"}, 2},
		{[]string{"build", "good", "-o", "out-s", "--style", "no-such-style"}, 2},
		{[]string{"build", "clamp", "-o", "out-clamp"}, 0},
		{[]string{"build", "clamp", "-o", "out-clamp2", "--strict"}, 1},
		{[]string{"build", "syntax", "-o", "out-syntax"}, 1},
		{[]string{"build", "syntax", "-o", "out-syntax", "--lenient"}, 0},
		{[]string{"build", "syntax", "-o", "out-syntax2", "--lenient", "--strict"}, 1},
		{[]string{"check", "syntax"}, 1},
		{[]string{"check", "syntax", "--lenient"}, 0},
		{[]string{"check", "good"}, 0},
		{[]string{"check", "bad"}, 1},
		{[]string{"check", "good", "bad"}, 1},
		{[]string{"check", "missing.md"}, 1},
		{[]string{"check", "clamp"}, 0},
		{[]string{"check", "clamp", "--strict"}, 1},
		{[]string{"check", "good", "--format", "xml"}, 2},
		{[]string{"check", "--nope"}, 2},
		{[]string{"render", "good/a.md"}, 0},
		{[]string{"render", "bad/a.md"}, 1},
		{[]string{"render", "missing.md"}, 1},
		{[]string{"render"}, 2},
		{[]string{"render", "good/a.md", "bad/a.md"}, 2},
	} {
		r := e2eRun(t, dir, c.args...)
		if r.code != c.code {
			t.Errorf("textfrag %s: code %d, want %d\nstderr: %s", strings.Join(c.args, " "), r.code, c.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out-bad")); !os.IsNotExist(err) {
		t.Errorf("a failed build left its output directory: %v", err)
	}

	r := e2eRun(t, dir, "render", "good/a.md")
	if !strings.HasPrefix(r.stdout, `<h1 id="a">A</h1>`+"\n"+`<figure class="textfrag textfrag-line"`) || strings.Contains(r.stdout, "<html") {
		t.Errorf("render: stdout %q", r.stdout)
	}
	r = e2eRun(t, dir, "render", "bad/a.md")
	if r.stdout != "" || !strings.HasPrefix(r.stderr, "bad/a.md:3:1: error: t.txt#line=,1;md5=00000000000000000000000000000000: md5 mismatch") {
		t.Errorf("render of a broken page: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = e2eRun(t, dir, "build", "bad", "-o", "out-bad")
	if !strings.Contains(r.stderr, "bad/a.md:3:1: error: t.txt#line=,1;md5=") || !strings.Contains(r.stderr, "textfrag pin --write bad/a.md") {
		t.Errorf("build error lacks file:line:col or the re-pin command: %s", r.stderr)
	}
}

func TestE2ECheckFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Pinned, as check warns about unpinned links.
	pin := ";md5=" + e2eMD5("100%\nsure\n")
	e2eWrite(t, dir, map[string]string{
		"docs/we,ird.md": "# Weird\n\n[stale](../t.txt#line=0,1;md5=00000000000000000000000000000000)\n",
		"docs/ok.md":     "[clamped](../t.txt#line=7,9" + pin + ") and [fine](../t.txt#char=0,2" + pin + ")\n",
		"docs/_skip.md":  "[x](nowhere.txt#line=1)\n",
		"t.txt":          "100%\nsure\n",
	})

	r := e2eRun(t, dir, "check", "docs")
	if r.code != 1 {
		t.Errorf("text: code %d", r.code)
	}
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	// The problems, the quotes by class (here: no git history to class the
	// stale one), then the summary line, last.
	if len(lines) != 5 ||
		!strings.HasPrefix(lines[0], "docs/ok.md:1:1: warning: ../t.txt#line=7,9"+pin+": ") ||
		!strings.HasPrefix(lines[1], "docs/we,ird.md:3:1: error: ../t.txt#line=0,1;md5=00000000000000000000000000000000: md5 mismatch") ||
		!strings.HasPrefix(lines[2], "quotes by class: 0 refreshed, 0 moved, 0 changed, 0 gone, 0 review, 0 unpinned, 1 stale that cannot be classed without git history") ||
		lines[4] != "checked 3 links in 2 files: 1 error, 1 warning" {
		t.Errorf("text output:\n%s", r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("text: stdout %q", r.stdout)
	}

	r = e2eRun(t, dir, "check", "docs", "--format", "json")
	var recs []checkRecord
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil {
		t.Fatalf("json: %v\n%s", err, r.stdout)
	}
	if r.code != 1 || len(recs) != 2 {
		t.Fatalf("json: code %d, %d records: %s", r.code, len(recs), r.stdout)
	}
	w, e := recs[0], recs[1]
	if w.File != "docs/ok.md" || w.Line != 1 || w.Column != 1 || w.Severity != "warning" || w.Link != "../t.txt#line=7,9"+pin || w.Message == "" {
		t.Errorf("json warning: %+v", w)
	}
	if e.File != "docs/we,ird.md" || e.Line != 3 || e.Column != 1 || e.Severity != "error" || e.Kind != "integrity" ||
		e.Link != "../t.txt#line=0,1;md5=00000000000000000000000000000000" || !strings.Contains(e.Message, "md5 mismatch") {
		t.Errorf("json error: %+v", e)
	}
	if !strings.HasSuffix(r.stderr, "checked 3 links in 2 files: 1 error, 1 warning\n") {
		t.Errorf("json: summary: %q", r.stderr)
	}

	r = e2eRun(t, dir, "check", "docs", "--format", "github")
	gh := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	warnRE := regexp.MustCompile(`^::warning file=docs/ok\.md,line=1,col=1::\.\./t\.txt#line=7,9;md5=[0-9a-f]{32}: [^\r\n]+$`)
	errRE := regexp.MustCompile(`^::error file=docs/we%2Cird\.md,line=3,col=1::\.\./t\.txt#line=0,1;md5=0{32}: md5 mismatch: [^\r\n%]*[^\r\n]*$`)
	if r.code != 1 || len(gh) != 2 || !warnRE.MatchString(gh[0]) || !errRE.MatchString(gh[1]) {
		t.Errorf("github: code %d\n%s", r.code, r.stdout)
	}

	// No errors: exit 0 in every format, and JSON is an empty array.
	r = e2eRun(t, dir, "check", "docs/ok.md", "--format", "json")
	if r.code != 0 || strings.TrimSpace(r.stdout) == "" {
		t.Errorf("warnings only: code %d, stdout %q", r.code, r.stdout)
	}
	e2eWrite(t, dir, map[string]string{"clean/a.md": "# nothing to check\n"})
	r = e2eRun(t, dir, "check", "clean", "--format", "json")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "[]" || r.stderr != "checked 0 links in 1 file: 0 errors, 0 warnings\n" {
		t.Errorf("clean: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestGitHubAnnotationEscapes(t *testing.T) {
	got := githubAnnotation(checkRecord{File: "a:b,c%.md", Line: 2, Column: 3, Severity: "error", Link: "x.txt#line=1", Message: "50% off\r\nnext: line, here"})
	want := "::error file=a%3Ab%2Cc%25.md,line=2,col=3::x.txt#line=1: 50%25 off%0D%0Anext: line, here"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestE2EBuildAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"docs/t.txt": "alpha\nbeta\n", "docs/index.md": "# Home\n\n[a](t.txt#line=,1)\n"}
	e2eWrite(t, dir, files)
	if r := e2eRun(t, dir, "build", "docs", "-o", "site/out"); r.code != 0 {
		t.Fatalf("first build: %d\n%s", r.code, r.stderr)
	}
	before := e2eTree(t, filepath.Join(dir, "site/out"))

	// Many good pages, then one broken page that is rendered among the last.
	more := map[string]string{}
	for i := range 300 {
		more[fmt.Sprintf("docs/p%03d.md", i)] = fmt.Sprintf("# Page %d\n\n[a](t.txt#line=%d)\n", i, i%2)
	}
	more["docs/zz.md"] = "# Broken\n\n[b](t.txt#line=,1;md5=ffffffffffffffffffffffffffffffff)\n"
	more["docs/index.md"] = "# Home, changed\n"
	e2eWrite(t, dir, more)
	r := e2eRun(t, dir, "build", "docs", "-o", "site/out")
	if r.code != 1 || !strings.Contains(r.stderr, "docs/zz.md:3:1: error:") || !strings.Contains(r.stderr, "site/out left as it was") {
		t.Fatalf("failing build: code %d\n%s", r.code, r.stderr)
	}
	after := e2eTree(t, filepath.Join(dir, "site/out"))
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("a failed build changed the output directory")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "site"))
	if len(entries) != 1 || entries[0].Name() != "out" {
		t.Errorf("temporary directories left beside the output: %v", entries)
	}

	// Fixed, the build replaces the output as a whole: pages gone from the
	// source are gone from the output.
	os.Remove(filepath.Join(dir, "docs/zz.md"))
	os.Remove(filepath.Join(dir, "docs/p000.md"))
	if r := e2eRun(t, dir, "build", "docs", "-o", "site/out"); r.code != 0 {
		t.Fatalf("fixed build: %d\n%s", r.code, r.stderr)
	}
	after = e2eTree(t, filepath.Join(dir, "site/out"))
	if _, ok := after["p000.html"]; ok || len(after) != 302 || !strings.Contains(after["index.html"], "Home, changed") {
		t.Errorf("output after the fixed build: %d files", len(after))
	}

	// A directory that is not an earlier build's output is never replaced.
	e2eWrite(t, dir, map[string]string{"mine/precious.txt": "keep"})
	r = e2eRun(t, dir, "build", "docs", "-o", "mine")
	if r.code != 1 || e2eTree(t, filepath.Join(dir, "mine"))["precious.txt"] != "keep" {
		t.Errorf("build over a foreign directory: code %d\n%s", r.code, r.stderr)
	}
	// Nor the directory that holds the source.
	if r := e2eRun(t, dir, "build", "docs", "-o", "."); r.code != 1 {
		t.Errorf("build into the source's parent: code %d", r.code)
	}
}

func TestE2EParallelBuildsAgree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"docs/src/a.go":  "package a\n\n// A is a.\nfunc A() int {\n\treturn 1\n}\n",
		"docs/src/b.txt": strings.Repeat("some text\n", 50),
	}
	for i := range 120 {
		files[fmt.Sprintf("docs/d%d/p%03d.md", i%7, i)] = fmt.Sprintf("# Page %d\n\n[a](../src/a.go#line=2,6 \"hl=4\")\n\n[b](../src/b.txt#char=%d,%d \"quote\") inline.\n\n```go\nfunc F%d() {}\n```\n", i, i, i+20, i)
	}
	e2eWrite(t, dir, files)
	var trees []map[string]string
	for _, j := range []string{"1", "2", "8"} {
		out := "out-j" + j
		if r := e2eRun(t, dir, "build", "docs", "-o", out, "-j", j); r.code != 0 {
			t.Fatalf("-j %s: %d\n%s", j, r.code, r.stderr)
		}
		trees = append(trees, e2eTree(t, filepath.Join(dir, out)))
	}
	if len(trees[0]) != 123 {
		t.Errorf("%d files", len(trees[0]))
	}
	for i := 1; i < len(trees); i++ {
		if fmt.Sprint(trees[0]) != fmt.Sprint(trees[i]) {
			t.Errorf("build %d differs from -j 1", i)
		}
	}
}

func TestE2EExampleSite(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	r := e2eRun(t, repo, "build", "examples/site", "-o", out)
	if r.code != 0 || !strings.Contains(r.stderr, "(0 warnings)") {
		t.Fatalf("example site: code %d\n%s", r.code, r.stderr)
	}
	site := e2eTree(t, out)
	for page, wants := range map[string][]string{
		"index.html": {`<figure class="textfrag textfrag-line"`, `<span class="textfrag-range">lines 390–401</span>`, `href="rfc.html"`},
		"rfc.html": {`<span class="textfrag-title">Line endings besides CR+LF</span> <a class="textfrag-source" href="rfc/rfc5147.txt#line=471,477;md5=3108368b41d5c53655383c776ec103e2">examples/site/rfc/rfc5147.txt</a> <span class="textfrag-range">lines 472–477</span>`,
			`<q class="textfrag-quote" cite="rfc/rfc5147.txt#char=26408,26485;md5=3108368b41d5c53655383c776ec103e2">Clients MUST NOT make any attempt to correct or
   guess fragment identifiers</q> <cite class="textfrag-cite">(<a class="textfrag-source" href="rfc/rfc5147.txt#char=26408,26485;md5=3108368b41d5c53655383c776ec103e2">examples/site/rfc/rfc5147.txt</a>, <span class="textfrag-range">line 510, col 25 – line 511, col 29</span>)</cite>.`,
			`<figure class="textfrag textfrag-line textfrag-position" data-textfrag-fragment="line=505;md5=3108368b41d5c53655383c776ec103e2">`, `before line 506`},
		"source.html":    {`<code class="language-go" data-lang="go">`, `<span class="line hl"><span class="ln">14</span>`, `<span class="textfrag-title">pointLabel</span>`, `line 34`},
		"integrity.html": {`;md5=d13680daf108ad9829325be82b25d7e5,ISO-8859-1`, `;length=34624,UTF-8`, "<title>Pinning with integrity checks</title>"},
	} {
		for _, want := range wants {
			if !strings.Contains(site[page], want) {
				t.Errorf("%s lacks %s", page, want)
			}
		}
	}
	assertCaptionLinksResolve(t, out, -1)
	if _, ok := site["_broken/stale.html"]; ok {
		t.Errorf("_broken was built")
	}
	// The example's links are all pinned, so the README's commands print
	// no warning on it.
	r = e2eRun(t, repo, "check", "examples/site")
	if r.code != 0 || !strings.Contains(r.stderr, "checked 11 links in 4 files: 0 errors, 0 warnings") || strings.Contains(r.stderr, "unpinned") {
		t.Errorf("check examples/site: code %d, want no errors or warnings\n%s", r.code, r.stderr)
	}
	// Run inside it, its textfrag.toml makes the example site a project
	// of its own: the same links, checked the same.
	r = e2eRun(t, filepath.Join(repo, "examples", "site"), "check")
	if r.code != 0 || !strings.Contains(r.stderr, "checked 11 links in 4 files: 0 errors, 0 warnings") {
		t.Errorf("check in examples/site: code %d\n%s", r.code, r.stderr)
	}
	r = e2eRun(t, repo, "check", "examples/site/_broken")
	if r.code != 1 || !strings.Contains(r.stderr, "examples/site/_broken/stale.md:6:1: error: ../rfc/rfc5147.txt#line=389,401;md5=0bf5c1be40569d2ac262ad069e8d577b: md5 mismatch") {
		t.Errorf("check examples/site/_broken: code %d\n%s", r.code, r.stderr)
	}
}
