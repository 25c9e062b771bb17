#!/usr/bin/env bash
# Runs the benchmark suite (module bench/) and writes bench/README.md, its plots and the raw
# results under bench/results/. Peers are compared in the same run: the core (scripted) and
# cluster (API server) benchmarks run BENCH_ROUNDS times, alternating the order of peers, and
# the report pairs measurements of the same round. Uses the cluster KATES_TEST_KUBECONFIG
# names, or the one hack/cluster-up.sh runs, or starts one and stops it after.
#
# Environment: BENCH_ROUNDS (default 5), BENCH_CORE_TIME (go test -benchtime of the core
# benchmarks, default 0.5s), BENCH_BOOTSTRAP_OPS (bootstraps per peer and round, default 3),
# BENCH_WAIT_RUNS (runs of kates' BenchmarkWaitLatency, default 25),
# BENCH_FIXTURES (a file recording fixtures to reuse, or to create and keep: the realistic
# fixtures take minutes to create; default: created for this run and deleted after it),
# BENCH_VIEW_ROUNDS (rounds of BenchmarkView, default BENCH_ROUNDS), BENCH_VIEW_SIZES (its
# ConfigMap counts, default "0 10000 50000 100000"; 0 is the 3,000 Pods alone, whose results go
# to results/view-pods.txt), BENCH_PARTS ("all", the default; "view":
# only BenchmarkView and its profile; "core": only the scripted core benchmarks (kstatus, Update,
# throughput), a few minutes and no cluster work; each keeping the other results of the last run).
# BENCH_SHARDS=1 (also run bench/shards: sharded views at 100,000 objects, about half an hour
# with its fixtures, which it keeps in the namespace kates-shardbench; give it a cluster of its
# own through KATES_TEST_KUBECONFIG. Without it, the previous results/shards.txt and shards-floor.txt are kept).
# BENCH_CONTROLLERS=1 (also run bench/controllers: the WebApp controller on kates' controller
# package against controller-runtime, at BENCH_CONTROLLERS_SIZES WebApps (default "10000 50000"),
# BENCH_CONTROLLERS_ROUNDS rounds (default 3), churn at BENCH_CONTROLLERS_RATE changes/s (default
# 100); its fixtures are kept in the namespaces kates-ctrlbench-<N>; the first run at a size
# creates 3 objects per WebApp, tens of minutes at 50,000. Without it, the previous
# results/controllers.txt is kept).
set -euo pipefail
cd "$(dirname "$0")/.."
begin=$(date +%s)
rounds=${BENCH_ROUNDS:-5}
coretime=${BENCH_CORE_TIME:-0.5s}
waitruns=${BENCH_WAIT_RUNS:-25}
export GOWORK=off

started=0
if [ -z "${KATES_TEST_KUBECONFIG:-}" ]; then
  if ! { [ -f .kates/cluster.pid ] && kill -0 "$(cat .kates/cluster.pid)" 2>/dev/null && [ -f .kates/kubeconfig ]; }; then
    hack/cluster-up.sh
    started=1
  fi
  export KATES_TEST_KUBECONFIG="$PWD/.kates/kubeconfig"
fi

res=bench/results
tmp=$(mktemp -d)
fixtures="${BENCH_FIXTURES:-$tmp/fixtures.json}"
cleanup() {
  if [ -z "${BENCH_FIXTURES:-}" ] && [ -f "$fixtures" ]; then
    (cd bench/cluster && "$tmp/cluster.test" -test.run '^$' -fixtures="$fixtures" -teardown) || true
  fi
  rm -rf "$tmp"
  if [ "$started" = 1 ]; then hack/cluster-down.sh; fi
}
trap cleanup EXIT

parts=${BENCH_PARTS:-all}
for f in shards shards-floor controllers; do
  if [ -f "$res/$f.txt" ]; then cp "$res/$f.txt" "$tmp/$f.txt.previous"; fi
done
case "$parts" in
all) rm -rf "$res" ;;
view) rm -f "$res/view.txt" "$res/view-pods.txt" "$res/profiles/view-"* ;;
core) rm -f "$res/core.txt" ;;
*) echo "BENCH_PARTS must be all, view or core, not $parts" >&2; exit 2 ;;
esac
mkdir -p "$res/profiles"
for f in shards shards-floor controllers; do
  if [ -f "$tmp/$f.txt.previous" ]; then cp "$tmp/$f.txt.previous" "$res/$f.txt"; fi
done
echo "== building"
go -C bench test -c -o "$tmp/core.test" ./core
go -C bench test -c -o "$tmp/cluster.test" ./cluster

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "memory: $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
  echo "kernel: $(uname -sr)"
  echo "go: $(go version)"
  echo "kates: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- accumulator kates kstatus || echo ' (with uncommitted changes)')"
  echo "rounds: $rounds (core benchtime $coretime); complete view: ${BENCH_VIEW_ROUNDS:-$rounds} rounds"
  echo "cluster: $(grep -h -E 'k8s.io/kubernetes v|go.etcd.io/etcd/server/v3 v|sigs.k8s.io/kwok v' testenv/tools/*/go.mod | awk '{print $1 " " $2}' | paste -sd, - | sed 's/,/, /g') (testenv's pins)"
  echo "modules:"
  go -C bench list -m all | grep -E '^(k8s.io/(api|apimachinery|client-go) |sigs.k8s.io/controller-runtime |gonum.org/v1/plot )' | sed 's/^/ /'
  echo "notes: controller-runtime $(go -C bench list -m -f '{{.Version}}' sigs.k8s.io/controller-runtime) is the release built on k8s.io/* v0.37 (no version skew). cli-utils' kstatus is not measured: the Go module proxy refuses sigs.k8s.io/cli-utils (403)."
} >"$res/machine.txt.new"
if [ "$parts" = all ]; then
  mv "$res/machine.txt.new" "$res/machine.txt"
else # keep the facts of the run whose other results are kept; note this part's own
  grep -v "^$parts-" "$res/machine.txt" >"$res/machine.txt.old" 2>/dev/null || true
  mv "$res/machine.txt.old" "$res/machine.txt"
  echo "$parts-date: $(grep '^date:' "$res/machine.txt.new" | cut -d' ' -f2-)" >>"$res/machine.txt"
  echo "$parts-kates: $(grep '^kates:' "$res/machine.txt.new" | cut -d' ' -f2-)" >>"$res/machine.txt"
  rm "$res/machine.txt.new"
fi

focus='kates-dev/kates/(accumulator|kates|kstatus)\.'
prof() { # name, test binary, package dir, bench regexp, benchtime, extra flags...
  local name=$1 bin=$2 dir=$3 re=$4 bt=$5; shift 5
  (cd "bench/$dir" && "$bin" -test.run '^$' -test.bench "$re" -test.benchtime="$bt" \
    -test.cpuprofile="$tmp/$name.cpu" -test.memprofile="$tmp/$name.mem" "$@" >/dev/null)
  {
    echo "# go tool pprof -top -cum (CPU, $re)"
    go tool pprof -top -cum -nodecount=30 -ignore='internal/fixture' "$bin" "$tmp/$name.cpu" 2>/dev/null | tail -n +4
    echo
    echo "# the same, only samples in kates' own code (go tool pprof -top -cum -focus='$focus')"
    go tool pprof -top -cum -nodecount=25 -focus="$focus" "$bin" "$tmp/$name.cpu" 2>/dev/null | tail -n +4
    echo
    echo "# go tool pprof -top -sample_index=alloc_space (allocated bytes, $re)"
    go tool pprof -top -sample_index=alloc_space -nodecount=15 -ignore='internal/fixture' "$bin" "$tmp/$name.mem" 2>/dev/null | tail -n +4
  } >"$res/profiles/$name.txt"
}

# The complete view (BenchmarkView): each peer and size in a process of its own, the peers'
# order rotating from round to round, so that each peer runs first, second, ... in turn.
viewrounds=${BENCH_VIEW_ROUNDS:-$rounds}
viewpeers=(kates kates-shared kates-compact kates-compressed controller-runtime controller-runtime-strip floor floor-watchlist)
[ "$parts" = core ] && viewrounds=0
if [ "$viewrounds" -gt 0 ]; then
  echo "bench-info: view-pods-date: $(date -u '+%Y-%m-%d %H:%M UTC')" >>"$res/view-pods.txt"
  echo "bench-info: view-pods-kates: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- accumulator kates kstatus internal || echo ' (with uncommitted changes)')" >>"$res/view-pods.txt"
fi
for r in $(seq 1 "$viewrounds"); do
  echo "bench-round: $r" >>"$res/view.txt"
  echo "bench-round: $r" >>"$res/view-pods.txt"
  for n in ${BENCH_VIEW_SIZES:-0 10000 50000 100000}; do
    echo "== complete view, round $r of $viewrounds, N=$n"
    out="$res/view.txt"
    [ "$n" = 0 ] && out="$res/view-pods.txt" # the Pods alone: section 5b's "Pods only"
    for i in "${!viewpeers[@]}"; do
      p=${viewpeers[$(( (i + r - 1) % ${#viewpeers[@]} ))]}
      (cd bench/cluster && "$tmp/cluster.test" -test.run '^$' -test.bench "^BenchmarkView\$/^N=$n\$/^$p\$" -test.benchmem \
        -test.benchtime=1x -fixtures="$fixtures" -view-sizes="$n") | tee -a "$out" | grep -E '^(Benchmark|FAIL|panic)' || true
    done
  done
done

for r in $(seq 1 "$rounds"); do
  [ "$parts" = view ] && break
  rev=false; [ $((r % 2)) = 0 ] && rev=true
  echo "== round $r of $rounds: core"
  echo "bench-round: $r" >>"$res/core.txt"
  (cd bench/core && "$tmp/core.test" -test.run '^$' -test.bench . -test.benchmem -test.benchtime="$coretime" -reverse=$rev) \
    | tee -a "$res/core.txt" | grep -E '^(Benchmark|FAIL|panic)' || true
  [ "$parts" = core ] && continue
  echo "== round $r of $rounds: cluster"
  echo "bench-round: $r" >>"$res/cluster.txt"
  # A bootstrap at N=10000 takes about half a second and single ones swing by 2x on this shared
  # machine: each round's figure is the mean of BENCH_BOOTSTRAP_OPS of them.
  (cd bench/cluster && "$tmp/cluster.test" -test.run '^$' -test.bench 'Bootstrap' -test.benchmem \
    -test.benchtime="${BENCH_BOOTSTRAP_OPS:-3}x" -fixtures="$fixtures" -reverse=$rev) | tee -a "$res/cluster.txt" | grep -E '^(Benchmark|FAIL|panic|bench)' || true
  (cd bench/cluster && "$tmp/cluster.test" -test.run '^$' -test.bench 'WatchThroughput' -test.benchmem \
    -test.benchtime=1x -fixtures="$fixtures" -reverse=$rev) | tee -a "$res/cluster.txt" | grep -E '^(Benchmark|FAIL|panic|bench)' || true
done

if [ "$parts" = all ]; then
echo "== memory"
(cd bench/cluster && "$tmp/cluster.test" -test.run '^$' -test.bench 'Memory' -test.benchmem -test.benchtime=1x \
  -fixtures="$fixtures") | tee "$res/memory.txt" | grep -E '^(Benchmark|FAIL|panic|bench)' || true

echo "== profiles"
prof update-50k "$tmp/core.test" core 'UpdateOneChange/N=50000/kates$' 2s
prof throughput-predecoded "$tmp/core.test" core 'Throughput/predecoded/kates$' 2s
prof bootstrap-10k "$tmp/cluster.test" cluster 'Bootstrap/N=10000/kates$' 3x -fixtures="$fixtures"
fi
[ "$parts" = core ] || prof view-50k-kates "$tmp/cluster.test" cluster '^BenchmarkView$/^N=50000$/^kates$' 3x -fixtures="$fixtures" -view-sizes=50000
if [ "$parts" = all ]; then

echo "== wait latency (kates' BenchmarkWaitLatency)"
if grep -qs 'func BenchmarkWaitLatency' kates/*_test.go; then
  if go test -run '^$' -bench '^BenchmarkWaitLatency$' -benchtime="${waitruns}x" ./kates >"$res/wait.txt" 2>&1; then
    echo "wait: go test -run '^\$' -bench '^BenchmarkWaitLatency\$' -benchtime=${waitruns}x ./kates" >>"$res/machine.txt"
  else
    echo "wait: kates' BenchmarkWaitLatency failed; see results/wait.txt" >>"$res/machine.txt"
  fi
  grep -E '^(Benchmark|FAIL)' "$res/wait.txt" || true
else
  echo "wait: kates has no BenchmarkWaitLatency yet" >>"$res/machine.txt"
fi

echo "== leader election (examples/controller's TestMeasureElection)"
if ! KATES_MEASURE_ELECTION=1 go test -count=1 -run '^TestMeasureElection$' ./examples/controller >"$tmp/election.log" 2>&1; then
  echo "election: TestMeasureElection failed:" >>"$res/machine.txt"
  tail -20 "$tmp/election.log" >&2
fi

echo "== burst after failover (examples/controller's TestMeasureBurstAfterFailover)"
if ! KATES_MEASURE_ELECTION=1 go test -count=1 -run '^TestMeasureBurstAfterFailover$' ./examples/controller >"$tmp/burst.log" 2>&1; then
  echo "burst: TestMeasureBurstAfterFailover failed:" >>"$res/machine.txt"
  tail -20 "$tmp/burst.log" >&2
fi

fi

if [ "${BENCH_SHARDS:-}" = 1 ]; then
  echo "== sharded views (bench/shards' TestShards)"
  go -C bench test -c -o "$tmp/shards.test" ./shards
  if ! (cd bench/shards && BENCH_SHARDS=1 BENCH_SHARDS_OUT="$PWD/../results/shards.txt" \
    BENCH_SHARDS_FLOOR_OUT="$PWD/../results/shards-floor.txt" \
    "$tmp/shards.test" -test.run '^(TestShards|TestServerListFloor)$' -test.v -test.timeout 90m) >"$tmp/shards.log" 2>&1; then
    echo "shards: TestShards failed" >>"$res/machine.txt"
    tail -20 "$tmp/shards.log" >&2
  fi
  grep -E '^(shards-|--- |FAIL)' "$tmp/shards.log" || true
fi

if [ "${BENCH_CONTROLLERS:-}" = 1 ]; then
  echo "== controllers (bench/controllers' TestControllers)"
  go -C bench test -c -o "$tmp/controllers.test" ./controllers
  cbegin=$(date +%s)
  {
    echo "controllers-date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "controllers-kates: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- controller kates accumulator || echo ' (with uncommitted changes)')"
  } >"$res/controllers.txt"
  if ! (cd bench/controllers && BENCH_CONTROLLERS=1 BENCH_CONTROLLERS_OUT="$PWD/../results/controllers.txt" \
    "$tmp/controllers.test" -test.run '^TestControllers$' -test.v -test.timeout 180m) >"$tmp/controllers.log" 2>&1; then
    echo "controllers: TestControllers failed" >>"$res/machine.txt"
    tail -20 "$tmp/controllers.log" >&2
  fi
  echo "controllers-duration: $(( ($(date +%s) - cbegin) / 60 )) min $(( ($(date +%s) - cbegin) % 60 )) s" >>"$res/controllers.txt"
  grep -E '^(    controllers_test.go.*controllers-|--- |FAIL)' "$tmp/controllers.log" || true
fi

end=$(date +%s)
if [ "$parts" = all ]; then echo "duration: $(( (end - begin) / 60 )) min $(( (end - begin) % 60 )) s (before writing the report and deleting the fixtures, which take about 40 s more)" >>"$res/machine.txt"; else echo "$parts-duration: $(( (end - begin) / 60 )) min $(( (end - begin) % 60 )) s" >>"$res/machine.txt"; fi
echo "== report"
(cd bench && go run ./cmd/benchreport -results results -out README.md -findings findings.md)
echo "bench/README.md written in $(( ($(date +%s) - begin) / 60 )) min $(( ($(date +%s) - begin) % 60 )) s"
