package cluster_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kates-dev/kates/kates"
)

// bootstrapSnapshot is the consumer's snapshot of BenchmarkBootstrap's kinds.
type bootstrapSnapshot struct {
	ConfigMaps []*corev1.ConfigMap
	Secrets    []*corev1.Secret
	Services   []*corev1.Service
}

// BenchmarkBootstrap measures the time from starting to watch N objects spread over three
// kinds (ConfigMaps, Secrets, Services) to a complete view. One op is one bootstrap from
// scratch; clients are built and kinds looked up beforehand, outside the timing.
//
//   - kates: Client.Watch and the first Update into a typed snapshot struct: the consumer
//     holds every object.
//   - kates-ahead: the same, told the snapshot type (WatchOptions.Snapshot), so objects are
//     converted as the list streams in rather than in the first Update.
//   - informer: three bare dynamic informers reaching HasSynced, the baseline.
//   - controller-runtime: its cache's three informers reaching HasSynced.
func BenchmarkBootstrap(b *testing.B) {
	kinds := []kind{configMaps, secrets, services}
	for _, n := range bootstrapSizes {
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
		if got := len(snap.ConfigMaps) + len(snap.Secrets) + len(snap.Services); got < n {
			b.Fatalf("snapshot holds %d objects, want at least %d", got, n)
		}
	}
}

// benchBootstrap runs s's bootstrap b.N times; for kates it also reports the part of it spent
// in the first Update as snapshot-ms.
func benchBootstrap(b *testing.B, s *session) {
	b.ReportAllocs()
	b.StopTimer()
	var snapshotTime time.Duration
	for range b.N {
		s.prepare(b)
		b.StartTimer()
		stop := s.run(b)
		b.StopTimer()
		snapshotTime += s.snapshotTime
		stop()
	}
	if snapshotTime > 0 {
		b.ReportMetric(snapshotTime.Seconds()*1000/float64(b.N), "snapshot-ms")
	}
}
