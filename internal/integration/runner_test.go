package integration

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is action.yml, with every key GitHub reads from a composite
// action; an unknown key fails the parse.
type actionFile struct {
	Name        string                  `yaml:"name"`
	Description string                  `yaml:"description"`
	Author      string                  `yaml:"author"`
	Branding    map[string]string       `yaml:"branding"`
	Inputs      map[string]actionInput  `yaml:"inputs"`
	Outputs     map[string]actionOutput `yaml:"outputs"`
	Runs        struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionInput struct {
	Description string `yaml:"description"`
	Required    bool   `yaml:"required"`
	Default     string `yaml:"default"`
}

type actionOutput struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

type actionStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	ContinueOnError  string            `yaml:"continue-on-error"`
}

func loadAction(t testing.TB) *actionFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a
}

var (
	// inputExpr is the one expression a step's env may hold.
	inputExpr = regexp.MustCompile(`^\$\{\{ inputs\.([a-z][a-z0-9-]*) \}\}$`)
	// stepOutputExpr is the one expression an output's value may hold.
	stepOutputExpr = regexp.MustCompile(`^\$\{\{ steps\.([a-z][a-z0-9-]*)\.outputs\.([a-z][a-z0-9-]*) \}\}$`)
	// refsCondition is the refs step's condition: it runs after a failed
	// check too, but not after a failed install.
	refsCondition = "${{ !cancelled() && steps.install.outcome == 'success' }}"
)

// runner runs the steps of action.yml as the Actions runner does: each
// step's run: in bash --noprofile --norc -eo pipefail, in GITHUB_WORKSPACE,
// with the step's env: (inputs substituted) over the job's environment, a
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY file of its own, and the directories
// earlier steps appended to GITHUB_PATH in front of PATH.
type runner struct {
	t      *testing.T
	action *actionFile
	// inputs are the with: of the workflow; the rest take their defaults.
	inputs map[string]string
	// env is the job's environment, GITHUB_* included.
	env       []string
	temp      string // RUNNER_TEMP
	workspace string // GITHUB_WORKSPACE
	path      []string
	outcomes  map[string]string // step id → success, failure, skipped
	outputs   map[string]map[string]string
	summary   strings.Builder
}

// newRunner prepares a job whose checkout is workspace; vars are more job
// environment variables ("K=V"), e.g. GITHUB_EVENT_NAME.
func newRunner(t *testing.T, workspace string, vars ...string) *runner {
	t.Helper()
	root := moduleRoot(t)
	temp := t.TempDir()
	env := setEnv(gitEnv(t),
		"CI=true", "GITHUB_ACTIONS=true",
		"GITHUB_ACTION_PATH="+root, // uses: ./ — this checkout is the action
		"GITHUB_ACTION_REF=", "GITHUB_ACTION_REPOSITORY=",
		"GITHUB_WORKSPACE="+workspace,
		"GITHUB_EVENT_NAME=push",
		"GITHUB_EVENT_PATH="+filepath.Join(temp, "event.json"),
		"GITHUB_BASE_REF=",
		"RUNNER_TEMP="+filepath.Join(temp, "runner"),
	)
	env = setEnv(env, vars...)
	if err := os.MkdirAll(filepath.Join(temp, "runner"), 0o755); err != nil {
		t.Fatal(err)
	}
	return &runner{t: t, action: loadAction(t), inputs: map[string]string{}, env: env, temp: temp, workspace: workspace,
		outcomes: map[string]string{}, outputs: map[string]map[string]string{}}
}

// getenv is a variable of the job's environment.
func (r *runner) getenv(k string) string {
	for _, kv := range slices.Backward(r.env) {
		if v, ok := strings.CutPrefix(kv, k+"="); ok {
			return v
		}
	}
	return ""
}

// installed puts dir on PATH as the install step would, and records that
// step as run.
func (r *runner) installed(dir string) {
	r.path = append(r.path, dir)
	r.outcomes["install"] = "success"
}

// step runs the step with that id; skipped reports a step whose condition
// was false.
func (r *runner) step(id string) (res result, skipped bool) {
	t := r.t
	t.Helper()
	i := slices.IndexFunc(r.action.Runs.Steps, func(s actionStep) bool { return s.ID == id })
	if i < 0 {
		t.Fatalf("action.yml has no step %q", id)
	}
	s := r.action.Runs.Steps[i]
	if !r.condition(i, s) {
		r.outcomes[id] = "skipped"
		return result{}, true
	}
	env := slices.Clone(r.env)
	for k, v := range s.Env {
		m := inputExpr.FindStringSubmatch(v)
		if m == nil {
			t.Fatalf("step %s: env %s is %q, not ${{ inputs.NAME }}", id, k, v)
		}
		in, ok := r.action.Inputs[m[1]]
		if !ok {
			t.Fatalf("step %s: env %s names an undeclared input %q", id, k, m[1])
		}
		val := in.Default
		if w, ok := r.inputs[m[1]]; ok {
			val = w
		}
		env = setEnv(env, k+"="+val)
	}
	files := map[string]string{}
	for _, k := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH"} {
		files[k] = filepath.Join(r.temp, id+"."+k)
		writeFile(t, files[k], "")
		env = setEnv(env, k+"="+files[k])
	}
	path := r.getenv("PATH")
	for _, d := range r.path {
		path = d + string(os.PathListSeparator) + path
	}
	env = setEnv(env, "PATH="+path)
	script := filepath.Join(r.temp, id+".sh")
	writeFile(t, script, s.Run)
	res = run(t, r.workspace, env, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)

	r.outcomes[id] = map[bool]string{true: "success", false: "failure"}[res.code == 0]
	r.outputs[id] = map[string]string{}
	for _, line := range strings.Split(readFile(t, files["GITHUB_OUTPUT"]), "\n") {
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("step %s wrote %q to GITHUB_OUTPUT, not KEY=VALUE", id, line)
		}
		r.outputs[id][k] = v
	}
	for _, line := range strings.Split(readFile(t, files["GITHUB_PATH"]), "\n") {
		if line != "" {
			r.path = append(r.path, line)
		}
	}
	r.summary.WriteString(readFile(t, files["GITHUB_STEP_SUMMARY"]))
	return res, false
}

// condition evaluates a step's if: as GitHub does, for the conditions
// action.yml uses: none means success() (every step before it succeeded).
func (r *runner) condition(i int, s actionStep) bool {
	switch s.If {
	case "":
		for _, prev := range r.action.Runs.Steps[:i] {
			if r.outcomes[prev.ID] == "failure" {
				return false
			}
		}
		return true
	case refsCondition:
		return r.outcomes["install"] == "success"
	}
	r.t.Fatalf("step %s: the test's runner does not know the condition %q", s.ID, s.If)
	return false
}

// all runs every step in order.
func (r *runner) all() {
	for _, s := range r.action.Runs.Steps {
		r.step(s.ID)
	}
}

// output is the action's output name, as the workflow sees it.
func (r *runner) output(name string) string {
	o, ok := r.action.Outputs[name]
	if !ok {
		r.t.Fatalf("action.yml has no output %q", name)
	}
	m := stepOutputExpr.FindStringSubmatch(o.Value)
	if m == nil {
		r.t.Fatalf("output %s is %q, not ${{ steps.ID.outputs.KEY }}", name, o.Value)
	}
	return r.outputs[m[1]][m[2]]
}
