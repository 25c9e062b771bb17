package accumulator

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/kstatus"
)

// objKey identifies an object within one query.
type objKey struct{ namespace, name string }

// String returns "namespace/name", or "name" for a cluster-scoped object: the key of a map
// snapshot field.
func (k objKey) String() string {
	if k.namespace == "" {
		return k.name
	}
	return k.namespace + "/" + k.name
}

// compareKeys orders keys by namespace, then name: the order of slice snapshot fields.
// strings.Compare takes one pass over the bytes where cmp.Compare takes two (less, then
// greater); namespaces, interned, are mostly equal and compared by length and pointer first.
func compareKeys(a, b objKey) int {
	if a.namespace != b.namespace {
		return strings.Compare(a.namespace, b.namespace)
	}
	return strings.Compare(a.name, b.name)
}

func keyOf(m metav1.Object) objKey {
	return objKey{namespace: m.GetNamespace(), name: m.GetName()}
}

// item is one version of one object as the Accumulator holds it: the object after Transform,
// and its status computed once. Apart from obj, items are immutable once built, so their
// pointers can be shared between a store, the overlay and the last view without locks; a
// changed object is a new item.
//
// obj is an *unstructured.Unstructured, or a pointer to the typed struct the store holds
// (Store.Hold; a typed object from the reflector). It belongs to the item until an Update
// hands it out: the first hand-out of a version takes the object itself rather than a copy (or,
// for a kind the scheme registers, a lossless conversion of it), and from then on the item's obj
// is nil and the query's last view holds the one copy (see pending.commit). So a snapshot and the store never hold two copies of one version, and a
// caller editing its snapshot still cannot reach anything the store holds. obj is read and
// cleared only by Updates, which are serialized.
type item struct {
	obj any
	rv  string
	uid types.UID
	// status is the object's kstatus once known (nil before): computed as an unstructured
	// object arrives, and for a typed one by statusOf, in an Update. A pointer, not a Result,
	// because most typed views never ask for it: an item then takes Go's 64-byte size class
	// instead of the 128-byte one, 64 bytes less for every object a store holds.
	status *kstatus.Result
	// shard is the shard the object is placed in, for a sharded query (QuerySpec.ShardOf);
	// 0 otherwise.
	shard int
}

// statusOf returns it's status, computing it with compute from obj (it's object, or the
// view's copy of the same version) if no one has yet. Only Updates call it, and they are
// serialized; two goroutines of one Update never share an item.
func (it *item) statusOf(obj any, gvk schema.GroupVersionKind, compute func(*unstructured.Unstructured) (*kstatus.Result, error)) *kstatus.Result {
	if it.status == nil {
		if co, ok := obj.(*compactObject); ok {
			if it.status = co.status; it.status == nil {
				decoded, err := co.decode()
				if err != nil {
					it.status = resultOf(nil, err)
				} else {
					it.status = resultOf(compute(statusView(gvk, decoded)))
				}
			}
		} else if u, ok := obj.(*unstructured.Unstructured); ok {
			it.status = resultOf(compute(u))
		} else {
			it.status = resultOf(compute(statusView(gvk, obj)))
		}
	}
	return it.status
}

// object returns it.obj as the metav1.Object every stored kind implements; nil once taken.
func (it *item) object() metav1.Object {
	m, _ := it.obj.(metav1.Object)
	return m
}

// sameVersion reports whether a is the version rv of the object with UID uid. Only a
// non-empty resource version identifies a version; objects without one always differ.
func sameVersion(a *item, rv string, uid types.UID) bool {
	return a.rv != "" && a.rv == rv && a.uid == uid
}

// sameItemVersion reports whether a and b are the same version of the same object.
func sameItemVersion(a, b *item) bool { return sameVersion(a, b.rv, b.uid) }

// rvAtLeast reports whether resource version a is at least b. Resource versions are compared
// with resourceversion.CompareResourceVersion; if either is malformed, only equal strings
// count.
func rvAtLeast(a, b string) bool {
	c, err := resourceversion.CompareResourceVersion(a, b)
	if err != nil {
		return a == b
	}
	return c >= 0
}

// rvNewer reports whether resource version a is strictly newer than b; false if either is
// malformed.
func rvNewer(a, b string) bool {
	c, err := resourceversion.CompareResourceVersion(a, b)
	return err == nil && c > 0
}

// Store is the store one query's reflector writes into. It implements
// k8s.io/client-go/tools/cache.ReflectorStore, cache.ReflectorBookmarkStore and
// cache.ResourceVersionUpdater. Its methods are safe for concurrent use, with each other and
// with the Accumulator's Update.
//
// Every object must be of the query's kind: an *unstructured.Unstructured, or (for a kind the
// Scheme registers) a pointer to its typed struct, as a protobuf-fed reflector decodes it, or
// what Transformer made of either; Delete also accepts a cache.DeletedFinalStateUnknown.
// Objects are owned by the Store once passed in: Transform runs on them in place, an Update may
// hand them out as they are, and the caller must not modify them afterwards.
type Store struct {
	acc   *Accumulator
	query string
	gvk   schema.GroupVersionKind
	// holdType is the Go struct type the store keeps objects as (see Hold); nil: as they come.
	holdType reflect.Type
	// schemeType is the struct type the Scheme registers for gvk; nil if none. A typed object
	// must be of it or of holdType.
	schemeType reflect.Type
	// compact, if not nil, makes the store hold its objects compact (see Compact): each is
	// encoded as it arrives, after its status is computed, and its struct dropped.
	compact *compactKind
	// obs observes the store's events (Options.Observer); nil if none.
	obs QueryObserver

	// writeMu serializes the writing methods. A writer may read objects without mu, since
	// only writers change it; it takes mu to change it.
	writeMu sync.Mutex

	mu      sync.Mutex
	objects map[objKey]*item
	// dirty holds the keys changed since the consumer's last Update took them.
	dirty map[objKey]struct{}
	// synced is set by the first Replace: the reflector's first complete list.
	synced bool
	// rv is the newest resource version seen; see Accumulator.ResourceVersion. A sharded
	// query's watermark is its feeds' instead (see watermarkLocked).
	rv string

	// The rest is for sharded queries (QuerySpec.ShardOf; see shard.go).
	shardOf func(metav1.Object) int
	// owned is the set of shards the view holds, replaced whole on change (copy on write),
	// so that the overlay can match without the store's locks.
	owned atomic.Pointer[map[int]bool]
	// feeds are the open feeds, guarded by mu; pendingFeeds counts those that must replace
	// before the query has bootstrapped.
	feeds        []*Feed
	pendingFeeds int
	// moved holds the keys removed because their shard moved away (MoveOut), until an Update
	// takes them with dirty: they leave the view as ObjectMoved, not ObjectDelete. Guarded by
	// mu.
	moved map[objKey]struct{}

	// The past (see stale.go), guarded by writeMu: gone holds the resource version at which
	// each object deleted since the last Replace was deleted, so that an event of it from
	// before that does not bring it back; pastRV is the resource version of the last
	// complete list of the whole store (f == nil), or of its deletions forgotten since, at
	// or before which an event of an object the store does not hold is from the past too.
	// stale is guarded by mu.
	gone   map[objKey]string
	pastRV string
	stale  staleState
}

var (
	_ cache.ReflectorStore         = (*Store)(nil)
	_ cache.ReflectorBookmarkStore = (*Store)(nil)
	_ cache.ResourceVersionUpdater = (*Store)(nil)
	_ cache.TransformingStore      = (*Store)(nil)
)

func newStore(acc *Accumulator, query string, gvk schema.GroupVersionKind) *Store {
	return &Store{
		acc:     acc,
		query:   query,
		gvk:     gvk,
		objects: make(map[objKey]*item),
		dirty:   make(map[objKey]struct{}),
	}
}

// Hold returns the Go struct type the store keeps its objects as: the type of the query's
// snapshot field when Options.Snapshot named one, so that objects arriving unstructured are
// converted once, as they arrive, and the store and the snapshot share one copy. Nil means
// objects are kept as they arrive: typed if the reflector decodes typed objects (what kates
// does for every kind the Scheme registers), unstructured otherwise. The I/O shell reads it to
// decide how to decode a query's objects.
func (s *Store) Hold() reflect.Type { return s.holdType }

// Compact reports whether the store holds its objects compact (Options.Snapshot names a
// Compact field for its query): they still arrive decoded, as typed structs (Hold), and the
// store encodes each as it arrives. The I/O shell reads it to decode such a query's objects
// without what would only be kept for structs (shared parts, interned strings).
func (s *Store) Compact() bool { return s.compact != nil }

// arrival returns obj's metadata, its object, and its item if Transformer built it already.
func (s *Store) arrival(op string, obj any) (metav1.Object, any, *item, error) {
	switch o := obj.(type) {
	case *arrived:
		if o != nil && o.it != nil {
			return o.Object, o.obj, o.it, nil
		}
	case *unstructured.Unstructured:
		if o != nil {
			return o, o, nil, nil
		}
	case metav1.Object:
		if t := reflect.TypeOf(o); !isNil(o) && t.Kind() == reflect.Pointer &&
			(t.Elem() == s.schemeType || t.Elem() == s.holdType) {
			return o, o, nil, nil
		}
	}
	return nil, nil, nil, fmt.Errorf("accumulator: query %q: %s: got %T, want *unstructured.Unstructured or a typed %s", s.query, op, obj, s.gvk.Kind)
}

// isNil reports whether v is nil or a nil pointer in an interface.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// arrived is an object as Transformer leaves it in the reflector's temporary store: its
// metadata, which the key functions read through the embedded interface, the object as it
// came, and the item already built from it.
type arrived struct {
	metav1.Object
	obj any
	it  *item
}

// GetObjectKind and DeepCopyObject make an arrived object a runtime.Object, so that a list's
// items can be built by Transformer as the list streams in (kates' typed lists) and still
// travel in a list object to Replace. DeepCopyObject copies the object as it came.
func (a *arrived) GetObjectKind() schema.ObjectKind {
	if o, ok := a.obj.(runtime.Object); ok {
		return o.GetObjectKind()
	}
	return schema.EmptyObjectKind
}

func (a *arrived) DeepCopyObject() runtime.Object {
	if o, ok := a.obj.(runtime.Object); ok {
		return o.DeepCopyObject()
	}
	return nil
}

// Transformer returns the function a client-go Reflector applies to each object of an initial
// list streamed in WatchList mode (and kates to each item of a list as it streams in), as it
// arrives, before handing them all to Replace: it builds
// the object's item (Transform, status, the conversion into the held type) there, so that this
// work overlaps with the stream instead of following it. It implements cache.TransformingStore.
func (s *Store) Transformer() cache.TransformFunc {
	return func(obj any) (any, error) {
		m, ok := obj.(metav1.Object)
		if !ok || isNil(obj) {
			return obj, nil // Replace will say what is wrong with it
		}
		shard := 0
		if s.shardOf != nil {
			// Build no item for an object the store will drop (a server that ignored the
			// shard selector sent it).
			if shard = s.shardOf(m); !s.Owns(shard) {
				return obj, nil
			}
		}
		it := s.newItem(obj)
		it.shard = shard
		if co, ok := it.obj.(*compactObject); ok {
			// Keep the metadata Replace reads (key, version, placement), not the struct:
			// a list's decoded objects then go as they are compacted, not at its end.
			if acc, ok := m.(metav1.ObjectMetaAccessor); ok {
				if om, ok := acc.GetObjectMeta().(*metav1.ObjectMeta); ok {
					meta := *om
					return &arrived{Object: &meta, obj: co, it: it}, nil
				}
			}
		}
		return &arrived{Object: m, obj: obj, it: it}, nil
	}
}

// Add stores a new object. See Update.
func (s *Store) Add(obj any) error { return s.put(nil, EventAdd, obj) }

// Update stores a changed object. An object with the same UID and non-empty resource version as
// the stored one is the same version and is ignored: it changes nothing and wakes no one.
func (s *Store) Update(obj any) error { return s.put(nil, EventUpdate, obj) }

// put stores obj, arriving through feed f (nil: the store's own methods).
func (s *Store) put(f *Feed, op EventType, obj any) error {
	m, o, it, err := s.arrival(string(op), obj)
	if err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if f.isClosed() {
		return nil
	}
	if s.obs != nil {
		s.obs.Received(op)
	}

	key := keyOf(m)
	old := s.objects[key]
	shard := 0
	if s.shardOf != nil {
		shard = s.shardOf(m)
		if !f.accepts(s, shard) {
			// Not this view's: a server without the shard gate sent it, or (placed by
			// owner) its controller changed to one placed elsewhere.
			s.mu.Lock()
			f.advanceLocked(m.GetResourceVersion())
			removed := old != nil && f.covers(old.shard) && s.removeLocked(key, true)
			s.mu.Unlock()
			if removed {
				s.acc.notify()
			}
			return nil
		}
		if old != nil && !f.covers(old.shard) && rvNewer(old.rv, m.GetResourceVersion()) {
			return nil // another feed holds a newer object of this name
		}
	}
	if old != nil && sameVersion(old, m.GetResourceVersion(), m.GetUID()) {
		return nil
	}
	if s.fromThePast(f, key, old, m.GetResourceVersion()) {
		s.refuse(op, key, m.GetResourceVersion(), old)
		return nil
	}
	if it == nil {
		it = s.newItem(o)
	}
	it.shard = shard

	s.mu.Lock()
	s.objects[key] = it
	delete(s.moved, key)
	wasDirty := false
	if s.obs != nil {
		_, wasDirty = s.dirty[key]
	}
	s.dirty[key] = struct{}{}
	s.advanceLocked(it.rv)
	f.advanceLocked(it.rv)
	s.mu.Unlock()
	if s.obs != nil {
		s.observeChange(wasDirty, old == nil)
	}
	s.acc.notify()
	return nil
}

// observeChange tells s.obs of an event that changed one object: whether a change of it was
// pending already, and whether the store did not hold it before.
func (s *Store) observeChange(coalesced, added bool) {
	if coalesced {
		s.obs.Coalesced(1)
	}
	if added {
		s.obs.Held(1)
	}
}

// Delete removes an object. obj is one of the objects Add takes (its resource version, the
// deletion's, advances ResourceVersion) or a cache.DeletedFinalStateUnknown (whose Key is used).
func (s *Store) Delete(obj any) error { return s.delete(nil, obj) }

// delete removes obj, arriving through feed f (nil: the store's own methods).
func (s *Store) delete(f *Feed, obj any) error {
	var (
		key objKey
		rv  string
	)
	switch o := obj.(type) {
	case cache.DeletedFinalStateUnknown:
		ns, name, err := cache.SplitMetaNamespaceKey(o.Key)
		if err != nil {
			return fmt.Errorf("accumulator: query %q: delete: %w", s.query, err)
		}
		key = objKey{namespace: ns, name: name}
	default:
		m, _, _, err := s.arrival("delete", obj)
		if err != nil {
			return err
		}
		key, rv = keyOf(m), m.GetResourceVersion()
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if f.isClosed() {
		return nil
	}
	if s.obs != nil {
		s.obs.Received(EventDelete)
	}

	s.mu.Lock()
	old, had := s.objects[key]
	if had && s.shardOf != nil && !f.covers(old.shard) {
		had = false // another feed's object of this name: not this feed's to delete
	}
	if had && rvNewer(old.rv, rv) {
		// The deletion of a version older than the one held: a replay from the past (a
		// recreated object's predecessor is deleted before it is created).
		s.mu.Unlock()
		s.refuse(EventDelete, key, rv, old)
		return nil
	}
	if rv != "" {
		s.rememberGone(key, rv)
	}
	f.advanceLocked(rv)
	wasDirty := false
	if had {
		delete(s.objects, key)
		_, wasDirty = s.dirty[key]
		s.dirty[key] = struct{}{}
	}
	s.advanceLocked(rv)
	s.mu.Unlock()
	if had {
		if s.obs != nil {
			s.observeChange(wasDirty, false)
			s.obs.Held(-1)
		}
		s.acc.notify()
	}
	return nil
}

// Replace replaces the store's content with list, a complete list at resourceVersion. Objects
// missing from list are deleted; objects whose UID and resource version did not change keep
// their stored version (and computed status) and do not count as changes. The first Replace
// marks the query as bootstrapped.
//
// Replace sets the store's resource version to resourceVersion (when not empty) even if it is
// older than one seen before: after a relist, the store's content is as of that version.
func (s *Store) Replace(list []any, resourceVersion string) error {
	return s.replace(nil, list, resourceVersion)
}

// keyedItem is an item to store under key.
type keyedItem struct {
	key objKey
	it  *item
}

// replace replaces the objects of feed f's scope (nil: the whole store) with list.
func (s *Store) replace(f *Feed, list []any, resourceVersion string) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if f.isClosed() {
		return nil
	}

	// A sharded store may keep a share of what a feed lists (the rest is other replicas', sent
	// by a server without the shard gate or to a replica placing objects on the client): its
	// map is made once what it keeps is known, for that many, not for the list.
	var objects map[objKey]*item
	var kept []keyedItem
	if s.shardOf == nil {
		objects = make(map[objKey]*item, len(list))
	} else {
		kept = make([]keyedItem, 0, len(list))
	}
	keep := func(key objKey, it *item) {
		if objects != nil {
			objects[key] = it
		} else {
			kept = append(kept, keyedItem{key, it})
		}
	}
	for _, obj := range list {
		m, o, it, err := s.arrival("replace", obj)
		if err != nil {
			return err
		}
		shard := 0
		if s.shardOf != nil {
			if shard = s.shardOf(m); !f.accepts(s, shard) {
				continue // another replica's
			}
		}
		key := keyOf(m)
		old := s.objects[key]
		if old != nil && sameVersion(old, m.GetResourceVersion(), m.GetUID()) && old.shard == shard {
			keep(key, old)
			continue
		}
		if s.listedFromThePast(key, old, m.GetResourceVersion()) {
			// A list older than what the store holds of this object (a lagging server):
			// the object keeps the newer version, or stays deleted.
			s.refuse("replace", key, m.GetResourceVersion(), old)
			if old != nil {
				keep(key, old)
			}
			continue
		}
		if it == nil {
			it = s.newItem(o)
		}
		it.shard = shard
		keep(key, it)
	}
	if s.shardOf != nil {
		outside := 0
		for _, it := range s.objects {
			if !f.covers(it.shard) {
				outside++
			}
		}
		objects = make(map[objKey]*item, len(kept)+outside)
		for _, k := range kept {
			objects[k.key] = k.it
		}
		// The objects outside f's scope stay as they are.
		for key, it := range s.objects {
			if _, ok := objects[key]; !ok && !f.covers(it.shard) {
				objects[key] = it
			}
		}
	}

	// Objects the store holds at versions newer than the list were written after it: a
	// lagging server's list does not take them back. Only a list older than the store's (or
	// the feed's) watermark can leave any out.
	s.mu.Lock()
	watermark := s.rv
	if f != nil {
		watermark = f.rv
	}
	s.mu.Unlock()
	if c, ok := rvCompare(resourceVersion, watermark); ok && c < 0 {
		for key, it := range s.objects {
			if _, listed := objects[key]; listed || (s.shardOf != nil && !f.covers(it.shard)) {
				continue
			}
			if c, ok := rvCompare(it.rv, resourceVersion); ok && c > 0 {
				objects[key] = it
				s.refuse("replace", key, resourceVersion, it)
			}
		}
	}
	if f == nil {
		s.listed(resourceVersion)
	}

	s.mu.Lock()
	changed := false
	coalesced := 0
	for key, it := range objects {
		if s.objects[key] != it {
			delete(s.moved, key)
			if s.obs != nil {
				if _, ok := s.dirty[key]; ok {
					coalesced++
				}
			}
			s.dirty[key] = struct{}{}
			changed = true
		}
	}
	for key := range s.objects {
		if _, ok := objects[key]; !ok {
			if s.obs != nil {
				if _, ok := s.dirty[key]; ok {
					coalesced++
				}
			}
			s.dirty[key] = struct{}{}
			changed = true
		}
	}
	held := len(objects) - len(s.objects)
	s.objects = objects
	s.listedStaleLocked()
	// first: this list bootstraps the query. A feed's first list that does not (a shard
	// added later, or one of several the bootstrap waits for) is no relist either.
	first, relist := false, true
	if f == nil {
		if resourceVersion != "" {
			s.rv = resourceVersion
		}
		first = !s.synced
		s.synced = true
	} else {
		s.advanceLocked(resourceVersion)
		relist = f.replaced
		first = f.replacedLocked(s, resourceVersion)
	}
	s.mu.Unlock()
	if s.obs != nil {
		if held != 0 {
			s.obs.Held(held)
		}
		if coalesced > 0 {
			s.obs.Coalesced(coalesced)
		}
		if first || relist {
			s.obs.Replaced(first)
		}
	}

	if first {
		s.acc.markSynced()
	} else if changed {
		s.acc.notify()
	}
	return nil
}

// newItem makes the item for obj, as the store holds it: transformed, with its status, and
// converted into s.holdType if that is set and obj is not of it yet. A conversion that fails
// keeps obj as it came; Update then reports the failure when it converts it.
func (s *Store) newItem(obj any) *item {
	it := s.acc.newItem(s.gvk, obj)
	if s.holdType != nil && reflect.TypeOf(it.obj) != reflect.PointerTo(s.holdType) {
		if held, err := convertObject(it.obj, s.holdType, s.gvk); err == nil {
			it.obj = held.Interface()
		}
	}
	if s.compact != nil {
		// Status first, from the struct (it is computed once per version either way); the
		// struct goes once encoded. An object that does not encode is kept as it came, and
		// Update reports the failure when it compacts it.
		st := s.acc.sharedResult(it.statusOf(it.obj, s.gvk, s.acc.computeStatus))
		it.status = st
		if co, err := newCompact(it.obj, s.compact, st); err == nil {
			it.obj = co
		}
	}
	return it
}

// Resync does nothing; it exists for cache.ReflectorStore.
func (s *Store) Resync() error { return nil }

// Bookmark records that the watch has delivered every event up to resourceVersion. With an
// Overlay, a bookmark that advances the store's resource version wakes the consumer, since it
// may supersede write records (a write after which the object left the query's view, say).
func (s *Store) Bookmark(resourceVersion string) error { return s.bookmark(nil, resourceVersion) }

func (s *Store) bookmark(f *Feed, resourceVersion string) error {
	s.mu.Lock()
	advanced := s.advanceLocked(resourceVersion)
	if f != nil {
		advanced = f.advanceLocked(resourceVersion)
	}
	s.mu.Unlock()
	if advanced && s.acc.overlay != nil {
		s.acc.notify()
	}
	return nil
}

// UpdateResourceVersion records that the watch has delivered every event up to
// resourceVersion; the reflector calls it after events and bookmarks, for
// cache.ResourceVersionUpdater. It wakes no one: the event or bookmark did.
func (s *Store) UpdateResourceVersion(resourceVersion string) {
	s.updateResourceVersion(nil, resourceVersion)
}

func (s *Store) updateResourceVersion(f *Feed, resourceVersion string) {
	s.mu.Lock()
	s.advanceLocked(resourceVersion)
	f.advanceLocked(resourceVersion)
	s.mu.Unlock()
}

// advanceLocked moves s.rv forward to rv, and reports whether it moved. A malformed rv that
// cannot be compared replaces s.rv: it is the latest seen.
func (s *Store) advanceLocked(rv string) bool {
	if rv == "" || rv == s.rv {
		return false
	}
	if s.rv != "" {
		if c, err := resourceversion.CompareResourceVersion(rv, s.rv); err == nil && c <= 0 {
			return false
		}
	}
	s.rv = rv
	return true
}

// resourceVersion returns the store's watermark.
func (s *Store) resourceVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watermarkLocked()
}
