#!/usr/bin/env bash
# A private single-node Slurm cluster (Debian's slurmctld, slurmd, slurm-client and munge
# packages) that lives in one temporary directory and touches nothing system-wide: slurm.conf is
# generated and reached through SLURM_CONF; munged's key, socket and seed, slurmctld's state,
# slurmd's spool, the PID files and the logs are all inside the directory; the ports are free
# ones picked at start, so two clusters can run side by side.
#
# Run a command on a fresh cluster (SLURM_CONF is exported to it; the cluster is stopped after):
#   tests/slurm/private_cluster.sh COMMAND [ARG...]
#   tests/slurm/private_cluster.sh bash -c 'sbatch --wait --wrap hostname'
# Or source it from a test:
#   source tests/slurm/private_cluster.sh
#   trap cluster_stop EXIT                  # before starting: a half-started cluster is stopped too
#   cluster_start "$dir" || { echo "SKIP: $CLUSTER_WHY"; exit 77; }   # exports SLURM_CONF
# cluster_start returns 1 and says why in CLUSTER_WHY when this machine cannot run the cluster
# (packages missing, not root, a daemon that does not come up: the log lines that say why).
#
# Like most clusters, this one leaves a job whose afterok can never be met pending (reason
# DependencyNeverSatisfied) unless it was submitted with --kill-on-invalid-dep=yes; stopping the
# cluster cancels it.
#
# Stopping is by PID only: cancel what is still queued, `scontrol shutdown` (slurmctld and
# slurmd), SIGTERM then SIGKILL to the PIDs in the cluster's PID files, munged by its PID file,
# and any job process still working in the cluster's directory. A watchdog, started in its own
# session, does the same if the shell that started the cluster dies without stopping it (killed
# by a test timeout, say), so no daemon outlives its test.

CLUSTER_DIR="" CLUSTER_WHY="" CLUSTER_OWNER_PID="" CLUSTER_WATCHDOG_PID=""

# cluster_start DIR [CPUS]: starts munged, slurmctld and slurmd under DIR (created, must be empty
# or absent) and waits until the node is idle. CPUS (default: nproc) is what the node offers;
# more than the machine has is allowed (config_overrides), for many short tasks at once.
cluster_start() {
  local dir=$1 cpus=${2:-$(nproc)}
  CLUSTER_WHY=""
  local tool
  for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol scancel python3; do
    command -v "$tool" > /dev/null 2>&1 || {
      CLUSTER_WHY="$tool not found (scripts/bootstrap installs slurmctld, slurmd, slurm-client,"
      CLUSTER_WHY+=" munge)"
      return 1
    }
  done
  # slurmd starts each job as its user through setuid; as another user it can only pretend.
  if [ "$(id -u)" -ne 0 ]; then
    CLUSTER_WHY="slurmd needs root (it runs jobs as their user); running as $(id -un)"
    return 1
  fi
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || {
    CLUSTER_WHY="cannot create $dir"
    return 1
  }
  CLUSTER_DIR=$dir CLUSTER_OWNER_PID=$$
  # munged refuses a socket below a directory that others cannot search: the cluster directory
  # and the socket directory are 0755; the key, the seed and munged's log stay in a 0700 one.
  chmod 755 "$dir" && mkdir -p "$dir"/{munge,sock,state,spool,log,run} && chmod 700 "$dir/munge" &&
    chmod 755 "$dir/sock" || {
    CLUSTER_WHY="cannot lay out $dir"
    return 1
  }

  local up=$dir
  while [ "$up" != / ]; do
    up=$(dirname "$up")
    [ -n "$(find "$up" -maxdepth 0 -perm -o=x)" ] || {
      CLUSTER_WHY="munged wants every directory above its socket searchable by all, and $up is not"
      return 1
    }
  done

  local ports
  ports=$(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))') || {
    CLUSTER_WHY="cannot find two free TCP ports on 127.0.0.1"
    return 1
  }
  local ctld_port=${ports% *} slurmd_port=${ports#* }

  mungekey --create --keyfile="$dir/munge/munge.key" > /dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$dir/munge/munge.key"
  _cluster_watchdog
  if ! munged --socket="$dir/sock/munge.sock" --key-file="$dir/munge/munge.key" \
    --log-file="$dir/munge/munged.log" --pid-file="$dir/munge/munged.pid" \
    --seed-file="$dir/munge/munged.seed" > "$dir/log/munged.out" 2>&1; then
    CLUSTER_WHY="munged did not start: $(tail -n 3 "$dir/log/munged.out" | tr '\n' ' ')"
    return 1
  fi

  # Why the less obvious lines are there:
  #   AuthInfo=socket=...          slurm's auth and credential plugins talk to our munged.
  #   NodeAddr=127.0.0.1, -N       the node's name and address do not depend on the hostname.
  #   config_overrides             the node may offer more CPUs than the machine has.
  #   batch_sched_delay=0          array tasks start in waves ~1 s apart, not 3 s.
  #   linuxproc, none plugins      no cgroups, no accounting daemon.
  #   MailProg=/bin/true           no mail binary is installed.
  local mem_mb
  mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
  export SLURM_CONF=$dir/slurm.conf
  cat > "$SLURM_CONF" << CONF
ClusterName=private
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/sock/munge.sock
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF

  # Both daemonize (they detach from stdio, so they hold no pipe of the caller open).
  if ! slurmctld > "$dir/log/slurmctld.out" 2>&1; then
    CLUSTER_WHY="slurmctld did not start: $(_cluster_log_tail)"
    return 1
  fi
  if ! slurmd -N localhost > "$dir/log/slurmd.out" 2>&1; then
    CLUSTER_WHY="slurmd did not start: $(_cluster_log_tail)"
    return 1
  fi
  local i state=""
  for i in $(seq 150); do
    state=$(sinfo -h -n localhost -o %T 2> /dev/null)
    [ "$state" = idle ] && return 0
    sleep 0.2
  done
  CLUSTER_WHY="the node did not become idle in 30 s (state: ${state:-none}): $(_cluster_log_tail)"
  return 1
}

_cluster_log_tail() {
  local f
  for f in "$CLUSTER_DIR"/log/*; do
    [ -s "$f" ] || continue
    printf '[%s] ' "${f##*/}"
    grep -iE 'error|fatal' "$f" | tail -n 3 | tr '\n' ' '
  done
}

# Processes still at work in the cluster's directory (a job's slurmstepd and its children: their
# working directory, or an open file, is inside it), other than this shell and its parents.
_cluster_stray_pids() {
  local keep=" " q=$$
  while [ "$q" -gt 1 ] 2> /dev/null; do
    keep+="$q "
    q=$(awk '{ print $4 }' "/proc/$q/stat" 2> /dev/null) || break
  done
  find /proc/[0-9]*/cwd /proc/[0-9]*/fd/ -maxdepth 1 -lname "$CLUSTER_DIR/*" 2> /dev/null |
    cut -d/ -f3 | sort -u | while read -r q; do
    case $keep in *" $q "*) ;; *) echo "$q" ;; esac
  done
}

# Stops the cluster (see the top of the file). Safe to call twice and from an EXIT trap.
cluster_stop() {
  [ -n "$CLUSTER_DIR" ] && [ -d "$CLUSTER_DIR" ] || return 0
  local slurm_pids munge_pid jobs p i
  slurm_pids=$(cat "$CLUSTER_DIR/run/slurmctld.pid" "$CLUSTER_DIR/run/slurmd.pid" 2> /dev/null)
  munge_pid=$(cat "$CLUSTER_DIR/munge/munged.pid" 2> /dev/null)
  if [ -s "$CLUSTER_DIR/run/slurmctld.pid" ]; then
    jobs=$(squeue -h -o %i 2> /dev/null)
    if [ -n "$jobs" ]; then
      scancel $jobs > /dev/null 2>&1
      for i in $(seq 25); do
        [ -z "$(squeue -h -o %i 2> /dev/null)" ] && break
        sleep 0.2
      done
    fi
    scontrol shutdown > /dev/null 2>&1
    # They remove their PID files before they are gone: wait on the PIDs read above.
    for i in $(seq 50); do
      kill -0 $slurm_pids 2> /dev/null || break
      sleep 0.2
    done
  fi
  for p in $slurm_pids $munge_pid; do kill -TERM "$p" 2> /dev/null; done
  for i in $(seq 25); do
    kill -0 $slurm_pids $munge_pid 2> /dev/null || break
    sleep 0.2
  done
  for p in $slurm_pids $munge_pid $(_cluster_stray_pids); do kill -KILL "$p" 2> /dev/null; done
  if [ -n "$CLUSTER_WATCHDOG_PID" ]; then
    kill -TERM "$CLUSTER_WATCHDOG_PID" 2> /dev/null
    CLUSTER_WATCHDOG_PID=""
  fi
  rm -f "$CLUSTER_DIR/run/"*.pid "$CLUSTER_DIR/munge/munged.pid"
  return 0
}

# A sleeper in its own session that outlives a killed owner and then stops the cluster.
_cluster_watchdog() {
  local self
  self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
  setsid bash -c '
    source "$1"
    CLUSTER_DIR=$2
    while kill -0 "$3" 2> /dev/null && [ -d "$CLUSTER_DIR" ]; do sleep 1; done
    export SLURM_CONF=$CLUSTER_DIR/slurm.conf
    cluster_stop' cluster-watchdog "$self" "$CLUSTER_DIR" "$CLUSTER_OWNER_PID" \
    < /dev/null > /dev/null 2>&1 &
  CLUSTER_WATCHDOG_PID=$!
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  [ $# -ge 1 ] || {
    sed -n '/^# Run a command/,/^# Or source/p' "$0" | sed '$d'
    exit 2
  }
  dir=$(mktemp -d "${TMPDIR:-/tmp}/profana-slurm.XXXXXX") && chmod 755 "$dir"
  trap 'cluster_stop; rm -rf "$dir"' EXIT
  trap 'exit 143' TERM
  trap 'exit 130' INT
  cluster_start "$dir/cluster" || {
    echo "private_cluster.sh: cannot start a cluster: $CLUSTER_WHY" >&2
    exit 77
  }
  "$@"
fi
