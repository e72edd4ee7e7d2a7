#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD_DIR [SECONDS]: runs every fuzz_<harness> built in
# BUILD_DIR (ITERAGPU_BUILD_FUZZERS=ON, clang) for SECONDS each (default
# 30), as many at once as there are cores, starting from the seed corpus in
# tests/fuzz/corpus/<harness>/ (read, never written: new inputs go to a
# scratch corpus in the build tree). Fails on any crash, leak, timeout or
# sanitizer report, and prints the executions of each harness. A crashing
# input is kept in BUILD_DIR/fuzz-runs/<harness>/; once fixed, add it to
# the seed corpus, where every build replays it as a test.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:?usage: tests/fuzz/run.sh BUILD_DIR [SECONDS]}
# Absolute: a harness may change its working folder (gpu_commands works in a
# scratch folder of its own), and libFuzzer writes new inputs and crashing
# ones by these paths.
build=$(cd "$build" && pwd) || exit 1
seconds=${2:-30}
jobs=${ITERAGPU_FUZZ_JOBS:-$(nproc)}
runs="$build/fuzz-runs"
mapfile -t fuzzers < <(find "$build/tests/fuzz" -maxdepth 1 -name 'fuzz_*' -type f -perm -u+x | sort)
if [ ${#fuzzers[@]} -eq 0 ]; then
  echo "fuzz: no fuzz_* executables in $build/tests/fuzz (build the iteragpu_fuzzers target)" >&2
  exit 1
fi
rm -rf "$runs" && mkdir -p "$runs"

run_one() {
  local exe=$1 seconds=$2 root=$3 runs=$4 name
  name=$(basename "$exe")
  name=${name#fuzz_}
  mkdir -p "$runs/$name/corpus"
  # -timeout: one input taking more than 10 s is a hang and fails the run.
  # timeout: a harness that outlives its time by two minutes is stuck.
  timeout -k 10 $((seconds + 120)) "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$runs/$name/" "$runs/$name/corpus" "$root/tests/fuzz/corpus/$name" \
    > "$runs/$name/log" 2>&1
  echo $? > "$runs/$name/rc"
}
export -f run_one
start=$SECONDS
printf '%s\n' "${fuzzers[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$1" "$2" "$3" "$4"' _ {} "$seconds" "$root" "$runs"

status=0
total=0
for exe in "${fuzzers[@]}"; do
  name=$(basename "$exe")
  name=${name#fuzz_}
  rc=$(cat "$runs/$name/rc" 2>/dev/null || echo missing)
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$runs/$name/log" | grep -o '[0-9]*$')
  seeds=$(find "$root/tests/fuzz/corpus/$name" -type f | wc -l)
  if [ "$rc" != 0 ]; then
    echo "fuzz $name: FAILED (exit $rc); log and crashing input in $runs/$name/"
    grep -E 'ERROR|SUMMARY|property broken|runtime error' "$runs/$name/log" | head -5
    status=1
  fi
  echo "fuzz $name: ${execs:-0} executions in ${seconds} s from ${seeds} seeds"
  total=$((total + ${execs:-0}))
done
echo "fuzz: ${#fuzzers[@]} harnesses, ${total} executions in all, $((SECONDS - start)) s"
exit $status
