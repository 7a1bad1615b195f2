package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// shardRun runs check --shard k/n --format json (or pin --check --shard) in
// dir on paths and returns the root-relative pages it reported (each page
// of the fixture has one problem, or one pin to add) and the M and T of its
// "shard k/n: M of T files" line.
func shardRun(t *testing.T, dir, prefix, cmd string, k, n int, paths ...string) (pages []string, m, total int) {
	t.Helper()
	var args []string
	if cmd == "check" {
		args = []string{"check", "--format", "json", "--shard", fmt.Sprintf("%d/%d", k, n)}
	} else {
		args = []string{"pin", "--check", "--shard", fmt.Sprintf("%d/%d", k, n)}
	}
	r := e2eRun(t, dir, append(args, paths...)...)
	if r.code != 1 {
		t.Fatalf("%s shard %d/%d: exit %d, want 1 (every page has a problem)\n%s", cmd, k, n, r.code, r.stderr)
	}
	if cmd == "check" {
		var recs []checkRecord
		if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil {
			t.Fatalf("check shard %d/%d: %v\n%s", k, n, err, r.stdout)
		}
		for _, rec := range recs {
			pages = append(pages, prefix+rec.File)
		}
	} else {
		for _, m := range regexp.MustCompile(`(?m)^\+\+\+ b/(.*)$`).FindAllStringSubmatch(r.stdout, -1) {
			pages = append(pages, prefix+m[1])
		}
	}
	sm := regexp.MustCompile(fmt.Sprintf(`(?m)^shard %d/%d: (\d+) of (\d+) files?$`, k, n)).FindStringSubmatch(r.stderr)
	if sm == nil {
		t.Fatalf("%s shard %d/%d: no summary \"shard %d/%d: M of T files\" on stderr:\n%s", cmd, k, n, k, n, r.stderr)
	}
	m, _ = strconv.Atoi(sm[1])
	total, _ = strconv.Atoi(sm[2])
	if m != len(pages) {
		t.Errorf("%s shard %d/%d: the summary says %d files, but %d were reported: %v", cmd, k, n, m, len(pages), pages)
	}
	if cmd == "check" && !strings.Contains(r.stderr, fmt.Sprintf("checked %d links in %d files", m, m)) {
		t.Errorf("check shard %d/%d: the final summary does not count the shard's %d files:\n%s", k, n, m, r.stderr)
	}
	return pages, m, total
}

// shardPartition runs every shard of n and fails unless they are pairwise
// disjoint and cover want; it returns each page's shard.
func shardPartition(t *testing.T, dir, prefix, cmd string, n int, want []string, paths ...string) map[string]int {
	t.Helper()
	of := map[string]int{}
	for k := 1; k <= n; k++ {
		pages, _, total := shardRun(t, dir, prefix, cmd, k, n, paths...)
		if total != len(want) {
			t.Errorf("%s shard %d/%d: of %d files, want of %d", cmd, k, n, total, len(want))
		}
		for _, p := range pages {
			if prev, ok := of[p]; ok {
				t.Errorf("%s: %s is in shard %d/%d and in shard %d/%d", cmd, p, prev, n, k, n)
			}
			of[p] = k
		}
	}
	var got []string
	for p := range of {
		got = append(got, p)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s: the %d shards cover\n%v\nwant\n%v", cmd, n, got, want)
	}
	return of
}

// TestCheckShard: the N shards of check (and of pin --check) are pairwise
// disjoint and cover every page; adding pages moves none; the split is the
// same from a subdirectory; pin --check splits as check does; each shard
// says "shard K/N: M of T files".
func TestCheckShard(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"textfrag.toml": "", "src/a.txt": e2eHello}
	var want []string
	addPage := func(rel string) {
		// A link to a missing file: one error each.
		files[rel] = "# " + rel + "\n\n[gone](" + strings.Repeat("../", strings.Count(rel, "/")) + "src/missing.txt#line=0,1)\n"
		want = append(want, rel)
	}
	for i := range 14 {
		addPage(fmt.Sprintf("docs/p%02d.md", i*3))
	}
	for i := range 6 {
		addPage(fmt.Sprintf("docs/guide/g%d.md", i))
	}
	e2eWrite(t, dir, files)
	slices.Sort(want)

	const n = 3
	before := shardPartition(t, dir, "", "check", n, want, "docs")
	for k := 1; k <= n; k++ {
		if !slices.ContainsFunc(want, func(p string) bool { return before[p] == k }) {
			t.Errorf("shard %d/%d is empty among %d pages: not a spread", k, n, len(want))
		}
	}

	// From docs/, the pages are named without "docs/" and split the same.
	fromDocs := shardPartition(t, filepath.Join(dir, "docs"), "docs/", "check", n, want)
	for p, k := range before {
		if fromDocs[p] != k {
			t.Errorf("%s: shard %d from the root, %d from docs/", p, k, fromDocs[p])
		}
	}

	// More pages, sorting before, between and after the others.
	files = map[string]string{}
	for _, rel := range []string{"docs/a0.md", "docs/p01.md", "docs/p20.md", "docs/zz.md", "docs/guide/a.md", "docs/new/x.md", "docs/p100.md"} {
		addPage(rel)
	}
	e2eWrite(t, dir, files)
	slices.Sort(want)
	after := shardPartition(t, dir, "", "check", n, want, "docs")
	for p, k := range before {
		if after[p] != k {
			t.Errorf("adding pages moved %s from shard %d/%d to %d/%d", p, k, n, after[p], n)
		}
	}

	// pin --check: every page gets one unpinned link to a real file, which
	// pin --check shows as a diff of that page.
	files = map[string]string{}
	for _, rel := range want {
		files[rel] = "# " + rel + "\n\n[a](" + strings.Repeat("../", strings.Count(rel, "/")) + "src/a.txt#line=0,1)\n"
	}
	e2eWrite(t, dir, files)
	pinOf := shardPartition(t, dir, "", "pin", n, want, "docs")
	for p, k := range after {
		if pinOf[p] != k {
			t.Errorf("%s: check's shard %d, pin's %d", p, k, pinOf[p])
		}
	}
}

// TestShardUsage: a bad --shard is a usage error (exit 2) that names the
// flag and the form it wants, for check and pin.
func TestShardUsage(t *testing.T) {
	dir := t.TempDir()
	e2eWrite(t, dir, map[string]string{"textfrag.toml": "", "docs/a.md": "# A\n"})
	for _, cmd := range [][]string{{"check"}, {"pin", "--check"}} {
		for _, v := range []string{"0/3", "4/3", "3", "1/0", "a/b", "-1/3", "1/3/3", ""} {
			r := e2eRun(t, dir, append(cmd, "--shard", v, "docs")...)
			if r.code != 2 || !strings.Contains(r.stderr, `invalid value "`+v+`" for flag -shard: want K/N with 1 ≤ K ≤ N`) {
				t.Errorf("%s --shard %q: exit %d, stderr:\n%s", cmd[0], v, r.code, r.stderr)
			}
		}
		// A shard with no files is not an error: a CI matrix larger than
		// the site still passes.
		r := e2eRun(t, dir, append(cmd, "--shard", "5/5", "docs")...)
		m := regexp.MustCompile(`shard 5/5: (\d) of 1 file\n`).FindStringSubmatch(r.stderr)
		if r.code != 0 || m == nil {
			t.Errorf("%s --shard 5/5: exit %d, stderr:\n%s", cmd[0], r.code, r.stderr)
		}
	}
}
