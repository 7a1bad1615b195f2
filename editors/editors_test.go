package editors

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// need finds an executable the editor tests run. Missing, the test fails
// naming the installer, unless TEXTFRAG_SKIP_EDITORS=1 skips it, saying so.
func need(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("TEXTFRAG_SKIP_EDITORS") == "1" {
		t.Skipf("%s is not installed and TEXTFRAG_SKIP_EDITORS=1: this editor set-up is not tested", name)
	}
	t.Fatalf("%s is not installed: run scripts/install-test-deps (as root it runs apt-get install %s), "+
		"install it yourself, or set TEXTFRAG_SKIP_EDITORS=1 to skip this test", name, pkg)
	return ""
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if dec.More() {
		t.Fatalf("%s: more than one JSON value", path)
	}
}

type vscodeProperty struct {
	Type    string   `json:"type"`
	Default any      `json:"default"`
	Enum    []string `json:"enum"`
}

type vscodeManifest struct {
	Name       string            `json:"name"`
	Publisher  string            `json:"publisher"`
	Version    string            `json:"version"`
	Main       string            `json:"main"`
	Engines    map[string]string `json:"engines"`
	Activation []string          `json:"activationEvents"`
	Repository struct {
		URL string `json:"url"`
	} `json:"repository"`
	Contributes struct {
		Configuration struct {
			Properties map[string]vscodeProperty `json:"properties"`
		} `json:"configuration"`
	} `json:"contributes"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

var (
	extName   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	semver    = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`)
	engineMin = regexp.MustCompile(`^\^?(\d+)\.(\d+)\.(\d+)$`)
)

// minVersion is the lowest version a caret or exact range admits.
func minVersion(t *testing.T, what, r string) [3]int {
	t.Helper()
	m := engineMin.FindStringSubmatch(r)
	if m == nil {
		t.Fatalf("%s: %q is not ^X.Y.Z or X.Y.Z", what, r)
	}
	var v [3]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v
}

// TestVSCodeManifest checks package.json for what VS Code and vsce require
// of an extension, and that its one dependency is pinned and locked.
func TestVSCodeManifest(t *testing.T) {
	var m vscodeManifest
	readJSON(t, "vscode/package.json", &m)
	if !extName.MatchString(m.Name) {
		t.Errorf("name %q: must be lowercase letters, digits and dashes", m.Name)
	}
	if !extName.MatchString(m.Publisher) {
		t.Errorf("publisher %q: must be a publisher id", m.Publisher)
	}
	if !semver.MatchString(m.Version) {
		t.Errorf("version %q: not X.Y.Z", m.Version)
	}
	if m.Repository.URL == "" {
		t.Error("repository.url missing: vsce package stops to ask")
	}
	if st, err := os.Stat(filepath.Join("vscode", m.Main)); m.Main == "" || err != nil || !st.Mode().IsRegular() {
		t.Errorf("main %q: not a file in editors/vscode (%v)", m.Main, err)
	}
	engine := minVersion(t, "engines.vscode", m.Engines["vscode"])
	if !slices.Contains(m.Activation, "onLanguage:markdown") {
		t.Errorf("activationEvents %q: lacks onLanguage:markdown", m.Activation)
	}

	props := m.Contributes.Configuration.Properties
	if p := props["textfrag.path"]; p.Type != "string" || p.Default != "textfrag" {
		t.Errorf("textfrag.path = %+v, want type string, default \"textfrag\"", p)
	}
	if p := props["textfrag.trace.server"]; p.Type != "string" || !reflect.DeepEqual(p.Enum, []string{"off", "messages", "verbose"}) || p.Default != "off" {
		t.Errorf("textfrag.trace.server = %+v, want type string, enum off/messages/verbose, default off", p)
	}
	for key, p := range props {
		if !strings.HasPrefix(key, "textfrag.") || p.Type == "" || p.Default == nil {
			t.Errorf("setting %q: want a textfrag. key with a type and a default, got %+v", key, p)
		}
		if p.Enum != nil && !slices.Contains(p.Enum, p.Default.(string)) {
			t.Errorf("setting %q: default %v not in its enum %q", key, p.Default, p.Enum)
		}
	}

	if len(m.DevDependencies) != 0 {
		t.Errorf("devDependencies %v: the extension has no build step", m.DevDependencies)
	}
	if _, ok := m.Dependencies["vscode-languageclient"]; !ok {
		t.Error("dependencies lack vscode-languageclient")
	}
	for name, v := range m.Dependencies {
		if !semver.MatchString(v) {
			t.Errorf("dependency %s %q: not pinned to one version", name, v)
		}
	}

	// package-lock.json, which npm ci installs from, matches the manifest,
	// and the client library's own engines.vscode is met.
	var lock struct {
		Packages map[string]struct {
			Version      string            `json:"version"`
			Dependencies map[string]string `json:"dependencies"`
			Engines      map[string]string `json:"engines"`
		} `json:"packages"`
	}
	readJSON(t, "vscode/package-lock.json", &lock)
	if root := lock.Packages[""]; !reflect.DeepEqual(root.Dependencies, m.Dependencies) || root.Version != m.Version {
		t.Errorf("package-lock.json is stale: it has version %q, dependencies %v; package.json %q, %v (run npm install --package-lock-only)",
			root.Version, root.Dependencies, m.Version, m.Dependencies)
	}
	for name, v := range m.Dependencies {
		locked := lock.Packages["node_modules/"+name]
		if locked.Version != v {
			t.Errorf("package-lock.json locks %s %q, package.json pins %q", name, locked.Version, v)
		}
		if r, ok := locked.Engines["vscode"]; ok {
			if need := minVersion(t, name+" engines.vscode", r); slices.Compare(engine[:], need[:]) < 0 {
				t.Errorf("engines.vscode %q: %s %s needs %q", m.Engines["vscode"], name, v, r)
			}
		}
	}
}

type vscodeRun struct {
	Clients []struct {
		ID            string `json:"id"`
		ServerOptions struct {
			Command   string            `json:"command"`
			Transport any               `json:"transport"`
			Args      []string          `json:"args"`
			Options   map[string]string `json:"options"`
		} `json:"serverOptions"`
		ClientOptions map[string]any `json:"clientOptions"`
		Started       bool           `json:"started"`
		Stopped       bool           `json:"stopped"`
	} `json:"clients"`
	AfterActivate []struct {
		Started bool `json:"started"`
		Stopped bool `json:"stopped"`
	} `json:"afterActivate"`
	Errors        []string `json:"errors"`
	ConfigKeys    []string `json:"configKeys"`
	Subscriptions int      `json:"subscriptions"`
	Watchers      []string `json:"watchers"`
}

// track reads files that a child process will read, so that go test's
// cache, which sees only the test's own reads, is invalidated by a change.
func track(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
}

// runExtension runs extension.js in Node with stand-ins for the vscode and
// vscode-languageclient modules (testdata/vscode_harness.js).
func runExtension(t *testing.T, node string, scenario string) vscodeRun {
	t.Helper()
	dir, err := filepath.Abs("vscode")
	if err != nil {
		t.Fatal(err)
	}
	track(t, "testdata/vscode_harness.js", "vscode/package.json", "vscode/extension.js")
	cmd := exec.Command(node, "testdata/vscode_harness.js", dir, scenario)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node vscode_harness.js %s: %v\n%s", scenario, err, stderr.Bytes())
	}
	var r vscodeRun
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("harness output %q: %v", out, err)
	}
	return r
}

func TestVSCodeExtensionSyntax(t *testing.T) {
	node := need(t, "node", "nodejs")
	track(t, "vscode/extension.js")
	if out, err := exec.Command(node, "--check", "vscode/extension.js").CombinedOutput(); err != nil {
		t.Fatalf("node --check extension.js: %v\n%s", err, out)
	}
}

// TestVSCodeExtension activates the extension and checks the client it
// starts: `textfrag lsp` (or textfrag.path) in the workspace folder, for
// Markdown files on disk; a change of textfrag.path restarts it; deactivate
// stops it; a failed start says how to install textfrag.
func TestVSCodeExtension(t *testing.T) {
	node := need(t, "node", "nodejs")
	markdown := []any{map[string]any{"scheme": "file", "language": "markdown"}}

	t.Run("default", func(t *testing.T) {
		r := runExtension(t, node, `{"folders": ["/work/site"]}`)
		if len(r.Clients) != 1 {
			t.Fatalf("%d clients, want 1", len(r.Clients))
		}
		c := r.Clients[0]
		// The client reads <id>.trace.server: the id must be textfrag.
		if c.ID != "textfrag" {
			t.Errorf("client id %q, want textfrag (it names the trace setting)", c.ID)
		}
		if c.ServerOptions.Command != "textfrag" || !slices.Equal(c.ServerOptions.Args, []string{"lsp"}) {
			t.Errorf("server %q %q, want textfrag [lsp]", c.ServerOptions.Command, c.ServerOptions.Args)
		}
		// With a transport set, the client appends --stdio (or --pipe=…)
		// to the arguments, which textfrag lsp does not take.
		if c.ServerOptions.Transport != nil {
			t.Errorf("server transport %v: the client would add an argument to textfrag lsp", c.ServerOptions.Transport)
		}
		if c.ServerOptions.Options["cwd"] != "/work/site" {
			t.Errorf("server cwd %q, want the workspace folder /work/site", c.ServerOptions.Options["cwd"])
		}
		if !reflect.DeepEqual(c.ClientOptions["documentSelector"], markdown) {
			t.Errorf("documentSelector %v, want %v", c.ClientOptions["documentSelector"], markdown)
		}
		// The server registers its own file watcher; a second one would
		// report each change twice.
		if _, ok := c.ClientOptions["synchronize"]; ok || len(r.Watchers) > 0 {
			t.Errorf("the extension watches files itself (%v, %q)", c.ClientOptions["synchronize"], r.Watchers)
		}
		if !r.AfterActivate[0].Started || r.AfterActivate[0].Stopped {
			t.Errorf("after activate: %+v, want started, not stopped", r.AfterActivate[0])
		}
		if !c.Stopped {
			t.Error("deactivate did not stop the client")
		}
		if len(r.Errors) != 0 {
			t.Errorf("errors shown: %q", r.Errors)
		}
		if r.Subscriptions == 0 {
			t.Error("the configuration listener is not disposed with the extension")
		}
		// Every setting but the trace (which the client reads) is read.
		var m vscodeManifest
		readJSON(t, "vscode/package.json", &m)
		for key := range m.Contributes.Configuration.Properties {
			if key != "textfrag.trace.server" && !slices.Contains(r.ConfigKeys, key) {
				t.Errorf("setting %s is never read (read: %q)", key, r.ConfigKeys)
			}
		}
	})

	t.Run("path", func(t *testing.T) {
		r := runExtension(t, node, `{"config": {"path": "/opt/textfrag/bin/textfrag"}}`)
		if len(r.Clients) != 1 || r.Clients[0].ServerOptions.Command != "/opt/textfrag/bin/textfrag" {
			t.Fatalf("clients %+v, want one running /opt/textfrag/bin/textfrag", r.Clients)
		}
		if _, ok := r.Clients[0].ServerOptions.Options["cwd"]; ok {
			t.Errorf("cwd %q without a workspace folder", r.Clients[0].ServerOptions.Options["cwd"])
		}
	})

	t.Run("path changed", func(t *testing.T) {
		r := runExtension(t, node, `{"change": {"config": {"path": "/usr/local/bin/textfrag"}, "key": "textfrag.path"}}`)
		if len(r.Clients) != 2 {
			t.Fatalf("%d clients, want the first stopped and a second started", len(r.Clients))
		}
		if !r.AfterActivate[0].Stopped || !r.AfterActivate[1].Started || r.AfterActivate[1].Stopped {
			t.Errorf("after the change: %+v, want the first stopped, the second running", r.AfterActivate)
		}
		if got := r.Clients[1].ServerOptions.Command; got != "/usr/local/bin/textfrag" {
			t.Errorf("restarted with %q, want /usr/local/bin/textfrag", got)
		}
		if !r.Clients[1].Stopped {
			t.Error("deactivate did not stop the restarted client")
		}
	})

	t.Run("other setting changed", func(t *testing.T) {
		r := runExtension(t, node, `{"change": {"config": {}, "key": "editor.fontSize"}}`)
		if len(r.Clients) != 1 {
			t.Errorf("%d clients, want 1: only textfrag.path restarts the server", len(r.Clients))
		}
	})

	t.Run("start fails", func(t *testing.T) {
		r := runExtension(t, node, `{"startFails": true}`)
		if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "go install github.com/textfrag/textfrag/cmd/textfrag@latest") ||
			!strings.Contains(r.Errors[0], "textfrag.path") {
			t.Errorf("errors shown %q, want one naming go install and textfrag.path", r.Errors)
		}
	})
}

// helixConfig is the part of Helix's languages.toml the snippet uses; the
// decoder rejects any other key, so a misspelt one fails.
type helixConfig struct {
	LanguageServer map[string]struct {
		Command string   `toml:"command"`
		Args    []string `toml:"args"`
	} `toml:"language-server"`
	Language []struct {
		Name            string `toml:"name"`
		LanguageServers []any  `toml:"language-servers"`
	} `toml:"language"`
}

func TestHelixConfig(t *testing.T) {
	data, err := os.ReadFile("helix/languages.toml")
	if err != nil {
		t.Fatal(err)
	}
	var c helixConfig
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("helix/languages.toml: %v", err)
	}
	s, ok := c.LanguageServer["textfrag"]
	if !ok || s.Command != "textfrag" || !slices.Equal(s.Args, []string{"lsp"}) {
		t.Errorf("language-server.textfrag = %+v, want command textfrag, args [lsp]", s)
	}
	var servers []string
	for _, l := range c.Language {
		if l.Name != "markdown" {
			continue
		}
		for _, s := range l.LanguageServers {
			switch s := s.(type) {
			case string:
				servers = append(servers, s)
			case map[string]any:
				name, _ := s["name"].(string)
				servers = append(servers, name)
			}
		}
	}
	if !slices.Contains(servers, "textfrag") {
		t.Errorf("markdown's language-servers %q lack textfrag", servers)
	}
	for _, name := range servers {
		if _, ok := c.LanguageServer[name]; !ok && name != "marksman" { // marksman is Helix's own
			t.Errorf("markdown uses language server %q, which is not defined", name)
		}
	}
}

// readmeBlocks returns the fenced code blocks with the given info string
// of the top-level README's "Editors" section.
func readmeBlocks(t *testing.T, lang string) []string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Editors\n")
	if !ok {
		t.Fatal("README.md has no Editors section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var blocks []string
	for _, part := range strings.Split(section, "```"+lang+"\n")[1:] {
		end := strings.Index(part, "```\n")
		if end < 0 {
			t.Fatalf("README.md: unterminated %s block", lang)
		}
		blocks = append(blocks, part[:end])
	}
	if len(blocks) == 0 {
		t.Fatalf("README.md has no %s block", lang)
	}
	return blocks
}

// TestReadmeHelix: the README's Helix block is the tested file, without its
// comments.
func TestReadmeHelix(t *testing.T) {
	data, err := os.ReadFile("helix/languages.toml")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			want = append(want, line)
		}
	}
	got := readmeBlocks(t, "toml")
	if strings.TrimSpace(got[0]) != strings.TrimSpace(strings.Join(want, "\n")) {
		t.Errorf("README.md's Helix block:\n%s\ndiffers from helix/languages.toml:\n%s", got[0], data)
	}
}

// TestReadmeEmacs checks the Eglot form's shape: balanced parentheses, the
// command and the modes. (No Emacs here to read it.)
func TestReadmeEmacs(t *testing.T) {
	src := readmeBlocks(t, "elisp")[0]
	depth := 0
	for _, r := range src {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth < 0 {
			t.Fatalf("unbalanced parentheses:\n%s", src)
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced parentheses:\n%s", src)
	}
	for _, want := range []string{`'eglot-server-programs`, `markdown-mode`, `("textfrag" "lsp")`} {
		if !strings.Contains(src, want) {
			t.Errorf("elisp lacks %s:\n%s", want, src)
		}
	}
}

type nvimClientConfig struct {
	Name    string   `json:"name"`
	Cmd     []string `json:"cmd"`
	CmdCwd  string   `json:"cmd_cwd"`
	RootDir string   `json:"root_dir"`
}

type nvimRun struct {
	StartClients []nvimClientConfig `json:"start_clients"`
	Starts       []struct {
		Config nvimClientConfig `json:"config"`
		Bufnr  int              `json:"bufnr"`
	} `json:"starts"`
	Attaches []struct {
		Buf string `json:"buf"`
		ID  int    `json:"id"`
	} `json:"attaches"`
	Configs []struct {
		Name   string         `json:"name"`
		Config map[string]any `json:"config"`
	} `json:"configs"`
	Enables   []string `json:"enables"`
	LoadError string   `json:"load_error"`
	OpenError string   `json:"open_error"`
}

// runNvim loads snippet in a headless Neovim through testdata/nvim_harness.lua
// and opens files, with testdata/fake-textfrag first on PATH as textfrag.
// It returns the harness's record and the fake's log: one "cwd\targs" line
// per start.
func runNvim(t *testing.T, nvim, snippet string, env []string, open ...string) (nvimRun, []string) {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	fake, err := os.ReadFile("testdata/fake-textfrag")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "textfrag"), fake, 0o755); err != nil {
		t.Fatal(err)
	}
	track(t, "testdata/nvim_harness.lua", snippet)
	harness, err := filepath.Abs("testdata/nvim_harness.lua")
	if err != nil {
		t.Fatal(err)
	}
	snippet, err = filepath.Abs(snippet)
	if err != nil {
		t.Fatal(err)
	}
	out, log := filepath.Join(tmp, "out.json"), filepath.Join(tmp, "fake.log")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+harness)
	cmd.Dir = tmp
	cmd.WaitDelay = time.Second
	cmd.Env = append(os.Environ(), append(env,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"SNIPPET="+snippet, "OUT="+out, "OPEN="+strings.Join(open, "\n"),
		"TEXTFRAG_FAKE_LOG="+log, "XDG_STATE_HOME="+tmp, "XDG_CACHE_HOME="+tmp)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	var r nvimRun
	readJSON(t, out, &r)
	if r.LoadError != "" || r.OpenError != "" {
		t.Fatalf("loading %s: %s %s", snippet, r.LoadError, r.OpenError)
	}
	var lines []string
	if b, err := os.ReadFile(log); err == nil {
		lines = strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	return r, lines
}

// TestNeovimSnippet opens Markdown pages of two projects and a text file in
// a real headless Neovim with neovim/textfrag.lua loaded: one textfrag lsp
// runs per project, started in its root (textfrag.toml before a nearer
// .git; a .git file, as in a git worktree, counts), and each page attaches
// to its project's server; the text file starts nothing.
func TestNeovimSnippet(t *testing.T) {
	nvim := need(t, "nvim", "neovim")
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	wt := filepath.Join(dir, "wt")
	files := map[string]string{
		"site/textfrag.toml":         "",
		"site/docs/a.md":             "# a\n",
		"site/docs/vendor/.git/HEAD": "ref: refs/heads/main\n",
		"site/docs/vendor/b.md":      "# b\n",
		"site/src/x.txt":             "x\n",
		"wt/.git":                    "gitdir: /elsewhere\n",
		"wt/c.md":                    "# c\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(site, "docs/a.md"), filepath.Join(site, "docs/vendor/b.md")
	c, x := filepath.Join(wt, "c.md"), filepath.Join(site, "src/x.txt")

	// vim.lsp.start (Neovim 0.8+) reuses a client of the same name and
	// root_dir itself: the snippet must give each page its project's root.
	t.Run("vim.lsp.start stand-in", func(t *testing.T) {
		r, log := runNvim(t, nvim, "neovim/textfrag.lua", []string{"FAKE_LSP_START=1"}, a, x, "scratch", b, c)
		if len(log) != 0 || len(r.StartClients) != 0 {
			t.Errorf("started %q, %+v beside vim.lsp.start", log, r.StartClients)
		}
		var roots []string
		for _, s := range r.Starts {
			roots = append(roots, s.Config.RootDir)
			if s.Config.Name != "textfrag" || !slices.Equal(s.Config.Cmd, []string{"textfrag", "lsp"}) ||
				s.Config.CmdCwd != s.Config.RootDir || s.Bufnr == 0 {
				t.Errorf("vim.lsp.start(%+v, {bufnr = %d}): want name textfrag, cmd [textfrag lsp], cmd_cwd = root_dir, the page's buffer",
					s.Config, s.Bufnr)
			}
		}
		if want := []string{site, site, wt}; !slices.Equal(roots, want) {
			t.Errorf("vim.lsp.start for roots %q, want %q (a.md, b.md, c.md; not x.txt, not a scratch buffer)", roots, want)
		}
	})

	for _, mode := range []struct{ name, env string }{
		{"as installed", "NO_LSP_START=0"},
		{"Neovim 0.7 (start_client)", "NO_LSP_START=1"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			r, log := runNvim(t, nvim, "neovim/textfrag.lua", []string{mode.env}, a, x, "scratch", b, c)
			slices.Sort(log) // the two servers start concurrently
			want := []string{site + "\tlsp", wt + "\tlsp"}
			if !slices.Equal(log, want) {
				t.Errorf("textfrag started as (cwd, args) %q, want %q", log, want)
			}
			for _, s := range r.StartClients {
				if s.Name != "textfrag" || !slices.Equal(s.Cmd, []string{"textfrag", "lsp"}) || s.RootDir != s.CmdCwd {
					t.Errorf("client config %+v, want name textfrag, cmd [textfrag lsp], cmd_cwd = root_dir", s)
				}
			}
			ids := map[string]int{}
			for _, at := range r.Attaches {
				ids[at.Buf] = at.ID
			}
			if len(r.Attaches) != 3 || ids[a] == 0 || ids[a] != ids[b] || ids[c] == 0 || ids[c] == ids[a] {
				t.Errorf("attached %+v: want a.md and b.md on one client, c.md on another, x.txt and a scratch buffer on none", r.Attaches)
			}
		})
	}
}

// TestReadmeNeovimConfig runs the README's Neovim 0.11 form with stand-ins
// for vim.lsp.config and vim.lsp.enable (the Neovim here may be older).
func TestReadmeNeovimConfig(t *testing.T) {
	nvim := need(t, "nvim", "neovim")
	snippet := filepath.Join(t.TempDir(), "config.lua")
	if err := os.WriteFile(snippet, []byte(readmeBlocks(t, "lua")[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	r, log := runNvim(t, nvim, snippet, []string{"FAKE_CONFIG=1"})
	if len(r.Configs) != 1 || r.Configs[0].Name != "textfrag" {
		t.Fatalf("vim.lsp.config calls %+v, want one for textfrag", r.Configs)
	}
	cfg := r.Configs[0].Config
	for key, want := range map[string]any{
		"cmd":          []any{"textfrag", "lsp"},
		"filetypes":    []any{"markdown"},
		"root_markers": []any{"textfrag.toml", ".git"},
	} {
		if !reflect.DeepEqual(cfg[key], want) {
			t.Errorf("%s = %v, want %v", key, cfg[key], want)
		}
	}
	if !slices.Equal(r.Enables, []string{"textfrag"}) {
		t.Errorf("vim.lsp.enable calls %q, want textfrag", r.Enables)
	}
	if len(log) != 0 {
		t.Errorf("textfrag started %q by the stand-ins", log)
	}
}
