package pin

import (
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/mdlink"
)

// TestConsistency: the link's title and text follow its new range; names
// and other options stay as written.
func TestConsistency(t *testing.T) {
	cases := []struct {
		name, page, newDest string
		class               Class
		want                string
		warn                string
		lines               *LineMove // where relocation carried the lines
	}{
		{"moved: hl and caption", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12,15-17 dedent")`, "../src/a.go#line=12,22;md5=1", Moved,
			`[a.go lines 13–22](../src/a.go#line=12,22;md5=1 "hl=14,17-19 dedent")`, "", nil},
		{"moved up: one line", `[a.go line 5](../src/a.go#line=4,5;md5=0 'hl=5')`, "../src/a.go#line=1,2;md5=1", Moved,
			`[a.go line 2](../src/a.go#line=1,2;md5=1 'hl=2')`, "", nil},
		{"named: name kept", `[server.go: Server.Handle](../src/server.go#line=10,20;md5=0 "sym=Server.Handle hl=11 lang=go")`, "../src/server.go#line=30,40;md5=1", Moved,
			`[server.go: Server.Handle](../src/server.go#line=30,40;md5=1 "sym=Server.Handle hl=31 lang=go")`, "", nil},
		{"changed, same length", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12")`, "../src/a.go#line=11,21;md5=1", Changed,
			`[a.go lines 12–21](../src/a.go#line=11,21;md5=1 "hl=13")`, "", nil},
		{"changed, other length: hl dropped", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12 dedent")`, "../src/a.go#line=11,25;md5=1", Changed,
			`[a.go lines 12–25](../src/a.go#line=11,25;md5=1 "dedent")`, "hl=12 is dropped", nil},
		{"own text kept", `[the handler](../src/a.go#line=10,20;md5=0)`, "../src/a.go#line=12,22;md5=1", Moved,
			`[the handler](../src/a.go#line=12,22;md5=1)`, "", nil},
		{"another file's caption kept", `[b.go lines 11–20](../src/a.go#line=10,20;md5=0)`, "../src/a.go#line=12,22;md5=1", Moved,
			`[b.go lines 11–20](../src/a.go#line=12,22;md5=1)`, "", nil},
		{"angle brackets", `[a.go lines 11–20](<../src/a.go#line=10,20;md5=0> "hl=20")`, "../src/a.go#line=9,19;md5=1", Moved,
			`[a.go lines 10–19](<../src/a.go#line=9,19;md5=1> "hl=19")`, "", nil},
		{"char range, no line map: untouched", `[a.go](../src/a.go#char=10,20;md5=0 "hl=1")`, "../src/a.go#char=12,22;md5=1", Moved,
			`[a.go](../src/a.go#char=12,22;md5=1 "hl=1")`, "", nil},
		{"escaped title left, warned", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12 \"x")`, "../src/a.go#line=12,22;md5=1", Moved,
			`[a.go lines 13–22](../src/a.go#line=12,22;md5=1 "hl=12 \"x")`, "is not rewritten", nil},
		// Relocation followed the lines (Change.Lines).
		{"changed, other length: hl follows the line map", `[a.go lines 11–14](../src/a.go#line=10,14;md5=0 "hl=11-13 dedent")`, "../src/a.go#line=10,16;md5=1", Changed,
			`[a.go lines 11–16](../src/a.go#line=10,16;md5=1 "hl=11,14-15 dedent")`, "",
			&LineMove{Was: "lines 11–14", Now: "lines 11–16", First: 11, To: []int64{11, 14, 15, 16}}},
		{"changed: an emphasized line deleted", `[a.go lines 11–14](../src/a.go#line=10,14;md5=0 "hl=12-13")`, "../src/a.go#line=10,13;md5=1", Changed,
			`[a.go lines 11–13](../src/a.go#line=10,13;md5=1 "hl=12")`, "hl=12-13 became hl=12: line 13 was deleted",
			&LineMove{Was: "lines 11–14", Now: "lines 11–13", First: 11, To: []int64{11, 12, 0, 13}}},
		{"changed: every emphasized line deleted", `[a.go lines 11–14](../src/a.go#line=10,14;md5=0 "hl=13 dedent")`, "../src/a.go#line=10,13;md5=1", Changed,
			`[a.go lines 11–13](../src/a.go#line=10,13;md5=1 "dedent")`, "hl=13 is dropped: line 13 was deleted",
			&LineMove{Was: "lines 11–14", Now: "lines 11–13", First: 11, To: []int64{11, 12, 0, 13}}},
		{"changed: an emphasized line outside the quote", `[a.go lines 11–12](../src/a.go#line=10,12;md5=0 "hl=11,30")`, "../src/a.go#line=11,14;md5=1", Changed,
			`[a.go lines 12–14](../src/a.go#line=11,14;md5=1 "hl=12")`, "line 30 is not a line the quote showed",
			&LineMove{Was: "lines 11–12", Now: "lines 12–14", First: 11, To: []int64{12, 14}}},
		{"changed: the title was its hl= alone: no title left, not an empty one", `[a.go lines 11–14](../src/a.go#line=10,14;md5=0 "hl=13")`, "../src/a.go#line=10,13;md5=1", Changed,
			`[a.go lines 11–13](../src/a.go#line=10,13;md5=1)`, "hl=13 is dropped: line 13 was deleted",
			&LineMove{Was: "lines 11–14", Now: "lines 11–13", First: 11, To: []int64{11, 12, 0, 13}}},
		{"changed: hl= alone dropped, angle brackets and a newline before the title", "[a.go lines 11–14](<../src/a.go#line=10,14;md5=0>\n  'hl=13') and on", "../src/a.go#line=10,13;md5=1", Changed,
			`[a.go lines 11–13](<../src/a.go#line=10,13;md5=1>) and on`, "hl=13 is dropped",
			&LineMove{Was: "lines 11–14", Now: "lines 11–13", First: 11, To: []int64{11, 12, 0, 13}}},
		{"char range moved: caption and hl", `[a.go line 3, col 5 – line 4, col 9](../src/a.go#char=24,40;md5=0 "hl=4")`, "../src/a.go#char=60,76;md5=1", Moved,
			`[a.go line 6, col 5 – line 7, col 9](../src/a.go#char=60,76;md5=1 "hl=7")`, "",
			&LineMove{Was: "line 3, col 5 – line 4, col 9", Now: "line 6, col 5 – line 7, col 9", First: 3, To: []int64{6, 7}, Same: true}},
		{"char range changed: caption of one point", `[a.go line 3, col 5](../src/a.go#char=24,25;md5=0)`, "../src/a.go#char=30,31;md5=1", Changed,
			`[a.go line 3, col 11](../src/a.go#char=30,31;md5=1)`, "",
			&LineMove{Was: "line 3, col 5", Now: "line 3, col 11", First: 3, To: []int64{3}}},
		{"char range: own text kept", `[the sentence](../src/a.go#char=24,40;md5=0)`, "../src/a.go#char=60,76;md5=1", Moved,
			`[the sentence](../src/a.go#char=60,76;md5=1)`, "",
			&LineMove{Was: "line 3, col 5 – line 4, col 9", Now: "line 6, col 5 – line 7, col 9", First: 3, To: []int64{6, 7}, Same: true}},
		{"named: name and own caption kept, hl follows", `[server.go: Server.Handle](../src/server.go#line=10,12;md5=0 "sym=Server.Handle hl=11")`, "../src/server.go#line=20,23;md5=1", Changed,
			`[server.go: Server.Handle](../src/server.go#line=20,23;md5=1 "sym=Server.Handle hl=21")`, "",
			&LineMove{Was: "lines 11–12", Now: "lines 21–23", First: 11, To: []int64{21, 23}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			links := mdlink.Page([]byte(c.page))
			if len(links) != 1 || links[0].Start < 0 {
				t.Fatalf("links %+v", links)
			}
			ch := Change{Link: links[0], Class: c.class, NewDest: c.newDest, Apply: true, Target: "src/" + map[bool]string{true: "server.go", false: "a.go"}[strings.Contains(c.page, "server.go")]}
			ch.Lines = c.lines
			edits, warns := Consistency([]byte(c.page), ch)
			got := string(ApplyEdits([]byte(c.page), append(Edits([]Change{ch}), edits...)))
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if w := strings.Join(warns, "\n"); c.warn == "" && w != "" || !strings.Contains(w, c.warn) {
				t.Errorf("warnings %q, want %q", w, c.warn)
			}
		})
	}
}

// TestMoveLineListBounded: an hl= list is followed line by line, so the
// lines it names in all its parts are bounded (each part was, not their
// sum): a title of 2,000 "1-100000" is dropped, with why, after at most
// maxHLLines lines, not followed through 200 million.
func TestMoveLineListBounded(t *testing.T) {
	calls := 0
	move := func(a int64) (int64, string) { calls++; return a + 1, "" }
	list := strings.TrimSuffix(strings.Repeat("1-100000,", 2000), ",")
	moved, dropped := moveLineList(list, move)
	if moved != "" || !strings.Contains(dropped, "more than 100000 lines") || calls > maxHLLines {
		t.Errorf("moved %.40q, dropped %q, after %d lines", moved, dropped, calls)
	}
	calls = 0
	if moved, dropped := moveLineList("3,5-6", move); moved != "4,6-7" || dropped != "" || calls != 3 {
		t.Errorf("a short list: %q %q after %d lines", moved, dropped, calls)
	}
}
