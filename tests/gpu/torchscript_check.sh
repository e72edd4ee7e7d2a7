#!/bin/sh
# The GPU check of `measure --torchscript`: a small transformer encoder and a
# small convolutional network are exported from Python, then each is measured
# by mesure_memoire and by the Python reference (torchscript_reference.py, the
# same phases over the same file with torch.jit.load, each in a fresh
# process), for inference and for training; every allocator field of every
# row must be equal. With FORMAT aoti, the same two networks are exported
# with torch.export and compiled into AOTInductor packages (.pt2), and each
# `measure --aoti` run (inference) is checked against the replay of its own
# --memory-snapshot: the replay's peaks must equal the largest measured
# peaks and its self-check must pass. (PyTorch 2.11's Python loader of
# packages, torch._C._aoti.AOTIModelPackageLoader, crashed on the GPU host
# where LibTorch's C++ loader reads the same files, so Python gives no
# reference there.) Builds nothing.
#
# usage: torchscript_check.sh PATH/TO/mesure_memoire WORK_FOLDER [PYTHON [FORMAT]]
# exit 0 when every row is equal (or the check is skipped: no GPU, no
# PyTorch), 1 when one differs, 2 on bad usage.
set -eu
if [ $# -lt 2 ]; then
  echo "usage: torchscript_check.sh PATH/TO/mesure_memoire WORK_FOLDER [PYTHON]" >&2
  exit 2
fi
program=$1
work=$2
python=${3:-python3}
format=${4:-torchscript}
here=$(cd "$(dirname "$0")" && pwd)
reference="$here/torchscript_reference.py"
mkdir -p "$work"
# Skipped, visibly, where cuda:0 cannot be measured or Python has no PyTorch.
if ! "$program" environment --device cuda:0 | grep -q '"requested":"cuda:0","available":true'; then
  echo "ITERAGPU-SKIP: cuda:0 cannot be measured here"
  exit 0
fi
if ! "$python" -c "import torch" 2> /dev/null; then
  echo "ITERAGPU-SKIP: $python has no PyTorch for the reference"
  exit 0
fi
if [ "$format" = aoti ]; then
  if ! "$program" measure --help | grep -q -- '--aoti'; then
    echo "ITERAGPU-SKIP: this mesure_memoire has no --aoti"
    exit 0
  fi
  if ! "$python" -c "import torch._inductor; torch._inductor.aoti_compile_and_package" 2> /dev/null; then
    echo "ITERAGPU-SKIP: $python's PyTorch cannot write AOTInductor packages"
    exit 0
  fi
  "$python" "$reference" export-aoti "$work" > "$work/exported.json"
else
  "$python" "$reference" export "$work" > "$work/exported.json"
fi
model_flag=--torchscript
reference_flag=""
[ "$format" = aoti ] && model_flag=--aoti && reference_flag=--aoti

status=0
run_case() {  # name file train(0|1) input flags...
  name=$1 file=$2 train=$3
  shift 3
  train_flag=""
  [ "$train" = 1 ] && train_flag="--train"
  rm -f "$work/$name.json" "$work/$name.pickle" "$work/$name-reference.json"
  # shellcheck disable=SC2086
  if ! "$program" measure "$model_flag" "$work/$file" "$@" $train_flag --device cuda:0 --warmup 1 --repeats 2 \
    --memory-snapshot "$work/$name.pickle" --output "$work/$name.json" > "$work/$name.txt"; then
    echo "$name: FAILED: mesure_memoire measure did not finish"
    status=1
    return 0
  fi
  # shellcheck disable=SC2086
  if [ "$format" = aoti ]; then
    if ! "$program" replay "$work/$name.pickle" --json > "$work/$name-replay.json"; then
      echo "$name: FAILED: the replay of its snapshot did not pass"
      status=1
      return 0
    fi
    "$python" - "$work/$name.json" "$work/$name-replay.json" "$name" <<'PY' || status=1
import json, sys
measured = json.load(open(sys.argv[1]))
replay = json.load(open(sys.argv[2]))
name = sys.argv[3]
peaks = {f: max(row[f] for row in measured["phases"]) for f in ["peak_allocated_bytes", "peak_reserved_bytes"]}
recorded = replay["settings"][0]
same = (replay["self_check"]["passed"] and all(recorded[f] == peaks[f] for f in peaks)
        and measured["workload"]["kind"] == "aoti_package")
print(f"{name}: workload {measured['workload']['kind']}, {len(measured['phases'])} rows; measured peaks "
      f"{peaks['peak_allocated_bytes']} allocated, {peaks['peak_reserved_bytes']} reserved; replay "
      f"{recorded['peak_allocated_bytes']}, {recorded['peak_reserved_bytes']}, self-check "
      f"{'passed' if replay['self_check']['passed'] else 'FAILED'}")
print(f"{name}: {'EQUAL' if same else 'DIFFERENT'}")
sys.exit(0 if same else 1)
PY
    return 0
  fi
  if ! "$python" "$reference" measure $reference_flag "$work/$file" "$@" $train_flag --warmup 1 --repeats 2 \
    > "$work/$name-reference.json"; then
    echo "$name: FAILED: the Python reference did not finish"
    status=1
    return 0
  fi
  if ! "$python" - "$work/$name.json" "$work/$name-reference.json" "$name" <<'PY'
import json, sys
fields = ["baseline_allocated_bytes", "baseline_reserved_bytes", "end_allocated_bytes",
          "end_reserved_bytes", "peak_allocated_bytes", "peak_reserved_bytes"]
measured = json.load(open(sys.argv[1]))["phases"]
reference = json.load(open(sys.argv[2]))["phases"]
name = sys.argv[3]
equal = len(measured) == len(reference)
print(f"{name}: {len(measured)} rows (C++) and {len(reference)} (Python)")
print("  " + " ".join(f"{h:>14}" for h in ["phase", "repeat"] + [f.replace("_bytes", "") for f in fields]))
for m, r in zip(measured, reference):
    same = m["phase"] == r["phase"] and m["repeat"] == r["repeat"] and all(m[f] == r[f] for f in fields)
    equal = equal and same
    print("  " + " ".join(f"{str(v):>14}" for v in [m["phase"], m["repeat"]] + [m[f] for f in fields]) +
          ("" if same else "\n  python" + " ".join(f"{str(r[f]):>14}" for f in fields)))
print(f"{name}: {'EQUAL' if equal else 'DIFFERENT'}")
sys.exit(0 if equal else 1)
PY
  then
    status=1
  fi
}

if [ "$format" = aoti ]; then
  run_case encoder-aoti encoder.pt2 0 --input 8x128:int64 --input-high 1000
  run_case conv-aoti conv.pt2 0 --input 16x3x64x64:float32
  exit $status
fi
run_case encoder-inference encoder.pt 0 --input 8x128:int64 --input-high 1000
run_case encoder-train encoder.pt 1 --input 8x128:int64 --input-high 1000
run_case conv-inference conv.pt 0 --input 16x3x64x64:float32
run_case conv-train conv.pt 1 --input 16x3x64x64:float32
exit $status
