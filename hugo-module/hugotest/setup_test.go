package hugotest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// The README's setup, run as written from a fresh site with the hugo
// command, offline: once with the module as published (a module proxy in a
// directory, holding this checkout as v0.1.0) and once from a local checkout.

// readmeConfig is the configuration the README tells users to add.
const readmeConfig = `[module]
  [[module.imports]]
    path = "github.com/textfrag/textfrag/hugo-module"

# A standalone image becomes a <figure> box instead of a box inside <p>.
[markup.goldmark.parser]
  wrapStandAloneImageWithinParagraph = false
`

// The README's commands, in order, for the published module.
var readmePublished = []string{
	"hugo mod init github.com/me/my-site",
	"hugo mod get github.com/textfrag/textfrag/hugo-module",
}

func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleDir(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// moduleProxy writes a GOPROXY directory serving this checkout of the
// module as version v0.1.0, and returns its file URL.
func moduleProxy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	v := module.Version{Path: modulePath, Version: "v0.1.0"}
	at := filepath.Join(dir, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	if err := zip.CreateFromDir(&z, v, moduleDir(t)); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(moduleDir(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]any{"Version": v.Version, "Time": time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	for name, data := range map[string][]byte{
		"list": []byte(v.Version + "\n"), v.Version + ".info": info, v.Version + ".mod": gomod, v.Version + ".zip": z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "file://" + filepath.ToSlash(dir)
}

// freshSite runs "hugo new site", adds the README's configuration, a layout
// that includes textfrag/head.html, a quoted file and a page.
func freshSite(t *testing.T, env []string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "my-site")
	run(t, filepath.Dir(dir), env, "hugo new site my-site")
	cfg, err := os.ReadFile(filepath.Join(dir, "hugo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "hugo.toml"), string(cfg)+"\n"+readmeConfig)
	write(t, filepath.Join(dir, "layouts", "baseof.html"), `<!doctype html><html><head>{{ partial "textfrag/head.html" . }}</head><body>{{ block "main" . }}{{ end }}</body></html>`)
	write(t, filepath.Join(dir, "layouts", "single.html"), `{{ define "main" }}{{ .Content }}{{ end }}`)
	write(t, filepath.Join(dir, "layouts", "home.html"), `{{ define "main" }}home{{ end }}`)
	write(t, filepath.Join(dir, "src", "a.txt"), twoLines)
	write(t, filepath.Join(dir, "content", "page.md"), "---\ntitle: t\n---\n\n![First line](../src/a.txt#line=0,1)\n")
	return dir
}

// run runs a command line of the README (split at spaces) in dir, with the
// hugo binary for "hugo".
func run(t *testing.T, dir string, env []string, line string) string {
	t.Helper()
	args := strings.Fields(line)
	if args[0] == "hugo" {
		args[0] = hugoBinary(t)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	return string(out)
}

// offlineEnv is the environment for the hugo command: no network (the
// module proxy, if any, is a directory), and caches inside the test.
func offlineEnv(t *testing.T, proxy string) []string {
	t.Helper()
	env := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "GOTOOLCHAIN=local",
		"HUGO_CACHEDIR=" + t.TempDir(), "GOSUMDB=off", "GOFLAGS=-modcacherw"}
	if proxy != "" {
		// module.proxy is "direct" by default; Hugo reads HUGO_MODULE_PROXY.
		env = append(env, "HUGO_MODULE_PROXY="+proxy)
	} else {
		env = append(env, "HUGO_MODULE_PROXY=off")
	}
	return env
}

func checkBuilt(t *testing.T, dir string) {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(dir, "public", "page", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the page", string(page),
		`<figure class="textfrag textfrag-line" data-textfrag-fragment="line=0,1">`,
		`<span class="textfrag-title">First line</span>`,
		`<link rel="stylesheet" href="/textfrag/textfrag.`)
}

func TestSetupPublishedModule(t *testing.T) {
	text := readme(t)
	for _, s := range append([]string{readmeConfig}, readmePublished...) {
		if !strings.Contains(text, s) {
			t.Errorf("the README no longer says %q", s)
		}
	}
	env := offlineEnv(t, moduleProxy(t))
	dir := freshSite(t, env)
	for _, line := range readmePublished {
		run(t, dir, env, line)
	}
	run(t, dir, env, "hugo")
	checkBuilt(t, dir)
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	mustContain(t, "go.mod", string(gomod), "require github.com/textfrag/textfrag/hugo-module v0.1.0")
}

// A local checkout (or a vendored copy) of the repository: the same
// configuration, no go.mod, and HUGO_MODULE_REPLACEMENTS (or replacements
// under [module]) naming the checkout's hugo-module directory.
func TestSetupLocalCheckout(t *testing.T) {
	const readmeLocal = `HUGO_MODULE_REPLACEMENTS="github.com/textfrag/textfrag/hugo-module -> $PWD/../textfrag/hugo-module" hugo`
	if !strings.Contains(readme(t), readmeLocal) {
		t.Errorf("the README no longer says %q", readmeLocal)
	}
	env := offlineEnv(t, "")
	dir := freshSite(t, env)
	checkout := filepath.Join(filepath.Dir(dir), "textfrag", "hugo-module")
	copyDir(t, moduleDir(t), checkout, "layouts", "assets", "hugo.toml", "go.mod")
	env = append(env, "HUGO_MODULE_REPLACEMENTS="+modulePath+" -> "+dir+"/../textfrag/hugo-module")
	run(t, dir, env, "hugo")
	checkBuilt(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		t.Error("the build wrote a go.mod")
	}
}
