#!/usr/bin/env bash
# Runs the whole test suite against one local cluster shared by every package (through
# KATES_TEST_KUBECONFIG). Uses a cluster that is already up, or starts one and stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
started=0
if [ -z "${KATES_TEST_KUBECONFIG:-}" ]; then
  if ! { [ -f .kates/cluster.pid ] && kill -0 "$(cat .kates/cluster.pid)" 2>/dev/null && [ -f .kates/kubeconfig ]; }; then
    hack/cluster-up.sh
    started=1
  fi
  export KATES_TEST_KUBECONFIG="$PWD/.kates/kubeconfig"
fi
cleanup() { if [ "$started" = 1 ]; then hack/cluster-down.sh; fi; }
trap cleanup EXIT
go test -race -count=1 -timeout 30m "$@" ./...
