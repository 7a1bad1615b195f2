#!/usr/bin/env bash
# Step "install" of action.yml: puts textfrag on PATH for the later steps of
# the job ($GITHUB_PATH), built with the Go on the runner.
#
# Which textfrag:
#   1. TEXTFRAG_VERSION (the input "version"), when set:
#      go install github.com/textfrag/textfrag/cmd/textfrag@VERSION.
#   2. Else the action's own ref (uses: textfrag/textfrag@v1 gives v1, which
#      go reads as "the newest v1.x.y"): the same go install. The runner
#      leaves GITHUB_ACTION_REF and GITHUB_ACTION_REPOSITORY empty in the
#      steps of a composite action, so they are also read off
#      GITHUB_ACTION_PATH, where the runner unpacked the action:
#      …/_actions/OWNER/REPO/REF.
#   3. Else, or when that go install fails (a ref the Go module proxy cannot
#      resolve, such as a branch with "/" in its name), the action's own
#      source in GITHUB_ACTION_PATH: the same files at the same ref, and the
#      only choice for a fork or a local action (uses: ./).
#
# Outputs: path (the textfrag executable), how (what was installed).
set -euo pipefail
# shellcheck source=scripts/action/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

module=github.com/textfrag/textfrag
dir=$(workdir)
bin="$dir/bin"
mkdir -p "$bin"
export GOBIN="$bin"
command -v go >/dev/null || fail "go is not installed on this runner: add actions/setup-go (Go 1.21 or newer; go fetches the toolchain textfrag needs) before this action"

# valid_version accepts what go install takes after @ and nothing that looks
# like a flag or a path.
valid_version() {
  [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._+/-]*$ ]] && [[ $1 != *..* ]]
}

# install_module runs go outside the checkout, so that no go.mod or go.work
# of the repository under test (a pull request's) has a say in it.
install_module() {
  echo "textfrag: go install $module/cmd/textfrag@$1"
  (cd "$dir" && go install "$module/cmd/textfrag@$1")
}

install_source() {
  if [ ! -f "${GITHUB_ACTION_PATH:-}/go.mod" ] || [ ! -d "$GITHUB_ACTION_PATH/cmd/textfrag" ]; then
    fail "cannot install textfrag: GITHUB_ACTION_PATH (${GITHUB_ACTION_PATH:-unset}) holds no textfrag source; set the action's input version"
  fi
  echo "textfrag: go install ./cmd/textfrag in $GITHUB_ACTION_PATH"
  (cd "$GITHUB_ACTION_PATH" && go install ./cmd/textfrag) ||
    fail "go install ./cmd/textfrag in $GITHUB_ACTION_PATH failed; see the lines above"
}

how=
if [ -n "${TEXTFRAG_VERSION:-}" ]; then
  valid_version "$TEXTFRAG_VERSION" || fail "the input version ($TEXTFRAG_VERSION) is not a version go install accepts: use v1.2.3, a branch or a commit"
  install_module "$TEXTFRAG_VERSION" || fail "go install of textfrag@$TEXTFRAG_VERSION failed (the input version); see the lines above"
  how="$module/cmd/textfrag@$TEXTFRAG_VERSION"
else
  repo=${GITHUB_ACTION_REPOSITORY:-}
  ref=${GITHUB_ACTION_REF:-}
  if [ -z "$repo" ] && [[ ${GITHUB_ACTION_PATH:-} == */_actions/*/*/* ]]; then
    rest=${GITHUB_ACTION_PATH##*/_actions/}
    owner=${rest%%/*}
    rest=${rest#*/}
    repo="$owner/${rest%%/*}"
    ref=${rest#*/}
  fi
  repo=$(printf '%s' "$repo" | tr '[:upper:]' '[:lower:]')
  if [ "$repo" = textfrag/textfrag ] && [ -n "$ref" ] && valid_version "$ref" && install_module "$ref"; then
    how="$module/cmd/textfrag@$ref"
  else
    if [ "$repo" = textfrag/textfrag ] && [ -n "$ref" ]; then
      echo "::warning title=textfrag::go install textfrag@$(escape_data "$ref") failed; building the action's own source instead"
    fi
    install_source
    how="source in $GITHUB_ACTION_PATH"
  fi
fi

[ -x "$bin/textfrag" ] || fail "go install left no textfrag in $bin"
printf '%s\n' "$bin" >>"${GITHUB_PATH:?GITHUB_PATH is not set: run this script as a step of action.yml}"
set_output path "$bin/textfrag"
set_output how "$how"
echo "textfrag: installed $bin/textfrag ($how)"
