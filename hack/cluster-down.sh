#!/usr/bin/env bash
# Stops the cluster hack/cluster-up.sh started. Its components die with it (each child is tied to
# it with PR_SET_PDEATHSIG), so stopping the one process stops them all.
set -uo pipefail
cd "$(dirname "$0")/.."
pidfile=.kates/cluster.pid
[ -f "$pidfile" ] || { echo "no cluster running"; exit 0; }
pid=$(cat "$pidfile")
if kill -TERM "$pid" 2>/dev/null; then
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -KILL "$pid" 2>/dev/null && echo "cluster did not stop in 30s: killed"
fi
rm -f "$pidfile" .kates/kubeconfig
echo "cluster stopped"
