package pin

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// TestPlannerNames: through the API the language server uses, links whose
// titles name a symbol or a region are classed by where the name is now,
// history telling only moved from changed; what cannot be looked up is an
// error (or gone) with the lookup's message, and nothing is guessed.
func TestPlannerNames(t *testing.T) {
	dir, write, git := testRepo(t)
	// Lines (0-based): A 2–4, B 5–7, init 8–9 and 10–11, region r 13–14.
	src := "package p\n\nfunc A() {\n\tprintln(1)\n}\nfunc B() {\n\tprintln(2)\n}\nfunc init() {\n}\nfunc init() {\n}\n// textfrag:begin r\nvar R = 1\n// textfrag:end r\n"
	write("src/p.go", src)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "start")
	// A moves down two lines; B's body changes; the region moves with A.
	now := "package p\n\n// new\n\nfunc A() {\n\tprintln(1)\n}\nfunc B() {\n\tprintln(22)\n}\nfunc init() {\n}\nfunc init() {\n}\n// textfrag:begin r\nvar R = 1\n// textfrag:end r\n"
	write("src/p.go", now)
	// The same text at the link's lines and at the name's.
	dup := "package q\n// x\n// textfrag:begin y\n// x\n// textfrag:end y\n"
	write("src/q.go", dup)
	old, cur := md5hex(src), md5hex(now)
	link := func(frag, title string) string { return "[x](../src/p.go#" + frag + ` "` + title + "\")\n" }
	page := link("line=2,5;md5="+old, "sym=A") +
		link("line=5,8;md5="+old, "sym=B") +
		link("line=13,14;md5="+old, "region=r") +
		link("line=5,", "sym=A dedent") +
		link("line=4,7;md5="+cur, "sym=A") +
		link("line=4,7;md5="+cur, "sym=C") +
		link("line=10,12;md5="+cur, "sym=init") +
		link("char=0,4;md5="+cur, "sym=A") +
		link("line=4,7;md5="+cur, "sym=A region=r") +
		link("line=4,7;md5="+cur, "sym=A lang=python") +
		"[y](../src/q.go#line=1,2;md5=" + md5hex(dup) + " \"region=y\")\n"
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir)}
	changes := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))
	var got []string
	for _, c := range changes {
		got = append(got, fmt.Sprintf("%d %s %s %v %v", c.Link.Line, c.Class, c.NewDest, c.Apply, c.Failed))
	}
	want := []string{
		"1 moved ../src/p.go#line=4,7;md5=" + cur + " true false",
		"2 changed ../src/p.go#line=7,10;md5=" + cur + " false true",
		"3 moved ../src/p.go#line=15,16;md5=" + cur + " true false",
		"4 pinned ../src/p.go#line=4,7;md5=" + cur + " true false",
		"5 ok  false false",
		"6 gone  false true",
		"7 review  false true", // sym=init is ambiguous now: a name that cannot be followed
		"8 error  false true",
		"9 error  false true",
		"10 error  false true",
		"11 moved ../src/q.go#line=3,4;md5=" + md5hex(dup) + " true false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i, says := range map[int]string{
		1: "the text of sym=B changed since it was pinned",
		5: "sym=C is not in src/p.go (Go)",
		6: "sym=init matches 2 declarations in src/p.go",
		7: "needs a line range",
		8: "name lines twice",
		9: "no symbol parser for src/p.go",
	} {
		if !strings.Contains(changes[i].Message, says) {
			t.Errorf("link %d: %q does not say %q", i+1, changes[i].Message, says)
		}
	}

	// Without history, a named quote whose file changed cannot be told
	// moved from changed: nothing shows what it quoted, so it is review,
	// never re-pinned, even accepting changes.
	p = &Planner{Resolver: r, AcceptChanged: true}
	if c := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))[0]; c.Class != Review || c.NewDest != "" || c.Apply || !c.Failed ||
		!strings.Contains(c.Remedy, "remove the link's md5= and run `textfrag pin --write") {
		t.Errorf("no history: %+v", c)
	}
}

// TestPlannerTitleWords: a title with a word builds refuse ("region=r
// bogus", an hl= list that is not one) is the check's title error, with
// its message, and the link is never re-pinned, whatever its name says.
func TestPlannerTitleWords(t *testing.T) {
	dir, write, _ := testRepo(t)
	src := "package p\n\n// textfrag:begin r\nvar R = 1\n// textfrag:end r\nfunc A() {}\n"
	write("src/p.go", src)
	sum := md5hex(src)
	page := "[x](../src/p.go#line=1,2;md5=" + sum + " \"region=bad name\")\n" +
		"[x](../src/p.go#line=5,6 \"sym=A bogus\")\n" +
		"[x](../src/p.go#line=3,4;md5=" + sum + " \"region=r hl=x\")\n"
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir)}
	changes := p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))
	if len(changes) != 3 {
		t.Fatalf("%d changes, want 3", len(changes))
	}
	for i, says := range []string{
		`link title: unknown option "name"; options are`,
		`link title: unknown option "bogus"; options are`,
		`link title: bad line list "x" in hl=`,
	} {
		c := changes[i]
		if c.Class != Error || !c.Failed || c.Apply || c.NewDest != "" {
			t.Errorf("link %d: class %s failed %v apply %v dest %q, want an error that changes nothing", i+1, c.Class, c.Failed, c.Apply, c.NewDest)
		}
		if !strings.Contains(c.Message, says) || !strings.Contains(c.Message, "fix the title") {
			t.Errorf("link %d: %q does not say %q and how to fix it", i+1, c.Message, says)
		}
	}
}
