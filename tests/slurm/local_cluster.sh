#!/usr/bin/env bash
# A one-node SLURM cluster on loopback, for testing the slurm profile (run as root).
#
#   tests/slurm/local_cluster.sh install   # Debian packages: slurmctld slurmd slurm-client munge
#   tests/slurm/local_cluster.sh up        # write /etc/slurm/slurm.conf, start munged, slurmctld, slurmd
#   tests/slurm/local_cluster.sh down      # stop the daemons this script started (by pid)
#
# No systemd, no cgroups, no accounting database: proctrack/linuxproc, task/none, and
# MinJobAge long enough for `squeue` to see finished jobs (the profile's status command).
# slurm.conf must be at /etc/slurm/slurm.conf: the executor plugin's in-job step drops SLURM_CONF.
set -euo pipefail
STATE=${RNNSCHUR_SLURM_STATE:-/tmp/rnnschur-slurm}
CONF=/etc/slurm/slurm.conf

install() {
  command -v slurmctld >/dev/null && command -v munged >/dev/null && return 0
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge
}

up() {
  mkdir -p "$STATE"/ctld "$STATE"/d /etc/slurm /run/munge /var/log/munge /var/lib/munge
  if [ -f "$CONF" ] && [ ! -f "$STATE/slurm.conf.orig" ] && ! grep -q rnnschur "$CONF"; then
    cp "$CONF" "$STATE/slurm.conf.orig"
  fi
  # RealMemory must not exceed what slurmd detects.
  local memory cpus
  memory=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
  cpus=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' | head -n1)
  cat > "$CONF" <<CONFEND
# rnnschur test cluster: one node on loopback
ClusterName=rnnschur
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=300
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$((memory - 1024)) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONFEND
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chmod 400 /etc/munge/munge.key
  fi
  chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
  if ! munge -n >/dev/null 2>&1; then
    runuser -u munge -- munged --pid-file=/run/munge/munged.pid 2>/dev/null || munged --force
    cp /run/munge/munged.pid "$STATE/munged.pid" 2>/dev/null || true
  fi
  slurmctld -f "$CONF"
  slurmd -f "$CONF"
  for _ in $(seq 1 30); do
    if sinfo -h -o "%T" 2>/dev/null | grep -qE "^idle"; then
      echo "slurm up: $(sinfo -h -o '%P %D %T %c CPUs')"
      return 0
    fi
    sleep 1
  done
  echo "slurm did not come up; see $STATE/*.log" >&2
  sinfo >&2 || true
  return 1
}

down() {
  # Stopping our own controller ends whatever ran on it; nobody else's jobs are cancelled.
  for daemon in slurmd slurmctld munged; do
    local pidfile="$STATE/$daemon.pid"
    if [ -f "$pidfile" ]; then
      kill "$(cat "$pidfile")" 2>/dev/null || true
      rm -f "$pidfile"
    fi
  done
  # Restore the original slurm.conf, or remove ours: with a slurm.conf and no controller,
  # `scontrol show config` waits ~9 s, and the SLURM executor plugin runs it whenever snakemake
  # starts (even a dry run without the plugin selected).
  if [ -f "$STATE/slurm.conf.orig" ]; then
    mv "$STATE/slurm.conf.orig" "$CONF"
  elif [ -f "$CONF" ] && grep -q rnnschur "$CONF"; then
    rm -f "$CONF"
  fi
}

case "${1:-}" in
  install) install ;;
  up) up ;;
  down) down ;;
  *) echo "usage: $0 install|up|down" >&2; exit 2 ;;
esac
