package controller

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kates-dev/kates/metrics"
)

// controllerMetrics are a controller's metrics, shaped as controller-runtime's (whose names
// are in parentheses in the help texts), each with the constant label controller.
type controllerMetrics struct {
	reconciles  *prometheus.CounterVec
	errors      prometheus.Counter
	duration    prometheus.Histogram
	queueDepth  prometheus.Gauge
	queueWait   prometheus.Histogram
	active      prometheus.Gauge
	maxWorkers  prometheus.Gauge
	leader      prometheus.Gauge
	shardsOwned prometheus.Gauge
	handovers   *metrics.ShardHandovers
}

// newMetrics makes a controller's metrics and registers them on reg, if it is not nil.
func newMetrics(name string, workers int, sharded bool, reg prometheus.Registerer) (*controllerMetrics, error) {
	labels := prometheus.Labels{"controller": name}
	m := &controllerMetrics{
		reconciles: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kates_controller_reconcile_total", ConstLabels: labels,
			Help: "Reconciles by result: success, error, requeue_after, panic (controller_runtime_reconcile_total).",
		}, []string{"result"}),
		errors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "kates_controller_reconcile_errors_total", ConstLabels: labels,
			Help: "Reconciles that returned an error or panicked (controller_runtime_reconcile_errors_total).",
		}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "kates_controller_reconcile_time_seconds", ConstLabels: labels,
			Help:    "How long each reconcile took (controller_runtime_reconcile_time_seconds).",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}),
		queueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kates_controller_queue_depth", ConstLabels: labels,
			Help: "Keys waiting to be reconciled (workqueue_depth).",
		}),
		queueWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "kates_controller_queue_wait_seconds", ConstLabels: labels,
			Help:    "How long a key waited in the queue before a worker took it (workqueue_queue_duration_seconds).",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 12),
		}),
		active: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kates_controller_active_workers", ConstLabels: labels,
			Help: "Reconciles running now (controller_runtime_active_workers).",
		}),
		maxWorkers: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kates_controller_max_concurrent_reconciles", ConstLabels: labels,
			Help: "Workers: the most reconciles that run at once (controller_runtime_max_concurrent_reconciles).",
		}),
		leader: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kates_controller_leader", ConstLabels: labels,
			Help: "1 while this replica holds the Lease and reconciles, 0 while it stands by (leader_election_master_status).",
		}),
		shardsOwned: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kates_controller_shards_owned", ConstLabels: labels,
			Help: "The shards this replica owns and reconciles (sharded mode).",
		}),
		handovers: metrics.NewShardHandovers(),
	}
	m.maxWorkers.Set(float64(workers))
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.reconciles, m.errors, m.duration, m.queueDepth, m.queueWait, m.active, m.maxWorkers, m.leader, m.shardsOwned} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("controller: register metrics: %w", err)
		}
	}
	if sharded {
		if err := m.handovers.Register(reg); err != nil {
			return nil, fmt.Errorf("controller: register metrics: %w", err)
		}
	}
	return m, nil
}
