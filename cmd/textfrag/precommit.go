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
// (pin --write --accept-changed, every changed quote whose new place is
// known). A hook takes no arguments from the command line, so accepting
// one quote (--accept QUOTE) or choosing quote by quote (pin -i) names the
// hook's own textfrag by its path in pre-commit's cache, which stays
// there until `pre-commit gc` or `clean`: the manual hook would accept
// every changed quote, also those the reader has not read.
const (
	hookPin       = "pre-commit run textfrag-pin"
	hookPinAccept = "pre-commit run --hook-stage manual textfrag-pin-accept"
)

// underPreCommit reports whether the command runs as a pre-commit hook.
func underPreCommit() bool { return os.Getenv("PRE_COMMIT") == "1" }

// hookSelf returns this executable's path, quoted for a shell, or "" when
// it cannot be known.
func hookSelf() string {
	exe, err := os.Executable()
	if err != nil || exe == "" {
		return ""
	}
	return termsafe.ShellWords(exe)
}

var (
	pinAcceptAllRemedyRE = regexp.MustCompile("`textfrag pin --write(?: [^`]*)? --accept-changed(?: [^`]*)?`")
	pinAcceptOneRemedyRE = regexp.MustCompile("`textfrag (pin (?:--write(?: [^`]*)? --accept |-i)[^`]*)`")
	pinRemedyRE          = regexp.MustCompile("`textfrag pin --write[^`]*`")
)

// hookRemedy rewrites the pin commands a message advises as what runs
// them under pre-commit; other text is left as it is: `textfrag pin
// --write …` is the hook textfrag-pin (it only ever writes refreshed and
// moved quotes and pins unpinned links); with --accept-changed, the manual
// hook textfrag-pin-accept; accepting one quote (--accept QUOTE) or quote
// by quote (pin -i) is self, the hook's own textfrag (env.hookSelf), with
// the same arguments — or, when self is "", the manual hook.
func hookRemedy(msg, self string) string {
	msg = pinAcceptAllRemedyRE.ReplaceAllLiteralString(msg, "`"+hookPinAccept+"`")
	if self == "" {
		msg = pinAcceptOneRemedyRE.ReplaceAllLiteralString(msg, "`"+hookPinAccept+"`")
	} else {
		msg = pinAcceptOneRemedyRE.ReplaceAllStringFunc(msg, func(m string) string {
			return "`" + self + " " + strings.TrimPrefix(m, "`textfrag ")
		})
	}
	return pinRemedyRE.ReplaceAllLiteralString(msg, "`"+hookPin+"`")
}

// hookAccept is the remedy, under pre-commit, for accepting one quote or
// choosing quote by quote: args (e.g. "pin -i docs") run by the hook's own
// textfrag, or the manual hook when its path is unknown.
func (e *env) hookAccept(args string) string {
	if e.hookSelf == "" {
		return hookPinAccept
	}
	return e.hookSelf + " " + args
}
