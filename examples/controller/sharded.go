package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
)

// Sharded mode (Options.Shards > 0): instead of one leader reconciling everything, every
// replica reconciles the WebApps of the virtual shards it owns. shards.Run decides the owners
// and hands shards over; the Accumulator holds only the owned shards' objects (the WebApps by
// their UID, the Deployments and Services with the WebApp that controls them, which
// reconcile stamps with its shard so that the API server selects them); each WebApp is
// reconciled with its shard's context, whose Fence refuses the writes once the shard is gone.

// heldShard is a shard this replica owns and reconciles.
type heldShard struct {
	ctx  context.Context // the shard's: ends when the shard is lost or handed away
	work sync.WaitGroup  // reconciles running with ctx
}

// shardSet is the shards the reconcile loop may act on, shared by the loop and the shards'
// callbacks.
type shardSet struct {
	mu   sync.Mutex
	held map[int]*heldShard
	kick chan struct{} // capacity 1: a shard was added, reconcile it now
}

// acquire returns shard i's entry with a reconcile counted in its work, or nil if the shard is
// not held: the caller calls work.Done when the reconcile returns.
func (s *shardSet) acquire(i int) *heldShard {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.held[i]
	if h != nil {
		h.work.Add(1)
	}
	return h
}

// held returns the shards held now. The reconcile loop takes it before each Update: a shard
// added after that may not be whole in the Update's view (AddShard returns once every query
// has listed the shard, but an Update made while it listed can show some queries' objects
// and not others', say a WebApp and its Deployment without its Service), so it waits for the
// next pass, which the add kicks.
func (s *shardSet) heldNow() map[int]*heldShard {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.held)
}

func (s *shardSet) add(i int, h *heldShard) {
	s.mu.Lock()
	s.held[i] = h
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// remove stops new reconciles of shard i and waits for the running ones to return.
func (s *shardSet) remove(i int) {
	s.mu.Lock()
	h := s.held[i]
	delete(s.held, i)
	s.mu.Unlock()
	if h != nil {
		h.work.Wait()
	}
}

// runSharded is Run in sharded mode.
func (c *Controller) runSharded(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: c.opts.Shards}
	// No shard is held at first: the view is complete, and empty, at once. AddShard lists a
	// shard's objects when this replica comes to own it.
	acc, err := c.client.WatchWith(ctx, kates.WatchOptions{Snapshot: (*Snapshot)(nil), Sharding: &kates.Sharding{Space: space}},
		kates.Query{Name: "WebApps", Kind: "webapps.examples.kates.dev", Namespace: c.opts.Namespace},
		kates.Query{Name: "Deployments", Kind: "deployments.apps", Namespace: c.opts.Namespace, LabelSelector: managedBySelector,
			Placement: kates.PlaceByOwnerLabel},
		kates.Query{Name: "Services", Kind: "services", Namespace: c.opts.Namespace, LabelSelector: managedBySelector,
			Placement: kates.PlaceByOwnerLabel},
	)
	if err != nil {
		return err
	}
	c.acc.Store(acc)
	c.shards = &shardSet{held: map[int]*heldShard{}, kick: make(chan struct{}, 1)}
	id := c.opts.Election.Identity
	looping := make(chan struct{})
	go func() {
		defer close(looping)
		c.reconcileShards(ctx, acc, space)
	}()
	select {
	case <-acc.Bootstrapped():
		fmt.Fprintf(c.opts.Log, "%s: view complete; joining %d shards\n", id, c.opts.Shards)
	case <-ctx.Done():
	}

	group, ns := c.opts.Election.Lease, ""
	if i := strings.IndexByte(group, '/'); i >= 0 {
		ns, group = group[:i], group[i+1:]
	}
	e := c.opts.Election
	err = shards.Run(ctx, c.client, shards.Options{Name: group, Namespace: ns, Identity: id, Shards: c.opts.Shards,
		LeaseDuration: e.LeaseDuration, RenewDeadline: e.RenewDeadline, RetryPeriod: e.RetryPeriod, Release: e.Release,
		StampFences: e.Fence != nil && e.Fence.Stamp, Handover: func(ho shards.Handover) {
			c.handovers.Observe(ho.Shard, ho.In, ho.Duration, ho.Released)
		},
		Observe: func(s shards.State) {
			c.owned.Set(float64(len(s.Held)))
			fmt.Fprintf(c.opts.Log, "%s: members %v, assigned %v, held %v\n", id, s.Members, s.Assigned, s.Held)
		},
	}, func(ctx context.Context, i int) error { return c.ownShard(ctx, acc, i) })
	// Every shard's callback has returned: stop the loop, then the Watch.
	cancel()
	<-looping
	for range acc.Changed() {
	}
	return err
}

// ownShard runs while this replica owns shard i: the view takes the shard's objects in, the
// loop reconciles them with ctx, and once ctx ends (the shard handed away or lost, or
// shutdown) the loop stops acting on them and they leave the view — as moved, not deleted —
// before ownShard returns and shards.Run lets the shard's Lease go.
func (c *Controller) ownShard(ctx context.Context, acc *kates.Accumulator, i int) error {
	id := c.opts.Election.Identity
	begin := time.Now()
	defer acc.RemoveShard(i)
	if err := acc.AddShard(ctx, i); err != nil {
		return nil // the shard went away while its objects were being listed
	}
	fmt.Fprintf(c.opts.Log, "%s: shard %d: view holds it after %s; reconciling\n", id, i, time.Since(begin).Round(time.Millisecond))
	c.shards.add(i, &heldShard{ctx: ctx})
	<-ctx.Done()
	c.shards.remove(i)
	why := "stopping"
	switch {
	case shards.HandedAway(ctx):
		why = "handed away"
	case errors.Is(context.Cause(ctx), kates.ErrLeaseLost):
		why = "lease lost"
	}
	fmt.Fprintf(c.opts.Log, "%s: shard %d: stopped reconciling (%s)\n", id, i, why)
	return nil
}

// reconcileShards is the reconcile loop of sharded mode: as lead's, one pass per signal over
// the latest view, each WebApp reconciled with its shard's context.
func (c *Controller) reconcileShards(ctx context.Context, acc *kates.Accumulator, space kates.ShardSpace) {
	var retry <-chan time.Time
	var deltas []*kates.Delta
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-acc.Changed():
			if !ok {
				return
			}
		case <-c.shards.kick:
		case <-retry:
		}
		retry = nil
		begin := time.Now()
		whole := c.shards.heldNow() // before the Update: see heldNow
		if _, err := acc.UpdateWithDeltas(ctx, &c.snap, &deltas); err != nil {
			retry = time.After(c.opts.Retry)
			continue
		}
		c.countDeltas(deltas)
		err := c.shardedPass(space, whole)
		if ctx.Err() != nil {
			return
		}
		c.duration.Observe(time.Since(begin).Seconds())
		if err != nil {
			c.reconciles.WithLabelValues("error").Inc()
			fmt.Fprintf(c.opts.Log, "reconcile: %v\n", err)
			retry = time.After(c.opts.Retry)
			continue
		}
		c.reconciles.WithLabelValues("success").Inc()
	}
}

// countDeltas counts the WebApps that left the view, telling the two reasons apart: a WebApp
// deleted (ObjectDelete) is gone, and a controller with state outside the cluster would clean
// it up here; a WebApp moved (ObjectMoved) lives on in another replica's shard, and must be
// left alone.
func (c *Controller) countDeltas(deltas []*kates.Delta) {
	for _, d := range deltas {
		if d.Query != "WebApps" {
			continue
		}
		switch d.DeltaType {
		case kates.ObjectDelete:
			c.left.WithLabelValues("deleted").Inc()
			fmt.Fprintf(c.opts.Log, "%s: WebApp %s/%s deleted\n", c.opts.Election.Identity, d.Namespace, d.Name)
		case kates.ObjectMoved:
			c.left.WithLabelValues("moved").Inc()
			fmt.Fprintf(c.opts.Log, "%s: WebApp %s/%s moved to another replica\n", c.opts.Election.Identity, d.Namespace, d.Name)
		}
	}
}

// shardedPass reconciles every WebApp of a shard held since before the Update (whole), with
// that shard's context.
func (c *Controller) shardedPass(space kates.ShardSpace, whole map[int]*heldShard) error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	workers := make(chan struct{}, c.opts.Workers)
	for _, app := range c.snap.WebApps {
		i := space.ShardOf(app)
		h := c.shards.acquire(i)
		if h == nil {
			continue // between the shard's view and its term: not ours to touch
		}
		if whole[i] != h {
			h.work.Done() // added since the Update began: the next pass reconciles it
			continue
		}
		workers <- struct{}{}
		wg.Go(func() {
			defer func() { <-workers; h.work.Done() }()
			err := c.reconcile(h.ctx, app)
			if err != nil && h.ctx.Err() == nil { // a reconcile cut short by the shard's end is no failure
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Shards returns the shards this replica reconciles now, in order (sharded mode).
func (c *Controller) Shards() []int {
	if c.shards == nil {
		return nil
	}
	c.shards.mu.Lock()
	defer c.shards.mu.Unlock()
	var out []int
	for i := range c.shards.held {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}
