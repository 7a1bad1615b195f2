package main

// Tests of named quotes (sym=, region=) from the author's side: "link"
// writes them, "check" holds them to the name, "pin" follows the name.

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// namesServer is a real-shaped Go file: a type, a method with a doc
// comment, and a region between marker comments.
const namesServer = `package server

import "net/http"

// Server counts requests.
type Server struct{ n int }

// Handle answers one request.
func (s *Server) Handle(w http.ResponseWriter, r *http.Request) {
	s.n++
	w.WriteHeader(http.StatusNoContent)
}

// textfrag:begin setup
func setup() *Server {
	return &Server{}
}

// textfrag:end setup
`

// namesSite is a git repository holding namesServer, with docs/a.md
// quoting Server.Handle and the region "setup" through links that
// "textfrag link" printed: committed, and passing check --strict.
func namesSite(t *testing.T) *pinSite {
	t.Helper()
	s := newPinSite(t, map[string]string{"src/server.go": namesServer})
	s.git("init", "-q")
	sym := s.mustLink("src/server.go:Server.Handle", "--from", "docs/a.md")
	region := s.mustLink("src/server.go", "--region", "setup", "--from", "docs/a.md")
	s.write("docs/a.md", "# Server\n\n"+sym+"\n\n"+region+"\n")
	s.mustCheck()
	s.commit("start")
	return s
}

// mustLink runs "textfrag link" and returns the link it printed.
func (s *pinSite) mustLink(args ...string) string {
	s.t.Helper()
	out, stderr, code := s.run(append([]string{"link"}, args...)...)
	if code != 0 || strings.Count(out, "\n") != 1 {
		s.t.Fatalf("link %q: exit %d\n%s%s", args, code, out, stderr)
	}
	return strings.TrimSuffix(out, "\n")
}

// mustCheck fails the test unless "check --strict" passes.
func (s *pinSite) mustCheck(paths ...string) {
	s.t.Helper()
	if len(paths) == 0 {
		paths = []string{"docs"}
	}
	if _, stderr, code := s.run(append([]string{"check", "--strict"}, paths...)...); code != 0 {
		s.t.Fatalf("check --strict: exit %d\n%s\npage:\n%s", code, stderr, s.read("docs/a.md"))
	}
}

// linkFragment is the fragment of the link in page whose title holds name.
func linkFragment(t *testing.T, page, name string) string {
	t.Helper()
	m := regexp.MustCompile(`#(line=[0-9]+,[0-9]+;md5=[0-9a-f]{32})(?:;[^ )"]*)? "` + regexp.QuoteMeta(name) + `"\)`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no link titled %q in\n%s", name, page)
	}
	return m[1]
}

// The links "link" prints for a symbol and a region quote the lines the
// name spans, record the name, and pass check --strict (namesSite).
func TestLinkNamesQuoteTheirLines(t *testing.T) {
	s := namesSite(t)
	page := s.read("docs/a.md")
	sum := md5hex(namesServer)
	for _, want := range []string{
		"[server.go: Server.Handle](../src/server.go#line=8,12;md5=" + sum + ` "sym=Server.Handle")`,
		"[server.go: region setup](../src/server.go#line=14,18;md5=" + sum + ` "region=setup")`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page\n%s\nlacks %s", page, want)
		}
	}
	// --doc starts at the doc comment; --options are kept after the name.
	if got, want := s.mustLink("src/server.go:Server.Handle", "--doc", "--options", "hl=10"),
		"[server.go: Server.Handle](/src/server.go#line=7,12;md5="+sum+` "sym=Server.Handle doc hl=10")`; got != want {
		t.Errorf("--doc: %s\nwant   %s", got, want)
	}
	if got, want := s.mustLink("src/server.go:Server", "--title", "the type"),
		"[the type](/src/server.go#line=5,6;md5="+sum+` "sym=Server")`; got != want {
		t.Errorf("a type: %s\nwant    %s", got, want)
	}
	// resolve --options holds a reference to the name, as a build does.
	out, stderr, code := s.run("resolve", "--options", "sym=Server.Handle", "src/server.go#line=8,12")
	if want := "func (s *Server) Handle(w http.ResponseWriter, r *http.Request) {\n\ts.n++\n\tw.WriteHeader(http.StatusNoContent)\n}\n"; code != 0 || out != want {
		t.Errorf("resolve: exit %d, %q, %s", code, out, stderr)
	}
	// An option word builds refuse is refused here too (exit 2: the flag is wrong).
	if out, stderr, code := s.run("resolve", "--options", "sym=Server.Handle bogus", "src/server.go#line=8,12"); code != 2 || out != "" || !strings.Contains(stderr, `unknown option "bogus"`) {
		t.Errorf("resolve with an unknown option word: exit %d, %q, %s", code, out, stderr)
	}
	for ref, want := range map[string]string{
		"src/server.go#line=8,11":  "sym=Server.Handle spans lines 9–12 of src/server.go now (#line=8,12); the link quotes lines 9–11",
		"src/server.go#line=8,99":  "sym=Server.Handle spans lines 9–12 of src/server.go now (#line=8,12)",
		"src/server.go#char=0,10":  "sym=Server.Handle needs a line range",
		"src/server.go#line=14,18": "",
	} {
		opts := "sym=Server.Handle"
		if want == "" {
			opts = "region=setup"
		}
		out, stderr, code := s.run("resolve", "--options", opts, ref)
		if want == "" && (code != 0 || out == "") || want != "" && (code != 1 || !strings.Contains(stderr, want)) {
			t.Errorf("resolve %s: exit %d, %q, %s; want %q", ref, code, out, stderr, want)
		}
	}
}

// pin follows the name: each change to the quoted file is classed by
// where the name is now and whether its text is the text pinned; pin
// --write (with --accept-changed where the text changed) makes check pass,
// and the link keeps its name.
func TestPinFollowsNames(t *testing.T) {
	inserted := strings.Replace(namesServer, "// Server counts", "// Version is the API version.\nconst Version = 2\n\n// Server counts", 1)
	cases := []struct {
		name     string
		change   func(string) string
		class    string // pin's report for the link named in title
		title    string
		accept   bool   // pin --write needs --accept-changed
		wantFrag string // the fragment's positions afterwards
	}{
		{"moved", func(string) string { return inserted }, "moved", "sym=Server.Handle", false, "line=11,15"},
		{"region moved", func(string) string { return inserted }, "moved", "region=setup", false, "line=17,21"},
		{"body changed", func(src string) string {
			return strings.Replace(src, "http.StatusNoContent", "http.StatusOK", 1)
		}, "changed", "sym=Server.Handle", true, "line=8,12"},
		{"body grew", func(src string) string {
			return strings.Replace(src, "\ts.n++\n", "\ts.n++\n\tlog.Print(s.n)\n", 1)
		}, "changed", "sym=Server.Handle", true, "line=8,13"},
		{"region grew", func(src string) string {
			return strings.Replace(src, "\treturn &Server{}\n}\n", "\treturn &Server{}\n}\n\nvar _ = setup\n", 1)
		}, "changed", "region=setup", true, "line=14,20"},
		{"changed elsewhere", func(src string) string {
			return strings.Replace(src, "type Server struct{ n int }", "type Server struct{ n, m int }", 1)
		}, "refreshed", "sym=Server.Handle", false, "line=8,12"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := namesSite(t)
			s.write("src/server.go", c.change(namesServer))
			if _, _, code := s.run("check", "docs"); code != 1 {
				t.Fatalf("check passes after the change")
			}
			_, stderr, code := s.run("pin", "docs")
			if !regexp.MustCompile(`docs/a\.md:[0-9]+:1: ` + c.class + `: [^\n]*`).MatchString(stderr) {
				t.Fatalf("pin does not report %s:\n%s", c.class, stderr)
			}
			if c.accept != (code == 1) {
				t.Fatalf("pin: exit %d\n%s", code, stderr)
			}
			if c.accept {
				if !regexp.MustCompile("`textfrag pin --write --accept docs/a\\.md:[0-9]+`").MatchString(stderr) {
					t.Errorf("pin does not advise accepting the quote:\n%s", stderr)
				}
				if _, stderr, code := s.run("pin", "--write", "docs"); code != 1 {
					t.Fatalf("pin --write re-pinned a changed body without --accept-changed: %s", stderr)
				}
				s.run("pin", "--write", "--accept-changed", "docs")
			} else if _, stderr, code := s.run("pin", "--write", "docs"); code != 0 {
				t.Fatalf("pin --write: exit %d\n%s", code, stderr)
			}
			s.mustCheck()
			frag := linkFragment(t, s.read("docs/a.md"), c.title)
			if want := c.wantFrag + ";md5=" + md5hex(s.read("src/server.go")); frag != want {
				t.Errorf("the link quotes %s, want %s", frag, want)
			}
		})
	}
}

// A name deleted or renamed is gone: pin says so with the lookup's
// message and leaves the link as it is, even with --accept-changed.
func TestPinNameGone(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"deleted", strings.Replace(namesServer, "// Handle answers one request.\nfunc (s *Server) Handle(w http.ResponseWriter, r *http.Request) {\n\ts.n++\n\tw.WriteHeader(http.StatusNoContent)\n}\n", "", 1),
			[]string{"gone: ", "sym=Server.Handle is not in src/server.go"}},
		{"renamed", strings.Replace(namesServer, ") Handle(", ") Handler(", 1),
			[]string{"gone: ", "sym=Server.Handle is not in src/server.go", "Server.Handler"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := namesSite(t)
			s.write("src/server.go", c.src)
			before := s.read("docs/a.md")
			_, stderr, code := s.run("pin", "--write", "--accept-changed", "docs")
			if code != 1 {
				t.Errorf("pin: exit %d", code)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("pin does not say %q:\n%s", w, stderr)
				}
			}
			if got := linkFragment(t, s.read("docs/a.md"), "sym=Server.Handle"); got != linkFragment(t, before, "sym=Server.Handle") {
				t.Errorf("pin rewrote the link to %s", got)
			}
			if _, _, code := s.run("check", "docs"); code != 1 {
				t.Errorf("check passes")
			}
		})
	}
}

// Without history, pin cannot tell moved from changed: a named link whose
// file changed is review, never re-pinned, even with --accept-changed; its
// one remedy, textfrag link by the same name, writes the link anew at the
// name's lines, keeping the name.
func TestPinNamesWithoutHistory(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/server.go": namesServer})
	stale := "[h2](../src/server.go#line=8,12;md5=00000000000000000000000000000000 \"sym=Server.Handle\")\n"
	s.write("docs/a.md", "[h](../src/server.go#line=0,1 \"sym=Server.Handle\")\n\n"+stale)
	_, stderr, code := s.run("pin", "--write", "docs")
	if code != 1 || !strings.Contains(stderr, "pinned: ") || !strings.Contains(stderr, "review: ") {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	sum := md5hex(namesServer)
	want := "[h](../src/server.go#line=8,12;md5=" + sum + " \"sym=Server.Handle\")"
	if got := s.read("docs/a.md"); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, stale) {
		t.Errorf("the links: %s", got)
	}
	if _, stderr, code := s.run("pin", "--write", "--accept-changed", "docs"); code != 1 || !strings.HasSuffix(s.read("docs/a.md"), stale) {
		t.Errorf("--accept-changed re-pinned the review quote: exit %d\n%s", code, stderr)
	}
	// The remedy the message gives, followed.
	advice := "textfrag link src/server.go:Server.Handle --title h2 --from docs/a.md"
	if !strings.Contains(stderr, "`"+advice+"`") {
		t.Fatalf("no remedy %q:\n%s", advice, stderr)
	}
	assertOneRemedy(t, stderr)
	link := strings.TrimSpace(s.runShell(s.dir, advice))
	if !strings.HasPrefix(link, "[h2](") || !strings.Contains(link, "\"sym=Server.Handle\")") {
		t.Errorf("the link written anew lost its name: %s", link)
	}
	s.write("docs/a.md", strings.Replace(s.read("docs/a.md"), strings.TrimSpace(stale), link, 1))
	if _, stderr, code := s.run("pin", "--write", "docs/a.md"); code != 0 {
		t.Fatalf("pin after the remedy: exit %d\n%s", code, stderr)
	}
	s.mustCheck()
}

// A Hugo shortcode's name (its options argument) is followed as a link's.
func TestPinFollowsShortcodeName(t *testing.T) {
	s := newPinSite(t, map[string]string{"src/server.go": namesServer})
	s.git("init", "-q")
	s.write("docs/a.md", "---\ntitle: A\n---\n\n{{< textfrag \"../src/server.go#line=8,12;md5="+md5hex(namesServer)+"\" \"Handle\" \"sym=Server.Handle\" >}}\n")
	s.commit("start")
	s.write("src/server.go", "// Package server serves.\n"+namesServer)
	_, stderr, code := s.run("pin", "--write", "docs")
	if code != 0 || !strings.Contains(stderr, "moved: ") {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	if want := "\"../src/server.go#line=9,13;md5=" + md5hex(s.read("src/server.go")) + "\" \"Handle\" \"sym=Server.Handle\""; !strings.Contains(s.read("docs/a.md"), want) {
		t.Errorf("page:\n%s\nwant %s", s.read("docs/a.md"), want)
	}
	s.mustCheck()
}

// Following the advice check and pin print, literally, makes check pass
// for a named quote that moved and one whose body changed.
func TestNamesRemedyWorks(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		want []string
	}{
		{"moved", "// Package server serves.\n" + namesServer, []string{"textfrag pin --write docs"}},
		{"changed", strings.Replace(namesServer, "s.n++", "s.n += 1", 1),
			[]string{"textfrag pin --write docs", "textfrag pin --write --accept-changed docs"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := namesSite(t)
			s.write("src/server.go", c.src)
			if got := s.followAdvice("check", "docs"); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("followed %q, want %q", got, c.want)
			}
			s.mustCheck()
		})
	}
}

// What "link" cannot name it refuses, exit 1, advising a command that
// works: following it prints a link that passes check --strict.
func TestLinkNameRemedies(t *testing.T) {
	s := newPinSite(t, map[string]string{
		"src/server.go": namesServer,
		"src/init.go":   "package x\n\nfunc init() {\n}\n\nfunc init() {\n\tprintln()\n}\n",
		"src/a.rb":      "def f\nend\n",
		"src/open.go":   "package x\n\n// textfrag:begin open\nvar X = 1\n",
	})
	for _, c := range []struct {
		args   []string
		code   int
		want   []string
		follow bool
	}{
		{[]string{"src/server.go:Server.Handel"}, 1, []string{"sym=Server.Handel is not in src/server.go", "close names: Server.Handle"}, true},
		{[]string{"src/init.go:init"}, 1, []string{"sym=init matches 2 declarations in src/init.go", "(lines 3–4)", "(lines 6–8)"}, true},
		{[]string{"src/a.rb:f"}, 1, []string{"no symbol parser for src/a.rb", "--region NAME"}, false},
		{[]string{"src/open.go", "--region", "open"}, 1, []string{"region=open", "textfrag:end open"}, false},
		{[]string{"src/server.go", "--region", "nope"}, 1, []string{"region=nope is not in src/server.go"}, false},
		{[]string{"src/server.go", "--region", "bad/name"}, 2, []string{"region name"}, false},
		{[]string{"src/server.go:Server", "--region", "setup"}, 2, []string{"src/server.go:Server", "`textfrag link src/server.go --region setup`"}, false},
		{[]string{"src/server.go", "--region", "setup", "--doc"}, 2, []string{"--doc applies to symbols"}, false},
		{[]string{"src/server.go:8-12", "--doc"}, 2, []string{"--doc applies to a symbol"}, false},
		{[]string{"src/server.go:Server", "--quote"}, 2, []string{"whole lines"}, false},
		{[]string{"src/server.go:Server", "--char"}, 2, []string{"whole lines"}, false},
		{[]string{"src/server.go:Server", "--options", "sym=X"}, 1, []string{"give the name as FILE:NAME"}, false},
		{[]string{"src/missing.go:Server"}, 1, []string{"src/missing.go", "not found"}, false},
	} {
		out, stderr, code := s.run(append([]string{"link"}, c.args...)...)
		if code != c.code || out != "" {
			t.Errorf("%q: exit %d (want %d), stdout %q, stderr %q", c.args, code, c.code, out, stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%q: stderr %q does not say %q", c.args, stderr, w)
			}
		}
		if !c.follow {
			continue
		}
		m := pinAdvice.FindAllStringSubmatch(stderr, -1)
		if m == nil {
			t.Errorf("%q advises no command: %s", c.args, stderr)
			continue
		}
		link := s.mustLink(strings.Fields(m[len(m)-1][1])[2:]...)
		s.write("docs/a.md", link+"\n")
		s.mustCheck()
	}
}

// check reports a pinned link whose name fails as kind "symbol" with its
// sub-kind, in every format; the mismatch's advice, followed, makes it
// pass.
func TestCheckNames(t *testing.T) {
	sum := md5hex(namesServer)
	s := newPinSite(t, map[string]string{"src/server.go": namesServer, "src/a.rb": "def f\nend\n"})
	s.git("init", "-q")
	link := func(frag, title string) string {
		return "[q](../src/server.go#" + frag + ";md5=" + sum + " \"" + title + "\")\n\n"
	}
	s.write("docs/a.md", link("line=8,11", "sym=Server.Handle")+
		link("line=8,12", "sym=Server.Handel")+
		link("line=14,18", "region=nope")+
		link("line=0,1", "sym=Server region=setup")+
		link("char=0,5", "sym=Server")+
		"[r](../src/a.rb#line=0,2;md5="+md5hex("def f\nend\n")+" \"sym=f\")\n")
	s.commit("start")
	out, _, code := s.run("check", "--format", "json", "docs")
	var recs []checkRecord
	if err := json.Unmarshal([]byte(out), &recs); err != nil || code != 1 {
		t.Fatalf("check: exit %d, %v\n%s", code, err, out)
	}
	want := []struct{ sub, says string }{
		{"mismatch", "sym=Server.Handle spans lines 9–12 of src/server.go now (#line=8,12)"},
		{"not-found", "close names: Server.Handle"},
		{"not-found", "region=nope is not in src/server.go"},
		{"options", ""},
		{"options", ""},
		{"unsupported", "no symbol parser for src/a.rb"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d problems, want %d: %+v", len(recs), len(want), recs)
	}
	for i, w := range want {
		r := recs[i]
		if r.Kind != "symbol" || r.Symbol != w.sub || r.Severity != "error" || !strings.Contains(r.Message, w.says) {
			t.Errorf("problem %d: %+v; want symbol %s saying %q", i, r, w.sub, w.says)
		}
	}
	gh, _, _ := s.run("check", "--format", "github", "docs")
	if !strings.Contains(gh, "::error file=docs/a.md,line=1,col=1,title=symbol mismatch::") {
		t.Errorf("github annotations:\n%s", gh)
	}
	// The mismatch alone: following the advice re-pins it to the name.
	s.write("docs/a.md", link("line=8,11", "sym=Server.Handle"))
	s.followAdvice("check", "docs")
	if got := linkFragment(t, s.read("docs/a.md"), "sym=Server.Handle"); got != "line=8,12;md5="+sum {
		t.Errorf("re-pinned to %s", got)
	}
}

// Names in the languages of the tree-sitter parsers are written and
// followed as Go's are: a Python method moved by a class added above it is
// re-pinned, and a Rust method is named with "::".
func TestPinFollowsTreeSitterNames(t *testing.T) {
	py := "import os\n\n\nclass Store:\n    \"\"\"Keeps files.\"\"\"\n\n    # Save one file.\n    @staticmethod\n    def save(path):\n        with open(path, \"w\") as f:\n            f.write(os.sep)\n"
	rs := "pub struct App;\n\nimpl App {\n    /// Runs it.\n    pub fn run(&self) -> u8 {\n        0\n    }\n}\n"
	s := newPinSite(t, map[string]string{"src/store.py": py, "src/lib.rs": rs})
	s.git("init", "-q")
	pyLink := s.mustLink("src/store.py:Store.save", "--from", "docs/a.md")
	if want := "[store.py: Store.save](../src/store.py#line=7,11;md5=" + md5hex(py) + ` "sym=Store.save")`; pyLink != want {
		t.Errorf("python: %s\nwant    %s", pyLink, want)
	}
	rsLink := s.mustLink("src/lib.rs:App::run", "--doc", "--from", "docs/a.md")
	if want := "[lib.rs: App::run](../src/lib.rs#line=3,7;md5=" + md5hex(rs) + ` "sym=App::run doc")`; rsLink != want {
		t.Errorf("rust: %s\nwant  %s", rsLink, want)
	}
	s.write("docs/a.md", pyLink+"\n\n"+rsLink+"\n\n[rest](../src/store.py#line=3, \"sym=Store\")\n")
	s.commit("start")
	s.write("src/store.py", strings.Replace(py, "class Store:", "class Cache:\n    pass\n\n\nclass Store:", 1))
	// The unpinned sym= link's file changed since HEAD, but its name, not a
	// line number, chooses its text: pinned as a line link would not be.
	_, stderr, code := s.run("pin", "--write", "docs")
	if code != 0 || !strings.Contains(stderr, "moved: src/store.py lines 8–11 → lines 12–15 (sym=Store.save)") || !strings.Contains(stderr, "pinned: ") {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	page := s.read("docs/a.md")
	if got := linkFragment(t, page, "sym=Store.save"); got != "line=11,15;md5="+md5hex(s.read("src/store.py")) {
		t.Errorf("python link now %s", got)
	}
	if !strings.Contains(page, "(../src/store.py#line=7,15;md5="+md5hex(s.read("src/store.py"))+" \"sym=Store\")") {
		t.Errorf("the open-ended link is not pinned to the class:\n%s", page)
	}
	s.mustCheck()
}

// build and render hold named links to their names, as check does: a
// Python region and a Go symbol quote their lines; once the symbol's lines
// are not the link's, both fail naming the lines it spans now. link
// --format json gives editors the name.
func TestBuildRenderNames(t *testing.T) {
	py := "# textfrag:begin main\nprint('hi')\n# textfrag:end main\n"
	s := newPinSite(t, map[string]string{"src/server.go": namesServer, "src/main.py": py})
	out, stderr, code := s.run("link", "--format", "json", "src/main.py", "--region", "main", "--from", "docs/a.md")
	var j linkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 {
		t.Fatalf("link --format json: exit %d, %v\n%s%s", code, err, out, stderr)
	}
	if j.Name != "region=main" || j.Fragment != "line=1,2;md5="+md5hex(py) || j.Label != "line 2" {
		t.Errorf("link --format json: %+v", j)
	}
	s.write("docs/a.md", "# A\n\n"+j.Markdown+"\n\n"+s.mustLink("src/server.go:Server.Handle", "--from", "docs/a.md")+"\n")
	html, stderr, code := s.run("render", "docs/a.md")
	if code != 0 || !strings.Contains(html, `<span class="textfrag-range">line 2</span>`) || !strings.Contains(html, `<span class="textfrag-range">lines 9–12</span>`) || strings.Contains(html, "textfrag:begin") {
		t.Fatalf("render: exit %d\n%s\n%s", code, html, stderr)
	}
	if _, stderr, code := s.run("build", "docs", "-o", "out"); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	s.write("docs/a.md", strings.Replace(s.read("docs/a.md"), "#line=8,12;", "#line=8,11;", 1))
	for _, args := range [][]string{{"render", "docs/a.md"}, {"build", "docs", "-o", "out2"}} {
		_, stderr, code := s.run(args...)
		if code != 1 || !strings.Contains(stderr, "sym=Server.Handle spans lines 9–12 of src/server.go now (#line=8,12); the link quotes lines 9–11") {
			t.Errorf("%s: exit %d\n%s", args[0], code, stderr)
		}
	}
}
