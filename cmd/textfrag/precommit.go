package main

import (
	"os"
	"regexp"
	"strings"

	"github.com/textfrag/textfrag/internal/termsafe"
)

// Under pre-commit (which sets PRE_COMMIT=1 in every hook's environment)
// textfrag runs from pre-commit's own cache, and the user's shell usually
// has no textfrag: a remedy naming `textfrag pin --write FILE` would fail
// when followed. There the remedies name the hooks of
// .pre-commit-hooks.yaml instead, as the README's configuration sets them
// up: textfrag-pin (pin --write) and its manual entry textfrag-pin-accept
// (pin --write --accept-changed). Accepting names the hook's own textfrag
// by its path in pre-commit's cache instead (it stays there until
// `pre-commit gc` or `clean`), with the arguments the command would take:
// a hook takes none from the command line, so the manual hook can only
// accept every changed quote, also those the reader has not read, when
// the remedy is for one quote (--accept QUOTE) or quote by quote (pin -i);
// and a project that set up only the two hooks has no manual hook ("No
// hook with id textfrag-pin-accept"). The manual hook is named only when
// the path is unknown.
const (
	hookPin       = "pre-commit run textfrag-pin"
	hookPinAccept = "pre-commit run --hook-stage manual textfrag-pin-accept"
)

// underPreCommit reports whether the command runs as a pre-commit hook.
func underPreCommit() bool { return os.Getenv("PRE_COMMIT") == "1" }

// hookSelf returns this executable's path, quoted for a shell, or "" when
// it cannot be known. In CI (CI set, as GitHub Actions, GitLab CI and most
// others set it) that path is the runner's, which nobody reading the log
// can run: there it is "textfrag", the command as a person runs it (still
// one quote at a time, unlike the manual hook).
func hookSelf() string {
	if ci := os.Getenv("CI"); ci != "" && ci != "false" && ci != "0" {
		return "textfrag"
	}
	exe, err := os.Executable()
	if err != nil || exe == "" {
		return ""
	}
	return termsafe.ShellWords(exe)
}

var (
	pinAcceptRemedyRE = regexp.MustCompile("`textfrag pin (?:--write(?: [^`]*)? --accept(?:-changed)?[ `]|-i[ `])[^`]*`?")
	pinRemedyRE       = regexp.MustCompile("`textfrag pin --write[^`]*`")
)

// hookRemedy rewrites the pin commands a message advises as what runs
// them under pre-commit; other text is left as it is: `textfrag pin
// --write …` is the hook textfrag-pin (it only ever writes refreshed and
// moved quotes and pins unpinned links); accepting (--accept QUOTE,
// --accept-changed, pin -i) is self, the hook's own textfrag
// (env.hookSelf), with the same arguments — or, when self is "", the
// manual hook textfrag-pin-accept.
func hookRemedy(msg, self string) string {
	// The pin --write of an accepting command is not the hook's, whatever
	// self is ("textfrag" in CI): only the text between them is rewritten
	// to the hook.
	toHook := func(s string) string { return pinRemedyRE.ReplaceAllLiteralString(s, "`"+hookPin+"`") }
	var b strings.Builder
	last := 0
	for _, at := range pinAcceptRemedyRE.FindAllStringIndex(msg, -1) {
		b.WriteString(toHook(msg[last:at[0]]))
		if self == "" {
			b.WriteString("`" + hookPinAccept + "`")
		} else {
			b.WriteString("`" + self + " " + strings.TrimPrefix(msg[at[0]:at[1]], "`textfrag "))
		}
		last = at[1]
	}
	b.WriteString(toHook(msg[last:]))
	return b.String()
}

// hookAccept is the remedy, under pre-commit, for accepting: args (e.g.
// "pin -i docs") run by the hook's own textfrag, or the manual hook when
// its path is unknown.
func (e *env) hookAccept(args string) string {
	if e.hookSelf == "" {
		return hookPinAccept
	}
	return e.hookSelf + " " + args
}
