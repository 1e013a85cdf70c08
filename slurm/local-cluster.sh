#!/usr/bin/env bash
# A one-node Slurm 22.05 cluster on this machine, for tests and trying batch scripts:
#   slurm/local-cluster.sh up      start munged, slurmctld and slurmd; wait until the node is idle
#   slurm/local-cluster.sh down    stop them
#   slurm/local-cluster.sh status  print the node state
# Needs root (the daemons run as root; munged as user munge) and Debian's slurm-wlm and munge
# (scripts/install-deps.sh). No systemd needed. State, logs and spool live in $QUIRE_SLURM_DIR
# (default /tmp/quire-slurm); the configuration is written to /etc/slurm/slurm.conf, which the
# Slurm commands read. The node is called "localhost" and claims 8 CPUs (oversubscribing the
# real cores) so that 8-rank jobs fit.
set -euo pipefail

dir=${QUIRE_SLURM_DIR:-/tmp/quire-slurm}
conf=/etc/slurm/slurm.conf

write_conf() {
  mkdir -p "$dir/state" "$dir/spool" /etc/slurm
  cat > "$conf" <<CONF
# Written by Quire's slurm/local-cluster.sh: a one-node test cluster.
ClusterName=quire
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=6817
SlurmdPort=6818
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
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=localhost CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=8000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
}

start_munge() {
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
    chown munge:munge /etc/munge/munge.key
    chmod 0400 /etc/munge/munge.key
  fi
  munge -n >/dev/null 2>&1 || runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
}

wait_for() { # description, seconds, command...
  local what=$1 seconds=$2; shift 2
  for ((i = 0; i < seconds * 10; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "local-cluster: $what did not happen within ${seconds}s; logs in $dir" >&2
  return 1
}

node_idle() { sinfo -h -o %T | grep -q '^idle'; }
ctld_up() { scontrol ping | grep -q 'is UP'; }

up() {
  if [[ $(id -u) -ne 0 ]]; then echo "local-cluster: must run as root" >&2; exit 1; fi
  if node_idle 2>/dev/null; then echo "local-cluster: already up"; return 0; fi
  down quiet
  rm -rf "$dir"
  write_conf
  start_munge
  wait_for "munge answering" 10 munge -n
  /usr/sbin/slurmctld -i
  wait_for "slurmctld up" 20 ctld_up
  /usr/sbin/slurmd -N localhost
  wait_for "node idle" 30 node_idle
  echo "local-cluster: up (node localhost idle; logs in $dir)"
}

down() {
  # Only the daemons this script started, by the PIDs they wrote; wait until they are gone so
  # that a following `up` can bind their ports.
  local pids=()
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    if [[ -s $pidfile ]]; then pids+=("$(cat "$pidfile")"); fi
  done
  if (( ${#pids[@]} > 0 )); then
    kill "${pids[@]}" 2>/dev/null || true
    wait_for "slurmd and slurmctld ($(IFS=' '; echo "${pids[*]}")) to exit" 20 \
      bash -c 'for p; do kill -0 "$p" 2>/dev/null && exit 1; done; exit 0' _ "${pids[@]}" || true
  fi
  [[ ${1:-} == quiet ]] || echo "local-cluster: down"
}

case ${1:-} in
  up) up ;;
  down) down ;;
  status) sinfo -h -o '%N %T' ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
