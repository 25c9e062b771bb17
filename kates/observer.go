package kates

import (
	"context"
	"errors"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/kstatus"
)

// Observer knows how to record what a Client does, for metrics. The metrics package
// implements it with Prometheus collectors (metrics.Register); kates itself links no metrics
// library, so a program that does not import one pays nothing for it. The Client calls an
// Observer synchronously from the goroutines doing the work (a write's caller, a watch's
// reflector, a Wait), so each method must be cheap, safe for concurrent use, and must not call
// back into the Client.
type Observer interface {
	// Watch returns the observer of the Accumulator of one Watch call, whose queries are
	// named queries (in order) and which began at began; nil leaves it unobserved. The
	// Accumulators that Wait, Status and WatchStatus build for themselves are never observed
	// (their query names are made up for the occasion).
	Watch(queries []string, began time.Time) WatchObserver
	// Write records one write request the Client sent, by verb (create, update,
	// update_status, patch, apply or delete), and its outcome: err is nil on success.
	Write(verb string, err error)
	// WaitObjects adds delta to the number of objects that Waits in progress wait for and
	// that have not reached the status waited for yet.
	WaitObjects(delta int)
}

// WatchObserver knows how to record what the Accumulator of one Watch does: the
// accumulator.Observer hooks, and what only the Client sees.
type WatchObserver interface {
	accumulator.Observer
	// ListWatchError records a list or watch request of the named query that failed while
	// the Watch's context had not ended.
	ListWatchError(query string)
	// Stop is called once the Watch's context has ended and nothing feeds its stores any
	// more.
	Stop()
}

// ShardWatchObserver knows how to record what a sharded Watch holds and adds, shard by shard.
// A WatchObserver that implements it is told too (the metrics package's does).
type ShardWatchObserver interface {
	// ShardCounts is called once, as a Watch with sharded queries starts, with a function
	// that returns how many objects each of them holds, by shard (Accumulator.ShardCounts):
	// to call at each scrape, until Stop. It walks every object held.
	ShardCounts(counts func() map[string]map[int]int)
	// ShardAdded records that an AddShard(i) returned with the view holding shard i whole, d
	// after it was called: the time to bootstrap the shard.
	ShardAdded(shard int, d time.Duration)
}

// SetObserver makes o record everything the Client does from then on: the Accumulators of the
// Watches it starts afterwards (Watches already running stay unobserved), its writes, and its
// Waits. A Client has one Observer: a second call returns an error and changes nothing. A
// Client that never calls it pays one nil check per event.
func (c *Client) SetObserver(o Observer) error {
	if o == nil {
		return errors.New("kates: SetObserver: nil Observer")
	}
	if !c.observer.CompareAndSwap(nil, &o) {
		return errors.New("kates: SetObserver: this Client has an Observer already; a Client has one")
	}
	return nil
}

// CoherenceRecords returns how many records of its own recent writes the Client holds, so that
// its Accumulators show them before their watches deliver them (a gauge for metrics).
func (c *Client) CoherenceRecords() int { return c.writes.pending() }

// loadObserver returns the Client's Observer, or nil.
func (c *Client) loadObserver() Observer {
	if p := c.observer.Load(); p != nil {
		return *p
	}
	return nil
}

// observeWrite counts a write request and its outcome, if the Client reports metrics.
func (c *Client) observeWrite(verb string, err error) {
	if o := c.loadObserver(); o != nil {
		o.Write(verb, err)
	}
}

// watchObserver returns the observer of a Watch of queries that began at began, or nil if the
// Client has no Observer or opts asks for none.
func (c *Client) watchObserver(opts WatchOptions, queries []Query, began time.Time) WatchObserver {
	o := c.loadObserver()
	if o == nil || opts.unobserved {
		return nil
	}
	names := make([]string, len(queries))
	for i, q := range queries {
		names[i] = q.Name
	}
	return o.Watch(names, began)
}

// accumulatorObserver returns w as an accumulator.Observer: nil, not a nil interface holding
// nothing, when w is nil.
func accumulatorObserver(w WatchObserver) accumulator.Observer {
	if w == nil {
		return nil
	}
	return w
}

// countErrors makes lw count, on w, the list and watch requests of query that fail while ctx
// has not ended.
func countErrors(ctx context.Context, lw *cache.ListWatch, w WatchObserver, query string) {
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

// waitTally keeps one Wait's share of the objects-waiting count. A nil *waitTally (no
// Observer) does nothing.
type waitTally struct {
	o Observer
	n int
}

// waitTally starts a Wait's share of the gauge at n objects.
func (c *Client) waitTally(n int) *waitTally {
	o := c.loadObserver()
	if o == nil {
		return nil
	}
	t := &waitTally{o: o}
	t.set(n)
	return t
}

// set makes the Wait's share n objects.
func (t *waitTally) set(n int) {
	if t == nil {
		return
	}
	t.o.WaitObjects(n - t.n)
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
