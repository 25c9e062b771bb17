#!/usr/bin/env bash
# Shows kates at work on testdata/demo: builds the kates CLI, applies the demo manifests (a
# Deployment of 3 behind a Service, a StatefulSet and a Job, in namespace kates-demo) with
# server-side apply and waits until they are reconciled, with live progress, then prints their
# computed status. Run from the repository root with the local cluster up (`make demo` starts it);
# running it again re-applies the same manifests, which changes nothing and waits for nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
kubeconfig=.kates/kubeconfig
if [ ! -f "$kubeconfig" ]; then
  echo "no local cluster: run 'make cluster-up' (or 'make demo') first" >&2
  exit 1
fi
mkdir -p .kates/bin
go build -o .kates/bin/kates ./cmd/kates
kates() { .kates/bin/kates --kubeconfig "$kubeconfig" "$@"; }

echo "\$ kates apply --wait -f testdata/demo/"
kates apply --wait --timeout 2m -f testdata/demo/
echo
echo "\$ kates status -f testdata/demo/"
kates status -f testdata/demo/

echo
echo "\$ go run ./examples/crud   # the Go client: create, update, patch, apply, list, delete"
go run ./examples/crud --kubeconfig "$kubeconfig" --namespace "kates-crud-$RANDOM"
