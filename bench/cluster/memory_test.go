package cluster_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
)

// BenchmarkMemory measures the heap a peer retains per stored object, once its view of
// 10,000 realistic ConfigMaps or 3,000 realistic Pods (fixture.RealisticConfigMap and
// RealisticPod, server-side applied, so with managedFields) is complete:
// HeapAlloc after two GCs, before starting and once complete, over the number of objects.
// "B/object" is the figure; B/op is what the bootstrap allocated in all.
//
//   - informer: a bare dynamic informer with its defaults (it keeps managedFields), the
//     baseline.
//   - kates: Client.Watch with its defaults (managedFields stripped), the Accumulator alone.
//   - kates-keep-managed-fields: WatchOptions{KeepManagedFields: true}.
//   - kates-with-snapshot: kates, plus the consumer's first Update into a typed snapshot,
//     which the Accumulator shares with its own record of the consumer's view.
//   - kates-metadata-only: kates with Query.MetadataOnly (PartialObjectMetadata).
//   - controller-runtime: its cache, with its defaults (typed objects, managedFields kept).
func BenchmarkMemory(b *testing.B) {
	fmt.Printf("bench-info: metadata-only: kates.Query.MetadataOnly\n")
	for _, k := range []kind{configMaps, pods} {
		ns := fx.Memory
		n := count(b, k, ns)
		b.Run(k.name+"/informer", func(b *testing.B) {
			benchMemory(b, n, informerSession(ns, nil, k))
		})
		b.Run(k.name+"/kates", func(b *testing.B) {
			benchMemory(b, n, katesSession(ns, kates.WatchOptions{}, nil, k))
		})
		b.Run(k.name+"/kates-keep-managed-fields", func(b *testing.B) {
			benchMemory(b, n, katesSession(ns, kates.WatchOptions{KeepManagedFields: true}, nil, k))
		})
		b.Run(k.name+"/kates-with-snapshot", func(b *testing.B) {
			var snap any
			switch k {
			case configMaps:
				snap = &struct{ ConfigMaps []*corev1.ConfigMap }{}
			case pods:
				snap = &struct{ Pods []*corev1.Pod }{}
			}
			benchMemory(b, n, katesSession(ns, kates.WatchOptions{}, snap, k))
		})
		b.Run(k.name+"/kates-metadata-only", func(b *testing.B) {
			benchMemory(b, n, katesQuerySession(ns, kates.WatchOptions{}, true, nil, k))
		})
		b.Run(k.name+"/controller-runtime", func(b *testing.B) {
			benchMemory(b, n, controllerRuntimeSession(ns, nil, k))
		})
	}
}

func benchMemory(b *testing.B, n int, s *session) {
	var perObject float64
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s.prepare(b)
		before := heapAlloc()
		b.StartTimer()
		stop := s.run(b)
		b.StopTimer()
		after := heapAlloc()
		runtime.KeepAlive(s.view())
		perObject = (float64(after) - float64(before)) / float64(n)
		stop()
		b.StartTimer()
	}
	b.ReportMetric(perObject, "B/object")
}

// heapAlloc returns the live heap after two full collections (the second frees what the
// first's finalizers released).
func heapAlloc() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// count returns how many objects of kind k ns holds.
func count(b *testing.B, k kind, ns string) int {
	var n int
	switch k {
	case configMaps:
		l, err := writer.CoreV1().ConfigMaps(ns).List(context.Background(), metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			b.Fatal(err)
		}
		n = len(l.Items)
	case pods:
		l, err := writer.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			b.Fatal(err)
		}
		n = len(l.Items)
	}
	return n
}
