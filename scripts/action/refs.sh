#!/usr/bin/env bash
# Step "refs" of action.yml: on a pull request, textfrag refs --diff BASE
# --format github, which annotates each changed source line that the docs
# quote ("quoted in docs/guide.md:14 …") and exits 1 when quoted text changed
# or a quoted file was deleted: a person must read the docs again.
#
# BASE is where the pull request's changes start:
#   - the base commit, pull_request.base.sha in the event (GITHUB_EVENT_PATH),
#     else the tip of GITHUB_BASE_REF, fetched from origin when missing;
#   - then the merge base of that commit and HEAD, so that a checkout of the
#     pull request's head compares against the fork point, not against
#     commits the base branch gained since;
#   - in a shallow clone (actions/checkout's default, fetch-depth: 1) the base
#     commit is fetched alone; HEAD is then actions/checkout's merge commit,
#     whose first parent is that base commit, and which holds exactly the
#     pull request's changes on top of it. Any other shallow checkout fails
#     with the remedy: fetch-depth: 0.
#
# Environment: TEXTFRAG_REFS (the input "refs"): fail (default), warn (never
# fails the job for what refs found) or off.
# Output: result (passed, failed, needs-review under warn, or skipped).
set -uo pipefail
# shellcheck source=scripts/action/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mode=${TEXTFRAG_REFS:-fail}
case $mode in
fail | warn) ;;
off)
  set_output result skipped
  echo "textfrag refs: off (input refs)"
  exit 0
  ;;
*) fail "the input refs must be fail, warn or off, not \"$mode\"" ;;
esac

case ${GITHUB_EVENT_NAME:-} in
pull_request | pull_request_target) ;;
*)
  set_output result skipped
  echo "textfrag refs: skipped: the event is ${GITHUB_EVENT_NAME:-unknown}, not a pull request"
  exit 0
  ;;
esac

dir=$(workdir)
cd "${GITHUB_WORKSPACE:-.}" || fail "cannot enter GITHUB_WORKSPACE ($GITHUB_WORKSPACE)"
command -v textfrag >/dev/null || fail "textfrag is not on PATH: the install step did not run"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  fail "$PWD is not a git checkout: run actions/checkout (with fetch-depth: 0) before this action"

is_sha() { [[ $1 =~ ^[0-9a-f]{40}([0-9a-f]{24})?$ ]]; }

base=
if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -r "$GITHUB_EVENT_PATH" ]; then
  command -v jq >/dev/null || fail "jq is not installed on this runner (GitHub's runners have it): install jq before this action"
  base=$(jq -r '.pull_request.base.sha // empty' "$GITHUB_EVENT_PATH" 2>/dev/null) ||
    fail "cannot read the event file GITHUB_EVENT_PATH ($GITHUB_EVENT_PATH) as JSON"
  [ -z "$base" ] || is_sha "$base" || fail "pull_request.base.sha in the event is not a commit hash: \"$base\""
fi
if [ -z "$base" ]; then
  branch=${GITHUB_BASE_REF:-}
  [ -n "$branch" ] || fail "no base to compare with: the event has no pull_request.base.sha and GITHUB_BASE_REF is empty"
  git check-ref-format --branch "$branch" >/dev/null 2>&1 || fail "GITHUB_BASE_REF is not a branch name: \"$branch\""
  tracking="refs/remotes/origin/$branch"
  if ! git rev-parse --verify --quiet "$tracking^{commit}" >/dev/null; then
    echo "textfrag refs: fetching $branch from origin"
    git fetch --no-tags origin "+refs/heads/$branch:$tracking" ||
      fail "cannot fetch the base branch $branch from origin; use actions/checkout with fetch-depth: 0"
  fi
  base=$(git rev-parse --verify "$tracking^{commit}") || fail "cannot resolve $tracking"
fi

if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  echo "textfrag refs: fetching the base commit $base"
  depth=()
  [ "$(git rev-parse --is-shallow-repository)" = true ] && depth=(--depth=1)
  git fetch --no-tags ${depth[@]+"${depth[@]}"} origin "$base" ||
    fail "cannot fetch the base commit $base from origin; use actions/checkout with fetch-depth: 0"
fi

if ! from=$(git merge-base "$base" HEAD 2>/dev/null); then
  # No common ancestor in the local history: a shallow clone.
  parent=$(git cat-file commit HEAD | sed -n -e '/^$/q' -e 's/^parent //p' | head -n 1)
  [ "$parent" = "$base" ] ||
    fail "the history is too shallow to find where the pull request starts (the merge base of $base and HEAD): use actions/checkout with fetch-depth: 0"
  from=$base
fi

echo "textfrag refs: changes since $from"
status=0
textfrag refs --diff "$from" --format github >"$dir/refs.out" 2>"$dir/refs.err" || status=$?
cat "$dir/refs.out"
cat "$dir/refs.err" >&2

case $status in
0)
  set_output result passed
  summarize "textfrag refs: no quote needs review (changes since ${from:0:12})" "$dir/refs.err" "$dir/refs.out"
  ;;
1)
  summarize "textfrag refs: quoted text changed or deleted: the docs need review (changes since ${from:0:12})" "$dir/refs.err" "$dir/refs.out"
  if [ "$mode" = warn ]; then
    set_output result needs-review
    status=0
  else
    set_output result failed
  fi
  ;;
*)
  # Not a finding but a failure (bad usage, a broken repository): it fails
  # the job whatever the mode, rather than pass unchecked.
  set_output result failed
  summarize "textfrag refs: failed (exit status $status)" "$dir/refs.err" "$dir/refs.out"
  ;;
esac
exit "$status"
