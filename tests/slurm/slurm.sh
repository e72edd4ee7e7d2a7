#!/bin/bash
# tests/slurm/slurm.sh start|stop|status DIR | remove-named FILE: a
# single-node Slurm cluster (Debian's slurm-wlm and munge) with every file
# under DIR, for the tests. DIR's path must be short: munged refuses a
# socket path of more than 108 bytes.
#
#   start   writes a munge key and slurm.conf under DIR, starts munged,
#           slurmctld and slurmd, and waits until the node is idle. Prints
#           the line to source: export SLURM_CONF=DIR/slurm.conf
#   stop    stops the three daemons by the pids in DIR's pid files (SIGTERM,
#           then SIGKILL after 10 s) and waits until they are gone. Safe to
#           run at any time, twice, or on a DIR that never started.
#   status  exits 0 when the three daemons of DIR run.
#   remove-named FILE
#           when FILE exists, it names a DIR made by mktemp -d
#           /tmp/iteragpu-slurm.XXXXXX: stops its daemons as stop does,
#           removes DIR, then FILE. Nothing else is ever removed.
#
# Runs as root, with no systemd and no cgroups: process tracking by
# /proc (proctrack/linuxproc), no task plugin, no accounting. The ports are
# chosen free at start, so that nothing else on the machine collides. Exit
# 77 (with a line saying why) when the packages are missing or the daemons
# cannot start for a reason of the machine, 1 on any other failure.
set -uo pipefail

what=${1:-}
dir=${2:-}
if [ -z "$what" ] || [ -z "$dir" ]; then
  echo "usage: slurm.sh start|stop|status DIR | remove-named FILE" >&2
  exit 2
fi
if [ "$what" = remove-named ]; then
  [ -e "$dir" ] || exit 0
  named=$(cat "$dir")
  case "$named" in
    /tmp/iteragpu-slurm.??????) ;;
    *)
      echo "slurm.sh: $dir names '$named', not a folder of /tmp/iteragpu-slurm.XXXXXX; left alone" >&2
      exit 1
      ;;
  esac
  if [ -d "$named" ]; then
    bash "${BASH_SOURCE[0]}" stop "$named" || exit 1
    rm -rf "$named"
  fi
  rm -f "$dir"
  exit 0
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
daemons=(slurmd slurmctld munged)

pid_of() {
  local file="$dir/$1.pid"
  [ -s "$file" ] || return 1
  local pid
  pid=$(tr -dc '0-9' <"$file")
  [ -n "$pid" ] || return 1
  # The pid must still be that daemon, not a recycled number.
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] || return 1
  echo "$pid"
}

stop() {
  local name pid
  for name in "${daemons[@]}"; do
    if pid=$(pid_of "$name"); then
      kill -TERM "$pid" 2>/dev/null
      for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      if kill -0 "$pid" 2>/dev/null; then
        echo "slurm.sh: $name ($pid) ignored SIGTERM for 10 s; killing it" >&2
        kill -KILL "$pid" 2>/dev/null
      fi
    fi
    rm -f "$dir/$name.pid"
  done
  # Job steps that outlived slurmd (slurmstepd) of this cluster only, found
  # through /proc (procps may not be installed).
  local comm step
  for comm in /proc/[0-9]*/comm; do
    [ "$(cat "$comm" 2>/dev/null)" = slurmstepd ] || continue
    step=${comm#/proc/}
    step=${step%/comm}
    if tr '\0' '\n' <"/proc/$step/environ" 2>/dev/null | grep -qx "SLURM_CONF=$dir/slurm.conf"; then
      kill -KILL "$step" 2>/dev/null
    fi
  done
  return 0
}

status() {
  local name
  for name in "${daemons[@]}"; do
    pid_of "$name" >/dev/null || return 1
  done
}

skip() {
  echo "slurm.sh: cannot start Slurm here: $*" >&2
  stop
  exit 77
}

# A free TCP port of the loopback interface.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local tool
  for tool in munged slurmctld slurmd sbatch sinfo; do
    command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null 2>&1 ||
      skip "$tool is missing (Debian packages slurm-wlm and munge)"
  done
  [ "$(id -u)" = 0 ] || skip "the daemons run as root here and this is uid $(id -u)"
  export PATH=$PATH:/usr/sbin
  stop  # what a killed earlier run may have left
  rm -rf "$dir/munge" "$dir/state" "$dir/spool" "$dir"/*.log
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  chmod 0700 "$dir/munge"
  local host nproc ctld_port slurmd_port
  host=$(hostname -s)
  nproc=$(nproc)
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done

  # munge: a key of 1024 random bytes, readable by its owner only.
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 0400 "$dir/munge/munge.key"
  # --force: the scratch folder may sit under a world-writable /tmp, which
  # munged otherwise refuses for its socket.
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" ||
    skip "munged failed to start: $(tail -n 3 "$dir/munged.log" 2>/dev/null | tr '\n' ' ')"

  cat >"$dir/slurm.conf" <<EOF
# A single-node cluster for the iteragpu tests (tests/slurm/slurm.sh).
ClusterName=iteragpu-test
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
# FIFO, scheduled at each submission and each end, batch jobs without the
# default 3 s delay: the tasks of an array follow each other at once.
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=$nproc State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  # -c: a clean start, no state from an earlier cluster in this folder.
  slurmctld -c -f "$dir/slurm.conf" ||
    skip "slurmctld failed to start: $(tail -n 3 "$dir/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
  slurmd -f "$dir/slurm.conf" ||
    skip "slurmd failed to start: $(tail -n 3 "$dir/slurmd.log" 2>/dev/null | tr '\n' ' ')"
  local state=""
  for _ in $(seq 300); do
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    sleep 0.1
  done
  if [ "$state" != idle ]; then
    echo "slurm.sh: the node is '${state:-unknown}' after 30 s, not idle; logs follow" >&2
    tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2
    stop
    exit 1
  fi
  echo "export SLURM_CONF=$dir/slurm.conf"
}

case "$what" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *)
    echo "slurm.sh: unknown action '$what'; expected start, stop or status" >&2
    exit 2
    ;;
esac
