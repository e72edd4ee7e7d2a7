#!/usr/bin/env bash
# tests/oracle/gpu_sizes.sh OUTDIR [sizes.py flags...]: on a CUDA machine,
# from the repository root, the extrapolation's ground truth: sizes.py
# carried on from the committed truth (tests/data/sizes/), then the
# TorchScript programs' modules measured by `mesure_memoire measure
# --torchscript --train` itself at sizes 2, 3, 4 and 16 (their traces, to
# compare with the Python runs of the same modules). Everything lands in
# OUTDIR/sizes.tar.xz, the logs beside it.
set -uo pipefail
out=${1:?usage: tests/oracle/gpu_sizes.sh OUTDIR [sizes.py flags...]}
shift
mkdir -p "$out"
export PYTHONUNBUFFERED=1
work=$(mktemp -d)
cp tests/data/sizes/*.pickle "$work"/
(scripts/run mesure_memoire --help >"$out/build.log" 2>&1) &
builder=$!
date
python3 tests/oracle/sizes.py "$work" --resume tests/data/sizes/truth.json "$@" 2>&1 | tee "$out/sizes.log"
date
wait "$builder"
program=build/gpu/examples/mesure_memoire
for spec in "ts_encoder_train Bx256:int64" "ts_lstm_train Bx128x128:float32"; do
  read -r name input <<<"$spec"
  for n in 2 3 4 16; do
    "$program" measure --device cuda:0 --torchscript "$work/modules/$name.pt" --input "${input/B/$n}" --train \
      --memory-snapshot "$work/$name.measure.b$n.pickle" --output "$work/$name.measure.b$n.json" >>"$out/measure.log" 2>&1
    echo "$name $n: exit $?" >>"$out/measure.log"
  done
done
date
tar cJf "$out/sizes.tar.xz" -C "$work" .
ls -la "$out"
