package main

import (
	"os"
	"regexp"
)

// Under pre-commit (which sets PRE_COMMIT=1 in every hook's environment)
// textfrag runs from pre-commit's own cache, and the user's shell usually
// has no textfrag: a remedy naming `textfrag pin --write FILE` would fail
// when followed. There the remedies name the hooks of
// .pre-commit-hooks.yaml instead, as the README's configuration sets them
// up: textfrag-pin (pin --write) and its manual entry textfrag-pin-accept
// (pin --write --accept-changed).
const (
	hookPin       = "pre-commit run textfrag-pin"
	hookPinAccept = "pre-commit run --hook-stage manual textfrag-pin-accept"
)

// underPreCommit reports whether the command runs as a pre-commit hook.
func underPreCommit() bool { return os.Getenv("PRE_COMMIT") == "1" }

var (
	pinAcceptRemedyRE = regexp.MustCompile("`textfrag pin (?:--write --accept(?:-changed)?|-i)[ `][^`]*`?")
	pinRemedyRE       = regexp.MustCompile("`textfrag pin --write[^`]*`")
)

// hookRemedy rewrites the pin commands a message advises (`textfrag pin
// --write …`; with --accept-changed, --accept QUOTE or as pin -i, the
// manual hook that accepts) as the pre-commit hooks that run them; other
// text is left as it is. The hook textfrag-pin only ever writes refreshed
// and moved quotes and pins unpinned links (pin --write); accepting a
// changed quote is the manual hook's, which a person runs.
func hookRemedy(msg string) string {
	msg = pinAcceptRemedyRE.ReplaceAllLiteralString(msg, "`"+hookPinAccept+"`")
	return pinRemedyRE.ReplaceAllLiteralString(msg, "`"+hookPin+"`")
}
