package main

// Field tests of names in "textfrag link" (issue 15): mistakes a first-time
// user makes, and files real projects have, each with the message that
// leads to a link that works.

import (
	"strings"
	"testing"
)

func TestLinkNameMistakes(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"src/jobs.py": "# textfrag:begin retry\n" +
			"def retry(n):\n" +
			"    return n\n" +
			"# textfrag:end retry\n" +
			"# textfrag:end stray\n",
		// A macro with unbalanced braces makes the C++ grammar give up
		// on the whole include guard.
		"src/ring.hpp": "// Ring buffer.\n" +
			"#ifndef RING_HPP\n" +
			"#define RING_HPP\n" +
			"#define RING_CLOSE \\\n" +
			"    }  /* ring */ \\\n" +
			"    }\n" +
			"RING_OPEN\n" +
			"int ring_size() { return 8; }\n" +
			"RING_CLOSE\n" +
			"#endif\n",
	})
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		// --region with FILE:NAME: the file is named, not "not found".
		{[]string{"src/jobs.py:retry", "--region", "retry"}, 2,
			[]string{"--region takes the file alone: `textfrag link src/jobs.py --region retry`"}},
		// An end marker with no begin: where it is and the line to add.
		{[]string{"src/jobs.py", "--region", "stray"}, 1,
			[]string{"region=stray in src/jobs.py ends at line 5", "add a line `# textfrag:begin stray`"}},
		// A file that does not parse: the line of the problem.
		{[]string{"src/ring.hpp:ring_size"}, 1,
			[]string{"src/ring.hpp does not parse as C++ (line 4)", "--region NAME"}},
	} {
		res := linkRun(t, dir, append([]string{"link"}, c.args...)...)
		if res.code != c.code || res.stdout != "" {
			t.Errorf("%q: code %d (want %d), stdout %q, stderr %q", c.args, res.code, c.code, res.stdout, res.stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(res.stderr, w) {
				t.Errorf("%q: stderr %q does not say %q", c.args, res.stderr, w)
			}
		}
	}
	// The remedy of the first works.
	if res := linkRun(t, dir, "link", "src/jobs.py", "--region", "retry"); res.code != 0 || !strings.Contains(res.stdout, `"region=retry"`) {
		t.Errorf("--region retry: code %d, %q %q", res.code, res.stdout, res.stderr)
	}
}

// A name with '"' (a C++ literal operator) makes a link that check
// passes: its title is written so that it needs no escape.
func TestLinkNameWithQuotes(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{
		".git/HEAD":     "ref: refs/heads/main\n",
		"src/units.hpp": "struct Metres { double v; };\nconstexpr Metres operator\"\"_km(long double v) { return Metres{double(v) * 1000}; }\n",
	})
	res := linkRun(t, dir, "link", `src/units.hpp:operator""_km`, "--from", "docs/units.md")
	if want := `'sym=operator""_km')`; res.code != 0 || !strings.Contains(res.stdout, want) {
		t.Fatalf("link: code %d, stdout %q (want %q in it), stderr %q", res.code, res.stdout, want, res.stderr)
	}
	e2eWrite(t, dir, map[string]string{"docs/units.md": res.stdout})
	if res := linkRun(t, dir, "check", "--strict", "docs"); res.code != 0 {
		t.Errorf("check: code %d, %s%s", res.code, res.stdout, res.stderr)
	}
}

// refs --diff on a named link whose name cannot be looked up any more
// (matched twice, or in a file that does not parse) blocks, and does not
// advise "pin --write --accept-changed", which fails the same way.
func TestRefsDiffNameNotFollowed(t *testing.T) {
	base := namesSource
	for _, tc := range []struct {
		name, change, want string
		pinClass           string // pin's class of the quote: review, as refs classes it (it blocks)
	}{
		{"ambiguous", base + "\nfunc (s *Server) helper() {}\n\nfunc helper() int { return 3 }\n",
			"sym=helper cannot be followed in src/server.go now, and pin will not re-pin it: src/server.go line 15: sym=helper matches 2 declarations in src/server.go: func helper (line 15), func helper (line 19)", "review"},
		{"does not parse", strings.Replace(base, "func helper() int { return 2 }", "func helper() int { return 2", 1),
			"sym=helper cannot be followed in src/server.go now, and pin will not re-pin it: src/server.go line 15: src/server.go does not parse as Go (line 16)", "review"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newNamesRepo(t)
			s.write("src/server.go", tc.change)
			out, errOut, code := s.run("refs", "--diff", "main")
			if code != 1 {
				t.Errorf("exit status %d, want 1\n%s%s", code, out, errOut)
			}
			var line string
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "quoted in docs/guide.md:5 ") {
					line = l
				}
			}
			if !strings.Contains(line, ": review: ") || !strings.Contains(line, tc.want) || strings.Contains(line, "accept") {
				t.Errorf("the link to helper:\n%s\nwant a review quote that says %q, without an accept remedy\n(all: %s)", line, tc.want, out)
			}
			// What it says holds: pin does not re-pin it.
			if _, pinErr, pinCode := s.run("pin", "--write", "--accept-changed", "docs/guide.md"); pinCode != 1 || !strings.Contains(pinErr, "docs/guide.md:5:1: "+tc.pinClass+":") {
				t.Errorf("pin --write --accept-changed: exit %d, want %s\n%s", pinCode, tc.pinClass, pinErr)
			}
			// pin --check blocks it too, in the same class.
			if _, pinErr, pinCode := s.run("pin", "--check", "docs/guide.md"); pinCode != 1 || !strings.Contains(pinErr, "docs/guide.md:5:1: "+tc.pinClass+": ") {
				t.Errorf("pin --check: exit %d, want %s\n%s", pinCode, tc.pinClass, pinErr)
			}
		})
	}
}
