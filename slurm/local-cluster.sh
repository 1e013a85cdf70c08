#!/usr/bin/env bash
# A two-node Slurm 22.05 cluster on this machine, for tests and trying batch scripts:
#   slurm/local-cluster.sh up      start munged (unless one runs), slurmctld and two slurmd (nodes
#                                  node1 and node2); wait until both nodes are idle
#   slurm/local-cluster.sh down    stop the daemons this script started, by the PIDs they wrote
#   slurm/local-cluster.sh status  the daemons this script started and the nodes' state, or, with
#                                  exit status 3, that nothing it started runs
# Needs root (the daemons run as root; munged as user munge) and Debian's slurm-wlm and munge
# (scripts/install-deps.sh). No systemd needed. State, logs and spool live in $QUIRE_SLURM_DIR
# (default /tmp/quire-slurm); the configuration is written to /etc/slurm/slurm.conf, which the
# Slurm commands read. The two nodes are two slurmd processes of this machine (Debian's Slurm is
# built with multiple-slurmd support: `slurmd -N node1`, `slurmd -N node2`), each with its own
# port, spool directory, PID and log file; both claim 8 CPUs (oversubscribing the real cores) so
# that an 8-rank job fits on one node and `srun -N 2` spreads ranks over both. Programs that
# connect to "the first node" of a step must resolve node1 and node2: `up` adds them to
# /etc/hosts as 127.0.0.1 (one line, marked) when they do not resolve, `down` removes that line.
set -euo pipefail

dir=${QUIRE_SLURM_DIR:-/tmp/quire-slurm}
conf=/etc/slurm/slurm.conf
nodes=(node1 node2)
hosts_mark="# quire slurm/local-cluster.sh"

write_conf() {
  mkdir -p "$dir/state" /etc/slurm
  cat > "$conf" <<CONF
# Written by Quire's slurm/local-cluster.sh: a test cluster of two nodes on this machine.
ClusterName=quire
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=6817
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
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
NodeName=node1 NodeAddr=127.0.0.1 NodeHostname=localhost Port=6821 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=8000 State=UNKNOWN
NodeName=node2 NodeAddr=127.0.0.1 NodeHostname=localhost Port=6822 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=8000 State=UNKNOWN
PartitionName=debug Nodes=node[1-2] Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
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
  if ! munge -n >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
    wait_for "munge answering" 10 munge -n
    cp /run/munge/munged.pid "$dir/munged.pid" # started here: down stops it
  fi
}

# /etc/hosts is rewritten in place (not replaced), as containers often bind-mount it.
add_node_names() {
  if ! getent hosts "${nodes[0]}" >/dev/null; then
    echo "127.0.0.1 ${nodes[*]} $hosts_mark" >> /etc/hosts
  fi
}

remove_node_names() {
  if grep -qF "$hosts_mark" /etc/hosts 2>/dev/null; then
    local kept
    kept=$(grep -vF "$hosts_mark" /etc/hosts)
    printf '%s\n' "$kept" > /etc/hosts
  fi
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

nodes_idle() { [[ $(sinfo -h -N -t idle -o %N | sort -u | wc -l) -eq ${#nodes[@]} ]]; }
ctld_up() { scontrol ping | grep -q 'is UP'; }

up() {
  if [[ $(id -u) -ne 0 ]]; then echo "local-cluster: must run as root" >&2; exit 1; fi
  if [[ -n $(started_pids) ]] && nodes_idle 2>/dev/null; then echo "local-cluster: already up"; return 0; fi
  down quiet
  rm -rf "$dir"
  write_conf
  add_node_names
  start_munge
  /usr/sbin/slurmctld -i
  wait_for "slurmctld up" 20 ctld_up
  for node in "${nodes[@]}"; do
    /usr/sbin/slurmd -N "$node"
  done
  wait_for "nodes ${nodes[*]} idle" 30 nodes_idle
  echo "local-cluster: up (nodes ${nodes[*]} idle; logs in $dir)"
}

# "name pid" of each daemon this script started that still runs: its PID file names a live
# process of that program (a PID the system gave to another program since is not ours).
started_pids() {
  local pidfile pid name
  for pidfile in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munged.pid"; do
    [[ -s $pidfile ]] || continue
    pid=$(cat "$pidfile")
    name=$(basename "$pidfile" .pid)
    if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "${name%%-*}" ]]; then
      echo "$name $pid"
    fi
  done
}

down() {
  # Only the daemons this script started, by the PIDs they wrote; wait until they are gone so
  # that a following `up` can bind their ports.
  local pids=()
  while read -r _ pid; do pids+=("$pid"); done < <(started_pids)
  if (( ${#pids[@]} > 0 )); then
    kill "${pids[@]}" 2>/dev/null || true
    wait_for "daemons ($(IFS=' '; echo "${pids[*]}")) to exit" 20 \
      bash -c 'for p; do kill -0 "$p" 2>/dev/null && exit 1; done; exit 0' _ "${pids[@]}" || true
  fi
  remove_node_names
  [[ ${1:-} == quiet ]] || echo "local-cluster: down"
}

status() {
  local running
  running=$(started_pids)
  if [[ -z $running ]]; then
    echo "local-cluster: not running (no daemon started by slurm/local-cluster.sh is alive; state in $dir)"
    exit 3
  fi
  echo "local-cluster: running daemons (name pid):"
  echo "$running" | sed 's/^/  /'
  echo "nodes (name state):"
  sinfo -h -N -o '%N %T' 2>&1 | sed 's/^/  /'
}

case ${1:-} in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
