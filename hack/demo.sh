#!/usr/bin/env bash
# Shows kates at work on testdata/demo: builds the kates CLI, applies the demo manifests (a
# Deployment of 3 behind a Service, a StatefulSet and a Job, in namespace kates-demo) with
# server-side apply and waits until they are reconciled, with live progress, then prints their
# computed status; then runs examples/controller for a few seconds, which reconciles a WebApp
# (examples/controller/testdata) into a Deployment and a Service and reports it Ready. Run from the repository root with the local cluster up (`make demo` starts it);
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

echo
echo "\$ go run ./examples/controller --namespace kates-demo &   # a WebApp controller on package controller: per-key reconciles, SSA, conditions, elected"
go build -o .kates/bin/webapp-controller ./examples/controller
go build -o .kates/bin/satoken ./hack/satoken
kates apply --wait --timeout 1m -f examples/controller/testdata/crd.yaml -o name
# A scraper's ServiceAccount, allowed to get /metrics, and a token of it (as Prometheus has).
kates apply --wait --timeout 1m -f examples/controller/testdata/demo-scraper.yaml -o name
token=$(.kates/bin/satoken --kubeconfig "$kubeconfig" --namespace kates-demo metrics-scraper)
# Its lines, without klog's header and client-go's own; it runs until the demo is done with it.
.kates/bin/webapp-controller --kubeconfig "$kubeconfig" --namespace kates-demo --lease kates-demo/webapp-controller \
  --metrics-addr 127.0.0.1:18089 --health-probe-addr 127.0.0.1:0 --for 5m \
  > >(grep --line-buffered 'controller="webapp"' |
    sed -u -E 's/^[IWE][0-9]{4} ([0-9:]{8})[.0-9]* +[0-9]+ [^]]+\] /  controller| \1 /; s/ controller="webapp"//') 2>&1 &
controller=$!
trap 'kill -TERM "$controller" 2>/dev/null || true' EXIT
sleep 1
echo "\$ kates apply --wait --status-rules examples/controller/testdata/status-rules.yaml -n kates-demo -f examples/controller/testdata/webapp.yaml"
kates apply --wait --timeout 1m --status-rules examples/controller/testdata/status-rules.yaml -n kates-demo -f examples/controller/testdata/webapp.yaml
kates status --status-rules examples/controller/testdata/status-rules.yaml -n kates-demo -f examples/controller/testdata/webapp.yaml
if command -v curl >/dev/null; then
  # The metrics are served over HTTPS (a self-signed certificate here, hence -k) to callers
  # whose bearer token the API server vouches for and who may get /metrics.
  echo "\$ curl -sk https://127.0.0.1:18089/metrics -o /dev/null -w '%{http_code}'   # no token: refused"
  curl -sk https://127.0.0.1:18089/metrics -o /dev/null -w '%{http_code}\n' || true
  echo "\$ curl -sk -H \"Authorization: Bearer \$(satoken -n kates-demo metrics-scraper)\" https://127.0.0.1:18089/metrics | grep -E '^(kates_controller_reconcile_total|kates_controller_leader|kates_accumulator_objects|kates_client_writes_total)'"
  curl -sk -H "Authorization: Bearer $token" https://127.0.0.1:18089/metrics | grep -E '^(kates_controller_reconcile_total|kates_controller_leader|kates_accumulator_objects|kates_client_writes_total)' || true
fi
echo "\$ kill -TERM %1   # the controller drains, releases its Lease and exits"
kill -TERM "$controller"
wait "$controller" || true
sleep 0.2 # its last lines
