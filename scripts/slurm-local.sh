#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from Debian's packages (slurmctld, slurmd, munge), all of
# it in one folder: its own munge key and socket, slurm.conf, state, logs, and ports away from the
# defaults. For trying scripts/sweep-slurm.sh and for its test; run as root (slurmd starts jobs).
#
#   eval "$(scripts/slurm-local.sh start DIR)"   # prints export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-local.sh stop DIR
set -euo pipefail
usage() { echo "usage: scripts/slurm-local.sh start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
mkdir -p "$2"
dir=$(realpath "$2")
port=${SLURM_LOCAL_PORT:-16817}

stop() {
  for pidfile in slurmd.pid slurmctld.pid munge/munged.pid; do
    [ -f "$dir/$pidfile" ] && kill "$(cat "$dir/$pidfile")" 2>/dev/null || true
  done
  sleep 1
}

start() {
  for tool in munged mungekey slurmctld slurmd sbatch; do
    command -v "$tool" >/dev/null || { echo "slurm-local.sh: $tool is not installed (scripts/install-deps.sh)" >&2; exit 2; }
  done
  chmod 700 "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  chmod 700 "$dir/munge"
  [ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile "$dir/munge/munge.key"
  chmod 600 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" --log-file="$dir/log/munged.log" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed"
  local host
  host=$(hostname -s)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=clothview-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -c
  slurmd
  for _ in $(seq 60); do
    sinfo -h -o %t 2>/dev/null | grep -qE '^idle' && { echo "export SLURM_CONF=$dir/slurm.conf"; return; }
    sleep 0.5
  done
  echo "slurm-local.sh: the node did not come up; logs in $dir/log" >&2
  stop
  exit 1
}

case $action in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
