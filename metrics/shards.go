package metrics

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Per-shard metric names.
const (
	ShardObjectsName          = "kates_shard_objects"
	ShardBootstrapName        = "kates_shard_bootstrap_duration_seconds"
	ShardHandoversName        = "kates_shard_handovers_total"
	ShardHandoverDurationName = "kates_shard_handover_duration_seconds"
)

// More label names.
const (
	// LabelShard is a virtual shard's number.
	LabelShard = "shard"
	// LabelDirection is "in" for a shard this replica took, "out" for one it gave up.
	LabelDirection = "direction"
	// LabelReleased is, for a shard given up, "true" if its Lease was released and "false"
	// if it was left to run out; "" for a shard taken.
	LabelReleased = "released"
)

// HandoverBuckets are the upper bounds, in seconds, of the handover duration histogram: from
// a release taken at once (tens of milliseconds) to a crashed replica's Lease running out
// (a lease duration, 15 s by default, and more).
var HandoverBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60}

// shardObjects is the objects-by-shard gauge: read at each scrape from the sharded
// Accumulators' stores (Accumulator.ShardCounts), which know each object's shard, rather than
// counted event by event.
type shardObjects struct {
	desc *prometheus.Desc
	mu   sync.Mutex
	// views are the count functions of the sharded Accumulators running, by their Watch.
	views map[*Watch]func() map[string]map[int]int
}

func newShardObjects() *shardObjects {
	return &shardObjects{
		desc: prometheus.NewDesc(ShardObjectsName,
			"Number of objects the sharded queries of the Accumulators hold, by query and shard, read from the stores at each scrape.",
			[]string{LabelQuery, LabelShard}, nil),
		views: map[*Watch]func() map[string]map[int]int{},
	}
}

func (s *shardObjects) Describe(ch chan<- *prometheus.Desc) { ch <- s.desc }

func (s *shardObjects) Collect(ch chan<- prometheus.Metric) {
	s.mu.Lock()
	views := make([]func() map[string]map[int]int, 0, len(s.views))
	for _, v := range s.views {
		views = append(views, v)
	}
	s.mu.Unlock()
	sum := map[string]map[int]int{}
	for _, v := range views {
		for query, byShard := range v() {
			if sum[query] == nil {
				sum[query] = map[int]int{}
			}
			for shard, n := range byShard {
				sum[query][shard] += n
			}
		}
	}
	for query, byShard := range sum {
		for shard, n := range byShard {
			if shard < 0 {
				continue // an object of no shard (mislabeled) is held by no view
			}
			ch <- prometheus.MustNewConstMetric(s.desc, prometheus.GaugeValue, float64(n), query, strconv.Itoa(shard))
		}
	}
}

var _ interface {
	ShardCounts(func() map[string]map[int]int)
	ShardAdded(int, time.Duration)
} = (*Watch)(nil)

// ShardCounts implements kates.ShardWatchObserver: the Accumulator's objects by shard are read
// at each scrape until Stop.
func (w *Watch) ShardCounts(counts func() map[string]map[int]int) {
	so := w.m.shardObjects
	so.mu.Lock()
	so.views[w] = counts
	so.mu.Unlock()
}

// ShardAdded implements kates.ShardWatchObserver: it sets shard's bootstrap gauge.
func (w *Watch) ShardAdded(shard int, d time.Duration) {
	w.m.shardBootstrap.WithLabelValues(strconv.Itoa(shard)).Set(d.Seconds())
}

// ShardHandovers counts the handovers of one replica of a shards.Run group, by shard and
// direction, and times them: call its Observe from shards.Options.Handover. (It takes the
// handover's fields, not a shards.Handover, so that a program that reports metrics does not
// link package shards for it.)
//
//	h := metrics.NewShardHandovers()
//	if err := h.Register(reg); err != nil { ... }
//	err := shards.Run(ctx, client, shards.Options{..., Handover: func(ho shards.Handover) {
//		h.Observe(ho.Shard, ho.In, ho.Duration, ho.Released)
//	}}, run)
type ShardHandovers struct {
	count    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewShardHandovers returns the handover collectors of one replica, registered nowhere.
func NewShardHandovers() *ShardHandovers {
	return &ShardHandovers{
		count: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: ShardHandoversName,
			Help: "Total number of shards this replica took (direction in) and gave up (direction out; released false when its Lease was left to run out), by shard.",
		}, []string{LabelShard, LabelDirection, LabelReleased}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    ShardHandoverDurationName,
			Help:    "Seconds a shard taken waited from being assigned to this replica until taken (direction in), and from the end of a term here until its Lease was released or left (direction out).",
			Buckets: HandoverBuckets,
		}, []string{LabelDirection}),
	}
}

// Register registers the collectors on reg, or none (see Metrics.Register).
func (h *ShardHandovers) Register(reg prometheus.Registerer) error {
	if err := reg.Register(h.count); err != nil {
		return err
	}
	if err := reg.Register(h.duration); err != nil {
		reg.Unregister(h.count)
		return err
	}
	return nil
}

// Observe records one handover, as shards.Handover describes it: of shard, taken by this
// replica (in) or leaving it, after d, its Lease released (for one leaving). It is safe for
// concurrent use.
func (h *ShardHandovers) Observe(shard int, in bool, d time.Duration, released bool) {
	dir, rel := "out", strconv.FormatBool(released)
	if in {
		dir, rel = "in", ""
	}
	h.count.WithLabelValues(strconv.Itoa(shard), dir, rel).Inc()
	h.duration.WithLabelValues(dir).Observe(d.Seconds())
}
