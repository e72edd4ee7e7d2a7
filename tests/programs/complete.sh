#!/usr/bin/env bash
# complete.sh SCRIPT PROGRAM WORD...: loads the completion SCRIPT in bash,
# completes the last WORD of `PROGRAM WORD...` and prints the candidates,
# one per line.
set -euo pipefail
script=$1
shift
# shellcheck disable=SC1090
source "$script"
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
"_iteragpu_${COMP_WORDS[0]}"
printf '%s\n' "${COMPREPLY[@]}"
