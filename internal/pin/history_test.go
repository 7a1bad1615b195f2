package pin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
)

// planPage plans page (a Markdown page at docs/p.md of the project dir)
// with history, accepting changes when accept is set.
func planPage(t *testing.T, dir, page string, accept bool) []Change {
	t.Helper()
	r, err := target.New(target.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := &Planner{Resolver: r, History: NewHistory(dir), AcceptChanged: accept}
	return p.Plan(filepath.Join(dir, "docs", "p.md"), []byte(page))
}

// lineLink is a link to lines [s, e) of the file at project path file,
// pinned to the version content.
func lineLink(file string, s, e int, content string) string {
	return fmt.Sprintf("[q](../%s#line=%d,%d;md5=%s)\n", file, s, e, md5hex(content))
}

// linesOf returns the 0-based line range [s, e) of the first occurrence
// of block (whole lines) in content.
func linesOf(t *testing.T, content, block string) (int, int) {
	t.Helper()
	i := strings.Index(content, block)
	if i < 0 || (i > 0 && content[i-1] != '\n') {
		t.Fatalf("block %q not in content", block)
	}
	s := strings.Count(content[:i], "\n")
	return s, s + strings.Count(block, "\n")
}

// never applies: no NewDest to write, not applied, blocks.
func mustNotApply(t *testing.T, what string, c Change) {
	t.Helper()
	if c.NewDest != "" || c.Apply || !c.Failed {
		t.Errorf("%s: %s would be applied (dest %q apply %v failed %v): %s", what, c.Class, c.NewDest, c.Apply, c.Failed, c.Message)
	}
}

const goroutine = "\tgo func() {\n\t\tdefer wg.Done()\n\t\tresp, err := client.Get(url)\n\t\tcheck(t, resp, err)\n\t}()\n"

// TestRelocateRewrittenDuplicate is the chi throttle case: a quoted block
// in a function that is rewritten, while an identical block lives on in
// another function. The quote is never moved into the other function —
// not in place, not after lines moved, not with changes accepted.
func TestRelocateRewrittenDuplicate(t *testing.T) {
	dir, write, git := testRepo(t)
	a := "package p\n\nfunc TestTrigger(t *T) {\n\tsetup()\n" + goroutine + "\twait()\n}\n\n"
	b := "func TestRetryAfter(t *T) {\n\tprepare()\n" + goroutine + "\tverify()\n}\n"
	v1 := a + b
	write("src/throttle_test.go", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	s, e := linesOf(t, v1, b)
	s, e = s+2, s+2+strings.Count(goroutine, "\n")
	page := lineLink("src/throttle_test.go", s, e, v1)

	for name, now := range map[string]string{
		"rewritten":                a + "func TestRetryAfter(t *T) {\n\tr := retry(3)\n\tr.run(t)\n}\n",
		"rewritten, lines above":   "package p\n\nimport \"x\"\n\nvar y = x.Y\n" + strings.TrimPrefix(a, "package p\n") + "func TestRetryAfter(t *T) {\n\tr := retry(3)\n}\n",
		"deleted":                  a,
		"renamed twin, rewritten":  strings.Replace(a, "TestTrigger", "TestGatewayTimeout", 1) + "func TestRetryAfter(t *T) {}\n",
		"commented out, rewritten": a + "// func TestRetryAfter(t *T) {\n// \tgone()\n// }\n",
	} {
		write("src/throttle_test.go", now)
		git("commit", "-qam", name)
		for _, accept := range []bool{false, true} {
			c := planPage(t, dir, page, accept)[0]
			if c.Class != Gone && c.Class != Review {
				t.Errorf("%s (accept %v): %s, want gone or review: %s", name, accept, c.Class, c.Message)
			}
			mustNotApply(t, name, c)
		}
		write("src/throttle_test.go", v1)
		git("commit", "-qam", "back to v1")
	}
	// The twin is named as a hint.
	write("src/throttle_test.go", a)
	git("commit", "-qam", "deleted")
	c := planPage(t, dir, page, false)[0]
	if c.Class != Gone || !strings.Contains(c.Message, "the same text is still at lines 5–9 (func TestTrigger): a hint, not the quote's new place") {
		t.Errorf("deleted: %s: %s", c.Class, c.Message)
	}
}

// TestRelocateDeletedLines: a quote of a function upstream deleted is
// gone, with the text it quoted shown as deleted; no range is kept, even
// with changes accepted (issue 22: tree.go's methodTypString).
func TestRelocateDeletedLines(t *testing.T) {
	dir, write, git := testRepo(t)
	fn := "func methodTyp(m int) string {\n\tfor s, t := range methodMap {\n\t\tif m == t {\n\t\t\treturn s\n\t\t}\n\t}\n\treturn \"\"\n}\n"
	v1 := "package chi\n\n" + fn + "\nfunc patNextSegment(p string) int {\n\tif p == \"\" {\n\t\treturn 0\n\t}\n\treturn len(p)\n}\n"
	write("tree.go", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	s, e := linesOf(t, v1, fn)
	page := lineLink("tree.go", s, e, v1)
	v2 := "package chi\n\nfunc patNextSegment(p string) int {\n\tif p == \"\" {\n\t\treturn 0\n\t}\n\treturn len(p) + 1\n}\n\nvar x = 1\n"
	write("tree.go", v2)
	git("commit", "-qam", "v2")
	for _, accept := range []bool{false, true} {
		c := planPage(t, dir, page, accept)[0]
		if c.Class != Gone || !strings.Contains(c.Message, "was deleted") || len(c.Detail) == 0 || c.Detail[0] != "- func methodTyp(m int) string {" {
			t.Errorf("accept %v: %s: %s\n%s", accept, c.Class, c.Message, strings.Join(c.Detail, "\n"))
		}
		mustNotApply(t, "deleted function", c)
	}
}

// TestRelocateModifiedLineMoved: a quoted function moved down (lines
// inserted above) and one of its lines edited is changed at its new place,
// with a diff of the quoted text; accepting re-pins the new place. A char=
// quote of a sentence that moved and changed a word is changed at the
// sentence's new place, the whole sentence (issue 22: context.go).
func TestRelocateModifiedLineMoved(t *testing.T) {
	dir, write, git := testRepo(t)
	fn := "// URLParam returns the url parameter from a http.Request object.\nfunc URLParam(r *http.Request, key string) string {\n\tif rctx := RouteContext(r.Context()); rctx != nil {\n\t\treturn rctx.URLParam(key)\n\t}\n\treturn \"\"\n}\n"
	v1 := "package chi\n\n" + fn
	write("context.go", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	s, e := linesOf(t, v1, fn)
	sentence := "URLParam returns the url parameter from a http.Request object."
	cs := strings.Index(v1, sentence)
	page := lineLink("context.go", s, e, v1) +
		fmt.Sprintf("[c](../context.go#char=%d,%d;md5=%s)\n", cs, cs+len(sentence), md5hex(v1))
	var above strings.Builder
	for i := 0; i < 27; i++ {
		fmt.Fprintf(&above, "// note %d\n", i)
	}
	fn2 := strings.Replace(fn, "from a http.Request object", "from a http.Request", 1)
	fn2 = strings.Replace(fn2, "\treturn rctx.URLParam(key)\n", "\treturn rctx.URLParam(strings.TrimSpace(key))\n", 1)
	v2 := "package chi\n\n" + above.String() + fn2
	write("context.go", v2)
	git("commit", "-qam", "v2")
	ns, ne := linesOf(t, v2, fn2)
	ncs := strings.Index(v2, "URLParam returns the url parameter from a http.Request.")
	wantLine := fmt.Sprintf("../context.go#line=%d,%d;md5=%s", ns, ne, md5hex(v2))
	wantChar := fmt.Sprintf("../context.go#char=%d,%d;md5=%s", ncs, ncs+len("URLParam returns the url parameter from a http.Request."), md5hex(v2))
	for _, accept := range []bool{false, true} {
		cs := planPage(t, dir, page, accept)
		lc, cc := cs[0], cs[1]
		detail := strings.Join(lc.Detail, "\n")
		if lc.Class != Changed || lc.NewDest != wantLine || lc.Apply != accept || lc.Failed == accept ||
			!strings.Contains(detail, "-\t\treturn rctx.URLParam(key)") && !strings.Contains(detail, "- \t\treturn rctx.URLParam(key)") ||
			!strings.Contains(detail, "+ \t\treturn rctx.URLParam(strings.TrimSpace(key))") {
			t.Errorf("lines, accept %v: %s %q apply %v failed %v: %s\n%s", accept, lc.Class, lc.NewDest, lc.Apply, lc.Failed, lc.Message, detail)
		}
		if cc.Class != Changed || cc.NewDest != wantChar || cc.Apply != accept {
			t.Errorf("chars, accept %v: %s %q (want %q) apply %v: %s\n%s", accept, cc.Class, cc.NewDest, wantChar, cc.Apply, cc.Message, strings.Join(cc.Detail, "\n"))
		}
	}
	// What accepting writes quotes the new text, and is then ok.
	newPage := string(ApplyEdits([]byte(page), Edits(planPage(t, dir, page, true))))
	for _, c := range planPage(t, dir, newPage, false) {
		if c.Class != OK {
			t.Errorf("after accepting: %s: %s", c.Class, c.Message)
		}
	}
}

// TestRelocateRebase: docs pinned on a branch, the branch rebased onto
// upstream: the pinned version is in no branch's history any more, but
// ORIG_HEAD and then the reflog still have it; the message says where.
func TestRelocateRebase(t *testing.T) {
	dir, write, git := testRepo(t)
	base := "package p\n\nfunc A() {\n\tone()\n}\n\nfunc B() {\n\ttwo()\n}\n"
	write("src/p.go", base)
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "base")
	git("checkout", "-qb", "feature")
	marked := strings.Replace(base, "func B() {\n\ttwo()\n}\n", "// textfrag:begin b\nfunc B() {\n\ttwo()\n}\n// textfrag:end b\n", 1)
	write("src/p.go", marked)
	git("commit", "-qam", "markers")
	s, e := linesOf(t, marked, "func B() {\n\ttwo()\n}\n")
	page := lineLink("src/p.go", s, e, marked)
	git("checkout", "-q", "main")
	write("src/p.go", "package p\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n"+strings.TrimPrefix(base, "package p\n"))
	git("commit", "-qam", "upstream")
	git("checkout", "-q", "feature")
	git("rebase", "-q", "main")

	c := planPage(t, dir, page, false)[0]
	if c.Class != Moved || !strings.Contains(c.Message, "ORIG_HEAD") || !strings.Contains(c.Version, "ORIG_HEAD") || c.NewDest == "" || !c.Apply {
		t.Errorf("after rebase: %s: %s", c.Class, c.Message)
	}
	// ORIG_HEAD gone (another rebase or reset moved it): the reflog.
	git("update-ref", "-d", "ORIG_HEAD")
	c = planPage(t, dir, page, false)[0]
	if c.Class != Moved || !strings.Contains(c.Message, "reflog") {
		t.Errorf("reflog only: %s: %s", c.Class, c.Message)
	}
	// The reflog expired too: nothing has the version; review, not a guess.
	git("reflog", "expire", "--expire=now", "--all")
	git("gc", "-q", "--prune=now")
	c = planPage(t, dir, page, true)[0]
	if c.Class != Review || !strings.Contains(c.Message, "no version of the file git still has") {
		t.Errorf("expired: %s: %s", c.Class, c.Message)
	}
	mustNotApply(t, "expired", c)
}

// TestRelocateOtherRef: a version only another branch has is found there,
// and the message names the branch.
func TestRelocateOtherRef(t *testing.T) {
	dir, write, git := testRepo(t)
	v1 := "package p\n\nfunc A() {\n\tone()\n}\n"
	write("src/p.go", v1)
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "v1")
	git("checkout", "-qb", "docs")
	v2 := "package p\n\n// A does one thing.\nfunc A() {\n\tone()\n}\n"
	write("src/p.go", v2)
	git("commit", "-qam", "doc comment")
	page := lineLink("src/p.go", 3, 6, v2)
	git("checkout", "-q", "main")
	write("src/p.go", "package p\n\nvar x = 1\n\n// A does one thing.\nfunc A() {\n\tone()\n}\n")
	c := planPage(t, dir, page, false)[0]
	if c.Class != Moved || !strings.Contains(c.Message, "on docs, not in HEAD's history") || !strings.HasPrefix(c.NewDest, "../src/p.go#line=5,8;") {
		t.Errorf("%s %s: %s", c.Class, c.NewDest, c.Message)
	}
}

// TestRelocateMerge: docs pinned on a branch that then merges upstream
// changes: the pinned version is in HEAD's history; the quote moved with
// the lines upstream inserted.
func TestRelocateMerge(t *testing.T) {
	dir, write, git := testRepo(t)
	base := "package p\n\nfunc A() {\n\tone()\n}\n\nfunc B() {\n\ttwo()\n}\n"
	write("src/p.go", base)
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "base")
	git("checkout", "-qb", "feature")
	feat := base + "\nfunc C() {\n\tthree()\n}\n"
	write("src/p.go", feat)
	git("commit", "-qam", "C")
	page := lineLink("src/p.go", 6, 9, feat) + lineLink("src/p.go", 2, 5, feat)
	git("checkout", "-q", "main")
	write("src/p.go", strings.Replace(base, "func A() {\n\tone()\n}\n", "func A() {\n\tone()\n\tuno()\n}\n", 1))
	git("commit", "-qam", "A grows")
	git("checkout", "-q", "feature")
	git("merge", "-q", "--no-edit", "main")
	cs := planPage(t, dir, page, false)
	if cs[0].Class != Moved || !strings.HasPrefix(cs[0].NewDest, "../src/p.go#line=7,10;") {
		t.Errorf("B: %s %s: %s", cs[0].Class, cs[0].NewDest, cs[0].Message)
	}
	if cs[1].Class != Changed || !strings.HasPrefix(cs[1].NewDest, "../src/p.go#line=2,6;") || cs[1].Apply {
		t.Errorf("A: %s %s: %s", cs[1].Class, cs[1].NewDest, cs[1].Message)
	}
}

// TestRelocateRename: a file renamed with git mv (and edited): a link to
// the new name with the old md5 finds the version under its old name.
func TestRelocateRename(t *testing.T) {
	dir, write, git := testRepo(t)
	v1 := "package p\n\nfunc A() {\n\tone()\n}\n"
	write("src/old.go", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	git("mv", "src/old.go", "src/new.go")
	git("commit", "-qm", "rename")
	write("src/new.go", "package p\n\n// A is one.\nfunc A() {\n\tone()\n}\n")
	git("commit", "-qam", "doc")
	c := planPage(t, dir, lineLink("src/new.go", 2, 5, v1), false)[0]
	if c.Class != Moved || !strings.HasPrefix(c.NewDest, "../src/new.go#line=3,6;") {
		t.Errorf("%s %s: %s", c.Class, c.NewDest, c.Message)
	}
}

// TestRelocateNameRemedy: a sym= quote whose declaration was deleted is
// gone with the lookup's remedy ("quote by lines without sym="); following
// it (dropping sym=) must not pin whatever the old lines hold now.
func TestRelocateNameRemedy(t *testing.T) {
	dir, write, git := testRepo(t)
	v1 := "package p\n\nfunc methodTyp() string {\n\treturn \"GET\"\n}\n\nfunc next() int {\n\treturn 1\n}\n"
	write("tree.go", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	v2 := "package p\n\nfunc next() int {\n\treturn 1\n}\n\nfunc more() int {\n\treturn 2\n}\n"
	write("tree.go", v2)
	git("commit", "-qam", "v2")
	named := fmt.Sprintf("[q](../tree.go#line=2,5;md5=%s \"sym=methodTyp\")\n", md5hex(v1))
	c := planPage(t, dir, named, true)[0]
	if c.Class != Gone || !strings.Contains(c.Message, "quote by lines without sym=") || strings.Contains(c.Message, "the diff carries") {
		t.Fatalf("named: %s: %s", c.Class, c.Message)
	}
	mustNotApply(t, "named", c)
	plain := strings.Replace(named, ` "sym=methodTyp"`, "", 1)
	c = planPage(t, dir, plain, true)[0]
	if c.Class != Gone && c.Class != Review {
		t.Errorf("remedy followed: %s: %s", c.Class, c.Message)
	}
	mustNotApply(t, "remedy followed", c)
}

// TestRelocateStaged: a version only the index has (staged, never
// committed) is found there.
func TestRelocateStaged(t *testing.T) {
	dir, write, git := testRepo(t)
	write("a.txt", "x\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	staged := "one\ntwo\nthree\n"
	write("a.txt", staged)
	git("add", "a.txt")
	write("a.txt", "zero\none\ntwo\nthree\n")
	c := planPage(t, dir, lineLink("a.txt", 1, 2, staged), false)[0]
	if c.Class != Moved || !strings.HasPrefix(c.NewDest, "../a.txt#line=2,3;") {
		t.Errorf("%s %s: %s", c.Class, c.NewDest, c.Message)
	}
}

func init() {
	// The tests' git runs must not read the user's configuration.
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	_ = exec.ErrNotFound
}

// TestRelocateDuplicateWithoutParser: in a file no symbol parser reads, a
// quoted block whose section was rewritten is never moved onto its twin
// in another section, however the diff pairs them.
func TestRelocateDuplicateWithoutParser(t *testing.T) {
	dir, write, git := testRepo(t)
	block := "step one\nstep two\nstep three\n"
	v1 := "# Install\n\nintro\n" + block + "\n# Upgrade\n\nother words\n" + block + "end\n"
	write("guide.txt", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	s, e := linesOf(t, v1, "other words\n"+block)
	page := lineLink("guide.txt", s+1, e, v1)
	for name, now := range map[string]string{
		"section rewritten":      "# Install\n\nintro\n" + block + "\n# Upgrade\n\nrun the new tool\n",
		"section deleted, moved": "preface\n\n# Install\n\nintro\n" + block + "end\n",
		"headings renamed":       "# Setup\n\nintro changed\n" + block + "\n# Later\n\nchanged words\nstep 2\nend\n",
	} {
		write("guide.txt", now)
		c := planPage(t, dir, page, true)[0]
		if c.Class == Moved || c.Class == Refreshed || c.Class == Changed && c.NewDest != "" {
			t.Errorf("%s: %s %s: %s", name, c.Class, c.NewDest, c.Message)
		}
	}
}

// TestRelocateReviewHintShowsText is requests' _get_connection (v2.32.0
// → v2.32.2, aa1461b6): a method renamed with its signature rewritten
// over several lines, its body carried unchanged. pin cannot show the
// rename, so the quote of the body is review; the hint it prints is the
// text at the place the diff leads to — it once said "(only line endings
// changed)" of text that had not changed at all.
func TestRelocateReviewHintShowsText(t *testing.T) {
	dir, write, git := testRepo(t)
	body := "\tproxy := selectProxy(req.URL, proxies)\n\tif proxy != \"\" {\n\t\tconn = manager.For(proxy)\n\t} else {\n\t\tconn = pool.For(req.URL)\n\t}\n\treturn conn\n"
	v1 := "package adapters\n\nfunc (a *Adapter) getConnection(req *Request, verify bool, proxies Proxies) *Conn {\n" + body + "}\n\nfunc (a *Adapter) Close() {}\n"
	write("adapters.go", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	s, e := linesOf(t, v1, body)
	page := lineLink("adapters.go", s, e, v1)
	v2 := "package adapters\n\nfunc (a *Adapter) Close() {}\n\nfunc (a *Adapter) ConnectionWithTLSContext(\n\treq *Request,\n\tverify bool,\n\tproxies Proxies,\n\tcert Cert,\n) *Conn {\n" + body + "}\n"
	write("adapters.go", v2)
	git("commit", "-qam", "v2")
	c := planPage(t, dir, page, true)[0]
	if c.Class != Review && c.Class != Moved {
		t.Fatalf("%s, want review or moved: %s", c.Class, c.Message)
	}
	if c.Class == Review {
		mustNotApply(t, "renamed with a new signature", c)
	}
	got := strings.Join(c.Detail, "\n")
	if strings.Contains(got, "line endings") || !strings.Contains(got, "proxy := selectProxy(req.URL, proxies)") {
		t.Errorf("%s: the hint does not show the text:\n%s\n(message: %s)", c.Class, got, c.Message)
	}
}

// TestQuoteDiffSameText: text that is the same is shown as unchanged
// lines; "only line endings changed" is said only when they did.
func TestQuoteDiffSameText(t *testing.T) {
	if got := quoteDiff([]byte("a\nb\n"), []byte("a\nb\n"), 40); strings.Join(got, "|") != "  a|  b" {
		t.Errorf("same text: %q", got)
	}
	if got := quoteDiff([]byte("a\r\nb\r\n"), []byte("a\nb\n"), 40); strings.Join(got, "|") != "(only line endings changed)" {
		t.Errorf("line endings: %q", got)
	}
}

// TestRelocateNameGoneHint is requests' HTTPAdapter._get_connection,
// rewritten as get_connection_with_tls_context with a new signature over
// several lines (aa1461b6): sym= of the old name is gone, and the close
// names the lookup offers (by spelling) miss the successor; the message
// names the declaration the diff carries the quoted lines into, as a
// hint. Following it (the link names the new declaration) shows the
// change for review, and accepting pins the new declaration.
func TestRelocateNameGoneHint(t *testing.T) {
	dir, write, git := testRepo(t)
	body := "\tproxy := selectProxy(req.URL, proxies)\n\tif proxy != \"\" {\n\t\tconn = manager.For(proxy)\n\t} else {\n\t\tconn = pool.For(req.URL)\n\t}\n\treturn conn\n"
	v1 := "package adapters\n\nfunc (a *Adapter) getConnection(req *Request, verify bool, proxies Proxies) *Conn {\n" + body + "}\n\nfunc (a *Adapter) GetConnections() []*Conn { return nil }\n"
	write("adapters.go", v1)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	v2 := "package adapters\n\nfunc (a *Adapter) GetConnections() []*Conn { return nil }\n\nfunc (a *Adapter) ConnectionWithTLSContext(\n\treq *Request,\n\tverify bool,\n\tproxies Proxies,\n\tcert Cert,\n) *Conn {\n" + body + "}\n"
	write("adapters.go", v2)
	git("commit", "-qam", "v2")
	link := fmt.Sprintf("[q](../adapters.go#line=2,11;md5=%s \"sym=Adapter.getConnection\")\n", md5hex(v1))
	c := planPage(t, dir, link, true)[0]
	if c.Class != Gone || !strings.Contains(c.Message, "the diff carries 6 of its 7 lines (as they were or edited) into method Adapter.ConnectionWithTLSContext (lines 5–18): a hint, not its new name") {
		t.Fatalf("%s: %s", c.Class, c.Message)
	}
	mustNotApply(t, "gone name", c)
	renamed := strings.Replace(link, "sym=Adapter.getConnection", "sym=Adapter.ConnectionWithTLSContext", 1)
	c = planPage(t, dir, renamed, false)[0]
	if c.Class != Changed || c.Apply || len(c.Detail) == 0 {
		t.Fatalf("the hint followed: %s (apply %v): %s", c.Class, c.Apply, c.Message)
	}
	c = planPage(t, dir, renamed, true)[0]
	if c.Class != Changed || !c.Apply || !strings.HasPrefix(c.NewDest, "../adapters.go#line=4,18;md5="+md5hex(v2)) {
		t.Errorf("the hint followed, accepted: %s %s: %s", c.Class, c.NewDest, c.Message)
	}
}
