package controller

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/internal/lease"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
)

// Key names a primary object: the thing a reconcile is about.
type Key struct {
	Namespace string // "" for a cluster-scoped kind
	Name      string
}

// String returns "namespace/name", or "name" for a cluster-scoped object: the key a snapshot's
// map fields use.
func (k Key) String() string {
	if k.Namespace == "" {
		return k.Name
	}
	return k.Namespace + "/" + k.Name
}

// KeyOf returns obj's Key.
func KeyOf(obj metav1.Object) Key { return Key{Namespace: obj.GetNamespace(), Name: obj.GetName()} }

// Result is what a successful reconcile asks for next.
type Result struct {
	// RequeueAfter, if positive, reconciles the key again after this long (at the priority of
	// retries: after fresh changes), or sooner if its objects change.
	RequeueAfter time.Duration
}

// Request is one reconcile's: the key, and the view to read it from.
type Request[S any] struct {
	Key Key
	c   *Controller[S]
}

// View calls read with the latest complete view the controller has: every query's objects at
// one moment, at least as new as the change that queued this reconcile. The view is updated
// in place between reconciles, so read must not keep the snapshot's maps or slices, nor
// modify anything in it; the objects themselves never change once handed out (a changed
// object is a new one), so read may keep pointers to them for the rest of the reconcile.
// Keep read short: the next Update of the view waits for it.
func (r Request[S]) View(read func(view *S)) {
	r.c.viewMu.RLock()
	defer r.c.viewMu.RUnlock()
	read(&r.c.snap)
}

// Options configures a Controller. Name, Queries, For and Reconcile are required.
type Options[S any] struct {
	// Name names the controller in its metrics (the label controller) and logs.
	Name string
	// Queries are the view, as for kates.Client.Watch; S is the snapshot struct each Update
	// fills (a field per query, named as the query or tagged kates:"<query name>").
	Queries []kates.Query
	// For is the name of the query of the primary kind: each of its objects is a key.
	For string
	// Reconcile brings the primary object req.Key names (and what it owns) to what it asks
	// for. It is level-based: it reads the object from req.View as it is now, whatever
	// changed, and finds it absent once deleted. Its context carries a logger with the key
	// (logr.FromContextOrDiscard), the fence of the term or shard it runs in (writes the
	// Client sends with it are refused once the term ends), and a span when Tracer is set; it
	// ends when the term or shard ends, or ShutdownTimeout after Run's context ends. A
	// returned error retries the key after a backoff; a panic is recovered and counts as one.
	Reconcile func(ctx context.Context, req Request[S]) (Result, error)
	// Map says which primary objects a change to one of a query's objects concerns, by
	// query name; d.Object is the object (its last version, for a delete). A query of
	// Queries other than For without an entry maps each object to its controller owner
	// reference of the For kind. Keys not in the view are ignored.
	Map map[string]func(d *kates.Delta) []Key
	// Workers is how many keys are reconciled at once; never one key twice. Default 4.
	Workers int
	// Resync, if positive, queues every key again this often (at the priority of retries),
	// for reconciles that depend on something outside the view. Default 0: never.
	Resync time.Duration
	// BackoffBase and BackoffMax bound the delay before a failed key is retried: it doubles
	// from BackoffBase with each consecutive failure, to at most BackoffMax, jittered over its
	// upper half. Defaults 50 ms and 2 min.
	BackoffBase, BackoffMax time.Duration
	// ShutdownTimeout is how long Run, once its context ends, lets reconciles in flight
	// finish before it cancels theirs; then it gives its Lease or shards up. Default 30 s.
	ShutdownTimeout time.Duration
	// Election, if set, reconciles only while this replica holds the Lease it names
	// (election.Run, whose Views the controller sets): the others stand by with their view
	// complete and current, and take over from it at once. Release there gives the Lease up on
	// shutdown, after the drain.
	Election *election.Options
	// Shards, if set, splits the primary objects into Shards.Shards virtual shards by UID, and
	// this replica reconciles those of the shards it owns (shards.Run, which decides): its view
	// holds only those, owned objects too if their queries are placed by
	// kates.PlaceByOwnerLabel (their owner's shard is stamped on them by the writes of a
	// reconcile). A shard handed away leaves the view as moved, which does not reconcile its
	// keys. Election and Shards exclude each other; with neither, the controller reconciles at
	// once, alone.
	Shards *shards.Options
	// Watch is passed to Client.WatchWith; its Snapshot and Sharding are set by the controller.
	Watch kates.WatchOptions
	// Metrics, if set, receives the controller's metrics (see the package documentation).
	Metrics prometheus.Registerer
	// Serve, if set, makes Run serve the metrics and probes (see ServeOptions) for as long as
	// it runs.
	Serve *ServeOptions
	// Log receives the controller's own lines, and is the base of each reconcile's logger.
	// Default: discarded.
	Log logr.Logger
	// Tracer, if set, makes a span of each reconcile, the parent of the spans its requests
	// make when the client's transport is instrumented (ClientConfig.Wrap with otelhttp).
	Tracer trace.Tracer
}

// Controller reconciles the objects of a view, one key at a time. Create it with New and
// run it with Run.
type Controller[S any] struct {
	client  *kates.Client
	opts    Options[S]
	metrics *controllerMetrics
	space   kates.ShardSpace // sharded mode's

	acc    atomic.Pointer[kates.Accumulator]
	viewMu sync.RWMutex // the loop's Updates write snap; Request.View reads it
	snap   S
	q      *queue
	kick   chan struct{} // capacity 1: a scope began; update the view and queue its keys

	scopesMu sync.Mutex
	scopes   map[int]*scope
	taking   int // shards being listed into the view (sharded mode), for readiness

	// known are the primary keys in the view, each with its scope; only the loop uses it.
	known map[Key]int
	// The primary kind, learned from its deltas, for the default owner mapping.
	primary           schema.GroupKind
	primaryNamespaced bool

	started  atomic.Bool
	stopping atomic.Bool
	leading  atomic.Bool
}

// scope is a span of time in which keys may be reconciled: the whole run, an election term,
// or the ownership of one shard. Its context carries the term's fence.
type scope struct {
	ctx   context.Context
	work  sync.WaitGroup // reconciles running in it
	ready bool           // the view held all of the scope's objects when its keys were queued
}

// New returns a Controller; nothing runs until Run.
func New[S any](client *kates.Client, opts Options[S]) (*Controller[S], error) {
	switch {
	case opts.Name == "":
		return nil, errors.New("controller: Options.Name is required")
	case opts.Reconcile == nil:
		return nil, errors.New("controller: Options.Reconcile is required")
	case opts.Election != nil && opts.Shards != nil:
		return nil, errors.New("controller: Options.Election and Options.Shards exclude each other")
	case opts.Shards != nil && opts.Shards.Shards <= 0:
		return nil, fmt.Errorf("controller: %d shards: want at least one", opts.Shards.Shards)
	}
	found := false
	for _, q := range opts.Queries {
		found = found || q.Name == opts.For
	}
	if !found {
		return nil, fmt.Errorf("controller: Options.For %q names none of the queries", opts.For)
	}
	for name := range opts.Map {
		if name == opts.For {
			return nil, fmt.Errorf("controller: Options.Map has an entry for %q, the primary query", name)
		}
	}
	if opts.Workers <= 0 {
		opts.Workers = 4
	}
	if opts.BackoffBase <= 0 {
		opts.BackoffBase = 50 * time.Millisecond
	}
	if opts.BackoffMax <= 0 {
		opts.BackoffMax = 2 * time.Minute
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = 30 * time.Second
	}
	if opts.Log.GetSink() == nil {
		opts.Log = logr.Discard()
	}
	opts.Log = opts.Log.WithValues("controller", opts.Name)
	// The identity is decided here rather than by election or shards, so that the logs name it.
	identify := func(id *string) {
		if *id == "" {
			*id = lease.Identity()
		}
		opts.Log = opts.Log.WithValues("identity", *id)
	}
	if opts.Election != nil {
		e := *opts.Election
		identify(&e.Identity)
		opts.Election = &e
	}
	if opts.Shards != nil {
		s := *opts.Shards
		identify(&s.Identity)
		opts.Shards = &s
	}
	c := &Controller[S]{
		client: client,
		opts:   opts,
		scopes: map[int]*scope{},
		known:  map[Key]int{},
		kick:   make(chan struct{}, 1),
		q:      newQueue(opts.BackoffBase, opts.BackoffMax),
	}
	if opts.Shards != nil {
		c.space = kates.ShardSpace{Key: kates.ShardByUID, Count: opts.Shards.Shards}
	}
	m, err := newMetrics(opts.Name, opts.Workers, opts.Shards != nil, opts.Metrics)
	if err != nil {
		return nil, err
	}
	c.metrics = m
	c.q.observe = func(d time.Duration) { m.queueWait.Observe(d.Seconds()) }
	return c, nil
}

// Run watches the queries and reconciles until ctx ends, then shuts down gracefully: it stops
// taking keys, lets the reconciles in flight finish (up to ShutdownTimeout), gives the Lease or
// the shards up (if their Release is set), and returns once every goroutine it started has.
// Nothing is reconciled before the view is complete, nor, with election or shards, outside a
// term. Run may be called once.
func (c *Controller[S]) Run(ctx context.Context) error {
	if !c.started.CompareAndSwap(false, true) {
		return errors.New("controller: Run called twice")
	}
	// Everything but the intake outlives ctx by the drain: the Watch (reconciles read the
	// view), the terms and shards (their fences let the last writes through).
	runCtx, stopAll := context.WithCancel(context.WithoutCancel(ctx))
	defer stopAll()

	// The probes answer from the start (not ready until the view is complete), so that a
	// kubelet's liveness probe passes while the watch waits for its kinds or lists.
	var servers *Servers
	if c.opts.Serve != nil {
		var err error
		if servers, err = c.serve(*c.opts.Serve); err != nil {
			return err
		}
		defer func() {
			shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = servers.Close(shutdown)
		}()
	}
	watch := c.opts.Watch
	watch.Snapshot = (*S)(nil)
	if c.opts.Shards != nil {
		watch.Sharding = &kates.Sharding{Space: c.space}
	}
	acc, err := c.client.WatchWith(runCtx, watch, c.opts.Queries...)
	if err != nil {
		return err
	}
	c.acc.Store(acc)

	var bg sync.WaitGroup
	bg.Go(func() { c.loop(runCtx, acc) })
	var workers sync.WaitGroup
	for range c.opts.Workers {
		workers.Go(c.work)
	}

	// The scopes: the whole run, the terms, or the shards, in a goroutine that returns once
	// they all have (and the Lease or shards are given up).
	scopesCtx, endScopes := context.WithCancel(runCtx)
	scopesDone := make(chan error, 1)
	go func() { scopesDone <- c.runScopes(scopesCtx, acc) }()

	var runErr error
	scopesReturned := false
	select {
	case <-ctx.Done():
	case runErr = <-scopesDone: // an elected or sharded run failed on its own
		scopesReturned = true
	}
	c.stopping.Store(true)
	c.opts.Log.Info("shutting down: no new reconciles; letting those in flight finish", "timeout", c.opts.ShutdownTimeout.String())
	c.q.close() // take no more keys; the workers finish what they run
	drained := make(chan struct{})
	go func() { workers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(c.opts.ShutdownTimeout):
		c.opts.Log.Info("shutdown: reconciles still running after the timeout; cancelling them", "timeout", c.opts.ShutdownTimeout)
	}
	endScopes() // cancels what still runs; the terms end, and Release gives them up
	<-drained
	if !scopesReturned {
		runErr = <-scopesDone
	}
	release := "left to run out"
	switch {
	case c.opts.Election != nil && c.opts.Election.Release, c.opts.Shards != nil && c.opts.Shards.Release:
		release = "released"
	case c.opts.Election == nil && c.opts.Shards == nil:
		release = "none held"
	}
	c.opts.Log.Info("stopped reconciling", "leases", release)
	stopAll()
	bg.Wait()
	for range acc.Changed() { // closed once the Watch's goroutines have returned
	}
	return runErr
}

// runScopes opens the scopes keys are reconciled in, as the mode says, until ctx ends.
func (c *Controller[S]) runScopes(ctx context.Context, acc *kates.Accumulator) error {
	switch {
	case c.opts.Election != nil:
		opts := *c.opts.Election
		opts.Views = []*kates.Accumulator{acc}
		for {
			err := election.Run(ctx, c.client, opts, func(ctx context.Context) error {
				c.leading.Store(true)
				c.metrics.leader.Set(1)
				defer func() { c.leading.Store(false); c.metrics.leader.Set(0) }()
				c.opts.Log.Info("leading")
				c.hold(ctx, 0)
				return nil
			})
			if !errors.Is(err, kates.ErrLeaseLost) {
				return err
			}
			c.opts.Log.Info("lost the lease; standing by")
		}
	case c.opts.Shards != nil:
		opts := *c.opts.Shards
		observe, handover := opts.Observe, opts.Handover
		opts.Observe = func(s shards.State) {
			c.metrics.shardsOwned.Set(float64(len(s.Held)))
			if observe != nil {
				observe(s)
			}
		}
		opts.Handover = func(h shards.Handover) {
			c.metrics.handovers.Observe(h.Shard, h.In, h.Duration, h.Released)
			if handover != nil {
				handover(h)
			}
		}
		select {
		case <-acc.Bootstrapped():
		case <-ctx.Done():
			return nil
		}
		return shards.Run(ctx, c.client, opts, func(ctx context.Context, i int) error {
			c.scopesMu.Lock()
			c.taking++
			c.scopesMu.Unlock()
			begin := time.Now()
			err := acc.AddShard(ctx, i)
			c.scopesMu.Lock()
			c.taking--
			c.scopesMu.Unlock()
			defer acc.RemoveShard(i) // after the reconciles: its objects leave the view as moved
			if err != nil {
				return nil // the shard went away while its objects were being listed
			}
			c.opts.Log.Info("shard in the view; reconciling it", "shard", i, "listed", time.Since(begin).Round(time.Millisecond).String())
			c.hold(ctx, i)
			why := "stopping"
			switch {
			case shards.HandedAway(ctx):
				why = "handed away"
			case errors.Is(context.Cause(ctx), kates.ErrLeaseLost):
				why = "lease lost"
			}
			c.opts.Log.Info("shard no longer reconciled", "shard", i, "why", why)
			return nil
		})
	default:
		select {
		case <-acc.Bootstrapped():
			c.hold(ctx, 0)
		case <-ctx.Done():
		}
		return nil
	}
}

// hold opens scope i for as long as ctx lasts, and returns once the reconciles running in it
// have.
func (c *Controller[S]) hold(ctx context.Context, i int) {
	s := &scope{ctx: ctx}
	c.scopesMu.Lock()
	c.scopes[i] = s
	c.scopesMu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
	<-ctx.Done()
	c.scopesMu.Lock()
	delete(c.scopes, i)
	c.scopesMu.Unlock()
	s.work.Wait()
}

// acquire returns scope i with one more reconcile counted in its work, or nil if the scope is
// not open and ready.
func (c *Controller[S]) acquire(i int) *scope {
	c.scopesMu.Lock()
	defer c.scopesMu.Unlock()
	s := c.scopes[i]
	if s == nil || !s.ready || s.ctx.Err() != nil {
		return nil
	}
	s.work.Add(1)
	return s
}

// loop keeps the view current while some scope is open, and queues the keys its changes
// concern. A standby (no scope open) leaves the changes in the Accumulator: its first Update
// as a leader takes them all at once.
func (c *Controller[S]) loop(ctx context.Context, acc *kates.Accumulator) {
	select {
	case <-acc.Bootstrapped():
		c.opts.Log.Info("view complete")
	case <-ctx.Done():
		return
	}
	var (
		deltas []*kates.Delta
		retry  <-chan time.Time
		resync <-chan time.Time
	)
	if c.opts.Resync > 0 {
		t := time.NewTicker(c.opts.Resync)
		defer t.Stop()
		resync = t.C
	}
	for {
		resyncing := false
		select {
		case <-ctx.Done():
			return
		case _, ok := <-acc.Changed():
			if !ok {
				return
			}
		case <-c.kick:
		case <-retry:
		case <-resync:
			resyncing = true
		}
		retry = nil
		// The scopes opened before this Update are whole in its view (a shard's AddShard has
		// returned): they become ready after it. Those opened during it wait for the next,
		// which their kick brings.
		c.scopesMu.Lock()
		var opening []*scope
		openingAt := map[int]bool{}
		for i, s := range c.scopes {
			if !s.ready {
				opening = append(opening, s)
				openingAt[i] = true
			}
		}
		open := len(c.scopes) > 0
		c.scopesMu.Unlock()
		if !open {
			continue
		}
		c.viewMu.Lock()
		_, err := acc.UpdateWithDeltas(ctx, &c.snap, &deltas)
		c.viewMu.Unlock()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			c.opts.Log.Error(err, "update of the view failed; retrying")
			retry = time.After(time.Second)
			continue
		}
		for _, d := range deltas {
			c.queueDelta(d, openingAt)
		}
		if len(opening) > 0 {
			c.scopesMu.Lock()
			for _, s := range opening {
				s.ready = true
			}
			c.scopesMu.Unlock()
			c.queueKnown(fresh, opening)
		}
		if resyncing {
			c.queueKnown(later, nil)
		}
		c.metrics.queueDepth.Set(float64(c.q.len()))
	}
}

// queueKnown queues every primary key in the view, or, if only is not empty, those whose scope
// is one of them.
func (c *Controller[S]) queueKnown(p priority, only []*scope) {
	var in map[int]bool
	if len(only) > 0 {
		in = map[int]bool{}
		c.scopesMu.Lock()
		for i, s := range c.scopes {
			for _, o := range only {
				if s == o {
					in[i] = true
				}
			}
		}
		c.scopesMu.Unlock()
	}
	for k, i := range c.known {
		if in == nil || in[i] {
			c.q.add(k, i, p)
		}
	}
}

// queueDelta queues the keys one change concerns, but for the keys of scopes opening (whose
// every key queueKnown queues next, once: queueing them here too would reconcile a key that a
// worker took at once twice).
func (c *Controller[S]) queueDelta(d *kates.Delta, opening map[int]bool) {
	if d.Query == c.opts.For {
		key := Key{Namespace: d.Namespace, Name: d.Name}
		if c.primary.Kind == "" {
			gv, _ := schema.ParseGroupVersion(d.APIVersion)
			c.primary = schema.GroupKind{Group: gv.Group, Kind: d.Kind}
			c.primaryNamespaced = d.Namespace != ""
		}
		i := c.scopeOf(d.Object)
		switch d.DeltaType {
		case kates.ObjectAdd, kates.ObjectUpdate:
			c.known[key] = i
			if !opening[i] {
				c.q.add(key, i, fresh)
			}
		case kates.ObjectDelete:
			delete(c.known, key)
			c.q.add(key, i, fresh) // the reconcile finds it gone, and cleans up what it must
			c.opts.Log.V(1).Info("deleted", "key", key.String())
		case kates.ObjectMoved:
			// Another replica's now: not a delete, nothing to do.
			delete(c.known, key)
			c.q.drop(key)
			c.opts.Log.V(1).Info("moved to another replica", "key", key.String())
		}
		return
	}
	if d.DeltaType == kates.ObjectMoved {
		return // moved with its owner's shard
	}
	var keys []Key
	if m := c.opts.Map[d.Query]; m != nil {
		keys = m(d)
	} else {
		keys = c.ownerOf(d.Object)
	}
	for _, k := range keys {
		if i, ok := c.known[k]; ok && !opening[i] {
			c.q.add(k, i, fresh)
		}
	}
}

// ownerOf returns the key of obj's controller owner if it is of the primary kind.
func (c *Controller[S]) ownerOf(obj metav1.Object) []Key {
	if obj == nil || c.primary.Kind == "" {
		return nil
	}
	ref := metav1.GetControllerOfNoCopy(obj)
	if ref == nil || ref.Kind != c.primary.Kind {
		return nil
	}
	if gv, err := schema.ParseGroupVersion(ref.APIVersion); err != nil || gv.Group != c.primary.Group {
		return nil
	}
	k := Key{Name: ref.Name}
	if c.primaryNamespaced {
		k.Namespace = obj.GetNamespace() // an owner is in its dependent's namespace, or cluster-scoped
	}
	return []Key{k}
}

// scopeOf returns the scope a primary object is reconciled in: its shard, or 0.
func (c *Controller[S]) scopeOf(obj metav1.Object) int {
	if c.opts.Shards == nil || obj == nil {
		return 0
	}
	return c.space.ShardOf(obj)
}

// work is a worker: it reconciles the keys the queue gives it, each in its scope, until the
// queue closes.
func (c *Controller[S]) work() {
	for {
		key, i, ok := c.q.get()
		if !ok {
			return
		}
		s := c.acquire(i)
		if s == nil {
			c.q.skip(key) // not ours now: queued again when its scope opens
			continue
		}
		res, err := c.reconcile(s.ctx, key)
		cut := s.ctx.Err() != nil
		s.work.Done()
		switch {
		case cut:
			// Cut short by the end of its term or shard: no failure of its own.
			c.q.skip(key)
			c.q.drop(key)
		case err != nil:
			delay := c.q.done(key, outcome{failed: true})
			c.opts.Log.Error(err, "reconcile failed; retrying", "key", key.String(), "after", delay.Round(time.Millisecond))
		default:
			c.q.done(key, outcome{requeueAfter: res.RequeueAfter})
		}
		c.metrics.queueDepth.Set(float64(c.q.len()))
	}
}

var reconcileIDs atomic.Uint64

// reconcile runs the user's Reconcile for key, with its logger, span and metrics.
func (c *Controller[S]) reconcile(ctx context.Context, key Key) (res Result, err error) {
	id := reconcileIDs.Add(1)
	log := c.opts.Log.WithValues("namespace", key.Namespace, "name", key.Name, "reconcileID", id)
	ctx = logr.NewContext(ctx, log)
	if c.opts.Tracer != nil {
		var span trace.Span
		ctx, span = c.opts.Tracer.Start(ctx, "Reconcile "+c.opts.Name, trace.WithAttributes(
			attribute.String("controller", c.opts.Name),
			attribute.String("k8s.namespace.name", key.Namespace),
			attribute.String("k8s.object.name", key.Name)))
		defer func() {
			if err != nil {
				span.RecordError(err)
				span.SetStatus(codes.Error, err.Error())
			}
			span.End()
		}()
	}
	m := c.metrics
	m.active.Inc()
	begin := time.Now()
	defer func() {
		m.active.Dec()
		if r := recover(); r != nil {
			err = fmt.Errorf("controller: reconcile of %s panicked: %v", key, r)
			log.Error(err, "panic", "stack", string(debug.Stack()))
			m.reconciles.WithLabelValues("panic").Inc()
		} else if ctx.Err() == nil {
			m.reconciles.WithLabelValues(resultLabel(res, err)).Inc()
		}
		if err != nil && ctx.Err() == nil {
			m.errors.Inc()
		}
		m.duration.Observe(time.Since(begin).Seconds())
	}()
	return c.opts.Reconcile(ctx, Request[S]{Key: key, c: c})
}

func resultLabel(res Result, err error) string {
	switch {
	case err != nil:
		return "error"
	case res.RequeueAfter > 0:
		return "requeue_after"
	}
	return "success"
}

// Ready returns nil once the controller may reconcile: its view is complete and, sharded, the
// shards it holds are in the view. Otherwise the error says what it waits for.
func (c *Controller[S]) Ready() error {
	acc := c.acc.Load()
	switch {
	case acc == nil && c.started.Load():
		return errors.New("view not complete yet: starting the watch")
	case acc == nil:
		return errors.New("not running")
	}
	select {
	case <-acc.Bootstrapped():
	default:
		return errors.New("view not complete yet")
	}
	if c.stopping.Load() {
		return errors.New("shutting down")
	}
	c.scopesMu.Lock()
	defer c.scopesMu.Unlock()
	if c.taking > 0 {
		return fmt.Errorf("listing %d shards into the view", c.taking)
	}
	return nil
}

// Leading reports whether this replica reconciles: it holds the Lease (election), or runs
// alone; false for a sharded controller, whose Shards say.
func (c *Controller[S]) Leading() bool {
	if c.opts.Election == nil {
		return c.opts.Shards == nil && c.started.Load()
	}
	return c.leading.Load()
}

// Shards returns the shards whose keys this replica reconciles now, in order (sharded mode).
func (c *Controller[S]) Shards() []int {
	if c.opts.Shards == nil {
		return nil
	}
	c.scopesMu.Lock()
	defer c.scopesMu.Unlock()
	var out []int
	for i, s := range c.scopes {
		if s.ready {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// role describes what the replica does, for /readyz.
func (c *Controller[S]) role() string {
	switch {
	case c.opts.Shards != nil:
		s := c.Shards()
		parts := make([]string, len(s))
		for i, v := range s {
			parts[i] = fmt.Sprint(v)
		}
		return fmt.Sprintf("reconciling shards [%s] of %d", strings.Join(parts, " "), c.opts.Shards.Shards)
	case c.Leading():
		return "leading"
	}
	return "standing by"
}
