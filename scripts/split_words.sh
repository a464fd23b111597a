# shellcheck shell=bash
# Sourced by action_run.sh and gate.sh. split_words NAME TEXT puts the words of TEXT into the array NAME
# as a shell splits a command line: quotes group words (-k "winobias or pronoun_ratio" is two words),
# backslashes escape, and nothing is expanded or run ($(...), $VAR, globs stay as written). The rules
# are POSIX shell's, through Python's shlex. Returns 2, with a message, when TEXT does not split (an
# unclosed quote).
split_words() {
  local quoted
  quoted=$("${PYTHON:-python3}" -c '
import shlex, sys
try:
    words = shlex.split(sys.argv[1])
except ValueError as exc:
    sys.exit(f"cannot split {sys.argv[1]!r} into arguments: {exc} (quote as in a shell)")
print(" ".join(shlex.quote(word) for word in words))
' "$2") || return 2
  eval "$1=($quoted)"  # safe: every word is single-quoted by shlex.quote
}
