# Sourced by the other scripts: writes a section of the job summary (GITHUB_STEP_SUMMARY, shown on
# the run's page and in the pull request's checks) with a title and the command's output.
# Usage: summarize TITLE OUTPUT_FILE [LINES...]; SUMMARY_OUTPUT names the output (default "pulumi output").
summarize() {
  local title=$1 file=$2
  shift 2
  {
    printf '### %s\n\n' "$title"
    for line in "$@"; do printf '%s\n' "$line"; done
    printf '\n<details%s><summary>%s</summary>\n\n```diff\n' "${SUMMARY_OPEN:-}" "${SUMMARY_OUTPUT:-pulumi output}"
    # The summary holds at most 1 MiB; keep the end, where the result is.
    tail -c 60000 "$file" | sed 's/```/`\\`\\`/g'
    printf '\n```\n</details>\n\n'
  } >>"${GITHUB_STEP_SUMMARY:-/dev/stderr}"
}
