#!/bin/sh
# A stand-in for `mesure_memoire measure --torchscript ... --memory-snapshot
# S --output O` in the tests of `extrapolate --torchscript` on a machine
# without a GPU: it writes the committed snapshot tests/data/extrapolate/
# affine.bN.json to S, N being the first dimension of the first --input (so
# that a size not put in for B picks the wrong snapshot or none), and {} to O.
# It refuses to write over a file, as `measure` does (exit 2). A size with no
# committed snapshot stands for one that runs out of memory on the card:
# exit 3, as `measure` ends a failed phase. FAKE_RECORDER_SLEEP=S: it first
# sleeps S seconds (a size that takes long, for the tests of signals).
here=$(cd "$(dirname "$0")" && pwd)
snapshot=; output=; n=
while [ $# -gt 0 ]; do
  case $1 in
    --input) [ -z "$n" ] && n=${2%%x*}; shift ;;
    --memory-snapshot) snapshot=$2; shift ;;
    --output) output=$2; shift ;;
  esac
  shift
done
[ -n "${FAKE_RECORDER_SLEEP:-}" ] && sleep "$FAKE_RECORDER_SLEEP"
source="$here/../data/extrapolate/affine.b$n.json"
if [ -e "$snapshot" ] || [ -e "$output" ]; then
  echo "fake_recorder: '$snapshot' exists" >&2
  exit 2
fi
if [ ! -f "$source" ]; then
  echo "fake_recorder: CUDA out of memory at size '$n' (no committed snapshot for it)" >&2
  exit 3
fi
cp "$source" "$snapshot" && echo '{}' > "$output"
