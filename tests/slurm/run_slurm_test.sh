#!/bin/bash
# tests/slurm/run_slurm_test.sh MESURE_MEMOIRE WORK_DIR SBATCH_SCRIPT: the
# sweep on a real Slurm (label `slurm`). Starts a single-node cluster under
# WORK_DIR (slurm.sh), plans a sweep, submits SBATCH_SCRIPT
# (examples/slurm/sweep.sbatch) as a job array in --predict-only mode,
# waits for it, collects, and checks every point's result; then submits the
# array again and checks that no point is run twice. The daemons are
# stopped on every way out (and again by the CTest fixture's cleanup).
# Prints "ITERAGPU-SKIP: why" (a CTest skip) only when Slurm cannot start
# for a reason of the machine (packages missing, not root).
#
# The daemons' sockets and state live in a short folder of their own
# (mktemp -d /tmp/iteragpu-slurm.XXXXXX), never under WORK_DIR: munged
# refuses a socket path of more than 108 bytes, which a build folder deep
# enough reaches. WORK_DIR/cluster-dir names that folder for the CTest
# cleanup (slurm.sh remove-named); it is removed on every way out, its logs
# copied into WORK_DIR/logs first.
set -uo pipefail

program=${1:?usage: run_slurm_test.sh MESURE_MEMOIRE WORK_DIR SBATCH_SCRIPT}
work=${2:?}
script=${3:?}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$work"
mkdir -p "$work/logs"
work=$(cd "$work" && pwd)

fail() {
  echo "FAILED: $*"
  exit 1
}
if [[ " ${ITERAGPU_LEAVE_OUT:-} " =~ [[:space:],]slurm[[:space:],] ]]; then
  echo "ITERAGPU-SKIP: left out by ITERAGPU_LEAVE_OUT=slurm"
  exit 0
fi
cluster=$(mktemp -d /tmp/iteragpu-slurm.XXXXXX) || fail "no folder for the cluster under /tmp"
echo "$cluster" >"$work/cluster-dir"
finish() {
  cp "$cluster"/*.log "$work/logs/" 2>/dev/null
  "$here/slurm.sh" remove-named "$work/cluster-dir"
}
trap finish EXIT

started=$("$here/slurm.sh" start "$cluster" 2>"$work/start.err")
rc=$?
if [ $rc = 77 ]; then
  echo "ITERAGPU-SKIP: $(tail -n 1 "$work/start.err")"
  exit 0
fi
[ $rc = 0 ] || fail "Slurm did not start: $(cat "$work/start.err")"
eval "$started"
echo "Slurm is up: $(sinfo -h -o '%P %a %D %T')"

sweep=$work/sweep
"$program" sweep --plan-only --output-dir "$sweep" --batch 8..512 --context 4096 --width 8192 \
  --dtype float16,bfloat16 || fail "the plan was refused"
points=$(($(wc -l <"$sweep/points.tsv") - 1))
[ "$points" = 14 ] || fail "$points points planned, expected 14"

# Submits the array and waits for its end (polling the queue: sbatch --wait
# polls at doubling intervals of up to 32 s); fails unless every task
# completed with exit 0.
submit() {
  local job states
  job=$(sbatch --parsable --array=0-$((points - 1)) --chdir="$work" --output="$work/logs/$1-%A_%a.out" \
    --export="ALL,SWEEP_DIR=$sweep,SWEEP_PREDICT_ONLY=1,MESURE_MEMOIRE=$program,SWEEP_FLAGS=--memory-gib 139.8" \
    "$script") || return 1
  echo "job $job"
  for _ in $(seq 3000); do
    [ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] && break
    sleep 0.1
  done
  [ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] || { echo "job $job still queued after 300 s"; return 1; }
  states=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' |
    sed -E 's/JobState=([A-Z_]+) .*ExitCode=([0-9:]+)/\1 \2/' | sort | uniq -c)
  echo "$states"
  [ "$(echo "$states" | awk '{ print $2, $3 }')" = "COMPLETED 0:0" ] &&
    [ "$(echo "$states" | awk '{ print $1 }')" = "$points" ]
}
started_at=$(date +%s.%N)
submit first >"$work/sbatch-first.out" 2>&1 || fail "the job array failed: $(cat "$work/sbatch-first.out"; tail -n 5 "$work"/logs/first-*)"
echo "the array of $points tasks ran in $(awk -v a="$started_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s: $(tr '\n' ' ' <"$work/sbatch-first.out")"

# Each task ran its own point, once.
for ((i = 0; i < points; i++)); do
  log=$(ls "$work"/logs/first-*_"$i".out 2>/dev/null) || fail "no log of task $i"
  grep -q "^point $i: " "$log" || fail "task $i did not run point $i: $(cat "$log")"
  record=$sweep/$(printf 'point-%04d.json' "$i")
  [ -f "$record" ] || fail "no record of point $i"
done

"$program" collect "$sweep" --output-dir "$work/report" >"$work/collect.out" 2>"$work/collect.err" ||
  fail "collect failed: $(cat "$work/collect.err")"
[ -s "$work/collect.err" ] && fail "collect says points lack a result: $(cat "$work/collect.err")"
python3 - "$sweep" "$work/report/summary.csv" "$points" <<'PY' || fail "the collected results are not those expected"
import csv, json, os, sys
sweep, summary, points = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = list(csv.DictReader(open(summary, encoding="utf-8")))
assert len(rows) == points, f"{len(rows)} rows"
for row in rows:
    i = int(row["index"])
    record = json.load(open(os.path.join(sweep, f"point-{i:04d}.json"), encoding="utf-8"))
    assert record["kind"] == "prediction" and row["kind"] == "prediction", row
    assert row["outcome"] == record["outcome"], row
    batch = int(row["batch"])
    # 139.8 GiB, less 718,077,952 bytes outside the allocator: batch 128
    # (about 73 GiB predicted) fits, batch 256 (about 145 GiB) does not.
    expected = "predicted" if batch <= 128 else "skipped_device_memory"
    assert row["outcome"] == expected, (row["outcome"], expected, batch)
    if expected == "predicted":
        assert int(row["predicted_peak_reserved_bytes"]) > 0 and row["measured_peak_reserved_bytes"] == "", row
        assert os.path.exists(os.path.join(sweep, f"point-{i:04d}.prediction.json"))
print(f"{points} points collected: {sum(r['outcome'] == 'predicted' for r in rows)} predicted, "
      f"{sum(r['outcome'] == 'skipped_device_memory' for r in rows)} skipped for the device")
PY

# The same array again: every task finds its point done and leaves it alone.
before=$(find "$sweep" -newer "$sweep/points.tsv" -type f -printf '%f %T@\n' | sort | md5sum)
submit again >"$work/sbatch-again.out" 2>&1 || fail "the second array failed: $(cat "$work/sbatch-again.out")"
for ((i = 0; i < points; i++)); do
  grep -q "^point $i already has its result" "$work"/logs/again-*_"$i".out ||
    fail "task $i of the second array did not leave its point alone"
done
after=$(find "$sweep" -newer "$sweep/points.tsv" -type f -printf '%f %T@\n' | sort | md5sum)
[ "$before" = "$after" ] || fail "the second array changed the sweep's files"
echo "resubmitted: every point left alone"
echo "passed"
