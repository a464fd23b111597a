#!/usr/bin/env bash
# The comment step of the biascheck GitHub Action (action.yml): summary.md on the pull request, cut to
# GitHub's comment limit at a line boundary with a link to the report artifact (biascheck.report.comment).
# Reads SUMMARY, PR, REPORT_URL, PYTHON (biascheck's venv) and GH_TOKEN from the environment. A comment
# GitHub refuses (no pull-requests: write, a fork's read-only token) is a warning: the verdict is the
# Verdict step's, not the comment's.
set -uo pipefail
if [ ! -s "$SUMMARY" ]; then
  echo "no summary to comment ($SUMMARY is missing or empty)"
  exit 0
fi
body="$(mktemp)"
"${PYTHON:-python}" -m biascheck.report.comment "$SUMMARY" "${REPORT_URL:-}" > "$body" || exit 1
if ! gh pr comment "$PR" --body-file "$body"; then
  echo "::warning::biascheck could not comment on pull request $PR (the job needs permissions: pull-requests: write; a fork's token is read-only). The summary is in the job summary and the report artifact."
fi
exit 0
