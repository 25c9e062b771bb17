package cluster_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/kates"
)

// throughputWriters is how many goroutines write concurrently in BenchmarkWatchThroughput.
const throughputWriters = 16

// BenchmarkWatchThroughput measures events per second from writers to a consumer through a
// real API server: throughputWrites merge patches by throughputWriters concurrent writers to
// throughputCMs ConfigMaps, then one patch of a sentinel ConfigMap; an op ends when the
// consumer has seen the sentinel's new version, which the watch delivers after every other
// event. The consumer starts, and completes its first view, before the timing.
//
//   - kates: Client.Watch, and a consumer calling Update into []*corev1.ConfigMap each time
//     Changed fires (coalescing what arrived meanwhile).
//   - informer: a bare dynamic informer whose handler sees every event, the baseline.
//   - controller-runtime: an informer of its cache, handler likewise.
//
// events/s counts the events written over the time from the first write to the consumer
// seeing the last; writes/s is the writers' own rate, which bounds it; lag-ms is the time from
// the last write's response to the consumer seeing it.
func BenchmarkWatchThroughput(b *testing.B) {
	ns := fx.Throughput
	katesPeer := peer{"kates", func(b *testing.B) {
		var snap struct{ ConfigMaps []*corev1.ConfigMap }
		s := katesSession(ns, kates.WatchOptions{}, &snap, configMaps)
		benchWatchThroughput(b, s, func(ctx context.Context, round string, seen chan<- time.Time) {
			acc := s.view().([]any)[0].(*kates.Accumulator)
			go func() {
				for range acc.Changed() {
					if _, err := acc.Update(ctx, &snap); err != nil {
						return
					}
					if l := len(snap.ConfigMaps); l > 0 && snap.ConfigMaps[l-1].Name == sentinel && snap.ConfigMaps[l-1].Data["round"] == round {
						seen <- time.Now()
						return
					}
				}
			}()
		})
	}}
	var target atomic.Pointer[string]
	var seenCh atomic.Pointer[chan<- time.Time]
	check := func(name, round string) {
		if name != sentinel {
			return
		}
		if t := target.Load(); t != nil && *t == round && target.CompareAndSwap(t, nil) {
			*seenCh.Load() <- time.Now()
		}
	}
	armed := func(_ context.Context, round string, seen chan<- time.Time) {
		seenCh.Store(&seen)
		target.Store(&round)
	}
	informerPeer := peer{"informer", func(b *testing.B) {
		h := cache.ResourceEventHandlerFuncs{UpdateFunc: func(_, obj any) {
			u := obj.(*unstructured.Unstructured)
			round, _, _ := unstructured.NestedString(u.Object, "data", "round")
			check(u.GetName(), round)
		}}
		benchWatchThroughput(b, informerSession(ns, h, configMaps), armed)
	}}
	crPeer := peer{"controller-runtime", func(b *testing.B) {
		h := cache.ResourceEventHandlerFuncs{UpdateFunc: func(_, obj any) {
			cm := obj.(*corev1.ConfigMap)
			check(cm.Name, cm.Data["round"])
		}}
		benchWatchThroughput(b, controllerRuntimeSession(ns, h, configMaps), armed)
	}}
	runPeers(b, "", katesPeer, informerPeer, crPeer)
}

// benchWatchThroughput runs s; for each op, arm makes the consumer send on seen when it sees
// the sentinel with data.round = round.
func benchWatchThroughput(b *testing.B, s *session, arm func(ctx context.Context, round string, seen chan<- time.Time)) {
	cms := writer.CoreV1().ConfigMaps(fx.Throughput)
	var lag, writeTime time.Duration
	b.ReportAllocs()
	b.StopTimer()
	for i := range b.N {
		s.prepare(b)
		stop := s.run(b)
		ctx, cancel := context.WithCancel(context.Background())
		round := fmt.Sprintf("%d-%d", time.Now().UnixNano(), i)
		seen := make(chan time.Time, 1)
		arm(ctx, round, seen)

		b.StartTimer()
		start := time.Now()
		var next atomic.Int64
		var wg sync.WaitGroup
		var failed atomic.Pointer[error]
		for range throughputWriters {
			wg.Go(func() {
				for {
					k := int(next.Add(1) - 1)
					if k >= throughputWrites {
						return
					}
					patch := fmt.Sprintf(`{"data":{"revision":"%s-%d"}}`, round, k)
					_, err := cms.Patch(ctx, fmt.Sprintf("cm-%06d", k%throughputCMs), types.MergePatchType, []byte(patch), metav1.PatchOptions{})
					if err != nil {
						failed.Store(&err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := failed.Load(); err != nil {
			b.Fatal(*err)
		}
		patch := fmt.Sprintf(`{"data":{"round":"%s"}}`, round)
		if _, err := cms.Patch(ctx, sentinel, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			b.Fatal(err)
		}
		written := time.Now()
		var at time.Time
		select {
		case at = <-seen:
		case <-time.After(2 * time.Minute):
			b.Fatal("the consumer did not see the last write within two minutes")
		}
		b.StopTimer()
		lag += at.Sub(written)
		writeTime += written.Sub(start)
		cancel()
		stop()
	}
	events := float64(throughputWrites+1) * float64(b.N)
	b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(events/writeTime.Seconds(), "writes/s")
	b.ReportMetric(lag.Seconds()*1000/float64(b.N), "lag-ms")
}
