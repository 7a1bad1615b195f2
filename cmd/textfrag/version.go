package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/symbol"
	"github.com/textfrag/textfrag/internal/symbols"
)

func init() {
	register(command{name: "version", summary: "print the version, the revision and the sym= languages (also --version)", run: runVersion, gcPercent: 100})
}

const versionHelp = `Usage: textfrag version [--format text|json]   (or textfrag --version)

Prints textfrag's version (the module version go install recorded, or
"(devel)" for a build from a clone), the revision it was built from, the Go
that built it, and the languages sym= finds names in: Go always; Python,
JavaScript, TypeScript, Rust, Java, C and C++ only in a build with cgo (a C
compiler). A build without cgo names the languages it lacks.`

// buildVersion is what --version reports, read from the build information
// the Go toolchain writes into the executable.
type buildVersion struct {
	Version  string `json:"version"`            // "v1.2.3", a pseudo-version, or "(devel)"
	Revision string `json:"revision,omitempty"` // the VCS revision, when go build recorded it
	Time     string `json:"time,omitempty"`     // the revision's commit time
	Modified bool   `json:"modified,omitempty"` // the work tree had changes
	Go       string `json:"go"`
	Platform string `json:"platform"`
	Cgo      bool   `json:"cgo"`
	// Symbols are the languages sym= finds names in; Missing those of
	// textfrag's parsers this build lacks (all the tree-sitter languages in
	// a build without cgo).
	Symbols []string `json:"symbols"`
	Missing []string `json:"missing,omitempty"`
}

// readBuildVersion reads the executable's build information and the symbol
// parsers set has.
func readBuildVersion(set symbol.Set) buildVersion {
	v := buildVersion{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			v.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			case "CGO_ENABLED":
				v.Cgo = s.Value == "1"
			}
		}
	}
	v.Symbols = set.Languages()
	for _, p := range set {
		if u, ok := p.(symbol.Unavailable); ok && u.Unavailable() {
			v.Missing = append(v.Missing, p.Language())
		}
	}
	slices.Sort(v.Missing)
	v.Missing = slices.Compact(v.Missing)
	return v
}

// String is the text --version prints.
func (v buildVersion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "textfrag %s\n", v.Version)
	switch {
	case v.Revision == "":
		b.WriteString("revision: unknown (built without version control information, as go build -buildvcs=false or from a module download)\n")
	default:
		fmt.Fprintf(&b, "revision: %s", v.Revision)
		if v.Time != "" {
			fmt.Fprintf(&b, " (%s)", v.Time)
		}
		if v.Modified {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString("\n")
	}
	cgo := "with cgo"
	if !v.Cgo {
		cgo = "without cgo"
	}
	fmt.Fprintf(&b, "built with %s for %s, %s\n", v.Go, v.Platform, cgo)
	fmt.Fprintf(&b, "sym= languages: %s\n", strings.Join(v.Symbols, ", "))
	if len(v.Missing) > 0 {
		fmt.Fprintf(&b, "sym= lacks: %s (their tree-sitter parsers need cgo: rebuild with CGO_ENABLED=1 and a C compiler); region= and line ranges work in every language\n", strings.Join(v.Missing, ", "))
	}
	return b.String()
}

func runVersion(e *env, args []string) int {
	fs := newFlagSet("version", versionHelp)
	format := fs.String("format", "text", "text or json")
	rest, ok := e.parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) > 0 {
		e.errorf("version takes no arguments (got %q)", rest[0])
		return exitUsage
	}
	v := readBuildVersion(symbols.Set())
	switch *format {
	case "text":
		fmt.Fprint(e.stdout, v.String())
	case "json":
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			e.errorf("%v", err)
			return exitError
		}
	default:
		e.errorf("--format must be text or json, not %q", *format)
		return exitUsage
	}
	return exitOK
}
