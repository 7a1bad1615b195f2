package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// refsFindingLine is a finding of refs --diff's text output: FILE:LINE:
// class: quoted in PAGE:LINE, with the quoted file and range when known.
var refsFindingLine = regexp.MustCompile(`(?m)^(.+?):(\d+): (refresh|moved|changed|deleted|renamed|review): quoted in (.+?):(\d+)(?: \((.+?) lines? [\d–]+\))?: `)

// TestRefsDiffFindingsFromSubdirectory: run from a subdirectory of the
// project (site/my docs, --root ..), refs --diff names files in its
// findings as check names pages and as the commands in those findings
// name them: from where it ran. Each file a finding names exists there,
// no finding names a project path, and the commands name --root as given
// (not the absolute root). Run from the top of the work tree, GitHub
// annotations name files from there, where GitHub looks for them.
func TestRefsDiffFindingsFromSubdirectory(t *testing.T) {
	s := newRefsCwdRepo(t)
	refsCwdEdit(s)
	out, code := s.refsCwdRun()
	if code != 1 {
		t.Fatalf("refs --diff: exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"../src/a.l1:11: changed: quoted in g.md:1 (../src/a.l1 lines 10–12): ",
		"../src/a.l1:21: moved: quoted in g.md:3 (../src/a.l1 lines 20–21): ",
		"../src/a.l1:21: moved: quoted in ../other/o.md:1 (../src/a.l1 lines 20–21): ",
		"../src/a.l1:26: changed: quoted in g.md:5 (../src/a.l1 lines 25–26): ",
		"../src/b.txt:5: changed: quoted in ../other/gone.md:1 (../src/b.txt lines 5–6): ",
	} {
		if !strings.Contains(out, "\n"+want) && !strings.HasPrefix(out, want) {
			t.Errorf("no finding %q in:\n%s", want, out)
		}
	}
	found := refsFindingLine.FindAllStringSubmatch(out, -1)
	if len(found) != 5 {
		t.Errorf("%d findings, want 5:\n%s", len(found), out)
	}
	dir := s.path("site/my docs")
	for _, m := range found {
		for _, name := range []string{m[1], m[4], m[6]} {
			if name == "" {
				continue
			}
			if _, err := os.Stat(dir + "/" + name); err != nil {
				t.Errorf("%q, named in %q, is no file from site/my docs: %v", name, m[0], err)
			}
		}
	}
	// The unpinned link's file changed since HEAD: pin pins it only when
	// accepted, so the summary's command asks (each quote's message gives
	// its accept command).
	if want := "then pin them, accepting each: `textfrag pin -i --charset '*.l1=ISO-8859-1' --root .. g.md`"; !strings.Contains(out, want) {
		t.Errorf("no %q in:\n%s", want, out)
	}
	for _, c := range refsRemedies.FindAllStringSubmatch(out, -1) {
		if strings.Contains(c[1], s.dir) {
			t.Errorf("%q names an absolute path", c[1])
		}
	}

	// From the top of the work tree, as the Action runs it.
	ann, _, code := s.shell(".", "textfrag refs --diff main --root site --charset '*.l1=ISO-8859-1' --format github", "")
	if code != 1 || !strings.Contains(ann, "::error file=site/src/a.l1,line=11,") || !strings.Contains(ann, "quoted in site/other/o.md:1 (site/src/a.l1 lines 20–21)") {
		t.Errorf("annotations from the top of the work tree:\n%s", ann)
	}
}
