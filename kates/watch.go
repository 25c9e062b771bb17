package kates

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/internal/managedfields"
	"github.com/kates-dev/kates/internal/protodecode"
	"github.com/kates-dev/kates/kstatus"
)

// The accumulator's names, so that a program needs only kates.
type (
	// Accumulator is a complete, coalesced, coherent view of several queries; see Client.Watch.
	Accumulator = accumulator.Accumulator
	Delta       = accumulator.Delta
	DeltaType   = accumulator.DeltaType
	// Entry is a snapshot element that carries its object's computed kstatus.
	Entry[T any] = accumulator.Entry[T]
	// Compact is a snapshot element that holds its object encoded, as protobuf, with its
	// computed kstatus, and decodes it on Get: see the package documentation's Compact views.
	Compact[T any] = accumulator.Compact[T]
	// Compressor holds compact views' objects compressed (WatchOptions.Compressor); package
	// github.com/kates-dev/kates/zstdcompact provides one.
	Compressor = accumulator.Compressor
)

// Delta types.
const (
	ObjectAdd    = accumulator.ObjectAdd
	ObjectUpdate = accumulator.ObjectUpdate
	ObjectDelete = accumulator.ObjectDelete
	// ObjectMoved: the object left a sharded view because its shard moved to another
	// replica (Accumulator.RemoveShard), not because it was deleted.
	ObjectMoved = accumulator.ObjectMoved
)

// WatchOptions changes how Watch builds an Accumulator. The zero value is what Watch uses.
type WatchOptions struct {
	// WaitForKinds makes Watch wait (as WaitFor does) for kinds the server does not serve yet,
	// such as a CRD installed in the same batch, instead of failing with an unknown kind.
	WaitForKinds bool
	// KeepManagedFields keeps metadata.managedFields, which Watch strips by default: they are
	// often the largest part of an object, and few readers need them. One that does is the
	// entries' status: without them, a spec the controller rejected before recording it as
	// observed reads as a change not yet seen (InProgress) rather than Failed (kstatus, rule
	// 2). Wait and Status keep the little of them that this needs.
	KeepManagedFields bool
	// Transform changes each object before it is stored (after managedFields are stripped). It
	// may modify its argument and must not keep it. Since it takes *Unstructured, setting it
	// makes Watch decode every query's objects from JSON into unstructured form, as it does for
	// custom resources, instead of from protobuf into their Go structs: several times the
	// CPU and about twice the memory for built-in kinds.
	Transform func(*Unstructured)
	// ReuseSlices lets Update write changes into the slice fields it handed out at the previous
	// Update instead of handing out new slices: Update then costs what changed rather than a
	// pointer copy per object, which matters for views of tens of thousands of objects. A copy
	// of a slice the caller kept from an earlier Update sees later changes, and the caller must
	// not write to the slice. Default false. See accumulator.Options.ReuseSlices.
	ReuseSlices bool
	// Snapshot, if not nil, is a pointer to the snapshot struct type Updates will fill;
	// (*MySnapshot)(nil) will do. Watch then checks that type at once, and each query's store
	// holds its objects as its field's Go type: built-in kinds are decoded from protobuf into
	// their structs whether or not Snapshot is set, unless their field is unstructured (then
	// they are decoded from JSON into unstructured, with no conversion either way); a custom
	// resource whose field is a struct of its own is converted into it as it arrives rather than
	// in Update, and the store and the snapshot then share that one copy. Updates into other
	// types still work. Every arriving version is converted, even those a slow consumer's
	// Updates would skip: see accumulator.Options.Snapshot.
	Snapshot any
	// Compressor, if set, holds the objects of compact fields (Compact) compressed, each
	// query's with a codec of its own made from its first object: less memory per object for
	// more CPU on arrival and on every Get. zstdcompact.New() is the one kates ships (zstd);
	// it is a package of its own so that a program that never compresses does not link
	// zstd. Default nil. See the package documentation's Compact views for the measured
	// figures, and accumulator.Options.Compressor.
	Compressor Compressor
	// WatchTimeout bounds each watch request: the watch is re-established, from where it left
	// off, after between WatchTimeout and twice that. Re-establishing is when the API server
	// re-checks authorization, so it bounds how long a revoked permission goes unnoticed.
	// Default 5 minutes.
	WatchTimeout time.Duration
	// PageSize is how many objects each list request asks for, when the list is paged: a
	// built-in kind's first list is one request served by the API server's watch cache, which
	// ignores it; custom resources stream their first list (WatchList) and page the lists they
	// fall back to. Default 500.
	PageSize int64
	// StatusRules are the status rules that judge custom resources for each Entry's Status.
	// Default: kstatus' built-in library.
	StatusRules
	// NoKindFacts skips reading the CustomResourceDefinition of each custom resource kind
	// watched. Watch reads them (one GET per kind, before watching) so that kstatus judges
	// a kind no rule covers by what its CRD declares: whether it has a status at all, and
	// whether its phases finish (see kstatus.KindInfo). Without them, an object of such a
	// kind with no status yet is Current. Default false: the CRDs are read.
	NoKindFacts bool
	// PersistentErrorAfter is how long a transient list or watch failure (the API server down, a
	// timeout) may last before Update reports it. Failures that retrying cannot mend — Forbidden,
	// Unauthorized, an unknown resource — are reported at once. Default 30 s.
	PersistentErrorAfter time.Duration
	// Sharding, if set, shards every query of the Watch but those placed everywhere (see
	// Query.Placement): the view holds the objects of Sharding.Owned, and
	// Accumulator.AddShard and RemoveShard change that later. Queries with a Sharding of their
	// own keep it. See the package documentation's Sharding section. Default nil: unsharded.
	Sharding *Sharding

	// SharedValues lets the objects of this Watch share what they repeat, instead of each
	// holding its own copy: label maps, owner references, and the containers, init containers,
	// volumes, tolerations, affinity and security context of Pods (all the Pods of one
	// ReplicaSet have the same). A view of many Pods then takes a fraction of the memory and
	// of the decoding. Only built-in kinds decoded from protobuf share (not custom resources,
	// nor any kind with Transform set).
	//
	// It changes the contract of Update: the maps, slices and structs of a snapshot's objects
	// (and of Entry objects, and the store's) may be shared with other objects of the view, so
	// a caller must treat them as read-only and edit a DeepCopy. Without this option, a caller
	// editing its snapshot never reaches what another object, the store or another Accumulator
	// holds. Set MutationDetector in tests to catch an edit. Default false.
	SharedValues bool
	// MutationDetector, with SharedValues, makes every Update first check that no shared value
	// was modified (each is decoded again from the bytes it came from and compared, as
	// client-go's cache mutation detector does with its copies); once one was, Update returns
	// an error errors.Is recognises as ErrSharedValueModified. It runs in Update's goroutine,
	// so an edit the caller made before calling Update is caught without a data race. It costs
	// a decode of every distinct shared value per Update: for tests and debugging. The
	// environment variable KATES_MUTATION_DETECTOR=true sets it too. Default false.
	MutationDetector bool

	// unobserved keeps the Accumulator out of the Client's metrics: Wait's own watches.
	unobserved bool
	// specTimes keeps, of the managedFields Watch strips, when each manager last changed
	// spec (specTimesOnly): kstatus reads it to tell a spec the controller rejected from
	// one it has not seen yet (kstatus/rejected.go). Wait's own watches.
	specTimes bool
	// sharer holds the shared values of a Watch with SharedValues.
	sharer *protodecode.Sharer
}

// ErrSharedValueModified is what Update's error wraps when WatchOptions.MutationDetector found
// a shared value modified: a caller edited an object of a view with WatchOptions.SharedValues.
var ErrSharedValueModified = protodecode.ErrSharedValueModified

// Watch starts watching queries and returns an Accumulator of them. Each Query.Name names the
// field of the caller's snapshot struct it fills (see Accumulator.Update). Watching runs until
// ctx ends; then Changed is closed and every goroutine Watch started returns.
//
// The Accumulator notifies only once every query has its complete initial list, then once per
// burst of changes, and shows this Client's own writes as soon as they return. A query the
// identity may not list or watch makes Update return an error apierrors.IsForbidden recognises.
func (c *Client) Watch(ctx context.Context, queries ...Query) (*Accumulator, error) {
	return c.WatchWith(ctx, WatchOptions{}, queries...)
}

// WatchWith is Watch with options.
func (c *Client) WatchWith(ctx context.Context, opts WatchOptions, queries ...Query) (*Accumulator, error) {
	began := time.Now() // bootstrap durations count from here
	if opts.PersistentErrorAfter == 0 {
		opts.PersistentErrorAfter = 30 * time.Second
	}
	if opts.WatchTimeout == 0 {
		opts.WatchTimeout = 5 * time.Minute
	}
	if opts.PageSize == 0 {
		opts.PageSize = listPageSize
	}
	resolved := make([]*resolvedQuery, 0, len(queries))
	specs := make([]accumulator.QuerySpec, 0, len(queries))
	for _, q := range queries {
		if opts.WaitForKinds {
			if err := c.WaitFor(ctx, q.Kind); err != nil {
				return nil, err
			}
		}
		rq, err := c.resolveQuery(q)
		if err != nil {
			return nil, err
		}
		if rq.sharding, rq.static, err = shardingFor(q, opts.Sharding); err != nil {
			return nil, err
		}
		resolved = append(resolved, rq)
		spec := accumulator.QuerySpec{
			Name:          q.Name,
			GVK:           rq.mapping.GroupVersionKind,
			Namespace:     rq.Namespace,
			LabelSelector: rq.labels,
			FieldSelector: rq.fields,
		}
		if rq.sharding != nil {
			spec.ShardOf = rq.sharding.Space.placer(q.Placement)
		}
		specs = append(specs, spec)
	}
	var shards *shardManager // the Sharder of AddShard and RemoveShard; nil if unsharded
	if opts.Sharding != nil {
		if err := opts.Sharding.validate(); err != nil {
			return nil, err
		}
		shards = newShardManager(opts.Sharding)
	}
	var facts map[schema.GroupVersionKind]*kstatus.KindInfo
	if !opts.NoKindFacts {
		kinds := map[schema.GroupVersionKind]string{}
		for _, rq := range resolved {
			if !rq.MetadataOnly {
				kinds[rq.mapping.GroupVersionKind] = rq.mapping.Resource.Resource
			}
		}
		facts = c.kindFactsFor(ctx, kinds)
	}
	// Parts objects repeat (label sets, owner references, a workload's Pod template) are
	// decoded once per view: by default each object gets a deep copy, sharing only strings,
	// which costs a fraction of decoding the part; with SharedValues, the part itself. Every
	// part decoded is interned first, so that parts which do not repeat whole (containers
	// mounting a volume named for their Pod) still hold their strings once.
	interned := newInterner()
	opts.sharer = protodecode.NewCopier()
	if opts.SharedValues {
		opts.sharer = protodecode.NewSharer()
	}
	opts.sharer.SetIntern(interned.internPart)
	var check func() error
	if opts.sharer.Shares() && (opts.MutationDetector || os.Getenv("KATES_MUTATION_DETECTOR") == "true") {
		check = mutationCheck(opts.sharer)
	}
	observed := c.watchObserver(opts, queries, began) // nil without an Observer
	// compactKinds are the kinds every query of which is compact (WatchOptions.Snapshot names
	// Compact fields for them): their objects are encoded and dropped as they arrive, so
	// interning their strings would only fill the interner. Set before any reflector starts.
	compactKinds := map[schema.GroupVersionKind]bool{}
	acc, err := accumulator.New(specs, accumulator.Options{
		Overlay:   c.writes,
		Transform: transformFor(opts, metadataOnlyKinds(resolved)),
		ObjectTransform: func(obj runtime.Object) {
			if m, ok := obj.(metav1.Object); ok && !opts.KeepManagedFields {
				m.SetManagedFields(nil)
			}
			// The parts the sharer decoded were interned as it decoded them (and, shared,
			// are read by other objects meanwhile): interning leaves them alone.
			if compactKinds[obj.GetObjectKind().GroupVersionKind()] {
				return
			}
			_, unstructured := obj.(*Unstructured)
			interned.internObject(obj, !unstructured)
		},
		ReuseSlices: opts.ReuseSlices,
		Snapshot:    opts.Snapshot,
		Compressor:  opts.Compressor,
		Scheme:      Scheme,
		Status:      statusFunc(opts.StatusRules, kindsLookup(facts)),
		Observer:    accumulatorObserver(observed),
		Sharder:     sharderOf(shards),
		Check:       check,
	})
	if err != nil {
		return nil, fmt.Errorf("kates: %w", err)
	}
	for _, rq := range resolved {
		gvk := rq.mapping.GroupVersionKind
		if compact, seen := compactKinds[gvk]; !seen || compact {
			compactKinds[gvk] = acc.Store(rq.Name).Compact()
		}
	}
	for _, rq := range resolved {
		c.writes.register(rq.mapping.GroupVersionKind, acc, rq.Name)
	}
	if so, ok := observed.(ShardWatchObserver); ok {
		for _, rq := range resolved {
			if rq.sharding != nil {
				so.ShardCounts(acc.ShardCounts)
				break
			}
		}
		if shards != nil {
			shards.observed = so
		}
	}
	var wg sync.WaitGroup
	var sharded []*shardedQuery
	for _, rq := range resolved {
		if rq.sharding != nil {
			sharded = append(sharded, c.startSharded(ctx, &wg, acc, rq, opts, observed))
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.runQuery(ctx, acc, rq, opts, observed)
		}()
	}
	if shards != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			shards.run(ctx, &wg, c, acc, sharded, opts, observed)
		}()
	}
	go func() {
		<-ctx.Done()
		wg.Wait()
		c.writes.unregister(acc)
		acc.Stop()
		if observed != nil {
			observed.Stop()
		}
	}()
	return acc, nil
}

// mutationCheck returns the check Update runs for a Watch with MutationDetector: it reports a
// modified shared value.
func mutationCheck(share *protodecode.Sharer) func() error {
	return func() error {
		if err := share.Check(); err != nil {
			return fmt.Errorf("kates: %w (objects of a Watch with SharedValues are read-only: edit a DeepCopy)", err)
		}
		return nil
	}
}

// metadataOnlyKinds lists the kinds whose every query is metadata-only: the client's own writes
// of those kinds (full objects) must be cut down to metadata too before they show.
func metadataOnlyKinds(queries []*resolvedQuery) map[schema.GroupVersionKind]bool {
	out := map[schema.GroupVersionKind]bool{}
	for _, q := range queries {
		gvk := q.mapping.GroupVersionKind
		if _, seen := out[gvk]; !seen || !q.MetadataOnly {
			out[gvk] = q.MetadataOnly
		}
	}
	return out
}

func transformFor(opts WatchOptions, metadataOnly map[schema.GroupVersionKind]bool) func(*unstructured.Unstructured) {
	return func(u *unstructured.Unstructured) {
		if metadataOnly[u.GroupVersionKind()] {
			for k := range u.Object {
				if k != "apiVersion" && k != "kind" && k != "metadata" {
					delete(u.Object, k)
				}
			}
		}
		if !opts.KeepManagedFields {
			if opts.specTimes {
				specTimesOnly(u)
			} else {
				u.SetManagedFields(nil)
			}
		}
		if opts.Transform != nil {
			opts.Transform(u)
		}
	}
}

// runQuery lists and watches one query into its store until ctx ends. client-go's Reflector does
// the listing (in pages, or as a WatchList stream), the watching and the relisting after 410
// Gone; each completed list reaches the store as one Replace, which is what bootstraps the query.
// observed, if not nil, counts the query's failed list and watch requests.
func (c *Client) runQuery(ctx context.Context, acc *accumulator.Accumulator, rq *resolvedQuery, opts WatchOptions, observed WatchObserver) {
	c.runReflector(ctx, acc, rq, opts, observed, acc.Store(rq.Name), serverSelection{})
}

// reflectorStore is what a query's reflector writes into: its Store, or one Feed of it.
type reflectorStore interface {
	cache.TransformingStore
	cache.ReflectorBookmarkStore
	cache.ResourceVersionUpdater
	Transformer() cache.TransformFunc
}

// serverSelection is what a sharded query's reflector adds to the query's own selectors.
type serverSelection struct {
	// shard, if not nil, returns the shard selector, read afresh for each request (a
	// reflector of several shards narrows when one is removed).
	shard func() string
	// label, if not nil, returns a label requirement ANDed with the query's label selector,
	// read afresh for each request (see PlaceByOwnerLabel).
	label func() string
	// keep, if not nil, is asked with each item of a protobuf list before it is decoded:
	// false means the store would drop the object (another replica's), so it is not decoded
	// at all. It may say true of an object the store then drops, never false of one it keeps.
	keep func(item []byte) bool
}

// runReflector lists and watches rq's objects into store, sending sel's selectors, until ctx
// ends: see runQuery.
func (c *Client) runReflector(ctx context.Context, acc *accumulator.Accumulator, rq *resolvedQuery, opts WatchOptions, observed WatchObserver, into reflectorStore, sel serverSelection) {
	if acc.Store(rq.Name).Compact() {
		// Objects are encoded as they arrive: parts shared or copied from a Sharer's table
		// would only keep that table alive.
		opts.sharer = nil
	}
	lw, expected, err := c.listWatcher(rq, opts, acc.Store(rq.Name).Hold(), into.Transformer(), sel)
	if err != nil {
		if observed != nil {
			observed.ListWatchError(rq.Name)
		}
		acc.SetError(rq.Name, err)
		return
	}
	listConsistent(lw)
	if observed != nil {
		countErrors(ctx, lw, observed, rq.Name)
	}
	store := &clearingStore{reflectorStore: into, clear: func() { acc.SetError(rq.Name, nil) }}
	var lister cache.ListerWatcher = lw
	_, isUnstructured := expected.(*unstructured.Unstructured)
	if !isUnstructured {
		lister = streamingListWatch{lw} // typed: one LIST, decoded as it streams in
	}
	r := cache.NewReflectorWithOptions(lister, expected, store, cache.ReflectorOptions{
		Name: "kates query " + rq.Name,
		// The reflector's watch retries back off on this clock: they go again as soon as
		// the API server is back from an outage (see reach.go).
		Clock: retryClock{ctx: ctx, reach: c.reach},
	})
	if isUnstructured {
		// WatchList streams the initial objects; this is the page size of the lists it falls
		// back to. A typed query's list is left to the Reflector's paging rules: a page size
		// would make a relist at a resource version read that exact, possibly stale, version
		// from etcd (a limit with a resourceVersion means Exact) instead of the watch cache's
		// newer state, and the watch after it would find that version gone, over and over.
		r.WatchListPageSize = opts.PageSize
	}

	backoff := wait.Backoff{Duration: 200 * time.Millisecond, Factor: 2, Jitter: 0.2, Steps: 1 << 30, Cap: 10 * time.Second}
	var failingSince time.Time
	for ctx.Err() == nil {
		// A store that keeps refusing events from the past (see accumulator's stale.go) is
		// fed by a server serving an old view: it lists again, after a backoff, so that a
		// lagging server is not asked for the same list over and over.
		lctx, cancel := context.WithCancel(ctx)
		stale := acc.Store(rq.Name).RelistWanted()
		go func() {
			select {
			case <-stale:
				cancel()
			case <-lctx.Done():
			}
		}()
		err := r.ListAndWatchWithContext(lctx)
		relist := lctx.Err() != nil
		cancel()
		if ctx.Err() != nil {
			return
		}
		if relist {
			if c.reach.wait(ctx, backoff.Step()) != nil {
				return
			}
			continue
		}
		if err == nil {
			backoff.Steps, backoff.Duration = 1<<30, 200*time.Millisecond
			failingSince = time.Time{}
			continue
		}
		if failingSince.IsZero() {
			failingSince = time.Now()
		}
		if permanent(err) || time.Since(failingSince) >= opts.PersistentErrorAfter {
			acc.SetError(rq.Name, err)
		}
		if c.reach.wait(ctx, backoff.Step()) != nil {
			return
		}
	}
}

// permanent reports whether retrying cannot mend err without someone changing the cluster: the
// caller must hear of it at once.
func permanent(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) || apierrors.IsNotFound(err) ||
		apierrors.IsMethodNotSupported(err) || apierrors.IsBadRequest(err) || apierrors.IsInvalid(err)
}

// clearingStore clears the query's recorded error each time a list completes: the query works
// again.
type clearingStore struct {
	reflectorStore
	clear func()
}

func (s *clearingStore) Replace(list []any, rv string) error {
	err := s.reflectorStore.Replace(list, rv)
	s.clear()
	return err
}

// listConsistent makes lw's lists that would accept any resource version (resourceVersion
// "0", which a Reflector asks for on its first list) consistent reads instead. A list at "0"
// is served from the API server's watch cache as it stands, which can lag etcd by a few
// milliseconds: a write the client made just before the Watch, already answered, could be
// missing from the first snapshot, and a Wait begun right after an apply could judge the object
// as it was before the apply. A consistent list is served from the watch cache too, once it has
// caught up with etcd's current revision. The limit goes with "0": the server ignored it
// there, and paging a consistent list would turn one request into many.
func listConsistent(lw *cache.ListWatch) {
	list := lw.ListWithContextFunc
	lw.ListWithContextFunc = func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		if o.ResourceVersion == "0" {
			o.ResourceVersion, o.ResourceVersionMatch, o.Limit = "", "", 0
		}
		return list(ctx, o)
	}
}

// listWatcher lists and watches rq's objects, and returns an object of the type they come as:
// typed objects decoded from protobuf for a kind Scheme registers (see typedFor); otherwise
// whole objects through the dynamic client, or metadata alone through the metadata client,
// turned into Unstructured objects of rq's kind so the store need not know the difference.
// hold is the type the query's store holds its objects as, if set; arrive, if not nil, is
// applied to each typed item as it is decoded. sel's selectors go with every list and watch
// request.
func (c *Client) listWatcher(rq *resolvedQuery, opts WatchOptions, hold reflect.Type, arrive cache.TransformFunc, sel serverSelection) (*cache.ListWatch, runtime.Object, error) {
	prepare := func(o *metav1.ListOptions) {
		o.LabelSelector, o.FieldSelector = rq.LabelSelector, rq.FieldSelector
		if sel.shard != nil {
			o.ShardSelector = sel.shard()
		}
		if sel.label != nil {
			o.LabelSelector = andSelectors(o.LabelSelector, sel.label())
		}
	}
	watchTimeout := func(o *metav1.ListOptions) {
		// The Reflector does not go below 5 minutes; a shorter WatchTimeout is set here.
		secs := max(1, int64(opts.WatchTimeout.Seconds()*(1+rand.Float64())))
		o.TimeoutSeconds = &secs
	}
	if obj, list, ok := typedFor(rq, opts, hold); ok {
		rc, err := c.typedRESTClient(rq.mapping.GroupVersionKind.GroupVersion(), !opts.KeepManagedFields, opts.sharer)
		if err != nil {
			return nil, nil, err
		}
		dec := protodecode.NewObjectDecoder(nil, Scheme, protodecode.Options{StripManagedFields: !opts.KeepManagedFields, Share: opts.sharer})
		return typedListWatch(rc, dec, arrive, sel.keep, rq, list, prepare, watchTimeout), obj, nil
	}
	expected := &unstructured.Unstructured{}
	expected.SetGroupVersionKind(rq.mapping.GroupVersionKind)
	if !rq.MetadataOnly {
		return unstructuredListWatch(c.rest, rq, prepare, watchTimeout), expected, nil
	}
	var mi metadata.ResourceInterface = c.metadata.Resource(rq.mapping.Resource)
	if rq.Namespace != "" {
		mi = c.metadata.Resource(rq.mapping.Resource).Namespace(rq.Namespace)
	}
	gvk := rq.mapping.GroupVersionKind
	toUnstructured := func(m *metav1.PartialObjectMetadata) *unstructured.Unstructured {
		meta, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&m.ObjectMeta)
		if err != nil {
			meta = map[string]any{"name": m.Name, "namespace": m.Namespace}
		}
		u := &unstructured.Unstructured{Object: map[string]any{"metadata": meta}}
		u.SetGroupVersionKind(gvk)
		return u
	}
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			prepare(&o)
			list, err := mi.List(ctx, o)
			if err != nil {
				return nil, err
			}
			out := &unstructured.UnstructuredList{Object: map[string]any{}, Items: make([]unstructured.Unstructured, 0, len(list.Items))}
			out.SetResourceVersion(list.ResourceVersion)
			out.SetContinue(list.Continue)
			out.SetRemainingItemCount(list.RemainingItemCount)
			for i := range list.Items {
				out.Items = append(out.Items, *toUnstructured(&list.Items[i]))
			}
			return out, nil
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			prepare(&o)
			watchTimeout(&o)
			w, err := mi.Watch(ctx, o)
			if err != nil {
				return nil, err
			}
			return watch.Filter(w, func(ev watch.Event) (watch.Event, bool) {
				if m, ok := ev.Object.(*metav1.PartialObjectMetadata); ok {
					ev.Object = toUnstructured(m)
				}
				return ev, true
			}), nil
		},
	}, expected, nil
}

// specTimesOnly trims u's managedFields to the entries of the main resource that own spec
// fields, each reduced to its manager, operation, time and the mark that it owns spec:
// what kstatus needs to know when the spec last changed, at a few dozen bytes an entry
// instead of the whole field sets.
func specTimesOnly(u *unstructured.Unstructured) {
	meta, _ := u.Object["metadata"].(map[string]any)
	entries, _ := meta["managedFields"].([]any)
	if len(entries) == 0 {
		return
	}
	kept := entries[:0]
	for _, e := range entries {
		entry, ok := managedfields.SpecEntry(e)
		if !ok {
			continue
		}
		kept = append(kept, map[string]any{
			"manager":   entry["manager"],
			"operation": entry["operation"],
			"time":      entry["time"],
			"fieldsV1":  map[string]any{"f:spec": map[string]any{}},
		})
	}
	if len(kept) == 0 {
		delete(meta, "managedFields")
		return
	}
	meta["managedFields"] = kept
}
