#!/usr/bin/env bash
# tests/oracle/gpu_torchscript.sh OUTDIR: on a CUDA machine, from the
# repository root, `mesure_memoire extrapolate --torchscript` on the
# TorchScript modules of the extrapolation's truth (saved by programs.py),
# each with its default sizes (2, 3, 4, 8, ... 512, up to the first that runs
# out of memory) and --largest over the catalog: its answers, standard
# error and exit code in OUTDIR, the traces it recorded in
# OUTDIR/torchscript-traces.tar.xz.
set -uo pipefail
out=${1:?usage: tests/oracle/gpu_torchscript.sh OUTDIR}
mkdir -p "$out"
work=$(mktemp -d)
python3 - "$work" <<'PY'
import sys
sys.path.insert(0, "tests/oracle")
import torch
import programs
for name in ("ts_encoder_train", "ts_lstm_train", "scripted_infer"):
    programs.save_module(name, torch, f"{sys.argv[1]}/{name}.pt")
PY
scripts/run mesure_memoire --help >"$out/build.log" 2>&1 || { echo "build failed"; tail -20 "$out/build.log"; exit 1; }
program=build/gpu/examples/mesure_memoire
for spec in "ts_encoder_train Bx256:int64 --train" "ts_lstm_train Bx128x128:float32 --train" \
            "scripted_infer Bx3x224x224:float32"; do
  read -r name input train <<<"$spec"
  date
  "$program" extrapolate --torchscript "$work/$name.pt" --input "$input" ${train:+"$train"} \
    --traces "$work/$name" --largest >"$out/$name.txt" 2>"$out/$name.err"
  echo "exit $?" >>"$out/$name.err"
  tail -1 "$out/$name.err"
done
tar cJf "$out/torchscript-traces.tar.xz" -C "$work" ts_encoder_train ts_lstm_train scripted_infer
ls -la "$out"
