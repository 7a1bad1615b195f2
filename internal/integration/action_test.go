package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// runLine is the one form a step's run: takes: the script, by path.
var runLine = regexp.MustCompile(`^"\$GITHUB_ACTION_PATH/(scripts/action/[a-z][a-z0-9-]*\.sh)"$`)

// TestActionYAML holds action.yml to what makes it safe and testable: every
// step runs a script of the repository, no ${{ }} expression is pasted into
// shell code (an input such as "$(curl …)" would run), inputs reach the
// scripts through env, and each input and output is wired to something.
func TestActionYAML(t *testing.T) {
	root := moduleRoot(t)
	a := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using is %q, want composite", a.Runs.Using)
	}
	used := map[string]bool{}
	scripts := map[string]bool{}
	ids := map[string]bool{}
	for i, s := range a.Runs.Steps {
		where := fmt.Sprintf("step %d (%s)", i+1, s.ID)
		if s.ID == "" || ids[s.ID] {
			t.Errorf("%s: every step needs an id of its own", where)
		}
		ids[s.ID] = true
		if s.Uses != "" || s.Shell != "bash" || s.WorkingDirectory != "" {
			t.Errorf("%s: want a bash run step in GITHUB_WORKSPACE (uses %q, shell %q, working-directory %q)", where, s.Uses, s.Shell, s.WorkingDirectory)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("%s: run: holds an expression, which GitHub pastes into the shell code: pass it through env:\n%s", where, s.Run)
		}
		m := runLine.FindStringSubmatch(strings.TrimSpace(s.Run))
		if m == nil {
			t.Errorf("%s: run: is %q, want \"$GITHUB_ACTION_PATH/scripts/action/NAME.sh\"", where, s.Run)
			continue
		}
		scripts[m[1]] = true
		info, err := os.Stat(filepath.Join(root, m[1]))
		if err != nil || info.Mode()&0o111 == 0 {
			t.Errorf("%s: %s is not an executable file: %v", where, m[1], err)
		}
		for k, v := range s.Env {
			in := inputExpr.FindStringSubmatch(v)
			if in == nil {
				t.Errorf("%s: env %s is %q, want ${{ inputs.NAME }}", where, k, v)
				continue
			}
			if _, ok := a.Inputs[in[1]]; !ok {
				t.Errorf("%s: env %s names the undeclared input %q", where, k, in[1])
			}
			used[in[1]] = true
			if !strings.HasPrefix(k, "TEXTFRAG_") {
				t.Errorf("%s: env %s: inputs go in TEXTFRAG_ variables, clear of GITHUB_ and INPUT_", where, k)
			}
		}
		if s.If != "" && s.If != refsCondition {
			t.Errorf("%s: if: %q is not one the tests' runner knows", where, s.If)
		}
	}
	for name, in := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s reaches no step", name)
		}
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
	}
	for name, o := range a.Outputs {
		m := stepOutputExpr.FindStringSubmatch(o.Value)
		if m == nil || !ids[m[1]] {
			t.Errorf("output %s is %q: want ${{ steps.ID.outputs.KEY }} of a step", name, o.Value)
		}
	}
	// Every step script is run by some step; lib.sh is sourced by them.
	entries, err := os.ReadDir(filepath.Join(root, "scripts", "action"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := "scripts/action/" + e.Name()
		if strings.HasSuffix(p, ".sh") && e.Name() != "lib.sh" && !scripts[p] {
			t.Errorf("%s is run by no step of action.yml", p)
		}
	}
	if !ids["install"] || !ids["check"] || !ids["refs"] {
		t.Errorf("want the steps install, check and refs; have %v", slices.Sorted(func(yield func(string) bool) {
			for id := range ids {
				if !yield(id) {
					return
				}
			}
		}))
	}
}

// stubGo is a go command that records each call (directory, GOBIN,
// arguments) in $STUB_LOG, fails when its arguments contain $STUB_GO_FAIL,
// and otherwise "installs" a textfrag into GOBIN.
const stubGo = `#!/bin/sh
printf '%s|%s|%s\n' "$PWD" "$GOBIN" "$*" >>"$STUB_LOG"
if [ -n "$STUB_GO_FAIL" ]; then
  case "$*" in *"$STUB_GO_FAIL"*) echo "go: stub failure" >&2; exit 1 ;; esac
fi
mkdir -p "$GOBIN" && printf '#!/bin/sh\necho stub\n' >"$GOBIN/textfrag" && chmod +x "$GOBIN/textfrag"
`

// fakeActionDir makes the directory the runner unpacks an action into,
// …/_actions/OWNER/REPO/REF, holding what the source install looks for.
func fakeActionDir(t *testing.T, base, ownerRepoRef string) string {
	dir := filepath.Join(base, "_work", "_actions", filepath.FromSlash(ownerRepoRef))
	writeFile(t, filepath.Join(dir, "go.mod"), "module github.com/textfrag/textfrag\n")
	writeFile(t, filepath.Join(dir, "cmd", "textfrag", "main.go"), "package main\n")
	scripts, err := filepath.Glob(filepath.Join(moduleRoot(t), "scripts", "action", "*.sh"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts/action/*.sh: %v", err)
	}
	for _, s := range scripts {
		writeExecutable(t, filepath.Join(dir, "scripts", "action", filepath.Base(s)), readFile(t, s))
	}
	return dir
}

func TestActionInstall(t *testing.T) {
	const module = "github.com/textfrag/textfrag/cmd/textfrag"
	type call struct{ dir, args string }
	for _, tc := range []struct {
		name string
		// actionDir is OWNER/REPO/REF under _actions; ref and repo are
		// GITHUB_ACTION_REF and GITHUB_ACTION_REPOSITORY.
		actionDir, ref, repo, version, goFail string
		want                                  []call
		wantFail                              bool
		wantHow                               string
	}{
		{name: "the ref read off the action's path", actionDir: "textfrag/textfrag/v1",
			want: []call{{"", "install " + module + "@v1"}}, wantHow: module + "@v1"},
		{name: "GITHUB_ACTION_REF when the runner sets it", actionDir: "textfrag/textfrag/v1", ref: "v1.2.3", repo: "TextFrag/TextFrag",
			want: []call{{"", "install " + module + "@v1.2.3"}}, wantHow: module + "@v1.2.3"},
		{name: "a commit", actionDir: "textfrag/textfrag/0123456789abcdef0123456789abcdef01234567",
			want: []call{{"", "install " + module + "@0123456789abcdef0123456789abcdef01234567"}}},
		{name: "the input version wins", actionDir: "textfrag/textfrag/v1", version: "v0.9.0",
			want: []call{{"", "install " + module + "@v0.9.0"}}, wantHow: module + "@v0.9.0"},
		{name: "a ref go cannot resolve falls back to the action's source", actionDir: "textfrag/textfrag/feature/x", goFail: "@feature/x",
			want: []call{{"", "install " + module + "@feature/x"}, {"action", "install ./cmd/textfrag"}}, wantHow: "source in "},
		{name: "a fork builds its own source", actionDir: "someone/textfrag/main",
			want: []call{{"action", "install ./cmd/textfrag"}}},
		{name: "a source that fails to build fails the step", actionDir: "someone/textfrag/main", goFail: "./cmd/textfrag",
			want: []call{{"action", "install ./cmd/textfrag"}}, wantFail: true},
		{name: "an input version that fails does not fall back", actionDir: "textfrag/textfrag/v1", version: "v9.9.9", goFail: "@v9.9.9",
			want: []call{{"", "install " + module + "@v9.9.9"}}, wantFail: true},
		{name: "an input version that is shell code is refused", actionDir: "textfrag/textfrag/v1", version: "v1 $(touch PWNED)",
			wantFail: true},
		{name: "an input version that is a flag is refused", actionDir: "textfrag/textfrag/v1", version: "-toolexec=/bin/sh",
			wantFail: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			ws := filepath.Join(tmp, "ws")
			writeFile(t, filepath.Join(ws, "README.md"), "# project\n")
			stubs := filepath.Join(tmp, "stubs")
			writeExecutable(t, filepath.Join(stubs, "go"), stubGo)
			log := filepath.Join(tmp, "go.log")
			actionDir := fakeActionDir(t, tmp, tc.actionDir)
			r := newRunner(t, ws, "GITHUB_ACTION_PATH="+actionDir, "GITHUB_ACTION_REF="+tc.ref, "GITHUB_ACTION_REPOSITORY="+tc.repo,
				"STUB_LOG="+log, "STUB_GO_FAIL="+tc.goFail)
			r.path = []string{stubs}
			if tc.version != "" {
				r.inputs["version"] = tc.version
			}
			res, _ := r.step("install")
			var got []call
			if data, err := os.ReadFile(log); err == nil {
				for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
					f := strings.SplitN(line, "|", 3)
					if len(f) != 3 {
						t.Fatalf("stub go log line %q", line)
					}
					if f[1] != filepath.Join(r.getenv("RUNNER_TEMP"), "textfrag-action", "bin") {
						t.Errorf("go ran with GOBIN=%q", f[1])
					}
					// "" for RUNNER_TEMP's directory of the action, away
					// from the checkout's go.mod.
					dir := map[string]string{filepath.Join(r.getenv("RUNNER_TEMP"), "textfrag-action"): "", actionDir: "action"}[f[0]]
					if dir == "" && f[0] != filepath.Join(r.getenv("RUNNER_TEMP"), "textfrag-action") {
						dir = f[0]
					}
					got = append(got, call{dir, f[2]})
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("go was run as\n%q\nwant\n%q\n%s", got, tc.want, res.output())
			}
			if _, err := os.Stat(filepath.Join(ws, "PWNED")); err == nil {
				t.Errorf("an input ran as shell code")
			}
			if tc.wantFail {
				if res.code == 0 || !strings.Contains(res.stdout, "::error title=textfrag::") {
					t.Fatalf("install: exit status %d, want a failure with an error annotation\n%s", res.code, res.output())
				}
				if r.output("path") != "" || len(r.path) != 1 {
					t.Errorf("a failed install set its outputs or PATH")
				}
				return
			}
			if res.code != 0 {
				t.Fatalf("install: exit status %d\n%s", res.code, res.output())
			}
			bin := filepath.Join(r.getenv("RUNNER_TEMP"), "textfrag-action", "bin")
			if r.output("path") != filepath.Join(bin, "textfrag") || !slices.Contains(r.path, bin) {
				t.Errorf("outputs %v, PATH additions %v: want textfrag in %s on PATH", r.outputs["install"], r.path, bin)
			}
			if !strings.HasPrefix(r.outputs["install"]["how"], tc.wantHow) {
				t.Errorf("output how is %q, want %q…", r.outputs["install"]["how"], tc.wantHow)
			}
			if len(tc.want) == 2 && !strings.Contains(res.stdout, "::warning title=textfrag::go install textfrag@") {
				t.Errorf("the fallback to the action's source gave no warning:\n%s", res.stdout)
			}
		})
	}
}

// checkWorkspace is a checkout with one good and one stale quote.
func checkWorkspace(t *testing.T) string {
	ws := t.TempDir()
	src := "package a\n\n// A answers.\nfunc A() int {\n\treturn 1\n}\n"
	writeFile(t, filepath.Join(ws, "src", "a.go"), src)
	writeFile(t, filepath.Join(ws, "docs", "guide.md"), "# Guide\n\n[A](../src/a.go#line=2,5;md5="+md5Hex(src)+")\n")
	writeFile(t, filepath.Join(ws, "docs", "sub", "more.md"), "# More\n\n[A](../../src/a.go#line=3,4;md5=e22a9997058c72975aa474bcd17fde28)\n")
	writeFile(t, filepath.Join(ws, "docs", "bad.md"), "# Bad\n\n[A](../src/a.go#line=2,5;md5=00000000000000000000000000000000)\n")
	return ws
}

// summaryIsQuoted checks that everything textfrag printed sits in an
// indented code block of the job summary, where no line of a pull request's
// (file names, links) is read as Markdown or HTML.
func summaryIsQuoted(t *testing.T, summary string) {
	t.Helper()
	for _, line := range strings.Split(summary, "\n") {
		if line == "" || strings.HasPrefix(line, "### textfrag ") || strings.HasPrefix(line, "    ") ||
			regexp.MustCompile(`^… and \d+ more lines in the job log\.$`).MatchString(line) {
			continue
		}
		t.Errorf("job summary line outside the code block: %q\n%s", line, summary)
	}
}

func TestActionCheck(t *testing.T) {
	bin := filepath.Dir(textfragBinary(t))
	for _, tc := range []struct {
		name, paths, args string
		wantCode          int
		wantLines         []string // in the step's stdout
		wantSummary       string   // a line of the job summary
		wantResult        string
	}{
		{name: "the whole checkout by default", wantCode: 1,
			wantLines: []string{
				"::error file=docs/bad.md,line=3,col=1::../src/a.go#line=2,5;md5=00000000000000000000000000000000: md5 mismatch",
				"::error file=-notes.md,line=1,col=1::src/missing.go#line=1,2: target file not found",
				"::warning file=docs/clamp.md,line=1,col=1::../src/a.go#line=2,50;md5=e22a9997058c72975aa474bcd17fde28: line=2,50 goes past the end",
			},
			wantSummary: "    checked 5 links in 5 files: 2 errors, 1 warning", wantResult: "failed"},
		{name: "paths separated by blanks and new lines", paths: " docs/guide.md\n\tdocs/sub \n", wantCode: 0,
			wantSummary: "    checked 2 links in 2 files: 0 errors, 0 warnings", wantResult: "passed"},
		{name: "a path that starts with a dash stays a path", paths: "-notes.md", wantCode: 1,
			wantLines:   []string{"::error file=-notes.md,line=1,col=1::"},
			wantSummary: "    checked 1 link in 1 file: 1 error, 0 warnings", wantResult: "failed"},
		{name: "check-args reach check", paths: "docs/clamp.md", args: "--strict", wantCode: 1,
			wantLines:   []string{"::error file=docs/clamp.md,line=1,col=1::"},
			wantSummary: "    checked 1 link in 1 file: 1 error, 0 warnings", wantResult: "failed"},
		{name: "without --strict a warning passes", paths: "docs/clamp.md", wantCode: 0,
			wantLines:   []string{"::warning file=docs/clamp.md,line=1,col=1::"},
			wantSummary: "    checked 1 link in 1 file: 0 errors, 1 warning", wantResult: "passed"},
		{name: "an input is data, not shell code", paths: "$(touch PWNED) `touch PWNED` docs/guide.md", wantCode: 1,
			wantSummary: "### textfrag check: failed (exit status 1)", wantResult: "failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := checkWorkspace(t)
			writeFile(t, filepath.Join(ws, "-notes.md"), "[A](src/missing.go#line=1,2)\n")
			writeFile(t, filepath.Join(ws, "docs", "clamp.md"), "[A](../src/a.go#line=2,50;md5=e22a9997058c72975aa474bcd17fde28)\n")
			r := newRunner(t, ws)
			r.installed(bin)
			if tc.paths != "" {
				r.inputs["paths"] = tc.paths
			}
			r.inputs["check-args"] = tc.args
			res, skipped := r.step("check")
			if skipped || res.code != tc.wantCode {
				t.Fatalf("check: exit status %d (skipped %v), want %d\n%s", res.code, skipped, tc.wantCode, res.output())
			}
			for _, want := range tc.wantLines {
				if !strings.Contains(res.stdout, "\n"+want) && !strings.HasPrefix(res.stdout, want) {
					t.Errorf("stdout lacks a line starting %q:\n%s", want, res.stdout)
				}
			}
			if tc.wantCode == 0 && strings.Contains(res.stdout, "::error") {
				t.Errorf("a passing check printed an error annotation:\n%s", res.stdout)
			}
			heading := "### textfrag check: passed"
			if tc.wantCode != 0 {
				heading = "### textfrag check: failed (exit status 1)"
			}
			summary := r.summary.String()
			if !strings.Contains(summary, heading+"\n") || !strings.Contains(summary, tc.wantSummary+"\n") {
				t.Errorf("job summary lacks %q and %q:\n%s", heading, tc.wantSummary, summary)
			}
			summaryIsQuoted(t, summary)
			if got := r.output("check"); got != tc.wantResult {
				t.Errorf("output check = %q, want %q", got, tc.wantResult)
			}
			if _, err := os.Stat(filepath.Join(ws, "PWNED")); err == nil {
				t.Errorf("an input ran as shell code")
			}
		})
	}
}

// TestActionCheckSummaryBounded: a job summary quotes at most 100 lines of
// textfrag's output, and says how many more the log has; a file name made
// of Markdown and HTML stays in the code block.
func TestActionCheckSummaryBounded(t *testing.T) {
	ws := checkWorkspace(t)
	var page strings.Builder
	for i := range 120 {
		fmt.Fprintf(&page, "[A%d](../src/gone.go#line=1,2)\n\n", i)
	}
	writeFile(t, filepath.Join(ws, "docs", "<img src=x onerror=alert(1)> [x](javascript:alert(1)).md"), page.String())
	r := newRunner(t, ws)
	r.installed(filepath.Dir(textfragBinary(t)))
	r.inputs["paths"] = "docs"
	res, _ := r.step("check")
	if res.code != 1 {
		t.Fatalf("check: exit status %d, want 1\n%s", res.code, res.output())
	}
	summary := r.summary.String()
	summaryIsQuoted(t, summary)
	quoted := 0
	for _, line := range strings.Split(summary, "\n") {
		if strings.HasPrefix(line, "    ") {
			quoted++
		}
	}
	// Three summary lines (the quotes by class: one stale quote no history
	// classes; the count) and 121 annotations: 100 quoted, 24 left to the log.
	if quoted != 100 || !strings.Contains(summary, "\n… and 24 more lines in the job log.\n") {
		t.Errorf("job summary quotes %d lines, want 100 and a note of the 22 more:\n%s", quoted, summary)
	}
}

// TestActionEndToEnd runs every step of action.yml in order as a workflow
// that uses a local copy of the action (uses: ./) on a push: install builds
// textfrag from this source, check runs it, refs is skipped (not a pull
// request) although check failed.
func TestActionEndToEnd(t *testing.T) {
	ws := checkWorkspace(t)
	r := newRunner(t, ws)
	r.all()
	if r.outcomes["install"] != "success" {
		t.Fatalf("install: %v", r.outcomes)
	}
	path := r.output("path")
	if info, err := os.Stat(path); err != nil || info.Mode()&0o111 == 0 || !strings.HasPrefix(path, r.getenv("RUNNER_TEMP")) {
		t.Fatalf("output path %q is not an executable under RUNNER_TEMP: %v", path, err)
	}
	if r.outcomes["check"] != "failure" || r.output("check") != "failed" {
		t.Errorf("check: outcome %s, output %q; want failure, failed (docs/bad.md)", r.outcomes["check"], r.output("check"))
	}
	if r.outcomes["refs"] != "success" || r.output("refs") != "skipped" {
		t.Errorf("refs: outcome %s, output %q; want it run after the failed check, and skipped on a push", r.outcomes["refs"], r.output("refs"))
	}
	if !strings.Contains(r.summary.String(), "    checked 3 links in 3 files: 1 error, 0 warnings\n") {
		t.Errorf("job summary:\n%s", r.summary.String())
	}
}

// TestActionCheckLogsPinClasses: the check step also runs pin --check, so
// that the log counts the quotes by class with the command for each; it
// gets the flags of check-args that pin takes (here --strict is check's
// alone, --root both's, named from the workspace), and never changes the
// step's result.
func TestActionCheckLogsPinClasses(t *testing.T) {
	ws := checkWorkspace(t)
	writeFile(t, filepath.Join(ws, "docs", "unpinned.md"), "[A](../src/a.go#line=2,3)\n")
	r := newRunner(t, ws)
	r.installed(filepath.Dir(textfragBinary(t)))
	r.inputs["paths"] = "docs/guide.md docs/unpinned.md"
	r.inputs["check-args"] = "--strict --root " + ws
	res, _ := r.step("check")
	if res.code != 1 || r.output("check") != "failed" {
		t.Fatalf("check --strict with an unpinned link: exit %d\n%s", res.code, res.output())
	}
	for _, want := range []string{
		"textfrag pin --check (the quotes by class; the job's result is check's):\n",
		"pin: 0 refreshed, 0 moved, 0 changed, 0 gone, 0 review, 1 unpinned\n",
		"refreshed, moved, unpinned (1): the same text, nothing to review: `textfrag pin --write --root . docs/guide.md docs/unpinned.md`", // the root named from where it ran, as the pages are: a path a reader of the log can run
	} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("the log lacks %q:\n%s", want, res.stderr)
		}
	}
	// Without the unpinned page, check passes, and pin's classes do not fail it.
	r = newRunner(t, ws)
	r.installed(filepath.Dir(textfragBinary(t)))
	r.inputs["paths"] = "docs/guide.md"
	if res, _ := r.step("check"); res.code != 0 || r.output("check") != "passed" {
		t.Errorf("check of a pinned page: exit %d\n%s", res.code, res.output())
	}
}
