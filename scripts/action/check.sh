#!/usr/bin/env bash
# Step "check" of action.yml: textfrag check --format github, run at the root
# of the checkout (GITHUB_WORKSPACE), so that each broken link becomes an
# annotation on the pull request and the job fails; then textfrag pin
# --check, whose counts by class go to the log.
#
# Environment (from the action's inputs):
#   TEXTFRAG_PATHS       Markdown files and directories, separated by spaces
#                        or new lines; default "." (the whole checkout)
#   TEXTFRAG_CHECK_ARGS  more flags for check, separated by spaces
#                        (--strict, --allow-host HOST, …)
# Output: result (passed or failed). The job summary gets check's summary
# line and the problems.
set -uo pipefail
# shellcheck source=scripts/action/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

dir=$(workdir)
cd "${GITHUB_WORKSPACE:-.}" || fail "cannot enter GITHUB_WORKSPACE ($GITHUB_WORKSPACE)"
command -v textfrag >/dev/null || fail "textfrag is not on PATH: the install step did not run"

# Split on blanks, never glob or evaluate: read -a does neither.
paths=() args=()
read -r -d '' -a paths <<<"${TEXTFRAG_PATHS:-}" || true
read -r -d '' -a args <<<"${TEXTFRAG_CHECK_ARGS:-}" || true
[ ${#paths[@]} -gt 0 ] || paths=(.)

# "--" ends the flags, so a path that starts with "-" stays a path.
status=0
textfrag check --format github ${args[@]+"${args[@]}"} -- "${paths[@]}" >"$dir/check.out" 2>"$dir/check.err" || status=$?
cat "$dir/check.out"
cat "$dir/check.err" >&2

# Then pin --check, for the log: the quotes counted by class (refreshed,
# moved, changed, gone, review, unpinned) with the one command for each, so
# that a reader tells "only needs a refresh" from "read this". It never
# changes this step's result: check's errors are what fail the job. Of
# check-args it gets the flags pin takes too (the root, charsets, remote
# hosts and secrets allowed, the shard), each with its value.
pin_args=()
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
  --offline | --offline=* | --root=* | --charset=* | --allow-host=* | --allow-secret=* | --remote-timeout=* | --remote-max-bytes=* | --cache-dir=* | --shard=*)
    pin_args+=("${args[i]}")
    ;;
  --root | --charset | --allow-host | --allow-secret | --remote-timeout | --remote-max-bytes | --cache-dir | --shard)
    pin_args+=("${args[i]}")
    if ((i + 1 < ${#args[@]})); then
      pin_args+=("${args[i + 1]}")
      i=$((i + 1))
    fi
    ;;
  esac
done
echo "textfrag pin --check (the quotes by class; the job's result is check's):" >&2
textfrag pin --check ${pin_args[@]+"${pin_args[@]}"} -- "${paths[@]}" >/dev/null 2>"$dir/pin.err" || true
cat "$dir/pin.err" >&2

if [ "$status" = 0 ]; then
  set_output result passed
  summarize "textfrag check: passed" "$dir/check.err" "$dir/check.out"
else
  set_output result failed
  summarize "textfrag check: failed (exit status $status)" "$dir/check.err" "$dir/check.out"
fi
exit "$status"
