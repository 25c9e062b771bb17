package shards_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kates-dev/kates/kates"
)

// TestServerListFloor measures what the API server and the wire alone take to hand a replica
// its shard: a LIST of the fixtures' ConfigMaps (BENCH_SHARDS=1 makes them; BENCH_SHARDS_NS
// names another namespace), as protobuf from the watch cache, read whole and decoded not at
// all, for the whole namespace and for shard 0 of 2 and of 4 by uid. It logs each median of 7
// and its ratio to the whole LIST. No client can reach its first view faster than its shard's
// LIST, so a ratio above the benchmark's bar (1.1/n) is the server's, not the client's: the
// server still walks every object of the namespace and hashes its uid to select a shard.
func TestServerListFloor(t *testing.T) {
	if os.Getenv("BENCH_SHARDS") != "1" {
		t.Skip("BENCH_SHARDS=1 runs the sharded-view benchmark")
	}
	ns := namespace
	if v := os.Getenv("BENCH_SHARDS_NS"); v != "" {
		ns = v
	}
	cfg := restConfig(t)
	cfg.QPS, cfg.Burst = 0, 0
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	list := func(selector string) (time.Duration, int) {
		opts := metav1.ListOptions{ShardSelector: selector, ResourceVersion: "0"}
		start := time.Now()
		body, err := cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("configmaps").
			VersionedParams(&opts, scheme.ParameterCodec).
			SetHeader("Accept", "application/vnd.kubernetes.protobuf").DoRaw(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return time.Since(start), len(body)
	}
	var whole time.Duration
	for _, n := range []int{1, 2, 4} {
		selector := ""
		if n > 1 {
			selector = kates.ShardSpace{Key: kates.ShardByUID, Count: n}.Selector(0).String()
		}
		var times []time.Duration
		size := 0
		for range 7 {
			d, s := list(selector)
			times, size = append(times, d), s
		}
		slices.Sort(times)
		median := times[len(times)/2]
		if n == 1 {
			whole = median
		}
		t.Logf("shards-floor: %d-of-%d LIST of ConfigMaps: %d bytes, median %v (%v–%v), %.2f of the whole LIST, bar 1.1/n = %.3f",
			1, n, size, median.Round(time.Millisecond), times[0].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond),
			float64(median)/float64(whole), 1.1/float64(n))
	}
}
