# shellcheck shell=bash
# Shared by the step scripts of action.yml (sourced, not run). Everything the
# steps read comes from environment variables, never from ${{ }} expressions
# pasted into shell code: an input or a branch name is data, not a command.

# summary_max is how many lines of textfrag's output a step summary quotes;
# the job log has them all.
summary_max=100

# fail prints a message as a GitHub error annotation and exits with status 1.
fail() {
  printf '::error title=textfrag::%s\n' "$(escape_data "$*")"
  exit 1
}

# escape_data escapes a workflow command's message as the runner expects.
escape_data() {
  local s=$1
  s=${s//'%'/%25}
  s=${s//$'\r'/%0D}
  s=${s//$'\n'/%0A}
  printf '%s' "$s"
}

# set_output writes one step output (a key and a one-line value).
set_output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  fi
}

# summarize HEADING FILE… appends HEADING and the lines of the files to the
# job summary. The lines, which name files and links of the repository (so
# anyone who opens a pull request chooses them), go into an indented code
# block: every line is indented, so no line can end the block or be read as
# Markdown or HTML.
summarize() {
  local heading=$1
  shift
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] || return 0
  {
    printf '### %s\n\n' "$heading"
    cat -- "$@" | awk -v max="$summary_max" '
      { gsub(/\r/, ""); if (NR <= max) print "    " $0 }
      END {
        if (NR > max) printf "\n… and %d more lines in the job log.\n", NR - max
        else if (NR == 0) print "    (no output)"
      }'
    printf '\n'
  } >>"$GITHUB_STEP_SUMMARY"
}

# workdir makes a directory for the step's files under RUNNER_TEMP.
workdir() {
  local d="${RUNNER_TEMP:?RUNNER_TEMP is not set: run this script as a step of action.yml}/textfrag-action"
  mkdir -p "$d"
  printf '%s' "$d"
}
