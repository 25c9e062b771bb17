/*
Package accumulator accumulates the objects of several Kubernetes queries into complete,
consistent views, and fills a caller's own snapshot struct with them, copying only what changed.

It is the core of kates' Watch, with no network and no client: the I/O shell resolves each query,
runs a client-go cache.Reflector per query whose store is this package's Store, and reports
list and watch failures with SetError. Everything here can be driven by hand, which is how the
tests script event streams.

	acc, err := accumulator.New([]accumulator.QuerySpec{
		{Name: "Deployments", GVK: appsv1.SchemeGroupVersion.WithKind("Deployment")},
		{Name: "Services", GVK: corev1.SchemeGroupVersion.WithKind("Service"), Namespace: "web"},
	}, accumulator.Options{})
	// ... a reflector per query writes into acc.Store("Deployments"), acc.Store("Services")

	var snap struct {
		Deployments []accumulator.Entry[*appsv1.Deployment] // objects with their kstatus
		Services    map[string]*corev1.Service               // keyed "namespace/name"
	}
	for range acc.Changed() {
		var deltas []*accumulator.Delta
		if ok, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil || !ok {
			continue // handle err
		}
		reconcile(snap, deltas)
	}

# Bootstrap

A view is complete only once every query has listed everything. The reflector signals a complete
initial list, paged or streamed, by calling its store's Replace; individual Add events never
count. Until every query's store has had its first Replace, Changed stays silent and Update
returns (false, nil) without touching its target. The first Update after the first signal fills
every field, with an ObjectAdd delta per object. An error recorded with SetError is the one
thing reported earlier: it wakes the consumer, and Update returns it, even before bootstrap.

# Coalescing

Stores take events as fast as reflectors deliver them, whatever the consumer is doing. Each
change marks its object dirty and makes a non-blocking send on Changed, a channel of capacity
1: a burst of a thousand events leaves one signal, and the consumer's next Update returns the
latest complete view, however slowly it is called. Update costs what changed since the
previous Update, not what the stores hold: only dirty objects are looked at and converted;
unchanged ones are carried over from the previous view; map fields are updated in place;
slice fields stay sorted by binary-search inserts and deletes (a new slice still means copying
one pointer per object).

# Coherence

The client's own writes must show in every snapshot as soon as the write returns, not when the
watch gets round to delivering them. Options.Overlay reports the client's recent write records;
at each Update, a record the store has not caught up with replaces the stored object in the
view (or hides it, for a delete, or for a write after which the object no longer matches the
query's namespace, labels or fields). A write record stops counting once the store holds its
object at the record's resource version or newer, or has seen every event up to that version
(Accumulator.ResourceVersion, which the client also uses to drop records). A delete record stops
counting once the store no longer holds the object, or holds a newer version or another object
of that name. The client calls Notify after recording a write, to wake the consumer.

# Sharing and mutation

A store holds each object once, with its kstatus.Result computed once per version: as a
pointer to its kind's Go struct when the reflector decodes typed objects (kates decodes every
kind client-go's scheme knows from protobuf) or Options.Snapshot names a struct type, and as an
*unstructured.Unstructured otherwise (custom resources, Transform). An unstructured object's
status is computed as it arrives; a typed object's when an Update first hands it out in an
Entry (a snapshot without Entry fields never pays for it), from a small view of the fields the
rules read, never from a conversion of the whole object. The first Update to hand out a version takes the store's object itself when the
snapshot field has its type, and the store lets go of it (also after a conversion, for a kind
the scheme registers: its typed and unstructured forms convert into each other without loss):
from then on the snapshot's object is the only copy of that version, so a consumer costs no
second copy. Later hand-outs of
the same version (into another struct or element type) are copies of the view's object. So:

  - The Accumulator never modifies an object, slice or Entry it has handed out.
  - A caller that modifies a snapshot's objects never reaches what the store holds, the fresh
    versions of objects that change later, or another Accumulator: the store no longer holds
    an object it handed out, and holds only objects it never handed out.
  - But an edited object that does not change keeps showing the edit in this Accumulator's
    later snapshots, since it is carried over (and copied, for another struct type). Treat
    snapshot objects as read-only, or DeepCopy before editing.
  - The objects the I/O shell decodes may share strings with each other (kates decodes a part
    many objects repeat once, and gives each a deep copy: strings are immutable). With
    kates.WatchOptions.SharedValues they share whole maps, slices and structs too (label sets,
    a workload's Pod template parts), and the promise above no longer holds: editing one
    object edits others; Options.Check (kates' mutation detector) catches it.
  - Slices are always new, unless Options.ReuseSlices is set: then a slice field that still
    holds the slice the previous Update handed out is written in place, which makes an Update
    of one change among tens of thousands of objects cost what it does among a thousand. A
    map field that still holds the map the previous Update handed out is always updated in
    place. Copy either to keep an old view; for large views prefer a map or ReuseSlices.

# Compact fields

A field of Compact elements ([]Compact[*T], map[string]Compact[*T], T a kind the scheme
registers) holds each object as its protobuf encoding, with its status, and decodes it on
Compact.Get, into a new object each time. A store whose field Options.Snapshot names Compact
encodes each object as it arrives, after computing its status, and keeps no struct (Store.Compact
tells the I/O shell, which then decodes without shared parts); otherwise Update encodes the
objects it hands out. The encoding is immutable and shared by the store, the view and every
snapshot: nothing a caller does to a decoded object reaches it. A compact entry's Delta.Object
is its metadata (a *metav1.ObjectMeta decoded for the delta); a predicate, or an Update into a
struct field, decodes the objects it needs; statuses without conditions are shared within an
Accumulator. The client's own writes (unstructured) are converted into T and encoded.

# Deltas and filters

UpdateWithDeltas reports the net difference between the previous view and the new one:
an object added and deleted in between gives nothing, and a relist that drops objects gives
deletes. FilteredUpdate keeps out of the view the objects a predicate refuses, judging each
new version of an object once.

# Never backwards

A store refuses events older than what it holds (resource versions compare, KEP-5504): an
object's older version, the deletion of an older version, an object it saw deleted sent again
at a version no newer than its deletion, an object it does not hold at a version no newer than
its last complete list, and in a list older than the view, the older versions, the deleted
objects and the absence of newer ones. Only a lagging or misbehaving server sends such events;
applying them, as informers do, would show objects going back in time. Each refusal is counted
(StaleObserver) and the first logged; three since the last complete list close
Store.RelistWanted's channel, on which the I/O shell lists again. Resource versions that are not
decimal integers are never compared. See stale.go.

# Sharded queries

A query with QuerySpec.ShardOf is sharded: its view holds the objects of the shards its Store
owns (Store.Own), fed by one Feed per reflector (Store.NewFeed) — some shards each (those
listed with one selector), or every owned shard — each with its own resource version and first
list, so a shard can be added or listed again while the others' watches carry on; a shard moved
out leaves the scope of every feed. Objects of shards the store does not own are
dropped as they arrive, and the client's writes are matched the same way. Store.MoveOut drops
a shard: its objects leave the view as ObjectMoved deltas, not ObjectDelete, because they
still exist elsewhere. AddShard and RemoveShard call the Options.Sharder the I/O shell gives.

# Observing

Options.Observer is told of every event a store receives, every complete list, every change
that coalesced with an earlier one no Update had taken, the number of objects held and how
long each Update took: what metrics need, without this package knowing of any metrics library
(kates feeds Prometheus collectors from it). Without an Observer each hook is one nil check.
*/
package accumulator
