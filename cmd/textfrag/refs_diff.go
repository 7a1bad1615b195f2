package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/textfrag/textfrag/goldmark-textfrag/target"
	"github.com/textfrag/textfrag/internal/pin"
	"github.com/textfrag/textfrag/internal/refs"
	"github.com/textfrag/textfrag/internal/termsafe"
)

// parseFailOn reads --fail-on: classes separated by commas, or "none".
func parseFailOn(s string) (map[refs.Class]bool, error) {
	fail := map[refs.Class]bool{}
	if strings.TrimSpace(s) == "none" {
		return fail, nil
	}
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if !slices.Contains(refs.Classes, c) {
			return nil, fmt.Errorf("%q is no class: want some of %s, or none", c, strings.Join(refs.Classes, ","))
		}
		fail[c] = true
	}
	return fail, nil
}

// refsDiff is refs --diff: the links of every page, the changed files
// (from git since base, or from the diff on stdin when base is "-"), and
// what the changes did to each quote (internal/refs).
func (e *env) refsDiff(lf *linkFlags, r *target.Resolver, base, format string, fail map[refs.Class]bool, jobs int) int {
	links, ok := e.scanRefs(lf, r, jobs, func(string) bool { return true })
	if !ok {
		return exitError
	}
	root, err := os.OpenRoot(lf.root)
	if err != nil {
		e.errorf("%v", err)
		return exitError
	}
	defer root.Close()
	hist := pin.NewHistory(lf.root)
	var changes *refs.Changes
	if base == "-" {
		changes, err = refs.FromDiff(e.stdin, root)
	} else {
		changes, err = refs.FromGit(hist, lf.root, root, base, links)
	}
	if err != nil {
		e.errorf("refs --diff: %v", err)
		return exitError
	}
	findings := refs.Affected(r, hist, lf.root, changes, links)
	counts := map[refs.Class]int{}
	blocking := false
	for _, f := range findings {
		f.Blocking = fail[f.Class]
		counts[f.Class]++
		blocking = blocking || f.Blocking
	}
	if err := e.writeFindings(findings, format); err != nil {
		e.errorf("%v", err)
		return exitError
	}
	if len(findings) == 0 {
		fmt.Fprintf(e.stderr, "no quote affected (%s)\n", changes.Name)
	} else {
		var parts []string
		for _, c := range refs.Classes {
			if counts[c] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[c], refs.Title(c)))
			}
		}
		fmt.Fprintf(e.stderr, "%d %s affected: %s (%s)\n", len(findings), plural(len(findings), "quote", "quotes"), strings.Join(parts, ", "), changes.Name)
	}
	if blocking {
		return exitError
	}
	return exitOK
}

// writeFindings writes the findings in format.
func (e *env) writeFindings(findings []*refs.Finding, format string) error {
	switch format {
	case "json":
		if findings == nil {
			findings = []*refs.Finding{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(findings)
	case "github":
		for _, f := range findings {
			fmt.Fprintln(e.stdout, refsAnnotation(f))
		}
	default:
		for _, f := range findings {
			fmt.Fprintln(e.stdout, termsafe.Escape(fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Class, f.Message), ""))
		}
	}
	return nil
}

// refsAnnotation writes a finding as a GitHub Actions workflow command on
// the changed lines: "::error file=src/a.go,line=14,endLine=15,title=quoted
// text changed::quoted in docs/guide.md:3 …", escaped as check escapes.
func refsAnnotation(f *refs.Finding) string {
	level := "warning"
	if f.Blocking {
		level = "error"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "::%s file=%s,line=%d", level, escapeGitHubProperty(termsafe.Escape(f.File, "\r\n")), f.Line)
	if f.EndLine > f.Line {
		fmt.Fprintf(&b, ",endLine=%d", f.EndLine)
	}
	b.WriteString(",title=")
	b.WriteString(escapeGitHubProperty(refs.Title(f.Class)))
	b.WriteString("::")
	b.WriteString(escapeGitHubData(termsafe.Escape(f.Message, "\r\n")))
	return b.String()
}
