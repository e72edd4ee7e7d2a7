#!/usr/bin/env bash
# bench/gpu_release_checks.sh OUT_DIR: the checks of a release on a GPU host
# (one NVIDIA GPU, python3 with a CUDA PyTorch), in order of importance,
# each stage bounded in time; results land in OUT_DIR/results.tgz (updated
# after each stage) and OUT_DIR/log.txt. Stages:
#   build       scripts/run builds mesure_memoire against python3's LibTorch
#   gpu-tests   ctest -L gpu
#   prediction  measure a set of shapes: "prediction: exact in N of N rows"
#   timing      --repeats auto, environment against nvidia-smi, compare
#   largest     plan --largest batch on the card, then that batch and the next
#   snapshot    --memory-snapshot of the small trial and of an out-of-memory run,
#               opened by torch.cuda._memory_viz
#   sweep       the two sweeps of the sweep issue (when the build has `sweep`)
#   bench       bench/compare.py against the PyTorch baseline
#   startup     estimate in the LibTorch build against a build without it
# ITERAGPU_CHECK_BUDGET (seconds, default 440): no stage starts once spent.
set -uo pipefail
out=${1:?usage: bench/gpu_release_checks.sh OUT_DIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d /tmp/iteragpu-checks.XXXXXX)
log="$out/log.txt"
budget=${ITERAGPU_CHECK_BUDGET:-440}
start=$SECONDS
mkdir -p "$out"
say() { printf '[%4d s] %s\n' "$((SECONDS - start))" "$*" | tee -a "$log"; }
save() { tar czf "$out/results.tgz" -C "$work" . 2>/dev/null; }
left() { echo $((budget - (SECONDS - start))); }
stage() {
  local name=$1 limit=$2
  shift 2
  if [ "$(left)" -le 10 ]; then
    say "SKIPPED $name: the budget is spent"
    return 1
  fi
  [ "$limit" -gt "$(left)" ] && limit=$(left)
  say "=== $name (at most $limit s)"
  timeout "$limit" bash -c "$*" >>"$log" 2>&1
  local rc=$?
  say "=== $name: exit $rc"
  save
  return $rc
}
export root work
mm=$root/build/gpu/examples/mesure_memoire
export mm

# The README's run command from a copy with no build folder: it picks
# python3's LibTorch, builds mesure_memoire alone and measures the small trial.
stage build 150 'cd "$root" && scripts/run mesure_memoire measure --device cuda:0 --batch 1 --context 16 --width 64 --dtype float32 --warmup 1 --repeats 2 --output "$work/m.json" && "$mm" --version && nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total --format=csv' || exit 1
# The Boost libraries scripts/run unpacked from .debs/ (a host without them).
export LD_LIBRARY_PATH="$root/build/boost-debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

stage gpu-tests 90 'ctest --test-dir "$root/build/gpu" -L gpu --output-on-failure 2>&1 | tail -25'

stage prediction 90 '
  run() { local name=$1; shift
    "$mm" measure --device cuda:0 "$@" --output "$work/pred-$name.json" > "$work/pred-$name.txt" 2>&1
    echo "$name rc=$? $(grep "^prediction:" "$work/pred-$name.txt")"; }
  run 1x16x64-f32 --batch 1 --context 16 --width 64 --dtype float32 --warmup 1 --repeats 2
  run 2x128x1024-f32 --batch 2 --context 128 --width 1024 --dtype float32 --warmup 3 --repeats 5
  run 4x2048x4096-f16 --batch 4 --context 2048 --width 4096 --dtype float16 --warmup 3 --repeats 5
  run 8x4096x8192-bf16 --batch 8 --context 4096 --width 8192 --dtype bfloat16 --warmup 3 --repeats 5
  run 1x1x1-f32 --batch 1 --context 1 --width 1 --dtype float32 --warmup 2 --repeats 2
  run 3x5x7-f32 --batch 3 --context 5 --width 7 --dtype float32 --warmup 2 --repeats 2
  run 3x7x100-f16 --batch 3 --context 7 --width 100 --dtype float16 --warmup 2 --repeats 2
  run 1x511x128-f32 --batch 1 --context 511 --width 128 --dtype float32 --warmup 2 --repeats 2
  run 1x513x128-f32 --batch 1 --context 513 --width 128 --dtype float32 --warmup 2 --repeats 2
  run 1x1023x640-f32 --batch 1 --context 1023 --width 640 --dtype float32 --warmup 2 --repeats 2
  run 1x1025x640-f32 --batch 1 --context 1025 --width 640 --dtype float32 --warmup 2 --repeats 2
  run 5x333x257-f16 --batch 5 --context 333 --width 257 --dtype float16 --warmup 2 --repeats 2
  run 16x77x1536-f16 --batch 16 --context 77 --width 1536 --dtype float16 --warmup 2 --repeats 2
  run 2x2048x1280-bf16 --batch 2 --context 2048 --width 1280 --dtype bfloat16 --warmup 2 --repeats 2
  run 1x7x363-bf16 --batch 1 --context 7 --width 363 --dtype bfloat16 --warmup 2 --repeats 2
'

stage timing 80 '
  "$mm" environment --device cuda:0 > "$work/environment.json"; echo "environment rc=$?"
  python3 -c "import json;d=json.load(open(\"$work/environment.json\"));print(\"environment driver:\", d[\"management\"][\"driver_version\"], d[\"management\"][\"gpus\"])"
  nvidia-smi --query-gpu=driver_version --format=csv,noheader
  cfg="--batch 4 --context 2048 --width 4096 --warmup 3 --repeats auto"
  "$mm" measure --device cuda:0 $cfg --dtype float16 --output "$work/auto-f16-a.json" > "$work/auto-f16-a.txt" 2>&1; echo "auto a rc=$?"
  "$mm" measure --device cuda:0 $cfg --dtype float16 --output "$work/auto-f16-b.json" > "$work/auto-f16-b.txt" 2>&1; echo "auto b rc=$?"
  "$mm" measure --device cuda:0 $cfg --dtype bfloat16 --output "$work/auto-bf16.json" > "$work/auto-bf16.txt" 2>&1; echo "auto bf16 rc=$?"
  "$mm" measure --device cuda:0 --batch 1 --context 16 --width 64 --dtype float32 --warmup 1 --repeats auto --output "$work/auto-small.json" > "$work/auto-small.txt" 2>&1; echo "auto small rc=$?"
  tail -n 12 "$work/auto-f16-a.txt" "$work/auto-small.txt"
  "$mm" compare "$work/auto-f16-a.json" "$work/auto-f16-b.json" > "$work/compare-same.txt"; echo "compare same rc=$?"; cat "$work/compare-same.txt" | tail -n 6
  "$mm" compare "$work/auto-f16-a.json" "$work/auto-bf16.json" > "$work/compare-dtype.txt"; echo "compare dtype rc=$?"; cat "$work/compare-dtype.txt" | tail -n 6
  python3 "$root/tests/schema/validate.py" "$root/data/schema/measurement.schema.json" "$work"/auto-*.json "$work"/pred-*.json && echo "schema: every measurement valid"
'

stage largest 70 '
  "$mm" plan --largest batch --memory-gib 139.8 --context 4096 --width 8192 --dtype bfloat16 --warmup 0 --repeats 1 --json > "$work/largest.json"
  n=$(python3 -c "import json;print(json.load(open(\"$work/largest.json\"))[\"largest\"][\"value\"])")
  echo "plan: largest batch $n"
  "$mm" measure --device cuda:0 --batch "$n" --context 4096 --width 8192 --dtype bfloat16 --warmup 0 --repeats 1 --output "$work/largest-n.json" > "$work/largest-n.txt" 2>&1; echo "batch $n rc=$?"; tail -n 3 "$work/largest-n.txt"
  "$mm" measure --device cuda:0 --batch "$((n + 1))" --context 4096 --width 8192 --dtype bfloat16 --warmup 0 --repeats 1 --output "$work/largest-n1.json" > "$work/largest-n1.txt" 2>&1; echo "batch $((n + 1)) rc=$?"; tail -n 3 "$work/largest-n1.txt"
'

stage snapshot 60 '
  "$mm" measure --device cuda:0 --memory-snapshot "$work/small.pickle" --output "$work/snap-small.json" > /dev/null; echo "small rc=$?"
  "$mm" measure --device cuda:0 --batch 64 --context 65536 --width 16384 --dtype float32 --warmup 0 --repeats 1 --memory-snapshot "$work/oom.pickle" --output "$work/snap-oom.json"; echo "oom rc=$?"
  ls -l "$work"/*.pickle
  for f in small oom; do python3 -m torch.cuda._memory_viz trace_plot "$work/$f.pickle" -o "$work/$f.html" && echo "$f.html: $(wc -c < "$work/$f.html") bytes"; done
'

if "$mm" sweep --help > /dev/null 2>&1; then
  stage sweep 100 '
    "$mm" sweep --device cuda:0 --batch 8..512 --context 4096 --width 8192 --dtype bfloat16 --repeats 3 --output-dir "$work/sweep-batch" 2>&1 | tail -n 12
    "$mm" sweep --device cuda:0 --width 1024..131072 --batch 1 --context 1024 --dtype bfloat16 --repeats 3 --output-dir "$work/sweep-width" 2>&1 | tail -n 12
    cat "$work/sweep-batch/summary.csv" "$work/sweep-width/summary.csv"
  '
else
  say "SKIPPED sweep: this build has no sweep command"
fi

stage bench 200 'cd "$root" && python3 bench/compare.py --cpp "$mm" --out "$work/bench"'
stage startup 60 '
  b=$root/build/boost-debs/usr
  cmake -S "$root" -B "$work/no-torch" -G Ninja -DCMAKE_BUILD_TYPE=Release -DITERAGPU_WITH_TORCH=OFF -DITERAGPU_BUILD_TESTS=OFF \
    -DCMAKE_PREFIX_PATH="$b" -DBoost_DIR="$b/lib/x86_64-linux-gnu/cmake/Boost-1.81.0" > /dev/null &&
  cmake --build "$work/no-torch" --target mesure_memoire > /dev/null &&
  python3 "$root/bench/estimate_startup.py" "$mm" "$work/no-torch/examples/mesure_memoire" --runs 21
'

say "done"
save
