package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of .goreleaser.yaml the release depends on.
type goreleaserConfig struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		ID     string   `yaml:"id"`
		Main   string   `yaml:"main"`
		Binary string   `yaml:"binary"`
		Env    []string `yaml:"env"`
		Goos   []string `yaml:"goos"`
		Goarch []string `yaml:"goarch"`
		Ignore []struct {
			Goos   string `yaml:"goos"`
			Goarch string `yaml:"goarch"`
		} `yaml:"ignore"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		IDs             []string `yaml:"ids"`
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
		Files []string `yaml:"files"`
	} `yaml:"archives"`
}

// releaseTarget is one binary of a release.
type releaseTarget struct {
	goos, goarch string
	cgo          bool
}

// releaseTargets reads .goreleaser.yaml: its targets, each once, or the
// test fails saying what is wrong with the file.
func releaseTargets(t *testing.T, root string) (goreleaserConfig, []releaseTarget) {
	t.Helper()
	var c goreleaserConfig
	dec := yaml.NewDecoder(strings.NewReader(readFile(t, filepath.Join(root, ".goreleaser.yaml"))))
	dec.KnownFields(false)
	if err := dec.Decode(&c); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	var targets []releaseTarget
	seen := map[string]string{}
	for _, b := range c.Builds {
		if b.Main != "./cmd/textfrag" || b.Binary != "textfrag" {
			t.Errorf("build %s: main %q, binary %q: want ./cmd/textfrag, textfrag", b.ID, b.Main, b.Binary)
		}
		if !slices.Contains(b.Flags, "-trimpath") {
			t.Errorf("build %s: no -trimpath (the binary would hold the release machine's paths)", b.ID)
		}
		cgo := slices.Contains(b.Env, "CGO_ENABLED=1")
		if !cgo && !slices.Contains(b.Env, "CGO_ENABLED=0") {
			t.Errorf("build %s: CGO_ENABLED is not set, so the binaries would depend on the release machine", b.ID)
		}
		for _, goos := range b.Goos {
			for _, goarch := range b.Goarch {
				if slices.ContainsFunc(b.Ignore, func(i struct {
					Goos   string `yaml:"goos"`
					Goarch string `yaml:"goarch"`
				}) bool {
					return i.Goos == goos && i.Goarch == goarch
				}) {
					continue
				}
				key := goos + "/" + goarch
				if other, ok := seen[key]; ok {
					t.Errorf("%s is built twice (builds %s and %s)", key, other, b.ID)
				}
				seen[key] = b.ID
				targets = append(targets, releaseTarget{goos, goarch, cgo})
			}
		}
	}
	return c, targets
}

// TestGoReleaserConfig holds .goreleaser.yaml to a release of the command
// for Linux, macOS and Windows on amd64 and arm64, each once; cgo only where
// a release runner compiles C natively (linux/amd64), since the other
// binaries are cross-compiled; archives for every build, zip on Windows. It
// then builds the command for each other operating system, as GoReleaser
// will, so that a release never finds it does not compile there. GoReleaser itself is not run
// here: go run github.com/goreleaser/goreleaser/v2 check compiles hundreds
// of packages, minutes of CI time, for what this test asserts.
func TestGoReleaserConfig(t *testing.T) {
	root := moduleRoot(t)
	c, targets := releaseTargets(t, root)
	if c.Version != 2 || c.ProjectName != "textfrag" {
		t.Errorf("version %d, project_name %q: want 2, textfrag", c.Version, c.ProjectName)
	}
	var got []string
	for _, tg := range targets {
		got = append(got, fmt.Sprintf("%s/%s cgo=%v", tg.goos, tg.goarch, tg.cgo))
	}
	slices.Sort(got)
	want := []string{
		"darwin/amd64 cgo=false", "darwin/arm64 cgo=false",
		"linux/amd64 cgo=true", "linux/arm64 cgo=false",
		"windows/amd64 cgo=false", "windows/arm64 cgo=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf(".goreleaser.yaml builds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(c.Archives) != 1 {
		t.Fatalf("%d archives, want 1", len(c.Archives))
	}
	a := c.Archives[0]
	for _, b := range c.Builds {
		if !slices.Contains(a.IDs, b.ID) {
			t.Errorf("build %s is in no archive", b.ID)
		}
	}
	if !slices.Equal(a.Formats, []string{"tar.gz"}) || len(a.FormatOverrides) != 1 || a.FormatOverrides[0].Goos != "windows" || !slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("archive formats %v, overrides %+v: want tar.gz, zip on windows", a.Formats, a.FormatOverrides)
	}
	for _, f := range a.Files {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("the archives hold %s: %v", f, err)
		}
	}
	if !strings.Contains("\n"+readFile(t, filepath.Join(root, ".gitignore")), "\n/dist/\n") {
		t.Error(".gitignore lacks /dist/: GoReleaser's output would make the tree dirty, and the version the binaries report +dirty")
	}

	if testing.Short() {
		t.Skip("builds the command for other platforms")
	}
	// One binary per operating system whose code differs from this one's
	// (this system's, with cgo and without, TestInstallFromClone builds).
	host := strings.TrimSpace(mustRun(t, root, gitEnv(t), "go", "env", "GOHOSTOS"))
	built := map[string]bool{host: true}
	for _, tg := range targets {
		if built[tg.goos] {
			continue
		}
		built[tg.goos] = true
		t.Run(tg.goos+"_"+tg.goarch, func(t *testing.T) {
			env := setEnv(gitEnv(t), "GOOS="+tg.goos, "GOARCH="+tg.goarch, "CGO_ENABLED=0")
			mustRun(t, root, env, "go", "build", "-o", os.DevNull, "./cmd/textfrag")
		})
	}
	if len(built) < 3 {
		t.Errorf("built for %v only", built)
	}
}
