package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stubTextfrag is a textfrag that records each call's arguments in
// $STUB_LOG, one "[arg]" per argument, prints an annotation and a summary
// line as refs does, and exits with $STUB_EXIT. The action's refs step is
// tested against it: what matters there is the base it passes.
const stubTextfrag = `#!/bin/sh
{ printf 'textfrag'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\n'; } >>"$STUB_LOG"
echo "::warning file=src/a.go,line=5::quoted in docs/guide.md:3"
echo "1 quote affected: 1 quoted text changed" >&2
exit "${STUB_EXIT:-0}"
`

// prHistory is an upstream repository shaped as GitHub keeps a pull
// request: main with commits b0 and b1, the pull request's branch "pr" from
// b0 with commit p1, and "merge", the merge of pr into b1 that
// actions/checkout checks out for a pull_request event (refs/pull/N/merge).
type prHistory struct {
	dir                 string
	b0, b1, p1, mergeID string
}

func newPRHistory(t *testing.T, env []string) *prHistory {
	t.Helper()
	h := &prHistory{dir: filepath.Join(t.TempDir(), "upstream")}
	git := func(args ...string) string { return strings.TrimSpace(mustRun(t, h.dir, env, "git", args...)) }
	src := "package a\n\n// A answers.\nfunc A() int {\n\treturn 1\n}\n"
	writeFile(t, filepath.Join(h.dir, "src", "a.go"), src)
	writeFile(t, filepath.Join(h.dir, "docs", "guide.md"), "[A](../src/a.go#line=2,5;md5="+md5Hex(src)+")\n")
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "b0")
	h.b0 = git("rev-parse", "HEAD")
	git("checkout", "-q", "-b", "pr")
	writeFile(t, filepath.Join(h.dir, "src", "a.go"), strings.Replace(src, "return 1", "return 2", 1))
	git("commit", "-q", "-am", "p1: quoted text changed")
	h.p1 = git("rev-parse", "HEAD")
	git("checkout", "-q", "main")
	writeFile(t, filepath.Join(h.dir, "README.md"), "# base moved on\n")
	git("add", "README.md")
	git("commit", "-q", "-m", "b1")
	h.b1 = git("rev-parse", "HEAD")
	git("checkout", "-q", "-b", "merge")
	git("merge", "-q", "--no-ff", "-m", "Merge pr into main", "pr")
	h.mergeID = git("rev-parse", "HEAD")
	git("checkout", "-q", "main")
	return h
}

// clone makes a checkout of the upstream, as actions/checkout would with
// the given git clone arguments, and detaches HEAD at commit (if not "").
func (h *prHistory) clone(t *testing.T, env []string, commit string, args ...string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	mustRun(t, filepath.Dir(ws), env, "git", append(append([]string{"clone", "-q"}, args...), "file://"+h.dir, ws)...)
	if commit != "" {
		mustRun(t, ws, env, "git", "checkout", "-q", "--detach", commit)
	}
	return ws
}

// prEvent writes a pull_request event file with that base commit.
func prEvent(t *testing.T, path string, base any) {
	t.Helper()
	data, err := json.Marshal(map[string]any{
		"action":       "synchronize",
		"number":       1,
		"pull_request": map[string]any{"number": 1, "base": map[string]any{"ref": "main", "sha": base}},
	})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(data))
}

func hasCommit(t *testing.T, ws string, env []string, commit string) bool {
	return run(t, ws, env, "git", "cat-file", "-e", commit+"^{commit}").code == 0
}

func TestActionRefs(t *testing.T) {
	env := gitEnv(t)
	h := newPRHistory(t, env)
	stubs := filepath.Join(t.TempDir(), "stubs")
	writeExecutable(t, filepath.Join(stubs, "textfrag"), stubTextfrag)

	type setup struct {
		ws    string
		event string // GITHUB_EVENT_NAME
		base  any    // pull_request.base.sha in the event file; nil: no event file
		ref   string // GITHUB_BASE_REF
		mode  string // the input refs; "": its default
		exit  string // the stub's exit status
	}
	// refs runs the refs step and returns its result, the stub's calls and
	// the runner.
	refs := func(t *testing.T, s setup) (result, []string, *runner) {
		t.Helper()
		log := filepath.Join(t.TempDir(), "textfrag.log")
		r := newRunner(t, s.ws, "GITHUB_EVENT_NAME="+s.event, "GITHUB_BASE_REF="+s.ref, "STUB_LOG="+log, "STUB_EXIT="+s.exit)
		if s.base != nil {
			prEvent(t, r.getenv("GITHUB_EVENT_PATH"), s.base)
		}
		if s.mode != "" {
			r.inputs["refs"] = s.mode
		}
		r.installed(stubs)
		res, skipped := r.step("refs")
		if skipped {
			t.Fatal("the refs step was skipped")
		}
		var calls []string
		if data, err := os.ReadFile(log); err == nil {
			calls = strings.Split(strings.TrimSpace(string(data)), "\n")
		}
		return res, calls, r
	}
	diffFrom := func(commit string) []string {
		return []string{"textfrag [refs] [--diff] [" + commit + "] [--format] [github]"}
	}
	wantCalls := func(t *testing.T, res result, calls, want []string) {
		t.Helper()
		if strings.Join(calls, "\n") != strings.Join(want, "\n") {
			t.Fatalf("textfrag was run as\n%s\nwant\n%s\nstep output:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"), res.output())
		}
	}

	t.Run("merge commit, full history: from the base commit", func(t *testing.T) {
		ws := h.clone(t, env, h.mergeID, "--no-checkout")
		res, calls, r := refs(t, setup{ws: ws, event: "pull_request", base: h.b1, ref: "main"})
		wantCalls(t, res, calls, diffFrom(h.b1))
		if res.code != 0 || r.output("refs") != "passed" {
			t.Fatalf("exit status %d, output %q\n%s", res.code, r.output("refs"), res.output())
		}
		if !strings.Contains(res.stdout, "\n::warning file=src/a.go,line=5::quoted in docs/guide.md:3\n") {
			t.Errorf("refs's annotations did not reach stdout:\n%s", res.stdout)
		}
		sum := r.summary.String()
		if !strings.Contains(sum, "### textfrag refs: no quote needs review (changes since "+h.b1[:12]+")\n") ||
			!strings.Contains(sum, "\n    1 quote affected: 1 quoted text changed\n") {
			t.Errorf("job summary:\n%s", sum)
		}
		summaryIsQuoted(t, sum)
	})

	t.Run("merge commit, fetch-depth 1: the base commit is fetched", func(t *testing.T) {
		ws := h.clone(t, env, "", "--depth=1", "--branch=merge")
		if hasCommit(t, ws, env, h.b1) {
			t.Fatal("the shallow clone already holds the base commit")
		}
		res, calls, _ := refs(t, setup{ws: ws, event: "pull_request", base: h.b1, ref: "main"})
		wantCalls(t, res, calls, diffFrom(h.b1))
		if res.code != 0 || !hasCommit(t, ws, env, h.b1) {
			t.Fatalf("exit status %d, base commit fetched %v\n%s", res.code, hasCommit(t, ws, env, h.b1), res.output())
		}
	})

	t.Run("pull request head, full history: from the fork point", func(t *testing.T) {
		// The base branch gained b1 after the fork: comparing with b1 would
		// count the removal of b1's changes as the pull request's.
		ws := h.clone(t, env, h.p1)
		res, calls, _ := refs(t, setup{ws: ws, event: "pull_request", base: h.b1, ref: "main"})
		wantCalls(t, res, calls, diffFrom(h.b0))
		if res.code != 0 {
			t.Fatalf("exit status %d\n%s", res.code, res.output())
		}
	})

	t.Run("a full clone without the base commit stays full", func(t *testing.T) {
		ws := h.clone(t, env, "", "--single-branch", "--branch=pr")
		if hasCommit(t, ws, env, h.b1) {
			t.Fatal("the clone already holds the base commit")
		}
		res, calls, _ := refs(t, setup{ws: ws, event: "pull_request", base: h.b1, ref: "main"})
		wantCalls(t, res, calls, diffFrom(h.b0))
		shallow := strings.TrimSpace(mustRun(t, ws, env, "git", "rev-parse", "--is-shallow-repository"))
		if res.code != 0 || shallow != "false" {
			t.Fatalf("exit status %d, shallow %s\n%s", res.code, shallow, res.output())
		}
	})

	t.Run("pull request head, fetch-depth 1: refused with the remedy", func(t *testing.T) {
		ws := h.clone(t, env, "", "--depth=1", "--branch=pr")
		res, calls, r := refs(t, setup{ws: ws, event: "pull_request", base: h.b1, ref: "main"})
		wantCalls(t, res, calls, nil)
		if res.code == 0 || !strings.Contains(res.stdout, "::error title=textfrag::") || !strings.Contains(res.stdout, "fetch-depth: 0") {
			t.Fatalf("exit status %d, want an error annotation naming fetch-depth: 0\n%s", res.code, res.output())
		}
		if r.output("refs") != "" {
			t.Errorf("output refs = %q after a failure to start", r.output("refs"))
		}
	})

	t.Run("no event file: the tip of GITHUB_BASE_REF, fetched", func(t *testing.T) {
		ws := h.clone(t, env, "", "--single-branch", "--branch=pr")
		res, calls, _ := refs(t, setup{ws: ws, event: "pull_request", ref: "main"})
		wantCalls(t, res, calls, diffFrom(h.b0))
		if res.code != 0 || !hasCommit(t, ws, env, "refs/remotes/origin/main") {
			t.Fatalf("exit status %d\n%s", res.code, res.output())
		}
	})

	t.Run("not a pull request: skipped", func(t *testing.T) {
		ws := h.clone(t, env, h.mergeID)
		res, calls, r := refs(t, setup{ws: ws, event: "push", base: h.b1})
		wantCalls(t, res, calls, nil)
		if res.code != 0 || r.output("refs") != "skipped" {
			t.Fatalf("exit status %d, output %q\n%s", res.code, r.output("refs"), res.output())
		}
	})

	t.Run("refs off: skipped", func(t *testing.T) {
		ws := h.clone(t, env, h.mergeID)
		res, calls, r := refs(t, setup{ws: ws, event: "pull_request", base: h.b1, ref: "main", mode: "off"})
		wantCalls(t, res, calls, nil)
		if res.code != 0 || r.output("refs") != "skipped" {
			t.Fatalf("exit status %d, output %q\n%s", res.code, r.output("refs"), res.output())
		}
	})

	for _, tc := range []struct {
		name, mode, exit string
		wantCode         int
		wantResult       string
		wantHeading      string
	}{
		{"quoted text changed fails the job", "", "1", 1, "failed", "### textfrag refs: quoted text changed or deleted: the docs need review"},
		{"quoted text changed under warn only annotates", "warn", "1", 0, "needs-review", "### textfrag refs: quoted text changed or deleted: the docs need review"},
		{"a failure of refs fails the job even under warn", "warn", "2", 2, "failed", "### textfrag refs: failed (exit status 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := h.clone(t, env, h.mergeID)
			res, calls, r := refs(t, setup{ws: ws, event: "pull_request", base: h.b1, ref: "main", mode: tc.mode, exit: tc.exit})
			wantCalls(t, res, calls, diffFrom(h.b1))
			if res.code != tc.wantCode || r.output("refs") != tc.wantResult {
				t.Fatalf("exit status %d, output %q; want %d, %q\n%s", res.code, r.output("refs"), tc.wantCode, tc.wantResult, res.output())
			}
			if !strings.Contains(res.stdout, "::warning file=src/a.go,line=5::") || !strings.Contains(r.summary.String(), tc.wantHeading) {
				t.Errorf("annotations or job summary missing:\n%s\n%s", res.stdout, r.summary.String())
			}
		})
	}

	for _, tc := range []struct {
		name string
		s    setup
		want string // in the error annotation
	}{
		{"a base sha that is shell code", setup{event: "pull_request", base: "$(touch PWNED)", ref: "main"}, "not a commit hash"},
		{"a base sha that is not a string", setup{event: "pull_request", base: 42, ref: "main"}, "not a commit hash"},
		{"a base branch that is no branch name", setup{event: "pull_request", ref: "main branch $(touch PWNED)"}, "not a branch name"},
		{"no base at all", setup{event: "pull_request"}, "no base to compare with"},
		{"an unknown mode", setup{event: "pull_request", base: "", ref: "main", mode: "maybe"}, "must be fail, warn or off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.ws = h.clone(t, env, h.mergeID)
			res, calls, _ := refs(t, tc.s)
			wantCalls(t, res, calls, nil)
			if res.code == 0 || !strings.Contains(res.stdout, "::error title=textfrag::") || !strings.Contains(res.stdout, tc.want) {
				t.Fatalf("exit status %d, want an error annotation saying %q\n%s", res.code, tc.want, res.output())
			}
			if _, err := os.Stat(filepath.Join(tc.s.ws, "PWNED")); err == nil {
				t.Errorf("an input ran as shell code")
			}
		})
	}
}

// TestActionRefsRealBinary runs the refs step on pull requests with the
// textfrag built from this source: the pull request changes a quoted line
// (docs/guide.md:1 quotes src/a.go lines 3–5; p1 edits line 5).
func TestActionRefsRealBinary(t *testing.T) {
	env := gitEnv(t)
	h := newPRHistory(t, env)
	bin := filepath.Dir(textfragBinary(t))
	annotation := "::error file=src/a.go,line=5,title=quoted text changed::quoted in docs/guide.md:1 (src/a.go lines 3–5): the quoted text changed: review the page, then accept the new text with `textfrag pin --write --accept docs/guide.md:1`\n"
	for _, tc := range []struct {
		name       string
		clone      func(t *testing.T) string
		mode       string
		wantCode   int
		wantResult string
		wantOut    string // a line of stdout
		wantSum    string // a line of the job summary
	}{
		{"merge commit, fetch-depth 1", func(t *testing.T) string { return h.clone(t, env, "", "--depth=1", "--branch=merge") },
			"", 1, "failed", annotation, "    1 quote affected (changes since " + h.b1 + "): 0 refreshed, 0 moved, 1 changed, 0 gone, 0 review, 0 unpinned\n"},
		{"pull request head, full history", func(t *testing.T) string { return h.clone(t, env, h.p1) },
			"", 1, "failed", annotation, "    1 quote affected (changes since " + h.b0 + "): 0 refreshed, 0 moved, 1 changed, 0 gone, 0 review, 0 unpinned\n"},
		{"warn only annotates", func(t *testing.T) string { return h.clone(t, env, h.mergeID) },
			"warn", 0, "needs-review", annotation, "### textfrag refs: quoted text changed or deleted: the docs need review (changes since " + h.b1[:12] + ")\n"},
		{"re-pinned in the pull request", func(t *testing.T) string {
			ws := h.clone(t, env, h.p1)
			src := readFile(t, filepath.Join(ws, "src", "a.go"))
			writeFile(t, filepath.Join(ws, "docs", "guide.md"), "[A](../src/a.go#line=2,5;md5="+md5Hex(src)+")\n")
			mustRun(t, ws, env, "git", "commit", "-q", "-am", "p2: re-pinned after review")
			return ws
		}, "", 0, "passed", "", "    no quote affected (changes since " + h.b0 + ")\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := tc.clone(t)
			r := newRunner(t, ws, "GITHUB_EVENT_NAME=pull_request", "GITHUB_BASE_REF=main")
			prEvent(t, r.getenv("GITHUB_EVENT_PATH"), h.b1)
			if tc.mode != "" {
				r.inputs["refs"] = tc.mode
			}
			r.installed(bin)
			res, _ := r.step("refs")
			if res.code != tc.wantCode || r.output("refs") != tc.wantResult {
				t.Fatalf("exit status %d, output %q; want %d, %q\n%s", res.code, r.output("refs"), tc.wantCode, tc.wantResult, res.output())
			}
			if tc.wantOut != "" && !strings.Contains(res.stdout, "\n"+tc.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tc.wantOut, res.stdout)
			}
			if tc.wantOut == "" && strings.Contains(res.stdout, "::error file=") {
				t.Errorf("an annotation for a quote re-pinned in the pull request:\n%s", res.stdout)
			}
			sum := r.summary.String()
			if !strings.Contains(sum, tc.wantSum) {
				t.Errorf("job summary lacks %q:\n%s", tc.wantSum, sum)
			}
			summaryIsQuoted(t, sum)
		})
	}
}
