package integration

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// installEnv is the environment go install runs in: the test's, with GOBIN
// set, version control stamping on (whatever the machine's go env says), and
// cgo as asked.
func installEnv(t *testing.T, gobin, cgo string) []string {
	t.Helper()
	return setEnv(gitEnv(t), "GOBIN="+gobin, "GOFLAGS=-buildvcs=auto", "CGO_ENABLED="+cgo, "GOWORK=")
}

// symLanguages are the languages sym= names beyond Go, which need cgo.
var cgoLanguages = []string{"C", "C++", "Java", "JavaScript", "Python", "Rust", "TypeScript"}

// TestInstallFromClone installs the command as the README says, from a clone
// (go install ./cmd/textfrag), with cgo and without, and runs --version: a
// tagged clone reports its tag and commit, and a build without cgo names the
// languages it lacks.
func TestInstallFromClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command twice")
	}
	env := gitEnv(t)
	tmp := t.TempDir()
	snapshot := filepath.Join(tmp, "snapshot")
	commit := snapshotRepo(t, moduleRoot(t), snapshot, env)
	mustRun(t, snapshot, env, "git", "tag", "v0.9.0")
	clone := filepath.Join(tmp, "textfrag")
	mustRun(t, tmp, env, "git", "clone", "-q", snapshot, clone)

	cgo := strings.TrimSpace(mustRun(t, clone, env, "go", "env", "CGO_ENABLED"))
	for _, c := range []struct {
		cgo  string
		want []string
		lack bool
	}{
		{cgo: cgo, lack: cgo != "1"},
		{cgo: "0", lack: true},
	} {
		gobin := filepath.Join(tmp, "bin-cgo"+c.cgo)
		mustRun(t, clone, installEnv(t, gobin, c.cgo), "go", "install", "./cmd/textfrag")
		out := mustRun(t, tmp, env, filepath.Join(gobin, "textfrag"), "--version")
		for _, want := range []string{"textfrag v0.9.0\n", "\nrevision: " + commit + " ("} {
			if !strings.Contains(out, want) {
				t.Errorf("CGO_ENABLED=%s: --version lacks %q:\n%s", c.cgo, want, out)
			}
		}
		langs := regexp.MustCompile(`(?m)^sym= languages: (.*)$`).FindStringSubmatch(out)
		if langs == nil {
			t.Fatalf("CGO_ENABLED=%s: no sym= languages line:\n%s", c.cgo, out)
		}
		for _, l := range cgoLanguages {
			has := strings.Contains(", "+langs[1]+",", ", "+l+",")
			if has == c.lack {
				t.Errorf("CGO_ENABLED=%s: sym= languages %q, %s has %v", c.cgo, langs[1], l, has)
			}
		}
		if lacks := strings.Contains(out, "\nsym= lacks: C, C++, Java, JavaScript, Python, Rust, TSX, TypeScript (their tree-sitter parsers need cgo"); lacks != c.lack {
			t.Errorf("CGO_ENABLED=%s: the lacks line is there: %v:\n%s", c.cgo, lacks, out)
		}
	}
}

// zeroVersion is the placeholder version at which the repository's modules
// require each other (go.work maps it to their directories).
const zeroVersion = "v0.0.0-00010101000000-000000000000"

// TestInstallAtVersion proves the README's line for a published release,
// go install github.com/textfrag/textfrag/cmd/textfrag@VERSION, without
// publishing: every module of go.work is served at VERSION by a Go module
// proxy in a directory, made from the committed files as a proxy makes them
// from a tag after the release recipe's scripts/release-prepare (RELEASING.md),
// and the other modules come from the module cache. go install then runs
// where no go.mod or go.work is, with an empty module cache, as on a fresh
// machine; the binary must report VERSION.
func TestInstallAtVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	const version = "v0.9.0"
	env := gitEnv(t)
	root := moduleRoot(t)
	if data := readFile(t, filepath.Join(root, "go.mod")); regexp.MustCompile(`(?m)^replace\b`).MatchString(data) {
		t.Fatal("the command's go.mod has a replace directive: go install …@VERSION refuses such a module")
	}
	tmp := t.TempDir()
	snapshot := filepath.Join(tmp, "snapshot")
	snapshotRepo(t, root, snapshot, env)
	// The release recipe's first step, committed as a release commits it.
	mustRun(t, snapshot, env, filepath.Join(snapshot, "scripts", "release-prepare"), version)
	mustRun(t, snapshot, env, "git", "commit", "-q", "-a", "-m", "release "+version)
	var tracked []string
	for _, f := range strings.Split(mustRun(t, snapshot, env, "git", "ls-files", "-z"), "\x00") {
		if f != "" {
			tracked = append(tracked, f)
		}
	}

	// The modules of go.work, by directory relative to the repository.
	type mod struct{ path, dir string }
	var mods []mod
	dec := json.NewDecoder(strings.NewReader(mustRun(t, root, env, "go", "list", "-m", "-json")))
	for dec.More() {
		var m struct{ Path, Dir string }
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(root, m.Dir)
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, mod{m.Path, filepath.ToSlash(rel)})
	}
	if len(mods) < 2 {
		t.Fatalf("go.work lists %v", mods)
	}
	proxy := filepath.Join(tmp, "proxy")
	var rootMod mod
	for _, m := range mods {
		if m.dir == "." {
			rootMod = m
		}
		var files []modzip.File
		for _, f := range tracked {
			rel, ok := f, m.dir == "."
			if !ok {
				rel, ok = strings.CutPrefix(f, m.dir+"/")
			}
			if ok {
				files = append(files, snapshotFile{root: filepath.Join(snapshot, filepath.FromSlash(m.dir)), rel: rel})
			}
		}
		escaped, err := module.EscapePath(m.path)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		gomod := readFile(t, filepath.Join(snapshot, filepath.FromSlash(m.dir), "go.mod"))
		if strings.Contains(gomod, zeroVersion) {
			t.Errorf("%s: release-prepare left a requirement at %s:\n%s", m.path, zeroVersion, gomod)
		}
		var buf bytes.Buffer
		if err := modzip.Create(&buf, module.Version{Path: m.path, Version: version}, files); err != nil {
			t.Fatalf("%s: %v", m.path, err)
		}
		info := `{"Version":"` + version + `","Time":"` + time.Now().UTC().Format(time.RFC3339) + `"}`
		for name, data := range map[string]string{"list": version + "\n", version + ".info": info, version + ".mod": gomod, version + ".zip": buf.String()} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if rootMod.path != "github.com/textfrag/textfrag" {
		t.Fatalf("go.work's first module is %+v", mods[0])
	}

	modcache := strings.TrimSpace(mustRun(t, root, env, "go", "env", "GOMODCACHE"))
	elsewhere := filepath.Join(tmp, "elsewhere")
	if err := os.MkdirAll(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	gobin := filepath.Join(tmp, "bin")
	installEnv := setEnv(env,
		"GOBIN="+gobin, "CGO_ENABLED=0", // the tree-sitter grammars' C is built by TestInstallFromClone
		"GOMODCACHE="+filepath.Join(tmp, "modcache"), "GOFLAGS=-modcacherw",
		"GOPROXY="+fileURL(proxy)+","+fileURL(filepath.Join(modcache, "cache", "download")),
		// No checksum database here, and these versions are in none.
		"GOSUMDB=off", "GOWORK=")
	res := run(t, elsewhere, installEnv, "go", "install", "github.com/textfrag/textfrag/cmd/textfrag@"+version)
	if res.code != 0 {
		t.Fatalf("go install github.com/textfrag/textfrag/cmd/textfrag@%s: exit %d\n%s", version, res.code, res.output())
	}
	out := mustRun(t, elsewhere, env, filepath.Join(gobin, "textfrag"), "--version")
	if !strings.HasPrefix(out, "textfrag "+version+"\n") || !strings.Contains(out, "without cgo") || !strings.Contains(out, "\nsym= lacks: ") {
		t.Errorf("--version of the installed command:\n%s", out)
	}
}

// fileURL is the file:// URL GOPROXY takes for dir.
func fileURL(dir string) string {
	if runtime.GOOS == "windows" {
		return "file:///" + filepath.ToSlash(dir)
	}
	return "file://" + dir
}

// snapshotFile is a committed file of one module, for modzip.Create.
type snapshotFile struct{ root, rel string }

func (f snapshotFile) Path() string { return f.rel }

func (f snapshotFile) Lstat() (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(f.root, filepath.FromSlash(f.rel)))
}

func (f snapshotFile) Open() (io.ReadCloser, error) {
	return os.Open(filepath.Join(f.root, filepath.FromSlash(f.rel)))
}
