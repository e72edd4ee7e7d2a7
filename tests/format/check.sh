#!/usr/bin/env bash
# tests/format/check.sh: checks, changing nothing, that every C++ source of
# the repository (*.hpp, *.ipp, *.cpp, *.h as git lists them) is laid out as
# .clang-format says; prints each file that is not and exits 1 if any.
# CLANG_FORMAT names the program, clang-format-19 by default: another
# version lays some code out differently. To lay the files out:
#   git ls-files '*.hpp' '*.ipp' '*.cpp' '*.h' | xargs clang-format-19 -i
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
format=${CLANG_FORMAT:-clang-format-19}
cd "$root"
if ! command -v "$format" >/dev/null 2>&1; then
  echo "format: $format not found; install it (scripts/test does) or set CLANG_FORMAT" >&2
  exit 1
fi
if ! mapfile -t files < <(git ls-files '*.hpp' '*.ipp' '*.cpp' '*.h') || [ ${#files[@]} -eq 0 ]; then
  echo "format: git lists no C++ file here; run it in a clone of the repository" >&2
  exit 1
fi

# One run over all files; each file out of layout is named by its errors.
rc=0
out=$("$format" --dry-run -Werror "${files[@]}" 2>&1) || rc=$?
mapfile -t bad < <(printf '%s\n' "$out" |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*$/\1/p' | sort -u)
version=$("$format" --version | grep -o 'version [0-9.]*' || true)
if [ ${#bad[@]} -gt 0 ]; then
  echo "format: ${#bad[@]} of ${#files[@]} files are not laid out as .clang-format says:"
  printf '  %s\n' "${bad[@]}"
  echo "format: to fix them: $format -i FILE... (clang-format ${version#version })"
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "format: $format failed:" >&2
  printf '%s\n' "$out" >&2
  exit 1
fi
echo "format: all ${#files[@]} C++ files laid out as .clang-format says (clang-format ${version#version })"
