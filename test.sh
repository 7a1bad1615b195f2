#!/usr/bin/env bash
# Runs every test of the repository: the library and command, then the Hugo
# module's tests, which live in their own Go module (they compile Hugo), then
# each fuzz target for a short, fixed time (FUZZTIME, default 10s; FUZZTIME=0
# skips fuzzing). A crash fails the run and leaves its input in the target's
# testdata/fuzz directory: commit it with the fix, as a regression test.
set -euo pipefail
cd "$(dirname "$0")"
# pre-commit and jq, for the tests of .pre-commit-hooks.yaml and action.yml
# (internal/integration), Node with Microsoft's LSP client library and Neovim,
# for the language server's tests: installed when missing, or the run stops
# saying how.
scripts/install-test-deps
# go.work holds the repository's modules (the command, the goldmark library,
# its tree-sitter parsers, the small internal modules they share); ./...
# names the packages of one module, so each is vetted and tested in its
# directory.
go list -m -f '{{.Dir}}' | while read -r dir; do
  (cd "$dir" && go vet ./... && go test -timeout 30m ./...)
done
if [ -f hugo-module/hugotest/go.mod ]; then
  (cd hugo-module/hugotest && go vet ./... && go test -timeout 30m ./...)
fi
# The goldmark extension beside third-party extensions, in a module of its
# own so that they stay out of the library's dependencies.
(cd goldmark-textfrag/internal/fieldtest && go vet ./... && go test ./...)

FUZZTIME="${FUZZTIME:-10s}"
if [ "$FUZZTIME" != 0 ]; then
  fuzz() { # PACKAGE TARGET
    echo "fuzz: $2 in $1 for $FUZZTIME"
    local log status=0
    log=$(mktemp)
    go test -run '^$' -fuzz "^$2\$" -fuzztime "$FUZZTIME" "$1" >"$log" 2>&1 || status=$?
    # Go's fuzzing engine can itself time out while stopping its workers
    # ("context deadline exceeded", no failing input): run such a target
    # once more. A failing input always fails the run.
    if [ "$status" != 0 ] && grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
      echo "fuzz: $2: the fuzzing engine timed out without a failing input; once more"
      status=0
      go test -run '^$' -fuzz "^$2\$" -fuzztime "$FUZZTIME" "$1" >"$log" 2>&1 || status=$?
    fi
    if [ "$status" = 0 ]; then tail -n 1 "$log"; else cat "$log"; fi
    rm -f "$log"
    return "$status"
  }
  fuzz ./goldmark-textfrag/rfc5147 FuzzParse
  fuzz ./goldmark-textfrag/rfc5147 FuzzSelect
  fuzz ./goldmark-textfrag/rfc5147 FuzzScanUTF8
  fuzz ./goldmark-textfrag/target FuzzResolve
  fuzz ./goldmark-textfrag/symbol FuzzRegions
  fuzz ./goldmark-textfrag/symbol FuzzGoDecls
  fuzz ./goldmark-textfrag/symbol/treesitter FuzzDecls
  fuzz ./goldmark-textfrag FuzzConvert
  fuzz ./internal/page FuzzSplitFrontMatter
  fuzz ./internal/page FuzzPageLink
  fuzz ./cmd/textfrag FuzzCheck
  fuzz ./internal/mdlink FuzzFindShortcodes
  fuzz ./internal/mdlink FuzzLinkText
  fuzz ./internal/quotelink FuzzMarkdown
  fuzz ./internal/refs FuzzUnifiedDiff
  fuzz ./internal/pin FuzzSlideEdits
  fuzz ./internal/pin FuzzSameSection
fi
