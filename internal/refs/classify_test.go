package refs

import (
	"strings"
	"testing"

	"github.com/textfrag/textfrag/internal/pin"
)

// base is a pinned quote of src/a.go lines 10–12, quoted in docs/g.md:3.
func base() facts {
	return facts{page: "docs/g.md", pageLine: 3, path: "src/a.go", oldPath: "src/a.go", newPath: "src/a.go",
		quoted: "lines 10–12", pinned: true}
}

// TestDecide: each combination of facts gives one class, and the case
// describe words.
func TestDecide(t *testing.T) {
	with := func(change func(f *facts)) facts {
		f := base()
		change(&f)
		return f
	}
	cases := []struct {
		name  string
		f     facts
		class Class
		why   string
	}{
		{"file deleted", with(func(f *facts) { f.newPath = "" }), Deleted, caseFileDeleted},
		{"unpinned, new in the page", with(func(f *facts) { f.pinned, f.newInPage = false, true }), "", caseNone},
		{"pinned to the work tree", with(func(f *facts) { f.current = true }), "", caseNone},
		{"named, still exact", with(func(f *facts) { f.name, f.engine = "sym=A", pin.OK }), "", caseNone},
		{"refresh", with(func(f *facts) { f.engine, f.followed = pin.Refreshed, true }), Refresh, caseRefresh},
		{"moved", with(func(f *facts) { f.engine, f.followed = pin.Moved, true }), Moved, caseMoved},
		{"moved, not resolvable", with(func(f *facts) { f.engine = pin.Moved }), Review, caseBug},
		{"renamed intact", with(func(f *facts) { f.engine, f.followed, f.renamed = pin.OK, true, true }), Renamed, caseRenamed},
		{"unpinned in place", with(func(f *facts) { f.pinned, f.engine, f.followed = false, pin.Refreshed, true }), "", caseNone},
		{"unpinned shifted", with(func(f *facts) { f.pinned, f.engine, f.followed = false, pin.Moved, true }), Changed, caseUnpinnedMoved},
		{"unpinned shifted and renamed", with(func(f *facts) { f.pinned, f.engine, f.followed, f.renamed = false, pin.Moved, true, true }), Changed, caseUnpinnedMoved},
		{"unpinned renamed in place", with(func(f *facts) { f.pinned, f.engine, f.followed, f.renamed = false, pin.OK, true, true }), Renamed, caseRenamed},
		{"unpinned edited", with(func(f *facts) { f.pinned, f.engine = false, pin.Changed }), Changed, caseChanged},
		{"edited", with(func(f *facts) { f.engine = pin.Changed }), Changed, caseChanged},
		{"renamed and edited", with(func(f *facts) { f.engine, f.renamed = pin.Changed, true }), Changed, caseRenamedChanged},
		{"lines deleted", with(func(f *facts) { f.engine, f.linesDeleted = pin.Gone, true }), Changed, caseLinesGone},
		{"gone, not deleted", with(func(f *facts) { f.engine = pin.Gone }), Review, caseReview},
		{"engine review", with(func(f *facts) { f.engine = pin.Review }), Review, caseReview},
		{"engine error", with(func(f *facts) { f.engine = pin.Error }), Review, caseReview},
		{"name gone", with(func(f *facts) { f.name, f.engine = "sym=A", pin.Gone }), Deleted, caseNameGone},
		{"name stuck", with(func(f *facts) { f.name, f.engine = "sym=A", pin.Error }), Review, caseNameStuck},
		{"name matched twice (pin: review)", with(func(f *facts) { f.name, f.engine, f.unfollowed = "sym=A", pin.Review, true }), Review, caseNameStuck},
		{"named, engine review for another reason", with(func(f *facts) { f.name, f.engine = "sym=A", pin.Review }), Review, caseReview},
		{"name body changed", with(func(f *facts) { f.name, f.engine = "sym=A", pin.Changed }), Changed, caseChanged},
	}
	for _, c := range cases {
		if v := decide(c.f); v.class != c.class || v.why != c.why {
			t.Errorf("%s: %q (%s), want %q (%s)", c.name, v.class, v.why, c.class, c.why)
		}
	}
}

// TestDescribe: each case's message names the page and line, what
// happened, and a remedy a person can follow (the command in backquotes,
// or the link to write); a fix is given only where it is known.
func TestDescribe(t *testing.T) {
	f := base()
	f.followedAt, f.fix, f.engineMsg = "lines 11–13", "../src/a.go#line=10,13", "the engine's words"
	cases := []struct {
		why     string
		tweak   func(f *facts)
		want    []string
		wantFix bool
	}{
		{caseFileDeleted, nil, []string{"src/a.go was deleted"}, false},
		{caseFileDeleted, func(f *facts) { f.unreadable = "read src/a.go: not a regular file (a FIFO)" }, []string{"src/a.go cannot be read now (read src/a.go: not a regular file (a FIFO)): the page needs review"}, false},
		{caseRenamed, func(f *facts) { f.newPath = "src/b.go" }, []string{"renamed to src/b.go", "change the link to ../src/a.go#line=10,13"}, true},
		{caseMoved, nil, []string{"intact at lines 11–13", "`textfrag pin --write docs/g.md`"}, true},
		{caseRefresh, nil, []string{"unchanged in place", "`textfrag pin --write docs/g.md`"}, true},
		{caseUnpinnedMoved, func(f *facts) { f.pinned = false }, []string{"no md5", "shows other lines now", "change the link to ../src/a.go#line=10,13", "`textfrag pin --write --accept docs/g.md:3`"}, true},
		{caseChanged, nil, []string{"the quoted text changed", "`textfrag pin --write --accept docs/g.md:3`"}, false},
		{caseChanged, func(f *facts) { f.pinned = false }, []string{"no md5", "unreviewed", "`textfrag pin --write --accept docs/g.md:3`"}, false},
		{caseLinesGone, func(f *facts) { f.linesDeleted = true }, []string{"the quoted lines were deleted", "`textfrag link src/a.go:FIRST-LAST --from docs/g.md`"}, false},
		{caseReview, nil, []string{": pin cannot show where the quoted text is now: review the page", "the engine's words"}, false},
		{caseNameGone, func(f *facts) { f.name = "sym=A" }, []string{"sym=A is no longer in src/a.go"}, false},
		{caseNameStuck, func(f *facts) { f.name = "sym=A" }, []string{"sym=A cannot be followed"}, false},
		{caseRenamedChanged, func(f *facts) { f.newPath = "src/b.go" }, []string{"renamed to src/b.go and the quoted text changed"}, false},
		{caseBug, nil, []string{"please report this"}, false},
	}
	for _, c := range cases {
		g := f
		if c.tweak != nil {
			c.tweak(&g)
		}
		msg, fix := describe(verdict{why: c.why}, g)
		if !strings.HasPrefix(msg, "quoted in docs/g.md:3 (src/a.go lines 10–12): ") {
			t.Errorf("%s: %q does not say where", c.why, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", c.why, msg, w)
			}
		}
		if (fix != "") != c.wantFix {
			t.Errorf("%s: fix %q", c.why, fix)
		}
	}
}

// TestLocate: where a change touches quoted lines [qs, qe) (0-based old
// lines), in human lines of the new file.
func TestLocate(t *testing.T) {
	for _, c := range []struct {
		name    string
		hunks   []pin.LineHunk
		qs, qe  int
		touched bool
		at      [2]int64
		deleted bool
	}{
		{"no hunk", nil, 9, 12, false, [2]int64{}, false},
		{"next to it", []pin.LineHunk{hk(8, 9, 8, 9), hk(12, 13, 12, 13)}, 9, 12, false, [2]int64{}, false},
		{"a line edited inside", []pin.LineHunk{hk(10, 11, 10, 11)}, 9, 12, true, [2]int64{11, 11}, false},
		{"lines inserted inside", []pin.LineHunk{hk(11, 11, 11, 13)}, 9, 12, true, [2]int64{12, 13}, false},
		{"all deleted", []pin.LineHunk{hk(9, 12, 9, 9)}, 9, 12, true, [2]int64{10, 10}, true},
		{"deleted at the end of the file", []pin.LineHunk{hk(9, 12, 9, 9)}, 9, 12, true, [2]int64{10, 10}, true},
		{"part deleted", []pin.LineHunk{hk(9, 10, 9, 9)}, 9, 12, true, [2]int64{10, 10}, false},
		{"deleted and replaced", []pin.LineHunk{hk(9, 12, 9, 10)}, 9, 12, true, [2]int64{10, 10}, false},
	} {
		touched, at, deleted := locate(c.hunks, 30, c.qs, c.qe)
		if touched != c.touched || at != c.at || deleted != c.deleted {
			t.Errorf("%s: %v %v %v, want %v %v %v", c.name, touched, at, deleted, c.touched, c.at, c.deleted)
		}
	}
}

func hk(oldStart, oldEnd, newStart, newEnd int) pin.LineHunk {
	return pin.LineHunk{OldStart: oldStart, OldEnd: oldEnd, NewStart: newStart, NewEnd: newEnd}
}
