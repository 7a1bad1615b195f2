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
	}{
		{"moved: hl and caption", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12,15-17 dedent")`, "../src/a.go#line=12,22;md5=1", Moved,
			`[a.go lines 13–22](../src/a.go#line=12,22;md5=1 "hl=14,17-19 dedent")`, ""},
		{"moved up: one line", `[a.go line 5](../src/a.go#line=4,5;md5=0 'hl=5')`, "../src/a.go#line=1,2;md5=1", Moved,
			`[a.go line 2](../src/a.go#line=1,2;md5=1 'hl=2')`, ""},
		{"named: name kept", `[server.go: Server.Handle](../src/server.go#line=10,20;md5=0 "sym=Server.Handle hl=11 lang=go")`, "../src/server.go#line=30,40;md5=1", Moved,
			`[server.go: Server.Handle](../src/server.go#line=30,40;md5=1 "sym=Server.Handle hl=31 lang=go")`, ""},
		{"changed, same length", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12")`, "../src/a.go#line=11,21;md5=1", Changed,
			`[a.go lines 12–21](../src/a.go#line=11,21;md5=1 "hl=13")`, ""},
		{"changed, other length: hl dropped", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12 dedent")`, "../src/a.go#line=11,25;md5=1", Changed,
			`[a.go lines 12–25](../src/a.go#line=11,25;md5=1 "dedent")`, "hl=12 is dropped"},
		{"own text kept", `[the handler](../src/a.go#line=10,20;md5=0)`, "../src/a.go#line=12,22;md5=1", Moved,
			`[the handler](../src/a.go#line=12,22;md5=1)`, ""},
		{"another file's caption kept", `[b.go lines 11–20](../src/a.go#line=10,20;md5=0)`, "../src/a.go#line=12,22;md5=1", Moved,
			`[b.go lines 11–20](../src/a.go#line=12,22;md5=1)`, ""},
		{"angle brackets", `[a.go lines 11–20](<../src/a.go#line=10,20;md5=0> "hl=20")`, "../src/a.go#line=9,19;md5=1", Moved,
			`[a.go lines 10–19](<../src/a.go#line=9,19;md5=1> "hl=19")`, ""},
		{"char range untouched", `[a.go](../src/a.go#char=10,20;md5=0 "hl=1")`, "../src/a.go#char=12,22;md5=1", Moved,
			`[a.go](../src/a.go#char=12,22;md5=1 "hl=1")`, ""},
		{"escaped title left, warned", `[a.go lines 11–20](../src/a.go#line=10,20;md5=0 "hl=12 \"x")`, "../src/a.go#line=12,22;md5=1", Moved,
			`[a.go lines 13–22](../src/a.go#line=12,22;md5=1 "hl=12 \"x")`, "is not rewritten"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			links := mdlink.Page([]byte(c.page))
			if len(links) != 1 || links[0].Start < 0 {
				t.Fatalf("links %+v", links)
			}
			ch := Change{Link: links[0], Class: c.class, NewDest: c.newDest, Apply: true, Target: "src/" + map[bool]string{true: "server.go", false: "a.go"}[strings.Contains(c.page, "server.go")]}
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
