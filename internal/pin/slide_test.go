package pin

import (
	"math/rand"
	"strings"
	"testing"
)

// scriptOf reads a diff written a line each as " kept", "-deleted",
// "+inserted" into its two texts and its edit script.
func scriptOf(diff []string) (a, b []string, edits []edit) {
	for _, l := range diff {
		text := l[1:]
		switch l[0] {
		case ' ':
			edits = append(edits, edit{opEqual, len(a), len(b)})
			a, b = append(a, text), append(b, text)
		case '-':
			edits = append(edits, edit{opDelete, len(a), len(b)})
			a = append(a, text)
		case '+':
			edits = append(edits, edit{opInsert, len(a), len(b)})
			b = append(b, text)
		}
	}
	return a, b, edits
}

// writeScript writes an edit script back as scriptOf reads it.
func writeScript(a, b []string, edits []edit) []string {
	var out []string
	for _, e := range edits {
		switch e.kind {
		case opEqual:
			out = append(out, " "+a[e.a])
		case opDelete:
			out = append(out, "-"+a[e.a])
		case opInsert:
			out = append(out, "+"+b[e.b])
		}
	}
	return out
}

// TestSlideEdits: each run of inserted or deleted lines is placed where
// git diff (its default indent heuristic) places it; every expected diff
// below is what `git diff --no-index` prints for the two texts, whatever
// placement the input diff had, but two: where the blank lines kept above
// a replaced def go down to it, git's own diff of the shortened texts
// keeps the input's pairing, and the expected diff is git's of the whole
// file (requests' api.py, v2.32.0 → v2.34.0 and back).
func TestSlideEdits(t *testing.T) {
	for _, tc := range []struct {
		name       string
		diff, want []string
	}{{
		// requests' api.py, v2.32.0 → v2.34.0 (shortened): the blank
		// lines above `def request` were paired with blanks inside the
		// new block, so a quote starting on them grew upward over it.
		name: "blank lines stay above the function",
		diff: []string{
			" from . import sessions",
			"+from .models import Response",
			" ",
			"+if TYPE_CHECKING:",
			"+    from typing_extensions import Unpack",
			" ",
			"+    from . import _types as _t",
			"+",
			"+",
			" def request(method, url):",
		},
		want: []string{
			" from . import sessions",
			"+from .models import Response",
			"+",
			"+if TYPE_CHECKING:",
			"+    from typing_extensions import Unpack",
			"+",
			"+    from . import _types as _t",
			" ",
			" ",
			" def request(method, url):",
		},
	}, {
		// The same, as the anchored diff reads it: the new imports and
		// the rewritten def are one run of changes, which cannot slide;
		// the blank lines kept above it go down to the def.
		name: "blank lines kept above a replaced def go down to it",
		diff: []string{
			" from . import sessions",
			"+from .models import Response",
			" ",
			"+if TYPE_CHECKING:",
			"+    from typing_extensions import Unpack",
			" ",
			"-def request(method, url, **kwargs):",
			"+    from . import _types as _t",
			"+",
			"+",
			"+def request(",
			"+    method: str, url: str, **kwargs: Unpack[Kwargs]",
			"+) -> Response:",
			"     \"\"\"Constructs and sends a Request.",
		},
		want: []string{
			" from . import sessions",
			"+from .models import Response",
			"+",
			"+if TYPE_CHECKING:",
			"+    from typing_extensions import Unpack",
			"+",
			"+    from . import _types as _t",
			" ",
			" ",
			"-def request(method, url, **kwargs):",
			"+def request(",
			"+    method: str, url: str, **kwargs: Unpack[Kwargs]",
			"+) -> Response:",
			"     \"\"\"Constructs and sends a Request.",
		},
	}, {
		// The other way (v2.34.0 → v2.32.0): the deleted block's blank
		// lines are not the ones kept.
		name: "blank lines kept above a replaced def go down to it, deleting",
		diff: []string{
			" from . import sessions",
			"-from .models import Response",
			" ",
			"-if TYPE_CHECKING:",
			"-    from typing_extensions import Unpack",
			" ",
			"-    from . import _types as _t",
			"-",
			"-",
			"-def request(",
			"-    method: str, url: str, **kwargs: Unpack[Kwargs]",
			"-) -> Response:",
			"+def request(method, url, **kwargs):",
			"     \"\"\"Constructs and sends a Request.",
		},
		want: []string{
			" from . import sessions",
			"-from .models import Response",
			"-",
			"-if TYPE_CHECKING:",
			"-    from typing_extensions import Unpack",
			"-",
			"-    from . import _types as _t",
			" ",
			" ",
			"-def request(",
			"-    method: str, url: str, **kwargs: Unpack[Kwargs]",
			"-) -> Response:",
			"+def request(method, url, **kwargs):",
			"     \"\"\"Constructs and sends a Request.",
		},
	}, {
		name: "a new function ends with its blank line",
		diff: []string{
			" def f():",
			"     return 1",
			"+",
			"+def g():",
			"+    return 2",
			" ",
			" def h():",
			"     return 3",
		},
		want: []string{
			" def f():",
			"     return 1",
			" ",
			"+def g():",
			"+    return 2",
			"+",
			" def h():",
			"     return 3",
		},
	}, {
		name: "a new Go function starts at its comment, not inside the one above",
		diff: []string{
			" func a() {",
			" \treturn",
			"+}",
			"+",
			"+// b does it.",
			"+func b() {",
			"+\treturn",
			" }",
		},
		want: []string{
			" func a() {",
			" \treturn",
			" }",
			"+",
			"+// b does it.",
			"+func b() {",
			"+\treturn",
			"+}",
		},
	}, {
		name: "a deletion slides to face the insertion: one hunk",
		diff: []string{
			" a",
			"-b",
			"-x",
			" b",
			"+y",
			" c",
		},
		want: []string{
			" a",
			" b",
			"-x",
			"-b",
			"+y",
			" c",
		},
	}, {
		name: "runs that cannot slide stay",
		diff: []string{
			" a",
			"-b",
			"+c",
			" d",
		},
		want: []string{
			" a",
			"-b",
			"+c",
			" d",
		},
	}, {
		name: "a deleted block of equal lines in a run of them",
		diff: []string{
			" x",
			"-    y",
			"-    y",
			"     y",
			" z",
		},
		want: []string{
			" x",
			"     y",
			"-    y",
			"-    y",
			" z",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			a, b, edits := scriptOf(tc.diff)
			got := writeScript(a, b, slideEdits(a, b, edits))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("slid:\n%s\nwant (git diff's):\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestSlideEditsKeepsTheDiff: on random texts of few distinct lines (so
// that runs slide and merge), the slid script still turns a into b: every
// line of each side once, in order, kept lines equal, and in each run of
// changes the deletions first.
func TestSlideEditsKeepsTheDiff(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	words := []string{"", "", "x", "    y", "}"}
	for n := 0; n < 2000; n++ {
		text := func() []string {
			out := make([]string, rng.Intn(14))
			for i := range out {
				out[i] = words[rng.Intn(len(words))]
			}
			return out
		}
		a, b := text(), text()
		edits := slideEdits(a, b, diffLines(a, b))
		i, j, inserting := 0, 0, false
		for _, e := range edits {
			switch e.kind {
			case opEqual:
				if e.a != i || e.b != j || a[i] != b[j] {
					t.Fatalf("%q → %q: kept %v at %d,%d", a, b, e, i, j)
				}
				i, j, inserting = i+1, j+1, false
			case opDelete:
				if e.a != i || e.b != j || inserting {
					t.Fatalf("%q → %q: deleted %v at %d,%d", a, b, e, i, j)
				}
				i++
			case opInsert:
				if e.a != i || e.b != j {
					t.Fatalf("%q → %q: inserted %v at %d,%d", a, b, e, i, j)
				}
				j, inserting = j+1, true
			}
		}
		if i != len(a) || j != len(b) {
			t.Fatalf("%q → %q: the script ends at %d,%d", a, b, i, j)
		}
		kept := func(es []edit) int {
			k := 0
			for _, e := range es {
				if e.kind == opEqual {
					k++
				}
			}
			return k
		}
		if kept(edits) != kept(diffLines(a, b)) {
			t.Fatalf("%q → %q: %d lines kept, the diff kept %d", a, b, kept(edits), kept(diffLines(a, b)))
		}
	}
}

// TestRelocationDiffRequestsAPI: the anchored diff of requests' api.py
// head, v2.32.0 → v2.34.0, as relocation reads it: the two blank lines
// above `def request` are the two above it now, so a quote starting on
// them does not take in the new imports.
func TestRelocationDiffRequestsAPI(t *testing.T) {
	old := "\"\"\"\nrequests.api\n\"\"\"\n\nfrom . import sessions\n\n\ndef request(method, url, **kwargs):\n    \"\"\"Constructs and sends a :class:`Request <Request>`.\n"
	now := "\"\"\"\nrequests.api\n\"\"\"\n\nfrom __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nfrom . import sessions\nfrom .models import Response\n\nif TYPE_CHECKING:\n    from typing_extensions import Unpack\n\n    from . import _types as _t\n\n\ndef request(\n    method: str, url: _t.UriType, **kwargs: Unpack[_t.RequestKwargs]\n) -> Response:\n    \"\"\"Constructs and sends a :class:`Request <Request>`.\n"
	m := newLineMap(newRFCText([]byte(old)), newRFCText([]byte(now)))
	// Old lines 6 and 7 (the blanks above def, 0-based 5 and 6) are new
	// lines 16 and 17.
	if m.toNew[5] != 15 || m.toNew[6] != 16 {
		t.Errorf("the blank lines above def request went to new lines %d and %d, want 16 and 17", m.toNew[5]+1, m.toNew[6]+1)
	}
}

// TestSlideEditsLinear counts the lines slideEdits steps over on texts
// where every run can slide the whole file: n equal lines with a copy of
// each inserted after it (n runs, which slide into one), and n pairs of
// lines with one more pair inserted in the middle (it slides over all). Twice the lines, twice the
// steps (linear), and a few steps a line.
func TestSlideEditsLinear(t *testing.T) {
	interleaved := func(n int) ([]string, []string, []edit) {
		var diff []string
		for i := 0; i < n; i++ {
			diff = append(diff, " x", "+x")
		}
		return scriptOf(diff)
	}
	middle := func(n int) ([]string, []string, []edit) {
		var diff []string
		for i := 0; i < n; i++ {
			if i == n/2 {
				diff = append(diff, "+    y", "+")
			}
			diff = append(diff, "     y", " ")
		}
		return scriptOf(diff)
	}
	for name, text := range map[string]func(int) ([]string, []string, []edit){"interleaved": interleaved, "one in the middle": middle} {
		lines := 0
		steps := func(n int) int64 {
			a, b, edits := text(n)
			lines = len(a) + len(b)
			before := slideSteps.Load()
			out := slideEdits(a, b, edits)
			if len(out) != len(edits) {
				t.Fatalf("%s: %d edits, want %d", name, len(out), len(edits))
			}
			return slideSteps.Load() - before
		}
		const n = 4000
		small, large := steps(n), steps(2*n)
		t.Logf("%s: %d steps; doubled: %d (×%.2f), %.1f a line", name, small, large, float64(large)/float64(small), float64(large)/float64(lines))
		if large > small*5/2 || large > 8*int64(lines) {
			t.Errorf("%s: steps %d → %d for twice the lines (linear: ×2, at most 8 a line)", name, small, large)
		}
	}
}
