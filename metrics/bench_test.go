package metrics_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ktypes "k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/metrics"
)

// The accumulator's hot paths (accumulator/bench_test.go's BenchmarkStoreUpdate and
// BenchmarkUpdateOneChange, same objects and steps) without an Observer and with this
// package's, registered on a registry, measured side by side in one run.

// benchCM is accumulator/bench_test.go's ConfigMap of a typical size.
func benchCM(i, rv int) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"data": map[string]any{
			"config.yaml":   "listen: 0.0.0.0:8080\nlog: info\nupstream: http://backend:9000\n",
			"feature-flags": "a=true,b=false,c=true",
			"revision":      fmt.Sprint(rv),
		},
	}}
	u.SetNamespace(fmt.Sprintf("ns-%02d", i%20))
	u.SetName(fmt.Sprintf("cm-%06d", i))
	u.SetUID(ktypes.UID(fmt.Sprintf("uid-%06d", i)))
	u.SetResourceVersion(fmt.Sprint(rv))
	u.SetLabels(map[string]string{"app": "bench", "tier": fmt.Sprint(i % 3)})
	u.SetAnnotations(map[string]string{"example.com/owner": "team-" + fmt.Sprint(i%7)})
	return u
}

// observers are the two ways the benchmarks run: no Observer, and a registered Watch's.
var observers = []struct {
	name string
	new  func(b *testing.B) accumulator.Observer
}{
	{"none", func(*testing.B) accumulator.Observer { return nil }},
	{"observed", func(b *testing.B) accumulator.Observer {
		m := metrics.New(func() float64 { return 0 })
		if err := m.Register(prometheus.NewRegistry()); err != nil {
			b.Fatal(err)
		}
		return m.Watch([]string{"ConfigMaps"}, time.Now())
	}},
}

func filled(b *testing.B, n int, obs accumulator.Observer) *accumulator.Accumulator {
	acc, err := accumulator.New([]accumulator.QuerySpec{cmQuery}, accumulator.Options{Observer: obs})
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

// BenchmarkObservedStoreUpdate delivers one event to a store of 10,000 objects.
func BenchmarkObservedStoreUpdate(b *testing.B) {
	const n = 10_000
	for _, o := range observers {
		b.Run(o.name, func(b *testing.B) {
			st := filled(b, n, o.new(b)).Store("ConfigMaps")
			objs := make([]*unstructured.Unstructured, 1024)
			for i := range objs {
				objs[i] = benchCM(i, 0)
			}
			b.ReportAllocs()
			rv := n
			for i := 0; b.Loop(); i++ {
				rv++
				u := objs[i%len(objs)].DeepCopy()
				u.SetResourceVersion(fmt.Sprint(rv))
				if err := st.Update(u); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkObservedUpdateOneChange delivers one change to a store of N objects and takes it
// with an Update into []*corev1.ConfigMap.
func BenchmarkObservedUpdateOneChange(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		for _, o := range observers {
			b.Run(fmt.Sprintf("%s/N=%d", o.name, n), func(b *testing.B) {
				acc := filled(b, n, o.new(b))
				st := acc.Store("ConfigMaps")
				ctx := context.Background()
				var snap struct{ ConfigMaps []*corev1.ConfigMap }
				if _, err := acc.Update(ctx, &snap); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				rv := n
				for i := 0; b.Loop(); i++ {
					rv++
					if err := st.Update(benchCM(i*7919%n, rv)); err != nil {
						b.Fatal(err)
					}
					if ok, err := acc.Update(ctx, &snap); err != nil || !ok {
						b.Fatalf("Update = %v, %v", ok, err)
					}
				}
				if len(snap.ConfigMaps) != n {
					b.Fatalf("%d objects, want %d", len(snap.ConfigMaps), n)
				}
			})
		}
	}
}
