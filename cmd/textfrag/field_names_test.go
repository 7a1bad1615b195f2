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
