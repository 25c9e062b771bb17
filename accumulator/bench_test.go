package accumulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
)

// benchCM is a ConfigMap of a typical size: a few labels, an annotation, a few data keys.
func benchCM(i, rv int) *unstructured.Unstructured {
	ns := fmt.Sprintf("ns-%02d", i%20)
	name := fmt.Sprintf("cm-%06d", i)
	u := newCM(ns, name, fmt.Sprint(rv),
		"config.yaml", "listen: 0.0.0.0:8080\nlog: info\nupstream: http://backend:9000\n",
		"feature-flags", "a=true,b=false,c=true",
		"revision", fmt.Sprint(rv))
	u.SetLabels(map[string]string{"app": "bench", "tier": fmt.Sprint(i % 3)})
	u.SetAnnotations(map[string]string{"example.com/owner": "team-" + fmt.Sprint(i%7)})
	return u
}

var benchSizes = []int{1_000, 10_000, 50_000}

// BenchmarkUpdateOneChange measures one Update into []*corev1.ConfigMap after one of N
// ConfigMaps changed, beside the way kates used to fill a snapshot: JSON-marshal every object
// of the kind and unmarshal the lot into the slice. Both include delivering the change.
func BenchmarkUpdateOneChange(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("accumulator/N=%d", n), func(b *testing.B) {
			var snap cmSnapshot
			benchUpdate(b, n, accumulator.Options{}, &snap, func() int { return len(snap.ConfigMaps) })
		})
		b.Run(fmt.Sprintf("accumulator-reuse/N=%d", n), func(b *testing.B) {
			var snap cmSnapshot
			benchUpdate(b, n, accumulator.Options{ReuseSlices: true}, &snap, func() int { return len(snap.ConfigMaps) })
		})
		b.Run(fmt.Sprintf("accumulator-map/N=%d", n), func(b *testing.B) {
			var snap struct{ ConfigMaps map[string]*corev1.ConfigMap }
			benchUpdate(b, n, accumulator.Options{}, &snap, func() int { return len(snap.ConfigMaps) })
		})
		b.Run(fmt.Sprintf("json-baseline/N=%d", n), func(b *testing.B) {
			objs := make([]*unstructured.Unstructured, n)
			for i := range n {
				objs[i] = benchCM(i, 1+i)
			}
			var snap cmSnapshot
			b.ReportAllocs()
			rv := n
			for i := 0; b.Loop(); i++ {
				rv++
				j := i * 7919 % n
				objs[j] = benchCM(j, rv)
				data, err := json.Marshal(objs)
				if err != nil {
					b.Fatal(err)
				}
				snap.ConfigMaps = nil
				if err := json.Unmarshal(data, &snap.ConfigMaps); err != nil {
					b.Fatal(err)
				}
			}
			if len(snap.ConfigMaps) != n {
				b.Fatalf("%d objects, want %d", len(snap.ConfigMaps), n)
			}
		})
	}
}

// filledAccumulator returns an Accumulator with one query, "ConfigMaps", whose store holds n
// ConfigMaps (resource versions 1..n); it stops when the benchmark ends.
func filledAccumulator(b *testing.B, n int, opts accumulator.Options) *accumulator.Accumulator {
	acc, err := accumulator.New([]accumulator.QuerySpec{cmQuery("ConfigMaps", "")}, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(acc.Stop)
	list := make([]any, n)
	for i := range n {
		list[i] = benchCM(i, 1+i)
	}
	if err := acc.Store("ConfigMaps").Replace(list, fmt.Sprint(n)); err != nil {
		b.Fatal(err)
	}
	return acc
}

// benchUpdate runs the accumulator side of BenchmarkUpdateOneChange into target.
func benchUpdate(b *testing.B, n int, opts accumulator.Options, target any, size func() int) {
	acc := filledAccumulator(b, n, opts)
	st := acc.Store("ConfigMaps")
	ctx := context.Background()
	if _, err := acc.Update(ctx, target); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	rv := n
	for i := 0; b.Loop(); i++ {
		rv++
		if err := st.Update(benchCM(i*7919%n, rv)); err != nil {
			b.Fatal(err)
		}
		ok, err := acc.Update(ctx, target)
		if err != nil || !ok {
			b.Fatalf("Update = %v, %v", ok, err)
		}
	}
	if size() != n {
		b.Fatalf("%d objects, want %d", size(), n)
	}
}

// BenchmarkStoreUpdate measures delivering one event to a store of N objects, the
// reflector's side of the cost.
func BenchmarkStoreUpdate(b *testing.B) {
	const n = 10_000
	st := filledAccumulator(b, n, accumulator.Options{}).Store("ConfigMaps")
	objs := make([]*unstructured.Unstructured, 1024)
	for i := range objs {
		objs[i] = benchCM(i, 0)
	}
	b.ReportAllocs()
	rv := n
	for i := 0; b.Loop(); i++ {
		rv++
		// Reuse prepared objects: the benchmark measures the store, not building objects.
		u := objs[i%len(objs)].DeepCopy()
		u.SetResourceVersion(fmt.Sprint(rv))
		if err := st.Update(u); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreMemory reports the heap a store holds per object beyond the objects
// themselves ("B/object"), beside the indexer of a bare client-go informer (keyed
// "namespace/name", with the namespace index informers add) holding the same objects.
func BenchmarkStoreMemory(b *testing.B) {
	const n = 10_000
	measure := func(b *testing.B, fill func(list []any) any) {
		var perObject float64
		for b.Loop() {
			list := make([]any, n)
			for i := range n {
				list[i] = benchCM(i, 1+i)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			store := fill(list)
			runtime.GC()
			runtime.ReadMemStats(&after)
			perObject = float64(after.HeapAlloc-before.HeapAlloc) / n
			runtime.KeepAlive(store)
			runtime.KeepAlive(list)
		}
		b.ReportMetric(perObject, "B/object")
	}
	b.Run("accumulator", func(b *testing.B) {
		measure(b, func(list []any) any {
			acc, err := accumulator.New([]accumulator.QuerySpec{cmQuery("ConfigMaps", "")}, accumulator.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if err := acc.Store("ConfigMaps").Replace(list, "1"); err != nil {
				b.Fatal(err)
			}
			return acc
		})
	})
	b.Run("informer-indexer", func(b *testing.B) {
		measure(b, func(list []any) any {
			idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			if err := idx.Replace(list, "1"); err != nil {
				b.Fatal(err)
			}
			return idx
		})
	})
}
