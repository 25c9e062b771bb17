#!/usr/bin/env bash
# Starts the local cluster (package testenv) in the background. The admin kubeconfig appears at
# .kates/kubeconfig once every Node is Ready; the cluster's own output goes to .kates/cluster.log.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .kates/bin
pidfile=.kates/cluster.pid
if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && [ -f .kates/kubeconfig ]; then
  echo "cluster already up (pid $(cat "$pidfile")); kubeconfig .kates/kubeconfig"
  exit 0
fi
go build -o .kates/bin/kates-testenv ./cmd/kates-testenv
# Build (or find cached) binaries in the foreground, so the build's progress shows.
.kates/bin/kates-testenv build
rm -f .kates/kubeconfig
# setsid: the cluster outlives this shell and ignores the terminal's ^C.
# KATES_TESTENV_DISABLE_CONTROLLERS: controller-manager controllers not to run (a benchmark's
# cluster holding 50,000 Deployments: "deployment-controller,replicaset-controller").
setsid .kates/bin/kates-testenv run --kubeconfig .kates/kubeconfig \
  --disable-controllers="${KATES_TESTENV_DISABLE_CONTROLLERS:-}" >.kates/cluster.log 2>&1 </dev/null &
pid=$!
echo "$pid" >"$pidfile"
for _ in $(seq 1 600); do
  if [ -f .kates/kubeconfig ]; then
    grep 'cluster ready' .kates/cluster.log || true
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "cluster failed to start; .kates/cluster.log:" >&2
    cat .kates/cluster.log >&2
    rm -f "$pidfile"
    exit 1
  fi
  sleep 0.5
done
echo "cluster not ready after 5 minutes; .kates/cluster.log:" >&2
tail -50 .kates/cluster.log >&2
exit 1
