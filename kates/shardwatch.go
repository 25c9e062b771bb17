package kates

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/klog/v2"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/internal/protodecode"
)

// Sharded watches.
//
// A sharded query placed by key runs reflectors that send shard selectors, each into a Feed of
// the query's store: adding a shard lists that shard alone, and removing one stops its watch
// (or narrows the selector of a reflector that has other shards too), while the other shards'
// watches carry on. The API server walks the whole collection for every request with a shard
// selector, whatever the shard's size, so shards that arrive together (those a replica holds
// when it starts, or takes over from a dead one) share one reflector: the shard manager gathers
// the AddShards that arrive within milliseconds of each other into one change. A shard added
// while a list is under way does not restart it (the server's walk, and its waiters', would be
// lost): a reflector for it starts once that list is done, and shards added before then join
// that reflector. A query placed by owner runs one reflector without a selector (the server
// cannot select on owner references) into a feed that keeps the shards held; adding a shard
// lists the query again (after a list under way, as above), and removing one only drops its
// objects. A query placed by owner label is the same, but its
// reflector's requests carry a label selector leaving out the objects stamped with shards held
// elsewhere; removing a shard narrows it for the reflector's next request. Every feed matches
// what arrives with the same hash, so a server that ignores selectors costs network, not
// correctness.

// shardingFor returns the sharding of query q in a Watch whose own is watch (nil if none), and
// whether it is the query's own, static one.
func shardingFor(q Query, watch *Sharding) (*Sharding, bool, error) {
	sh, static := watch, false
	if q.Sharding != nil {
		sh, static = q.Sharding, true
	}
	if sh == nil || q.Placement == PlaceEverywhere {
		return nil, false, nil
	}
	if q.Placement != PlaceByKey && q.Placement != PlaceByOwner && q.Placement != PlaceByOwnerLabel {
		return nil, false, fmt.Errorf("kates: query %q: unknown placement %d", q.Name, int(q.Placement))
	}
	if err := sh.validate(); err != nil {
		return nil, false, fmt.Errorf("kates: query %q: %w", q.Name, err)
	}
	return sh.normalized(), static, nil
}

// normalized returns a copy of sh whose Owned is sorted, each shard once: the caller's may
// change after Watch returns, and a shard named twice must not be watched twice.
func (sh *Sharding) normalized() *Sharding {
	owned := slices.Clone(sh.Owned)
	slices.Sort(owned)
	return &Sharding{Space: sh.Space, Owned: slices.Compact(owned)}
}

// byServer reports whether the API server can select sh's shards under placement p.
func (sh *Sharding) byServer(p Placement) bool {
	return p == PlaceByKey || sh.Space.Key == ShardByNamespace
}

// byLabel reports whether the server selects sh's shards under placement p by OwnerShardLabel.
func (sh *Sharding) byLabel(p Placement) bool {
	return p == PlaceByOwnerLabel && sh.Space.Key == ShardByUID
}

// labelSelector is the label requirement to send, with the query's own label selector, for
// sh's owned shards under placement p; "" if none.
func (sh *Sharding) labelSelector(p Placement) string {
	if !sh.byLabel(p) || len(sh.Owned) == 0 {
		return ""
	}
	return sh.Space.ownerLabelSelector(func(i int) bool { return slices.Contains(sh.Owned, i) })
}

// andSelectors joins two label selectors, either of which may be empty: both must hold.
func andSelectors(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "," + b
}

// serverSelector is the shard selector to send for sh's owned shards under placement p; "" when
// the server cannot select them.
func (sh *Sharding) serverSelector(p Placement) string {
	if !sh.byServer(p) || len(sh.Owned) == 0 {
		return ""
	}
	return sh.Space.Selector(sh.Owned...).String()
}

// matcher returns whether an object is in sh's owned shards under placement p.
func (sh *Sharding) matcher(p Placement) func(*unstructured.Unstructured) bool {
	place := sh.Space.placer(p)
	owned := map[int]bool{}
	for _, i := range sh.Owned {
		owned[i] = true
	}
	return func(u *unstructured.Unstructured) bool { return owned[place(u)] }
}

// shardedQuery is one sharded query of a Watch and the reflectors of its shards.
type shardedQuery struct {
	rq    *resolvedQuery
	store *accumulator.Store
	// byServer: reflectors with shard selectors, each for the shards that arrived together;
	// otherwise one reflector for every shard held, filtered on the client, and, byLabel,
	// narrowed by the server to the objects not stamped with shards held elsewhere.
	byServer bool
	byLabel  bool
	// probed makes the gate check once per query.
	probed sync.Once

	// The running reflectors: by shard (byServer; several shards may share one), or the one
	// of every shard (all). latest is the byServer reflector started last, which a shard
	// added while its list is under way joins. Touched only by startSharded and then by the
	// shard manager's goroutine.
	feeds  map[int]*runningFeed
	latest *runningFeed
	all    *runningFeed
}

type runningFeed struct {
	feed   *accumulator.Feed
	cancel context.CancelFunc
	// started is closed when the reflector starts: at once, or, for a feed that follows
	// another's list, once that list is done (see feedStart).
	started chan struct{}
	// following is the feed whose list this one's waits for, if any.
	following *runningFeed
	// stopped is closed by stop: an AddShard waiting for this feed's list waits for its
	// successor's instead (see AddShard).
	stopped  chan struct{}
	stopOnce sync.Once
	// label is the label requirement the reflector's requests carry (a feed of a query
	// placed by owner label); each request reads it afresh.
	label atomic.Pointer[string]
	// shards are the shards a feed of a query the server selects for lists and watches
	// (touched only where feeds is), and shardSelector their selector, which each request
	// reads afresh.
	shards        []int
	shardSelector atomic.Pointer[string]
}

// serverShardSelector returns the feed's shard selector, "" if none.
func (r *runningFeed) serverShardSelector() string {
	if p := r.shardSelector.Load(); p != nil {
		return *p
	}
	return ""
}

// listing reports whether the feed's first list is under way: its reflector has started and
// its list is not done.
func (r *runningFeed) listing() bool {
	select {
	case <-r.started:
	default:
		return false
	}
	return !r.done()
}

// waiting reports whether the feed waits for another's list before it starts its own: shards
// added meanwhile join it without a request being abandoned.
func (r *runningFeed) waiting() bool {
	select {
	case <-r.started:
		return false
	default:
		return !r.done()
	}
}

// done reports whether the feed's first list is done, or the feed stopped.
func (r *runningFeed) done() bool {
	select {
	case <-r.feed.Synced():
		return true
	case <-r.stopped:
		return true
	default:
		return false
	}
}

// labelSelector returns the feed's label requirement, "" if none.
func (r *runningFeed) labelSelector() string {
	if p := r.label.Load(); p != nil {
		return *p
	}
	return ""
}

func (r *runningFeed) stop() {
	r.stopOnce.Do(func() {
		r.cancel()
		r.feed.Close()
		close(r.stopped)
	})
}

// startSharded starts the reflectors of rq's initial shards, counted in wg, and returns the
// query for the shard manager.
func (c *Client) startSharded(ctx context.Context, wg *sync.WaitGroup, acc *accumulator.Accumulator, rq *resolvedQuery, opts WatchOptions, observed WatchObserver) *shardedQuery {
	sq := &shardedQuery{
		rq:       rq,
		store:    acc.Store(rq.Name),
		byServer: rq.sharding.byServer(rq.Placement),
		byLabel:  rq.sharding.byLabel(rq.Placement),
		feeds:    map[int]*runningFeed{},
	}
	for _, i := range rq.sharding.Owned {
		sq.store.Own(i)
	}
	if len(rq.sharding.Owned) == 0 {
		// Nothing to hold yet: the view is complete, and empty.
		_ = sq.store.Replace(nil, "")
		return sq
	}
	if sq.byServer {
		sq.startShards(ctx, wg, c, acc, rq.sharding.Owned, opts, observed, feedStart{})
	} else {
		sq.all = c.startFeed(ctx, wg, acc, sq, nil, opts, observed, feedStart{})
	}
	return sq
}

// startShards starts one reflector for shards of sq, a query the server selects for, as how
// says.
func (sq *shardedQuery) startShards(ctx context.Context, wg *sync.WaitGroup, c *Client, acc *accumulator.Accumulator, shards []int, opts WatchOptions, observed WatchObserver, how feedStart) {
	rf := c.startFeed(ctx, wg, acc, sq, shards, opts, observed, how)
	for _, i := range shards {
		sq.feeds[i] = rf
	}
	sq.latest = rf
}

// dropShard stops shard i's reflector, or, if it has other shards too, narrows its selector
// to those from its next request on (the store drops what it still sends of shard i).
func (sq *shardedQuery) dropShard(i int) {
	r := sq.feeds[i]
	if r == nil {
		return
	}
	delete(sq.feeds, i)
	r.shards = slices.DeleteFunc(slices.Clone(r.shards), func(s int) bool { return s == i })
	if len(r.shards) == 0 {
		r.stop()
		return
	}
	sel := sq.rq.sharding.Space.Selector(r.shards...).String()
	r.shardSelector.Store(&sel)
}

// feedStart says when a new feed's reflector starts, and which feed it takes over from.
type feedStart struct {
	// replacing, if not nil, is stopped as soon as the new feed is open: a feed that has not
	// started (its shards join the new one) or whose list is done (the new one lists again).
	replacing *runningFeed
	// follows, if not nil, is a feed whose first list is under way: the new feed's reflector
	// starts once that list is done, so that a shard added meanwhile neither restarts it (the
	// server's work on it, and its waiters', would be lost) nor loads the server with a
	// second walk of the collection at the same time. With thenStop, follows is stopped then,
	// as replacing is (the new feed lists everything it did).
	follows  *runningFeed
	thenStop bool
}

// startFeed opens a feed of sq's store for shards (nil: every shard it holds, filtered on the
// client) and starts its reflector as how says. A feed it takes over from is stopped after
// the new feed is open (so that a query still bootstrapping waits for the new one) and before
// its reflector starts (so the old feed's late events cannot follow the new feed's list); a
// stopped feed's requests are cancelled, so the server stops serving them.
func (c *Client) startFeed(ctx context.Context, wg *sync.WaitGroup, acc *accumulator.Accumulator, sq *shardedQuery, shards []int, opts WatchOptions, observed WatchObserver, how feedStart) *runningFeed {
	var feed *accumulator.Feed
	if shards == nil {
		feed = sq.store.NewFeed(accumulator.AllShards)
	} else {
		feed = sq.store.NewFeed(shards...)
	}
	if how.replacing != nil {
		how.replacing.stop()
	}
	fctx, cancel := context.WithCancel(ctx)
	rf := &runningFeed{feed: feed, cancel: cancel, started: make(chan struct{}), stopped: make(chan struct{}), shards: slices.Clone(shards)}
	if how.follows == nil {
		close(rf.started)
	}
	rf.following = how.follows
	sel := serverSelection{}
	probe := ""
	if shards != nil {
		probe = sq.rq.sharding.Space.Selector(shards...).String()
		rf.shardSelector.Store(&probe)
		sel.shard = rf.serverShardSelector
	}
	if sq.byLabel {
		sq.narrow(rf)
		sel.label = rf.labelSelector
	}
	sel.keep = func(item []byte) bool {
		// Where the server selects the shards, it sends nothing to leave out.
		return sq.byServer && !c.shardSelectorsIgnored.Load() || sq.keepItem(item)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if f := how.follows; f != nil {
			select {
			case <-f.feed.Synced():
			case <-f.stopped:
			case <-fctx.Done():
				if how.thenStop {
					f.stop() // its successor is gone before it began: nothing takes over
				}
				return
			}
			if how.thenStop {
				f.stop()
			}
			close(rf.started)
		}
		if probe != "" {
			sq.probed.Do(func() { c.checkShardGate(fctx, sq.rq, probe) })
		}
		var into reflectorStore = feed
		if sq.byLabel {
			into = &movingFeed{Feed: feed, ctx: fctx, c: c, rq: sq.rq, narrowed: func() bool { return rf.labelSelector() != "" }}
		}
		c.runReflector(fctx, acc, sq.rq, opts, observed, into, sel)
	}()
	return rf
}

// keepItem reports whether sq's store would keep the object of a list item, by the shard
// its placement gives it, read from the item's bytes: a replica that places objects on the
// client (by their controller, or behind a server that ignores shard selectors) then decodes
// only its own share of what it is sent. It says true of anything it cannot place, and of an
// object carrying OwnerShardLabel under PlaceByOwnerLabel, which the store checks (and warns of
// when mislabeled) once decoded.
func (sq *shardedQuery) keepItem(item []byte) bool {
	label := ""
	if sq.byLabel {
		label = OwnerShardLabel
	}
	m, ok := protodecode.ReadItemMeta(item, label)
	if !ok || m.HasLabel {
		return true
	}
	return sq.store.Owns(sq.rq.sharding.Space.itemShard(sq.rq.Placement, m))
}

// narrow sets the label requirement of rf, the feed of a query placed by owner label, for the
// shards its store holds now. Only the shard manager's goroutine (or startSharded) calls it,
// after changing what the store holds.
func (sq *shardedQuery) narrow(rf *runningFeed) {
	sel := sq.rq.sharding.Space.ownerLabelSelector(sq.store.Owns)
	rf.label.Store(&sel)
}

// shardManager is the Sharder of a sharded Watch: AddShard and RemoveShard hand their work to
// its goroutine (run), which starts and stops the reflectors within the Watch's context.
type shardManager struct {
	space ShardSpace
	cmds  chan shardCmd
	done  chan struct{} // closed when run returns

	mu    sync.Mutex
	owned map[int]bool
	// observed, if not nil, is told how long each AddShard took; set before the Watch returns.
	observed ShardWatchObserver
}

type shardCmd struct {
	add   bool
	shard int
	// synced receives, for an add, the feeds whose first list completes the shard.
	synced chan []*runningFeed
	// removed is closed once a remove is done.
	removed chan struct{}
}

func newShardManager(sh *Sharding) *shardManager {
	m := &shardManager{space: sh.Space, cmds: make(chan shardCmd), done: make(chan struct{}), owned: map[int]bool{}}
	for _, i := range sh.Owned {
		m.owned[i] = true
	}
	return m
}

// sharderOf returns m as an accumulator.Sharder, or nil (not a nil *shardManager in an
// interface) if m is nil.
func sharderOf(m *shardManager) accumulator.Sharder {
	if m == nil {
		return nil
	}
	return m
}

// AddShard implements accumulator.Sharder.
func (m *shardManager) AddShard(ctx context.Context, i int) error {
	if i < 0 || i >= m.space.Count {
		return fmt.Errorf("kates: shard %d of a space of %d", i, m.space.Count)
	}
	// A query placed by owner lists every shard held in one feed, which a later AddShard
	// replaces (its list must include the new shard), and one placed by key lists shards
	// added together in one feed; a feed waiting for another's list to be done is replaced
	// by one that lists the shards added meanwhile too: a waiter whose feed was stopped
	// before its list completed asks again, and waits for the replacement, which holds its
	// shard too.
	// (So an AddShard racing a RemoveShard of the same shard may add it back: call them in
	// turn for one shard, as a shard's owner does.)
	began := time.Now()
	for {
		cmd := shardCmd{add: true, shard: i, synced: make(chan []*runningFeed, 1)}
		select {
		case m.cmds <- cmd:
		case <-m.done:
			return fmt.Errorf("kates: add shard %d: %w", i, accumulator.ErrStopped)
		case <-ctx.Done():
			return ctx.Err()
		}
		// The manager may stop between taking the command and answering it (the Watch
		// ended): wait for either.
		var feeds []*runningFeed
		select {
		case feeds = <-cmd.synced:
		case <-m.done:
			return fmt.Errorf("kates: add shard %d: %w", i, accumulator.ErrStopped)
		case <-ctx.Done():
			return ctx.Err()
		}
		replaced := false
		for _, f := range feeds {
			select {
			case <-f.feed.Synced():
			case <-f.stopped:
				replaced = true
			case <-m.done:
				return fmt.Errorf("kates: add shard %d: %w", i, accumulator.ErrStopped)
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if !replaced {
			if m.observed != nil {
				m.observed.ShardAdded(i, time.Since(began))
			}
			return nil
		}
	}
}

// RemoveShard implements accumulator.Sharder. It returns once the shard's objects have left
// the stores (the next Update shows them moved).
func (m *shardManager) RemoveShard(i int) {
	cmd := shardCmd{shard: i, removed: make(chan struct{})}
	select {
	case m.cmds <- cmd:
		<-cmd.removed
	case <-m.done:
	}
}

// Shards implements accumulator.Sharder.
func (m *shardManager) Shards() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.owned))
}

// Shards added together (a dead replica's, taken over at once) are gathered into one change:
// the manager takes every AddShard that arrives within gatherQuiet of the previous one, up to
// gatherMax after the first, before it starts any list. A list costs the API server a walk of
// the whole collection, against these milliseconds.
const (
	gatherQuiet = 20 * time.Millisecond
	gatherMax   = 100 * time.Millisecond
)

// run serves AddShard and RemoveShard for queries until ctx ends. Static queries (a Sharding
// of their own) are left alone.
func (m *shardManager) run(ctx context.Context, wg *sync.WaitGroup, c *Client, acc *accumulator.Accumulator, queries []*shardedQuery, opts WatchOptions, observed WatchObserver) {
	defer close(m.done)
	var dynamic []*shardedQuery
	for _, sq := range queries {
		if !sq.rq.static {
			dynamic = append(dynamic, sq)
		}
	}
	var next *shardCmd // a command met while gathering adds, served after them
	for {
		var cmd shardCmd
		if next != nil {
			cmd, next = *next, nil
		} else {
			select {
			case <-ctx.Done():
				return
			case cmd = <-m.cmds:
			}
		}
		if !cmd.add {
			m.remove(dynamic, cmd)
			continue
		}
		batch := []shardCmd{cmd}
		quiet := time.NewTimer(gatherQuiet)
		limit := time.NewTimer(gatherMax)
	gather:
		for {
			select {
			case <-ctx.Done():
				quiet.Stop()
				limit.Stop()
				return
			case more := <-m.cmds:
				if !more.add {
					next = &more
					break gather
				}
				batch = append(batch, more)
				quiet.Reset(gatherQuiet)
			case <-quiet.C:
				break gather
			case <-limit.C:
				break gather
			}
		}
		quiet.Stop()
		limit.Stop()
		m.add(ctx, wg, c, acc, dynamic, batch, opts, observed)
	}
}

// remove serves a RemoveShard.
func (m *shardManager) remove(dynamic []*shardedQuery, cmd shardCmd) {
	i := cmd.shard
	m.mu.Lock()
	delete(m.owned, i)
	m.mu.Unlock()
	for _, sq := range dynamic {
		sq.dropShard(i)
		sq.store.MoveOut(i)
		if sq.all != nil && len(m.owned) == 0 {
			sq.all.stop() // nothing left to hold: stop listing
			sq.all = nil
		}
		if sq.all != nil && sq.byLabel {
			// Leave shard i's stamped objects out from the next request on: the
			// watch running now may still send them (they are dropped), but no
			// list is needed, since the view holds less than before.
			sq.narrow(sq.all)
		}
	}
	close(cmd.removed)
}

// add serves the AddShards of batch as one change to every query: the shards not held yet
// are listed together, by one reflector per query. A list under way for shards added
// earlier is not restarted: the new shards follow it (their reflector starts once it is
// done), or join a reflector that has not started yet.
func (m *shardManager) add(ctx context.Context, wg *sync.WaitGroup, c *Client, acc *accumulator.Accumulator, dynamic []*shardedQuery, batch []shardCmd, opts WatchOptions, observed WatchObserver) {
	m.mu.Lock()
	for _, cmd := range batch {
		m.owned[cmd.shard] = true
	}
	m.mu.Unlock()
	for _, sq := range dynamic {
		var fresh []int
		for _, cmd := range batch {
			i := cmd.shard
			if sq.byServer && sq.feeds[i] == nil && !slices.Contains(fresh, i) ||
				!sq.byServer && (!sq.store.Owns(i) || sq.all == nil) && !slices.Contains(fresh, i) {
				fresh = append(fresh, i)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		for _, i := range fresh {
			sq.store.Own(i)
		}
		if sq.byServer {
			var how feedStart
			shards := fresh
			switch l := sq.latest; {
			case l != nil && l.waiting():
				// Not started yet: the new shards join it, and it still follows
				// the same list. Its waiters wait for the joined one (see AddShard).
				shards = append(slices.Clone(l.shards), fresh...)
				how = feedStart{replacing: l, follows: l.following}
			case l != nil && l.listing():
				how = feedStart{follows: l}
			}
			slices.Sort(shards)
			sq.startShards(ctx, wg, c, acc, shards, opts, observed, how)
			continue
		}
		switch a := sq.all; {
		case a != nil && a.waiting():
			// Its list has not started: it lists the new shards too.
			if sq.byLabel {
				sq.narrow(a)
			}
		case a != nil && a.listing():
			sq.all = c.startFeed(ctx, wg, acc, sq, nil, opts, observed, feedStart{follows: a, thenStop: true})
		default:
			// List the query again, for the shards held now.
			sq.all = c.startFeed(ctx, wg, acc, sq, nil, opts, observed, feedStart{replacing: a})
		}
	}
	for _, cmd := range batch {
		var synced []*runningFeed
		for _, sq := range dynamic {
			if sq.byServer {
				synced = append(synced, sq.feeds[cmd.shard])
			} else {
				synced = append(synced, sq.all)
			}
		}
		cmd.synced <- synced
	}
}

// checkShardGate lists one object of rq with selector and warns, once per Client, if the
// answer carries no shardInfo: the API server does not have the ShardedListAndWatch gate (or,
// behind a load balancer, one of several does not), and sends every shard to everyone. The
// client-side match keeps the views exact regardless; only the network is not saved.
func (c *Client) checkShardGate(ctx context.Context, rq *resolvedQuery, selector string) {
	// items lists at most one object of rq with a shard selector, and says whether the
	// answer carries shardInfo.
	items := func(selector string) (n int, shardInfo bool, ok bool) {
		opts := metav1.ListOptions{Limit: 1, ShardSelector: selector, LabelSelector: rq.LabelSelector, FieldSelector: rq.FieldSelector}
		data, err := c.rest.Get().AbsPath(resourcePath(rq)...).
			SpecificallyVersionedParams(&opts, metav1.ParameterCodec, metav1.SchemeGroupVersion).DoRaw(ctx)
		if err != nil {
			return 0, false, false // the reflector will meet and report the same failure
		}
		var list struct {
			Metadata metav1.ListMeta   `json:"metadata"`
			Items    []json.RawMessage `json:"items"`
		}
		if json.Unmarshal(data, &list) != nil {
			return 0, false, false
		}
		return len(list.Items), list.Metadata.ShardInfo != nil, true
	}
	if _, shardInfo, ok := items(selector); !ok || shardInfo {
		return
	}
	// No shardInfo. The 1.37 API server echoes it for built-in resources but not for custom
	// resources, which it filters all the same; so ask for a range that holds next to
	// nothing (one hash value in 2^64): a server that applies selectors answers with no
	// item, one that ignores them with the first object of the collection. An empty
	// collection cannot tell, and then there is nothing to save either.
	nearlyNothing := sharding.NewSelector(sharding.ShardRangeRequirement{
		Key: string(rq.sharding.Space.Key), Start: "0x0000000000000000", End: "0x0000000000000001"}).String()
	if n, _, ok := items(nearlyNothing); !ok || n == 0 {
		return
	}
	c.shardSelectorsIgnored.Store(true)
	c.shardWarning.Do(func() {
		shardWarn("kates: the API server ignored the shard selector of query %q (%s): it lacks the ShardedListAndWatch feature gate, "+
			"so only the client's own match shards the views: memory is saved, the network is not", rq.Name, rq.mapping.Resource.Resource)
	})
}

// shardWarn prints the warning of a server without the shard gate; tests replace it.
var shardWarn = func(format string, args ...any) { klog.Warningf(format, args...) }

// ShardSelectorsIgnored reports whether an API server answered a sharded query of this
// Client's without applying its shard selector (it lacks the ShardedListAndWatch gate): the
// views are exact all the same, since the client matches every object, but each replica
// receives every object.
func (c *Client) ShardSelectorsIgnored() bool { return c.shardSelectorsIgnored.Load() }

// resourcePath is the API path of rq's resource: /api/v1/namespaces/ns/configmaps, ...
func resourcePath(rq *resolvedQuery) []string {
	gvr := rq.mapping.Resource
	segments := []string{"api"}
	if gvr.Group != "" {
		segments = []string{"apis", gvr.Group}
	}
	segments = append(segments, gvr.Version)
	if rq.Namespace != "" {
		segments = append(segments, "namespaces", rq.Namespace)
	}
	return append(segments, gvr.Resource)
}
