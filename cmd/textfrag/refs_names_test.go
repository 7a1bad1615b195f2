package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// namesSource is src/server.go: a method, a function and a region, each
// with its human lines noted.
const namesSource = "package server\n" + // 1
	"\n" + // 2
	"// Server serves.\n" + // 3
	"type Server struct{ n int }\n" + // 4
	"\n" + // 5
	"// Handle handles.\n" + // 6
	"func (s *Server) Handle() int {\n" + // 7: Server.Handle is lines 7–9
	"\treturn s.n\n" + // 8
	"}\n" + // 9
	"\n" + // 10
	"// textfrag:begin setup\n" + // 11
	"var x = 1\n" + // 12: region setup is line 12
	"// textfrag:end setup\n" + // 13
	"\n" + // 14
	"func helper() int { return 2 }\n" // 15: helper is line 15

// namesLink writes a pinned link to src/server.go from docs/ with a title.
func namesLink(text, frag, src, title string) string {
	l := "[" + text + "](../src/server.go#" + frag + ";md5=" + md5hex(src)
	if title != "" {
		l += " \"" + title + "\""
	}
	return l + ")"
}

// refs PATH:NAME lists the links that name the symbol (with :: or .)
// and those whose lines overlap its span; --region NAME the same for a
// region; a named link that no longer spans its name is listed stale.
func TestRefsByName(t *testing.T) {
	src := namesSource
	s := newPinSite(t, map[string]string{
		"textfrag.toml": "",
		"src/server.go": src,
		"docs/guide.md": "# Guide\n\n" +
			namesLink("handle", "line=6,9", src, "sym=Server.Handle") + "\n\n" + // 3: by name, exact
			namesLink("body", "line=7,8", src, "") + "\n\n" + // 5: by lines, inside
			namesLink("head", "line=0,1", src, "") + "\n\n" + // 7: by lines, elsewhere
			namesLink("colons", "line=6,9", src, "sym=Server::Handle") + "\n\n" + // 9: by name with ::
			namesLink("stale", "line=5,9", src, "sym=Server.Handle doc") + "\n\n" + // 11: doc: lines 6–9 now, exact
			namesLink("wrong", "line=4,6", src, "sym=Server.Handle") + "\n\n" + // 13: by name, lines no longer its own
			namesLink("region", "line=11,12", src, "region=setup") + "\n\n" + // 15: the region
			namesLink("gone", "line=14,15", src, "sym=Removed") + "\n", // 17: a name that is gone
	})
	tests := []struct {
		args []string
		want []string
		code int
	}{
		{[]string{"src/server.go:Server.Handle"}, []string{
			"docs/guide.md:3:1: src/server.go lines 7–9 (sym=Server.Handle), pinned\n",
			"docs/guide.md:5:1: src/server.go line 8, pinned\n",
			"docs/guide.md:9:1: src/server.go lines 7–9 (sym=Server::Handle), pinned\n",
			"docs/guide.md:11:1: src/server.go lines 6–9 (sym=Server.Handle doc), pinned\n",
			"docs/guide.md:13:1: src/server.go lines 5–6 (sym=Server.Handle), pinned, stale: sym=Server.Handle spans lines 7–9 of src/server.go now (#line=6,9); the link quotes lines 5–6",
		}, 0},
		{[]string{"src/server.go:Server::Handle"}, []string{
			"docs/guide.md:3:1:", "docs/guide.md:5:1:", "docs/guide.md:9:1:", "docs/guide.md:11:1:", "docs/guide.md:13:1:",
		}, 0},
		{[]string{"--region", "setup", "src/server.go"}, []string{
			"docs/guide.md:15:1: src/server.go line 12 (region=setup), pinned\n",
		}, 0},
		{[]string{"src/server.go:helper"}, []string{
			"docs/guide.md:17:1: src/server.go line 15 (sym=Removed), pinned, stale: ", // by lines: it quotes helper's line
		}, 0},
		// Gone from the file: the links that name it are listed, exit 1.
		{[]string{"src/server.go:Removed"}, []string{
			"docs/guide.md:17:1: src/server.go line 15 (sym=Removed), pinned, stale: ",
		}, 1},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := s.run(append([]string{"refs"}, tc.args...)...)
			checkLines(t, out, tc.want)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\n%s", code, tc.code, errOut)
			}
		})
	}
	_, errOut, _ := s.run("refs", "src/server.go:Server.Handle")
	if want := "5 links quote src/server.go:Server.Handle (method, lines 7–9) in 1 page\n"; errOut != want {
		t.Errorf("summary %q, want %q", errOut, want)
	}
	_, errOut, _ = s.run("refs", "src/server.go:Removed")
	for _, want := range []string{"sym=Removed", "src/server.go", "listing the links that name it"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("a name not found: stderr lacks %q:\n%s", want, errOut)
		}
	}

	out, _, code := s.run("refs", "src/server.go:Server.Handle", "--format", "json")
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || len(got) != 5 {
		t.Fatalf("json: exit status %d, %v\n%s", code, err, out)
	}
	for i, want := range []map[string]any{
		{"line": 3.0, "name": "sym=Server.Handle", "first_line": 7.0, "last_line": 9.0, "status": "ok"},
		{"line": 5.0, "name": nil, "status": "ok"},
		{"line": 13.0, "name": "sym=Server.Handle", "status": "stale"},
	} {
		rec := got[[]int{0, 1, 4}[i]]
		for k, v := range want {
			if rec[k] != v {
				t.Errorf("record %v: %s = %v, want %v", rec["line"], k, rec[k], v)
			}
		}
	}

	for _, args := range [][]string{
		{"refs", "--region", "bad name", "src/server.go"},
		{"refs", "--region", "-x", "src/server.go"},
		{"refs", "--diff", "--region", "setup"},
	} {
		if _, errOut, code := s.run(args...); code != 2 {
			t.Errorf("%v: exit status %d, want 2\n%s", args, code, errOut)
		}
	}
}

// newNamesRepo is a repository whose main branch holds src/server.go and
// a guide quoting Server.Handle (with and without its doc comment),
// helper and the region setup by name, pinned, and one link to helper
// unpinned; the branch "work" is checked out on top.
func newNamesRepo(t *testing.T) *pinSite {
	t.Helper()
	src := namesSource
	s := newPinSite(t, map[string]string{
		"src/server.go": src,
		"docs/guide.md": namesLink("handle", "line=6,9", src, "sym=Server.Handle") + "\n\n" + // 1
			namesLink("doc", "line=5,9", src, "sym=Server.Handle doc") + "\n\n" + // 3
			namesLink("helper", "line=14,15", src, "sym=helper") + "\n\n" + // 5
			namesLink("setup", "line=11,12", src, "region=setup") + "\n\n" + // 7
			"[unpinned](../src/server.go#line=14,15 \"sym=helper\")\n", // 9
	})
	s.git("init", "-q", "-b", "main")
	s.commit("base")
	s.git("checkout", "-q", "-b", "work")
	return s
}

// refs --diff follows names as pin does: a declaration or region that
// moved with its text intact is moved, one whose text (or doc comment)
// changed is changed, a name no longer in the file is deleted.
func TestRefsDiffNames(t *testing.T) {
	base := namesSource
	tests := []struct {
		name   string
		change string // the work tree's src/server.go
		want   []string
		code   int
	}{
		{"everything moved down", "// Package server.\n\n" + base, []string{
			"src/server.go:9: moved: quoted in docs/guide.md:1 (src/server.go lines 7–9): the quoted text is intact at lines 9–11: `textfrag pin --write docs/guide.md` updates the link; but first fix the link without md5 on line 9 of the page, as its message says (pin --write would otherwise stop on it, or pin it)\n",
			"src/server.go:8: moved: quoted in docs/guide.md:3 (src/server.go lines 6–9)",
			"src/server.go:17: moved: quoted in docs/guide.md:5 (src/server.go line 15)",
			"src/server.go:14: moved: quoted in docs/guide.md:7 (src/server.go line 12)",
			// Unpinned, its lines shifted: changed (SEMANTICS.md §4).
			"src/server.go:17: changed: quoted in docs/guide.md:9 (src/server.go line 15): the link has no md5 and the change shifted its lines: it shows other lines now; the quoted text moved to line 17: change the link to ../src/server.go#line=16,17, then pin it with `textfrag pin --write --accept docs/guide.md:9`\n",
		}, 1},
		{"a body changed", strings.Replace(base, "\treturn s.n\n", "\treturn s.n + 1\n", 1), []string{
			"src/server.go:8: changed: quoted in docs/guide.md:1 (src/server.go lines 7–9): the quoted text changed (sym=Server.Handle spans lines 7–9 now): review the page",
			"src/server.go:8: changed: quoted in docs/guide.md:3 (src/server.go lines 6–9)",
			"src/server.go:15: refresh: quoted in docs/guide.md:5",
			"src/server.go:12: refresh: quoted in docs/guide.md:7",
		}, 1},
		{"a doc comment grew above the text", strings.Replace(base, "// Handle handles.\n", "// Handle handles,\n// and more.\n", 1), []string{
			"src/server.go:8: moved: quoted in docs/guide.md:1 (src/server.go lines 7–9): the quoted text is intact at lines 8–10",
			"src/server.go:6: changed: quoted in docs/guide.md:3 (src/server.go lines 6–9): the quoted text changed (sym=Server.Handle doc spans lines 6–10 now)",
			"src/server.go:16: moved: quoted in docs/guide.md:5",
			"src/server.go:13: moved: quoted in docs/guide.md:7",
			"src/server.go:16: changed: quoted in docs/guide.md:9",
		}, 1},
		{"a function deleted", strings.Replace(base, "\nfunc helper() int { return 2 }\n", "", 1), []string{
			"src/server.go:7: refresh: quoted in docs/guide.md:1",
			"src/server.go:6: refresh: quoted in docs/guide.md:3",
			// Placed on the line after the deleted ones (the last line).
			"src/server.go:13: deleted: quoted in docs/guide.md:5 (src/server.go line 15): sym=helper is no longer in src/server.go: review the page, then fix the name or quote by lines (",
			"src/server.go:12: refresh: quoted in docs/guide.md:7",
			"src/server.go:13: deleted: quoted in docs/guide.md:9 (src/server.go line 15): sym=helper is no longer in src/server.go",
		}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newNamesRepo(t)
			s.write("src/server.go", tc.change)
			out, errOut, code := s.run("refs", "--diff", "main")
			checkLines(t, out, tc.want)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\n%s", code, tc.code, errOut)
			}
			s.git("add", "-A")
			diff := s.git("diff", "--cached", "-M", "main")
			if out2, errOut2, code2 := s.runStdin(diff, "refs", "--diff", "-"); out2 != out || code2 != code {
				t.Errorf("from stdin: exit status %d\n%s%s\nwant what git gave:\n%s", code2, out2, errOut2, out)
			}
		})
	}
}

// The JSON and GitHub formats carry a named link's class and fix.
func TestRefsDiffNamesFormats(t *testing.T) {
	s := newNamesRepo(t)
	src := strings.Replace(namesSource, "\nfunc helper() int { return 2 }\n", "", 1)
	s.write("src/server.go", "// Package server.\n\n"+src)
	out, _, code := s.run("refs", "--diff", "main", "--format", "json")
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || len(got) != 5 {
		t.Fatalf("json: exit status %d, %v\n%s", code, err, out)
	}
	moved := got[0]
	for k, v := range map[string]any{"class": "moved", "blocking": false, "file": "src/server.go", "line": 9.0, "end_line": 11.0,
		"page": "docs/guide.md", "page_line": 1.0, "quoted": "lines 7–9",
		"fix": "../src/server.go#line=8,11;md5=" + md5hex("// Package server.\n\n"+src)} {
		if moved[k] != v {
			t.Errorf("moved: %s = %v, want %v", k, moved[k], v)
		}
	}
	if got[2]["class"] != "deleted" || got[2]["blocking"] != true || got[2]["fix"] != nil {
		t.Errorf("deleted: %v", got[2])
	}
	out, _, _ = s.run("refs", "--diff", "main", "--format", "github")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 ||
		!strings.HasPrefix(lines[0], "::warning file=src/server.go,line=9,endLine=11,title=quoted text moved::quoted in docs/guide.md:1 ") ||
		!strings.HasPrefix(lines[2], "::error file=src/server.go,line=15,title=quoted file deleted::quoted in docs/guide.md:5 (src/server.go line 15): sym=helper is no longer in src/server.go") {
		t.Errorf("github:\n%s", out)
	}
}

// refs finds names in the languages of the tree-sitter parsers too: a
// Python method, named with "::" or ".".
func TestRefsByNamePython(t *testing.T) {
	src := pythonSource
	s := newPinSite(t, map[string]string{
		"textfrag.toml": "",
		"src/app.py":    src,
		"docs/guide.md": "[run](../src/app.py#line=6,8;md5=" + md5hex(src) + " \"sym=App.run\")\n\n" + // 1
			"[body](../src/app.py#line=7,8)\n\n" + // 3: line 8, inside App.run
			"[stop](../src/app.py#line=9,11 \"sym=App.stop\")\n", // 5
	})
	for _, ref := range []string{"src/app.py:App.run", "src/app.py:App::run"} {
		out, errOut, code := s.run("refs", ref)
		checkLines(t, out, []string{
			"docs/guide.md:1:1: src/app.py lines 7–8 (sym=App.run), pinned\n",
			"docs/guide.md:3:1: src/app.py line 8, unpinned\n",
		})
		if code != 0 || !strings.HasSuffix(errOut, " (method, lines 7–8) in 1 page\n") {
			t.Errorf("%s: exit status %d\n%s", ref, code, errOut)
		}
	}
}

// A renamed file: named links are followed in the new file, renamed when
// their name is intact there, deleted when it is not.
func TestRefsDiffNamesRenamed(t *testing.T) {
	s := newNamesRepo(t)
	s.git("mv", "src/server.go", "src/srv.go")
	s.write("src/srv.go", strings.Replace(namesSource, "\nfunc helper() int { return 2 }\n", "", 1))
	s.git("add", "src/srv.go")
	out, errOut, code := s.run("refs", "--diff", "main")
	checkLines(t, out, []string{
		"src/srv.go:7: renamed: quoted in docs/guide.md:1 (src/server.go lines 7–9): src/server.go was renamed to src/srv.go with the quoted text intact: change the link to ../src/srv.go#line=6,9;md5=",
		"src/srv.go:6: renamed: quoted in docs/guide.md:3",
		"src/srv.go:13: deleted: quoted in docs/guide.md:5 (src/server.go line 15): sym=helper is no longer in src/srv.go",
		"src/srv.go:12: renamed: quoted in docs/guide.md:7",
		"src/srv.go:13: deleted: quoted in docs/guide.md:9 (src/server.go line 15): sym=helper is no longer in src/srv.go",
	})
	if code != 1 {
		t.Errorf("exit status %d, want 1\n%s", code, errOut)
	}
}
