package kates

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/internal/metrics"
	"github.com/kates-dev/kates/kstatus"
)

// RegisterMetrics registers the Client's Prometheus metrics on reg, and from then on instruments
// everything the Client does: the Accumulators of the Watches it starts afterwards (Watches
// already running stay uninstrumented), its writes, and its Waits. The metrics, their types and
// labels are listed in README.md ("Metrics"): per query of each Accumulator, objects held,
// events received, events coalesced, time to bootstrap, list and watch errors and relists;
// per Accumulator, the duration of each Update; for the Client, writes by verb and result and
// the coherence records it holds; for Wait, the objects still waited for.
//
// Nothing is registered anywhere until RegisterMetrics is called, and a Client that never
// calls it pays one nil check per event. kates registers nothing globally: pass
// prometheus.DefaultRegisterer to serve the metrics beside the Go runtime's, or a registry of
// your own.
//
// A Client reports to one registry: a second call returns an error, on the same registry or
// another. So does registering a second Client on a registry that holds the first one's metrics:
// give each Client a registry of its own, or register each through
// prometheus.WrapRegistererWith with a label of its own ({client="a"}, {client="b"}) on one
// registry. Nothing is registered when it returns an error.
//
// Series are labelled by query name, so Accumulators whose queries share a name share them:
// the objects gauge then sums their stores, and the bootstrap gauge holds the latest
// bootstrap. An Accumulator's objects leave the gauge when its context ends. The Accumulators
// that Wait, Status and WatchStatus build for themselves are not instrumented (their queries
// have names made up for the occasion): Wait has a gauge of its own.
func (c *Client) RegisterMetrics(reg prometheus.Registerer) error {
	if reg == nil {
		return errors.New("kates: RegisterMetrics: nil Registerer")
	}
	c.metricsMu.Lock()
	defer c.metricsMu.Unlock()
	if c.metrics.Load() != nil {
		return errors.New("kates: RegisterMetrics: this Client reports its metrics to a registry already; a Client reports to one")
	}
	m := metrics.New(func() float64 { return float64(c.writes.pending()) })
	if err := m.Register(reg); err != nil {
		if errors.As(err, new(prometheus.AlreadyRegisteredError)) {
			return fmt.Errorf("kates: RegisterMetrics: the registry holds kates metrics already, another Client's: "+
				"give each Client a registry of its own, or register each through prometheus.WrapRegistererWith with a label of its own: %w", err)
		}
		return fmt.Errorf("kates: RegisterMetrics: %w", err)
	}
	c.metrics.Store(m)
	return nil
}

// observeWrite counts a write request and its outcome, if the Client reports metrics.
func (c *Client) observeWrite(verb string, err error) {
	if m := c.metrics.Load(); m != nil {
		m.Write(verb, err)
	}
}

// watchMetrics returns the observer of a Watch of queries that began at began, or nil if the
// Client reports no metrics or opts asks for none.
func (c *Client) watchMetrics(opts WatchOptions, queries []Query, began time.Time) *metrics.Watch {
	m := c.metrics.Load()
	if m == nil || opts.unobserved {
		return nil
	}
	names := make([]string, len(queries))
	for i, q := range queries {
		names[i] = q.Name
	}
	return m.Watch(names, began)
}

// observer returns w as an accumulator.Observer: nil, not a nil *metrics.Watch, when w is nil.
func observer(w *metrics.Watch) accumulator.Observer {
	if w == nil {
		return nil
	}
	return w
}

// countErrors makes lw count, on w, the list and watch requests of query that fail while ctx
// has not ended.
func countErrors(ctx context.Context, lw *cache.ListWatch, w *metrics.Watch, query string) {
	list, watchFn := lw.ListWithContextFunc, lw.WatchFuncWithContext
	lw.ListWithContextFunc = func(lctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		obj, err := list(lctx, o)
		if err != nil && ctx.Err() == nil && lctx.Err() == nil {
			w.ListWatchError(query)
		}
		return obj, err
	}
	lw.WatchFuncWithContext = func(wctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		wi, err := watchFn(wctx, o)
		if err != nil && ctx.Err() == nil && wctx.Err() == nil {
			w.ListWatchError(query)
		}
		return wi, err
	}
}

// waitTally keeps one Wait's share of the objects-waiting gauge. A nil *waitTally (no
// metrics) does nothing.
type waitTally struct {
	m *metrics.Metrics
	n int
}

// waitTally starts a Wait's share of the gauge at n objects.
func (c *Client) waitTally(n int) *waitTally {
	m := c.metrics.Load()
	if m == nil {
		return nil
	}
	t := &waitTally{m: m}
	t.set(n)
	return t
}

// set makes the Wait's share n objects.
func (t *waitTally) set(n int) {
	if t == nil {
		return
	}
	t.m.WaitObjects(n - t.n)
	t.n = n
}

// unfinished counts the results not at status want.
func unfinished(results []ObjectStatus, want kstatus.Status) int {
	n := 0
	for _, r := range results {
		if r.Status != want {
			n++
		}
	}
	return n
}
