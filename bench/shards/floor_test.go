package shards_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kates-dev/kates/kates"
)

// TestServerListFloor measures what the API server and the wire alone take to hand a replica
// its shard: the fixtures' two LISTs sent at once (BENCH_SHARDS=1 makes them; BENCH_SHARDS_NS
// names another namespace), ConfigMaps as protobuf and Widgets as JSON (custom resources have
// no protobuf), from the watch cache, each read whole and decoded not at all, for the whole
// namespace and for shard 0 of 2 and of 4 by uid, seven times each. It logs each median and
// its ratio to the whole pair, and writes them to BENCH_SHARDS_FLOOR_OUT if set, as
//
//	shards-floor: n=N seconds=S min=S max=S bytes=B
//
// No client can reach its first view faster than its shard's LISTs, so a ratio above the
// benchmark's bar (1.1/n) is the server's, not the client's: the server still walks every
// object of the namespace and hashes its uid to select a shard.
func TestServerListFloor(t *testing.T) {
	if os.Getenv("BENCH_SHARDS") != "1" {
		t.Skip("BENCH_SHARDS=1 runs the sharded-view benchmark")
	}
	ns := namespace
	if v := os.Getenv("BENCH_SHARDS_NS"); v != "" {
		ns = v
	}
	cfg := restConfig(t)
	if ns == namespace {
		// Run first (as it is in file order), it finds no fixtures on a fresh cluster.
		if _, err := ensureFixtures(context.Background(), cfg, widgetCount()); err != nil {
			t.Fatal(err)
		}
	}
	cfg.QPS, cfg.Burst = 0, 0
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// list sends one LIST of the collection at path with selector, and returns its body's size.
	list := func(path []string, accept, selector string) (int, error) {
		opts := metav1.ListOptions{ShardSelector: selector, ResourceVersion: "0"}
		body, err := cs.CoreV1().RESTClient().Get().AbsPath(path...).
			VersionedParams(&opts, scheme.ParameterCodec).SetHeader("Accept", accept).DoRaw(ctx)
		return len(body), err
	}
	// both sends the two LISTs at once, and returns when both are read.
	both := func(selector string) (time.Duration, int) {
		start := time.Now()
		var wg sync.WaitGroup
		var cmBytes, widgetBytes int
		var cmErr, widgetErr error
		wg.Go(func() {
			cmBytes, cmErr = list([]string{"/api/v1/namespaces", ns, "configmaps"}, "application/vnd.kubernetes.protobuf", selector)
		})
		wg.Go(func() {
			widgetBytes, widgetErr = list([]string{"/apis", widgetsGVR.Group, widgetsGVR.Version, "namespaces", ns, widgetsGVR.Resource},
				"application/json", selector)
		})
		wg.Wait()
		if err := errors.Join(cmErr, widgetErr); err != nil {
			t.Fatal(err)
		}
		return time.Since(start), cmBytes + widgetBytes
	}
	var out strings.Builder
	var whole time.Duration
	for _, n := range []int{1, 2, 4} {
		selector := ""
		if n > 1 {
			selector = kates.ShardSpace{Key: kates.ShardByUID, Count: n}.Selector(0).String()
		}
		var times []time.Duration
		size := 0
		for range 7 {
			d, s := both(selector)
			times, size = append(times, d), s
		}
		slices.Sort(times)
		median := times[len(times)/2]
		if n == 1 {
			whole = median
		}
		t.Logf("shard 0 of %d: the two LISTs (%d bytes) took %v (%v–%v), %.2f of the whole namespace's; bar 1.1/n = %.3f",
			n, size, median.Round(time.Millisecond), times[0].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond),
			float64(median)/float64(whole), 1.1/float64(n))
		fmt.Fprintf(&out, "shards-floor: n=%d seconds=%.3f min=%.3f max=%.3f bytes=%d\n",
			n, median.Seconds(), times[0].Seconds(), times[len(times)-1].Seconds(), size)
	}
	if path := os.Getenv("BENCH_SHARDS_FLOOR_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
