#!/usr/bin/env bash
# tests/oracle/gpu_corpus.sh: the oracle corpus and replay --on-gpu on a GPU
# host, in one run of about 8 minutes, from the repository root:
#
#   OUT=/some/folder bash tests/oracle/gpu_corpus.sh
#
# The host: python3 with a CUDA PyTorch (2.11 here), nvidia-smi, and the
# Boost packages in .debs/ (scripts/setup.sh unpacks them; see
# docs/install.md). Everything it makes goes to a scratch folder; what comes
# back is in $OUT, at most 7 files of under 16 MiB:
#
#   gpu_corpus.log          this script's log, with a time stamp at each step
#   corpus.tar.xz           the corpus (corpus.py): oracle.json, programs.json,
#                           corpus.json, traces/, generated/, logs/
#   corpus-runs.tar.xz[.N]  each oracle run's own trace (runs/), in parts of
#                           15 MiB when larger
#   results.tar.xz          on_gpu.json and .log (replay --on-gpu over the new
#                           corpus), check_oracle.log (the simulation against
#                           the new corpus), ctest.log (the gpu test over the
#                           committed corpus), build.log, and h200-known/ (the
#                           H200 corpus's unresolved sequences recorded again
#                           on this card, each condition's trace beside it)
#
# Order: the corpus first, tarred into $OUT before anything else; then the
# build of mesure_memoire against python3's LibTorch (preset gpu); then
# replay --on-gpu over the new corpus and the gpu test over the committed
# one, side by side, each stopped by a deadline.
set -uo pipefail
: "${OUT:?set OUT to the folder whose files come back}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
start=$(date +%s)
stamp() { printf '[%s +%ds] %s\n' "$(date +%T)" "$(($(date +%s) - start))" "$*"; }
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu_corpus.log") 2>&1

work=${ITERAGPU_GPU_CORPUS_WORK:-/tmp/iteragpu-gpu-corpus}
rm -rf "$work"
mkdir -p "$work/results" "$work/corpus"
unset PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF
export PYTHONUNBUFFERED=1

stamp "start: $(git rev-parse --short HEAD 2>/dev/null || echo 'no git') in $root"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "gpus", torch.cuda.device_count())'

# 1. The corpus. Runs start until 240 s, and all end by 300 s
# (ITERAGPU_GPU_CORPUS_DEADLINE: another start limit; the whole run keeps
# ITERAGPU_GPU_CORPUS_SECONDS, default 520, for the steps below).
deadline=${ITERAGPU_GPU_CORPUS_DEADLINE:-240}
total=${ITERAGPU_GPU_CORPUS_SECONDS:-520}
stamp "corpus: 14 programs, 60 generated sequences, every condition"
timeout -k 10 $((deadline + 60)) python3 tests/oracle/corpus.py "$work/corpus" --random 60 --jobs 12 --deadline "$deadline"
stamp "corpus: exit $?"

# The sequences of the H200 corpus that stayed unresolved, recorded again on
# this card (their defaults trace, then each condition's), while the rest
# goes on: they come back in results.tar.xz (h200-known/).
known_h200() {
  local dir=$work/results/h200-known seed conf tag
  mkdir -p "$dir"
  for seed in 37 51 64 67; do
    (
      python3 tests/oracle/oracle.py generate "$seed" "$dir/$seed.json" &&
        python3 tests/oracle/oracle.py run "$dir/$seed.json" --record "$dir/random-$seed.pickle" \
          --result "$dir/random-$seed.json" >/dev/null || exit 1
      for conf in "" roundup_power2_divisions:4 "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]"; do
        case "$conf" in
          "") tag=defaults ;;
          roundup_power2_divisions:4) tag=r4 ;;
          *) tag=rlist ;;
        esac
        PYTORCH_CUDA_ALLOC_CONF=$conf python3 tests/oracle/oracle.py run "$dir/random-$seed.pickle" \
          --record "$dir/random-$seed.$tag.pickle" --result "$dir/random-$seed.$tag.json" >/dev/null
      done
    ) &
  done
  wait
}
known_h200 >"$work/results/h200-known.log" 2>&1 &
known_pid=$!

stamp "tar of the corpus"
tar -C "$work" -cJf "$OUT/corpus.tar.xz" --exclude corpus/runs --exclude corpus/scratch corpus
tar -C "$work" -cf - corpus/runs | xz -T0 -6 >"$work/corpus-runs.tar.xz"
size=$(stat -c %s "$work/corpus-runs.tar.xz")
if [ "$size" -le $((15 * 1024 * 1024)) ]; then
  mv "$work/corpus-runs.tar.xz" "$OUT/"
else
  split -b 15M -d -a 1 "$work/corpus-runs.tar.xz" "$OUT/corpus-runs.tar.xz."
fi
ls -l "$OUT"
stamp "corpus in \$OUT"

# 2. mesure_memoire against python3's LibTorch (scripts/setup.sh: preset gpu,
# Boost from .debs/).
# ITERAGPU_GPU_CORPUS_PROGRAM names a mesure_memoire built already instead.
program=${ITERAGPU_GPU_CORPUS_PROGRAM:-$root/build/gpu/examples/mesure_memoire}
if [ -n "${ITERAGPU_GPU_CORPUS_PROGRAM:-}" ]; then
  built=0
  stamp "build: skipped, $program"
else
  stamp "build: mesure_memoire, preset gpu"
  (
    # shellcheck source=scripts/setup.sh disable=SC1091
    source scripts/setup.sh &&
      iteragpu_prepare build &&
      iteragpu_build gpu mesure_memoire
  ) >"$work/results/build.log" 2>&1
  built=$?
  tail -n 5 "$work/results/build.log"
  stamp "build: exit $built"
fi
libdir=$(compgen -G "$root/build/boost-debs/usr/lib/*-linux-gnu" | head -n 1)
[ -n "$libdir" ] && export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# 3. replay --on-gpu over the new corpus, the gpu test over the committed
# one, and the simulation against the new corpus, side by side.
if [ "$built" -eq 0 ] && [ -x "$program" ]; then
  # What is left of about $total s, less the last tar.
  left=$((total - ($(date +%s) - start)))
  [ "$left" -lt 40 ] && left=40
  stamp "replay --on-gpu over the new corpus; the gpu test; check_oracle (${left} s left)"
  "$program" --version
  timeout -k 5 "$left" python3 tests/oracle/on_gpu.py "$program" "$work/corpus" --jobs 6 --memory-gib 36 \
    --deadline $((left - 30)) --results "$work/results/on_gpu.json" >"$work/results/on_gpu.log" 2>&1 &
  on_gpu=$!
  timeout -k 5 "$left" ctest --test-dir build/gpu -R 'gpu\.replay_on_gpu' --output-on-failure \
    >"$work/results/ctest.log" 2>&1 &
  gpu_test=$!
  timeout -k 5 "$left" python3 tests/oracle/check_oracle.py "$program" "$work/corpus" \
    >"$work/results/check_oracle.log" 2>&1 &
  check=$!
  wait "$on_gpu"
  stamp "on_gpu.py: exit $?: $(tail -n 1 "$work/results/on_gpu.log")"
  wait "$gpu_test"
  stamp "gpu test: exit $?: $(grep -E 'tests passed|Skipped|Passed|Failed' "$work/results/ctest.log" | tail -n 2 | tr '\n' ' ')"
  wait "$check"
  stamp "check_oracle.py: exit $?: $(tail -n 1 "$work/results/check_oracle.log")"
  grep -E '^(DIFF|FAIL)' "$work/results/on_gpu.log" | head -n 20
  grep -E '^(DIFF|FAIL)' "$work/results/check_oracle.log" | head -n 20
else
  stamp "no mesure_memoire: replay --on-gpu and the gpu test not run"
fi

wait "$known_pid"
stamp "h200-known: $(find "$work/results/h200-known" -type f 2>/dev/null | wc -l) files"
tar -C "$work" -cJf "$OUT/results.tar.xz" results
ls -l "$OUT"
stamp "done"
