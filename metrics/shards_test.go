package metrics_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
	"github.com/kates-dev/kates/shards"
)

// TestShardMetrics: a sharded Watch's objects are counted by shard, each AddShard sets its
// shard's bootstrap time, and a shard removed leaves the gauge; a replica of a shards.Run
// group counts the shards it took and gave up, and times their handovers.
func TestShardMetrics(t *testing.T) {
	c, ns, reg := registered(t)
	createConfigMaps(t, c, ns, "cm", 40)
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	var all []*kates.ConfigMap
	if err := c.List(context.Background(), kates.Query{Kind: "ConfigMap", Namespace: ns}, &all); err != nil {
		t.Fatal(err)
	}
	want := map[int]int{}
	for _, cm := range all {
		if cm.Name != "kube-root-ca.crt" {
			want[space.ShardOf(cm)]++
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	acc, err := c.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space}},
		kates.Query{Name: "Maps", Kind: "ConfigMap", Namespace: ns, FieldSelector: "metadata.name!=kube-root-ca.crt"})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 2} {
		if err := acc.AddShard(ctx, i); err != nil {
			t.Fatal(err)
		}
	}
	objects := func(shard int) (float64, int) {
		return metricSeries(t, reg, metrics.ShardObjectsName, map[string]string{metrics.LabelQuery: "Maps", metrics.LabelShard: strconv.Itoa(shard)})
	}
	for _, i := range []int{0, 2} {
		if got, _ := objects(i); got != float64(want[i]) {
			t.Errorf("%s{shard=%d} = %v, want %d", metrics.ShardObjectsName, i, got, want[i])
		}
		b := metricValue(t, reg, metrics.ShardBootstrapName, map[string]string{metrics.LabelShard: strconv.Itoa(i)})
		if b <= 0 || b > 10 {
			t.Errorf("%s{shard=%d} = %v, want the seconds its AddShard took", metrics.ShardBootstrapName, i, b)
		}
		t.Logf("shard %d: %d objects, bootstrapped in %.3fs", i, want[i], b)
	}
	if _, n := objects(1); n != 0 {
		t.Errorf("%s has a series for shard 1, which is not held", metrics.ShardObjectsName)
	}
	acc.RemoveShard(0)
	if _, n := objects(0); n != 0 {
		t.Errorf("%s has a series for shard 0 after RemoveShard(0)", metrics.ShardObjectsName)
	}
	cancel()
	holdsWithin(t, 10*time.Second, func() string { return "the objects by shard are still reported after the Watch ended" }, func() bool {
		_, n := objects(2)
		return n == 0
	})

	// Handovers: one replica takes both shards of a group, then stops with Release.
	h := metrics.NewShardHandovers()
	if err := h.Register(reg); err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	running := make(chan int, 2)
	done := make(chan error, 1)
	go func() {
		done <- shards.Run(runCtx, c, shards.Options{Name: "metrics", Shards: 2, LeaseDuration: 2 * time.Second,
			RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 300 * time.Millisecond, Release: true, Handover: func(ho shards.Handover) { h.Observe(ho.Shard, ho.In, ho.Duration, ho.Released) }},
			func(ctx context.Context, shard int) error {
				running <- shard
				<-ctx.Done()
				return nil
			})
	}()
	for range 2 {
		select {
		case <-running:
		case <-time.After(30 * time.Second):
			t.Fatal("the replica does not run both shards")
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for shard := range 2 {
		s := strconv.Itoa(shard)
		for _, tc := range []struct {
			dir, released string
		}{{"in", ""}, {"out", "true"}} {
			labels := map[string]string{metrics.LabelShard: s, metrics.LabelDirection: tc.dir, metrics.LabelReleased: tc.released}
			if got := metricValue(t, reg, metrics.ShardHandoversName, labels); got != 1 {
				t.Errorf("%s%v = %v, want 1", metrics.ShardHandoversName, labels, got)
			}
		}
	}
	for _, dir := range []string{"in", "out"} {
		if got := metricValue(t, reg, metrics.ShardHandoverDurationName, map[string]string{metrics.LabelDirection: dir}); got != 2 {
			t.Errorf("%s{direction=%s} holds %v handovers, want 2", metrics.ShardHandoverDurationName, dir, got)
		}
	}
	if err := h.Register(prometheus.NewRegistry()); err != nil {
		t.Errorf("registering the handover collectors on a second registry: %v", err)
	}
}
