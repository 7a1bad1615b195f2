package pin

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/rfc5147"
)

func TestRewriteDest(t *testing.T) {
	const h = "0123456789abcdef0123456789abcdef"
	for _, c := range []struct {
		dest, positions string
		values          map[int]string
		add, want       string
	}{
		{"a.go#line=1,2", "", nil, h, "a.go#line=1,2;md5=" + h},
		{"a.go?x=1#line=007,010", "", nil, h, "a.go?x=1#line=007,010;md5=" + h},
		{"a.go#line=1,2;md5=FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF,Latin1;sha256=x;length=3", "", map[int]string{0: h, 2: "42"}, "",
			"a.go#line=1,2;md5=" + h + ",Latin1;sha256=x;length=42"},
		{"a.go#char=,5;length=03,utf-8", "char=,7", map[int]string{0: "9"}, "", "a.go#char=,7;length=9,utf-8"},
	} {
		if got := rewriteDest(c.dest, c.positions, c.values, c.add); got != c.want {
			t.Errorf("rewriteDest(%q) = %q, want %q", c.dest, got, c.want)
		}
	}
}

func TestPositionsText(t *testing.T) {
	for _, c := range []struct {
		frag       string
		start, end int64
		want       string
	}{
		{"line=10,20", 10, 20, ""},
		{"line=010,020", 10, 20, ""},
		{"line=10,20", 13, 23, "line=13,23"},
		{"line=,20", 0, 25, "line=,25"},
		{"line=5,", 8, 40, "line=8,"},
		{"char=5", 9, 9, "char=9"},
		{"char=5,5", 9, 9, "char=9,9"},
	} {
		f, err := rfc5147.Parse(c.frag)
		if err != nil {
			t.Fatal(err)
		}
		if got := positionsText(f, c.start, c.end); got != c.want {
			t.Errorf("%s → %d,%d: got %q, want %q", c.frag, c.start, c.end, got, c.want)
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	lines := func(n int, change map[int]string, lastNL bool) []byte {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			s := fmt.Sprintf("l%d", i)
			if c, ok := change[i]; ok {
				s = c
			}
			b.WriteString(s)
			if i < n || lastNL {
				b.WriteString("\n")
			}
		}
		return []byte(b.String())
	}
	for _, c := range []struct {
		name     string
		old, new []byte
		want     string
	}{
		{"same", lines(5, nil, true), lines(5, nil, true), ""},
		{"middle", lines(20, nil, true), lines(20, map[int]string{10: "X"}, true),
			"--- a/f.md\n+++ b/f.md\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+X\n l11\n l12\n l13\n"},
		{"first", lines(5, nil, true), lines(5, map[int]string{1: "X"}, true),
			"--- a/f.md\n+++ b/f.md\n@@ -1,4 +1,4 @@\n-l1\n+X\n l2\n l3\n l4\n"},
		{"merged", lines(20, nil, true), lines(20, map[int]string{5: "X", 11: "Y"}, true),
			"--- a/f.md\n+++ b/f.md\n@@ -2,13 +2,13 @@\n l2\n l3\n l4\n-l5\n+X\n l6\n l7\n l8\n l9\n l10\n-l11\n+Y\n l12\n l13\n l14\n"},
		{"apart", lines(20, nil, true), lines(20, map[int]string{2: "X", 12: "Y"}, true),
			"--- a/f.md\n+++ b/f.md\n@@ -1,5 +1,5 @@\n l1\n-l2\n+X\n l3\n l4\n l5\n@@ -9,7 +9,7 @@\n l9\n l10\n l11\n-l12\n+Y\n l13\n l14\n l15\n"},
		{"no newline", lines(3, nil, false), lines(3, map[int]string{3: "X"}, false),
			"--- a/f.md\n+++ b/f.md\n@@ -1,3 +1,3 @@\n l1\n l2\n-l3\n\\ No newline at end of file\n+X\n\\ No newline at end of file\n"},
		{"one line", []byte("a"), []byte("b"),
			"--- a/f.md\n+++ b/f.md\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"},
		{"from empty", nil, []byte("a\n"), "--- a/f.md\n+++ b/f.md\n@@ -0,0 +1 @@\n+a\n"},
	} {
		if got := UnifiedDiff("f.md", c.old, c.new); got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

// TestDiffLinesMinimal compares the Myers diff with a dynamic-programming
// longest common subsequence on random inputs: the script must rebuild both
// sides and keep as many lines as the LCS has.
func TestDiffLinesMinimal(t *testing.T) {
	rng := rand.New(rand.NewSource(5147))
	for n := 0; n < 500; n++ {
		a := randomLines(rng, rng.Intn(12))
		b := randomLines(rng, rng.Intn(12))
		edits := diffLines(a, b)
		var ra, rb []string
		kept := 0
		for _, e := range edits {
			switch e.kind {
			case opEqual:
				if a[e.a] != b[e.b] {
					t.Fatalf("%q %q: equal edit joins %q and %q", a, b, a[e.a], b[e.b])
				}
				ra, rb = append(ra, a[e.a]), append(rb, b[e.b])
				kept++
			case opDelete:
				ra = append(ra, a[e.a])
			case opInsert:
				rb = append(rb, b[e.b])
			}
		}
		if strings.Join(ra, ",") != strings.Join(a, ",") || strings.Join(rb, ",") != strings.Join(b, ",") {
			t.Fatalf("%q %q: script rebuilds %q %q", a, b, ra, rb)
		}
		// Within a run of changes, deletions come first.
		for i := 1; i < len(edits); i++ {
			if edits[i-1].kind == opInsert && edits[i].kind == opDelete {
				t.Fatalf("%q %q: a deletion after an insertion in one run: %v", a, b, edits)
			}
		}
		if want := lcsLen(a, b); kept != want {
			t.Fatalf("%q %q: kept %d lines, the LCS has %d", a, b, kept, want)
		}
	}
}

func randomLines(rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('a' + rng.Intn(3)))
	}
	return out
}

func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestRFCTextLines(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 1}, {"a", 1}, {"a\n", 1}, {"a\nb", 2}, {"a\r\nb\r\n", 2}, {"a\rb\u0085c\r\u0085", 3}, {"\n\r", 2},
	} {
		if got := len(newRFCText([]byte(c.text)).lines); got != c.want {
			t.Errorf("%q: %d lines, want %d", c.text, got, c.want)
		}
	}
	txt := newRFCText([]byte("añ\r\nb\u0085c"))
	for off, want := range map[int]int64{0: 0, 3: 2, 5: 3, 6: 4, 8: 5} {
		if got := txt.charPos(off); got != want {
			t.Errorf("charPos(%d) = %d, want %d", off, got, want)
		}
	}
	if txt.boundary(4) {
		t.Error("offset 4 splits CR+LF")
	}
}

func TestQuoteDiff(t *testing.T) {
	got := strings.Join(quoteDiff([]byte("1\n2\n3\n4\n5\n6\n7\n"), []byte("1\n2\n3\nfour\n5\n6\n7\n"), 40), "\n")
	want := "  …\n  2\n  3\n- 4\n+ four\n  5\n  6\n  …"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := quoteDiff([]byte("a\r\nb\r\n"), []byte("a\nb\n"), 40); len(got) != 1 || !strings.Contains(got[0], "line endings") {
		t.Errorf("line endings only: %q", got)
	}
}
