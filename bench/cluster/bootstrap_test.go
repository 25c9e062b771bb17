package cluster_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kates-dev/kates/kates"
)

// bootstrapSnapshot is the consumer's snapshot of BenchmarkBootstrap's kinds.
type bootstrapSnapshot struct {
	ConfigMaps []*corev1.ConfigMap
	Pods       []*corev1.Pod
}

// compactSnapshot is bootstrapSnapshot held compact (BenchmarkView's kates-compact).
type compactSnapshot struct {
	ConfigMaps []kates.Compact[*corev1.ConfigMap]
	Pods       []kates.Compact[*corev1.Pod]
}

// BenchmarkBootstrap measures the time from starting to watch N realistic ConfigMaps and
// 3,000 realistic Pods (see fixture.RealisticConfigMap and RealisticPod) to a complete typed
// view. One op is one bootstrap from scratch; clients are built and kinds looked up
// beforehand, outside the timing. cpu-ms is the CPU time the benchmark process spent on it
// (user and system, every goroutine, GC included): the API server shares the cores, so wall
// time alone understates what a client costs.
//
//   - kates: Client.Watch and the first Update into a typed snapshot struct: the consumer
//     holds every object.
//   - kates-ahead: the same, told the snapshot type (WatchOptions.Snapshot).
//   - informer: two bare dynamic informers reaching HasSynced, the baseline.
//   - controller-runtime: its cache's two informers reaching HasSynced (typed, protobuf),
//     which is where a controller-runtime controller's complete typed view lives.
func BenchmarkBootstrap(b *testing.B) {
	kinds := []kind{configMaps, pods}
	fmt.Printf("bench-info: bootstrap-pods: %d\n", bootstrapPods)
	for _, n := range bootstrapSizes[:2] { // BenchmarkView covers 100,000
		ns := fx.Bootstrap[n]
		runPeers(b, fmt.Sprintf("N=%d/", n),
			peer{"kates", katesBootstrap(ns, n, kates.WatchOptions{}, kinds)},
			peer{"kates-ahead", katesBootstrap(ns, n, kates.WatchOptions{Snapshot: (*bootstrapSnapshot)(nil)}, kinds)},
			peer{"informer", func(b *testing.B) { benchBootstrap(b, informerSession(ns, nil, kinds...)) }},
			peer{"controller-runtime", func(b *testing.B) { benchBootstrap(b, controllerRuntimeSession(ns, nil, kinds...)) }},
		)
	}
}

// katesBootstrap is kates' peer: Watch with opts, and a first Update that must hold at least n
// objects.
func katesBootstrap(ns string, n int, opts kates.WatchOptions, kinds []kind) func(b *testing.B) {
	return func(b *testing.B) {
		var snap bootstrapSnapshot
		benchBootstrap(b, katesSession(ns, opts, &snap, kinds...))
		if got := len(snap.ConfigMaps) + len(snap.Pods); got < n+podsFor(n) {
			b.Fatalf("snapshot holds %d objects, want at least %d", got, n+podsFor(n))
		}
	}
}

// benchBootstrap runs s's bootstrap b.N times; for kates it also reports the part of it spent
// in the first Update as snapshot-ms.
func benchBootstrap(b *testing.B, s *session) {
	b.ReportAllocs()
	b.StopTimer()
	var snapshotTime, cpu time.Duration
	for range b.N {
		s.prepare(b)
		runtime.GC()
		cpuBefore := cpuTime()
		b.StartTimer()
		stop := s.run(b)
		b.StopTimer()
		cpu += cpuTime() - cpuBefore
		snapshotTime += s.snapshotTime
		stop()
	}
	b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms")
	if snapshotTime > 0 {
		b.ReportMetric(snapshotTime.Seconds()*1000/float64(b.N), "snapshot-ms")
	}
}

// cpuTime returns the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
