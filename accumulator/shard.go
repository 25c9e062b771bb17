package accumulator

import (
	"context"
	"errors"
	"maps"
	"slices"

	"k8s.io/client-go/tools/cache"
)

// Sharded queries.
//
// A query whose QuerySpec.ShardOf is set is sharded: every object belongs to one shard, and the
// query's view holds the objects of the shards its store owns (Store.Own) and nothing else —
// whatever its reflectors deliver, and whatever the client writes (the overlay matches writes
// the same way). Each reflector writes through a Feed: the objects of one shard, or of every
// owned shard, with a resource version of its own, so that one shard can be listed again, or
// added, while the others' watches carry on. MoveOut drops a shard: its objects leave the view
// as ObjectMoved deltas, since they still exist; another replica holds them now.

// ErrNotSharded is returned by AddShard on an Accumulator built without a Sharder.
var ErrNotSharded = errors.New("accumulator: not sharded")

// Sharder knows how to change the shards an Accumulator's sharded queries hold: the I/O shell
// implements it by starting and stopping the reflectors of shards (Options.Sharder).
type Sharder interface {
	// AddShard makes every sharded query hold shard i, and returns once each has its
	// complete list, or ctx ends.
	AddShard(ctx context.Context, i int) error
	// RemoveShard stops holding shard i: its objects leave the view as ObjectMoved.
	RemoveShard(i int)
	// Shards returns the shards held, in increasing order.
	Shards() []int
}

// AddShard makes every sharded query hold shard i too: see Sharder. It returns once the view
// (from the next Update on) holds that shard complete, or when ctx ends, with ctx's error.
// An Update that began before AddShard returned may hold some of the shard's queries and not
// yet others (a WebApp and its Deployment, not yet its Service): act on the shard from an
// Update begun after AddShard returned, as examples/controller's sharded pass does.
func (a *Accumulator) AddShard(ctx context.Context, i int) error {
	if a.sharder == nil {
		return ErrNotSharded
	}
	return a.sharder.AddShard(ctx, i)
}

// RemoveShard stops holding shard i: its objects leave every sharded query's view, as
// ObjectMoved deltas, never ObjectDelete. It does nothing on an Accumulator that is not sharded
// or does not hold shard i.
func (a *Accumulator) RemoveShard(i int) {
	if a.sharder != nil {
		a.sharder.RemoveShard(i)
	}
}

// Shards returns the shards the Accumulator holds, in increasing order; nil if it is not
// sharded.
func (a *Accumulator) Shards() []int {
	if a.sharder == nil {
		return nil
	}
	return a.sharder.Shards()
}

// Owns reports whether the store holds shard i. An unsharded store holds everything.
func (s *Store) Owns(i int) bool {
	if s.shardOf == nil {
		return true
	}
	owned := s.owned.Load()
	return owned != nil && (*owned)[i]
}

// Own makes the store hold shard i: objects of it are taken from now on. Call it before
// starting the shard's Feed.
func (s *Store) Own(i int) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.setOwned(i, true)
}

// setOwned adds or removes shard i. Callers hold writeMu.
func (s *Store) setOwned(i int, own bool) {
	next := map[int]bool{}
	if cur := s.owned.Load(); cur != nil {
		next = maps.Clone(*cur)
	}
	if own {
		next[i] = true
	} else {
		delete(next, i)
	}
	s.owned.Store(&next)
}

// MoveOut stops holding shard i: the store drops its objects, and they leave the view as
// ObjectMoved deltas. Close the shard's Feed too (before or after: a closed feed and an unowned
// shard both drop what arrives).
func (s *Store) MoveOut(i int) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.setOwned(i, false)
	s.mu.Lock()
	for _, f := range s.feeds {
		// A feed of several shards goes on with the others; should shard i come back, a
		// feed opened for it then is the only one to cover it.
		delete(f.scope, i)
	}
	n := 0
	for key, it := range s.objects {
		if it.shard == i && s.removeLocked(key, true) {
			n++
		}
	}
	s.mu.Unlock()
	if n > 0 {
		s.acc.notify()
	}
}

// removeLocked removes key from the store, as moved if moved, and reports whether it held it.
// Callers hold writeMu and mu, and notify the consumer.
func (s *Store) removeLocked(key objKey, moved bool) bool {
	if _, ok := s.objects[key]; !ok {
		return false
	}
	delete(s.objects, key)
	wasDirty := false
	if s.obs != nil {
		_, wasDirty = s.dirty[key]
	}
	s.dirty[key] = struct{}{}
	if moved {
		if s.moved == nil {
			s.moved = map[objKey]struct{}{}
		}
		s.moved[key] = struct{}{}
	}
	if s.obs != nil {
		s.observeChange(wasDirty, false)
		s.obs.Held(-1)
	}
	return true
}

// watermarkLocked is the resource version up to which every event of the store's view has
// arrived: the store's own, or for a sharded store the oldest of its feeds' (each watch is at a
// version of its own; a write is superseded only once the feed that would deliver it got past
// it). "" while any feed has none, and for a sharded store without feeds. Callers hold mu.
func (s *Store) watermarkLocked() string {
	if s.shardOf == nil {
		return s.rv
	}
	mark := ""
	for i, f := range s.feeds {
		if f.rv == "" {
			return ""
		}
		if i == 0 || rvNewer(mark, f.rv) {
			mark = f.rv
		}
	}
	return mark
}

// Feed is a cache.ReflectorStore for one reflector of a sharded query: it writes into the
// query's Store the objects of some shards (or of every shard the store owns), dropping those of
// other shards, which a server without the shard gate sends. Its Replace replaces those
// shards' objects only. A Feed is safe for concurrent use; once closed it ignores everything.
type Feed struct {
	s *Store
	// all: the feed covers every shard the store owns (a query the server cannot select
	// for, filtered on the client). Otherwise scope holds the shards it covers, less those
	// the store has moved out since (MoveOut).
	all   bool
	scope map[int]bool
	// closed and scope are guarded by s.writeMu (scope by s.mu too); rv, replaced and
	// counted by s.mu.
	closed   bool
	rv       string
	replaced bool
	// counted: the query's bootstrap waits for this feed's first Replace.
	counted bool
	synced  chan struct{}
}

var (
	_ cache.ReflectorStore         = (*Feed)(nil)
	_ cache.ReflectorBookmarkStore = (*Feed)(nil)
	_ cache.ResourceVersionUpdater = (*Feed)(nil)
	_ cache.TransformingStore      = (*Feed)(nil)
)

// AllShards is the scope of a Feed that covers every shard its store owns.
const AllShards = -1

// NewFeed opens a feed for shards (or AllShards) of the store, which must be sharded: one
// reflector may list and watch several shards with one selector, which costs the API server
// one pass over the collection where a reflector per shard costs one each. Until the query has
// bootstrapped, its bootstrap waits for the first Replace of every feed opened.
func (s *Store) NewFeed(shards ...int) *Feed {
	f := &Feed{s: s, scope: map[int]bool{}, synced: make(chan struct{})}
	for _, i := range shards {
		if i == AllShards {
			f.all = true
		}
		f.scope[i] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.feeds = append(s.feeds, f)
	if !s.synced {
		f.counted = true
		s.pendingFeeds++
	}
	return f
}

// Synced is closed by the feed's first Replace: the view holds its shard complete.
func (f *Feed) Synced() <-chan struct{} { return f.synced }

// Close stops the feed: what its reflector delivers from now on is ignored. A feed closed
// before its first Replace no longer holds the query's bootstrap back.
func (f *Feed) Close() {
	s := f.s
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if f.closed {
		return
	}
	f.closed = true
	s.mu.Lock()
	s.feeds = slices.DeleteFunc(s.feeds, func(g *Feed) bool { return g == f })
	bootstrapped := false
	if f.counted && !f.replaced {
		f.counted = false
		bootstrapped = s.feedDoneLocked()
	}
	s.mu.Unlock()
	if bootstrapped {
		s.acc.markSynced()
	}
}

// feedDoneLocked counts one pending feed done, and reports whether that bootstraps the query.
func (s *Store) feedDoneLocked() bool {
	s.pendingFeeds--
	if s.pendingFeeds > 0 || s.synced {
		return false
	}
	s.synced = true
	return true
}

// replacedLocked records f's Replace at rv and reports whether it bootstraps the query.
// Callers hold s.mu.
func (f *Feed) replacedLocked(s *Store, rv string) bool {
	if rv != "" {
		f.rv = rv // a relist's version, even an older one: see Store.Replace
	}
	if f.replaced {
		return false
	}
	f.replaced = true
	close(f.synced)
	if !f.counted {
		return false
	}
	f.counted = false
	return s.feedDoneLocked()
}

// isClosed reports whether f is closed; a nil feed (the store's own methods) never is.
// Callers hold s.writeMu.
func (f *Feed) isClosed() bool { return f != nil && f.closed }

// accepts reports whether an object of shard belongs in s through f.
func (f *Feed) accepts(s *Store, shard int) bool {
	return f.covers(shard) && s.Owns(shard)
}

// covers reports whether shard is in f's scope; a nil feed covers everything.
func (f *Feed) covers(shard int) bool {
	return f == nil || f.all || f.scope[shard]
}

// advanceLocked moves f's resource version forward to rv and reports whether it moved; a nil
// feed has none. Callers hold s.mu.
func (f *Feed) advanceLocked(rv string) bool {
	if f == nil || rv == "" || rv == f.rv {
		return false
	}
	if f.rv != "" && !rvNewer(rv, f.rv) {
		return false
	}
	f.rv = rv
	return true
}

// Add stores a new object of the feed's scope; others are dropped. See Store.Add.
func (f *Feed) Add(obj any) error { return f.s.put(f, EventAdd, obj) }

// Update stores a changed object of the feed's scope; one that left it (placed by its owner,
// whose controller changed) leaves the view as moved. See Store.Update.
func (f *Feed) Update(obj any) error { return f.s.put(f, EventUpdate, obj) }

// Delete removes an object of the feed's scope. See Store.Delete.
func (f *Feed) Delete(obj any) error { return f.s.delete(f, obj) }

// Replace replaces the objects of the feed's scope with those of list in it. See Store.Replace.
func (f *Feed) Replace(list []any, resourceVersion string) error {
	return f.s.replace(f, list, resourceVersion)
}

// Resync does nothing; it exists for cache.ReflectorStore.
func (f *Feed) Resync() error { return nil }

// Bookmark records that the feed's watch has delivered every event up to resourceVersion.
func (f *Feed) Bookmark(resourceVersion string) error { return f.s.bookmark(f, resourceVersion) }

// UpdateResourceVersion is Store.UpdateResourceVersion for the feed's watch.
func (f *Feed) UpdateResourceVersion(resourceVersion string) {
	f.s.updateResourceVersion(f, resourceVersion)
}

// Transformer is Store.Transformer: objects outside the store's shards are left unbuilt.
func (f *Feed) Transformer() cache.TransformFunc { return f.s.Transformer() }

// ShardCounts returns how many objects each sharded query's store holds, by shard: for a
// per-shard gauge read at each scrape. It walks every object of the sharded stores under
// their locks (a few milliseconds at 100k objects), so call it no more often than a
// scrape does. Queries not sharded are left out; nil if none is.
func (a *Accumulator) ShardCounts() map[string]map[int]int {
	var out map[string]map[int]int
	for _, q := range a.queries {
		s := q.store
		if s.shardOf == nil {
			continue
		}
		counts := map[int]int{}
		s.mu.Lock()
		for _, it := range s.objects {
			counts[it.shard]++
		}
		s.mu.Unlock()
		if out == nil {
			out = map[string]map[int]int{}
		}
		out[q.spec.Name] = counts
	}
	return out
}
