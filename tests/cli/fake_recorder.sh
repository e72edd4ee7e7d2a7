#!/bin/sh
# A stand-in for `mesure_memoire measure --torchscript ... --memory-snapshot
# S --output O` in the tests of `extrapolate --torchscript` on a machine
# without a GPU: it writes the committed snapshot tests/data/extrapolate/
# affine.bN.json to S, N being the first dimension of the first --input (so
# that a size not put in for B picks the wrong snapshot or none), and {} to O.
# It refuses to write over a file, as `measure` does.
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
source="$here/../data/extrapolate/affine.b$n.json"
if [ ! -f "$source" ] || [ -e "$snapshot" ] || [ -e "$output" ]; then
  echo "fake_recorder: no snapshot for size '$n', or '$snapshot' exists" >&2
  exit 2
fi
cp "$source" "$snapshot" && echo '{}' > "$output"
