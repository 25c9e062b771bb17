package accumulator

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/kates-dev/kates/kstatus"
)

// ErrStopped is returned by Update and its variants once Stop was called.
var ErrStopped = errors.New("accumulator: stopped")

// Accumulator accumulates the objects of several queries into complete views, and fills
// a caller's snapshot struct with them. See the package documentation.
type Accumulator struct {
	queries   []*query
	byName    map[string]*query
	overlay   Overlay
	transform func(*unstructured.Unstructured)
	// objectTransform is Options.ObjectTransform, for typed objects.
	objectTransform func(runtime.Object)
	// status is Options.Status: how an object's status is computed (kstatus.Compute if nil).
	status func(*unstructured.Unstructured) (*kstatus.Result, error)
	// observer is Options.Observer; nil if none.
	observer Observer
	// sharder is Options.Sharder; nil if none.
	sharder Sharder
	// check is Options.Check; nil if none.
	check func() error

	changed chan struct{}
	// synced counts the queries whose store has had its first Replace.
	synced atomic.Int32
	// complete is closed when synced reaches len(queries); see Bootstrapped.
	complete chan struct{}
	// notifyMu orders sends on changed (read-locked) before its close (write-locked).
	notifyMu sync.RWMutex
	stopped  atomic.Bool

	errMu sync.Mutex // guards query.err

	// updateSem serializes Updates; a channel, so that waiting for it can give up when the
	// context ends. It guards plans and every query.view.
	updateSem chan struct{}
	plans     map[reflect.Type]*plan

	// results and resultCount are the shared status results of compact objects (see
	// sharedResult).
	results     sync.Map // resultKey → *kstatus.Result
	resultCount atomic.Int32
}

// query is one QuerySpec with its store and what the consumer last saw of it.
type query struct {
	spec       QuerySpec
	apiVersion string
	store      *Store
	scheme     *runtime.Scheme
	// schemeType is the struct type the scheme registers for spec.GVK; nil if it has none.
	schemeType reflect.Type
	// reuseSlices is Options.ReuseSlices.
	reuseSlices bool
	// compressor is Options.Compressor.
	compressor Compressor
	// ckind is what the query's compact objects share (see compactKind); nil until a plan
	// with a Compact field for it is built (New or Update, serialized).
	ckind *compactKind

	err error // guarded by Accumulator.errMu

	view lastView // guarded by Accumulator.updateSem
}

// New returns an Accumulator for queries. Every query needs a non-empty, unique Name that is an
// exported Go identifier (the snapshot field it fills), and a GVK with a Version and a Kind.
func New(queries []QuerySpec, opts Options) (*Accumulator, error) {
	if len(queries) == 0 {
		return nil, errors.New("accumulator: no queries")
	}
	scheme := opts.Scheme
	if scheme == nil {
		scheme = clientgoscheme.Scheme
	}
	a := &Accumulator{
		byName:    make(map[string]*query, len(queries)),
		overlay:   opts.Overlay,
		transform: opts.Transform,

		objectTransform: opts.ObjectTransform,
		status:          opts.Status,
		observer:        opts.Observer,
		sharder:         opts.Sharder,
		check:           opts.Check,
		changed:         make(chan struct{}, 1),
		complete:        make(chan struct{}),
		updateSem:       make(chan struct{}, 1),
		plans:           make(map[reflect.Type]*plan),
	}
	known := scheme.AllKnownTypes()
	for i, spec := range queries {
		switch {
		case spec.Name == "":
			return nil, fmt.Errorf("accumulator: query %d has no name", i)
		case !token.IsIdentifier(spec.Name) || !token.IsExported(spec.Name):
			return nil, fmt.Errorf("accumulator: query name %q is not an exported Go identifier, so it cannot name a snapshot field", spec.Name)
		case a.byName[spec.Name] != nil:
			return nil, fmt.Errorf("accumulator: two queries named %q", spec.Name)
		case spec.GVK.Version == "" || spec.GVK.Kind == "":
			return nil, fmt.Errorf("accumulator: query %q: GVK %q needs a version and a kind", spec.Name, spec.GVK)
		}
		q := &query{
			spec:        spec,
			apiVersion:  spec.GVK.GroupVersion().String(),
			scheme:      scheme,
			schemeType:  known[spec.GVK],
			reuseSlices: opts.ReuseSlices,
			compressor:  opts.Compressor,
		}
		q.store = newStore(a, spec.Name, spec.GVK)
		q.store.schemeType = q.schemeType
		q.store.shardOf = spec.ShardOf
		a.queries = append(a.queries, q)
		a.byName[spec.Name] = q
	}
	if opts.Snapshot != nil {
		if err := a.convertAhead(opts.Snapshot); err != nil {
			return nil, err
		}
	}
	if opts.Observer != nil {
		for _, q := range a.queries {
			q.store.obs = opts.Observer.Query(q.spec)
		}
	}
	return a, nil
}

// convertAhead checks snapshot, Options.Snapshot, as Update checks a target, and has each
// store of a typed field hold its objects as that field's type, converting those that arrive
// unstructured.
func (a *Accumulator) convertAhead(snapshot any) error {
	t := reflect.TypeOf(snapshot)
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("accumulator: Options.Snapshot is a %T; want a pointer to a snapshot struct", snapshot)
	}
	p := a.buildPlan(t.Elem())
	if p.err != nil {
		return p.err
	}
	a.plans[t.Elem()] = p
	for i, q := range a.queries {
		q.store.holdType = p.fields[i].objType
		q.store.compact = p.fields[i].kind // nil unless the field is compact
	}
	return nil
}

// Store returns the store the reflector of the named query writes into, or nil if there is no
// such query.
func (a *Accumulator) Store(query string) *Store {
	if q := a.byName[query]; q != nil {
		return q.store
	}
	return nil
}

// ResourceVersion returns the newest resource version the named query's store has seen, from
// Replace, events and bookmarks; "" before any, or if there is no such query. Every event up
// to it has been delivered to the store, so a write record at or below it is superseded for
// this query. A relist sets it to the list's version, even an older one (see Store.Replace).
func (a *Accumulator) ResourceVersion(query string) string {
	if q := a.byName[query]; q != nil {
		return q.store.resourceVersion()
	}
	return ""
}

// SetError records a failure of the named query's list or watch; nil clears it. While an error
// is recorded, every Update returns it, wrapped with the query name (errors.Is, errors.As and
// apierrors.IsForbidden and friends see through the wrapping), and leaves its target untouched.
// Recording an error wakes the consumer through Changed, even before bootstrap; clearing one
// wakes it once bootstrapped. Unknown query names are ignored.
func (a *Accumulator) SetError(query string, err error) {
	q := a.byName[query]
	if q == nil {
		return
	}
	a.errMu.Lock()
	old := q.err
	q.err = err
	a.errMu.Unlock()
	switch {
	case err != nil:
		a.signal()
	case old != nil:
		a.notify()
	}
}

// Notify wakes the consumer as a store change does, if every query has bootstrapped. The client
// calls it after recording a write, so that a consumer waiting on Changed sees it through the
// Overlay before the watch delivers it.
func (a *Accumulator) Notify() { a.notify() }

// Changed returns a channel that receives a value when the view may have changed since the
// last Update: after bootstrap, after each store change, on SetError and Notify. It has
// capacity 1 and is never blocked on, so a burst of changes leaves one signal: the consumer
// then calls Update once and gets the latest view. It is closed by Stop.
func (a *Accumulator) Changed() <-chan struct{} { return a.changed }

// Stop closes Changed; later Updates return ErrStopped. Stores keep accepting writes, which
// are then ignored. Stop is idempotent and safe for concurrent use.
func (a *Accumulator) Stop() {
	a.notifyMu.Lock()
	defer a.notifyMu.Unlock()
	if a.stopped.Swap(true) {
		return
	}
	close(a.changed)
}

func (a *Accumulator) bootstrapped() bool { return int(a.synced.Load()) == len(a.queries) }

// Bootstrapped returns a channel that is closed once every query has its complete initial
// list: from then on an Update returns a complete view. Unlike Changed, waiting on it takes
// nothing from the consumer, so a program can wait for its view to be complete — a replica
// standing by for a lease, a readiness check — and leave the first signal on Changed to the
// loop that will call Update. It is never closed if some query never lists (an error recorded
// with SetError, Forbidden say, is reported by Update instead), nor by Stop.
func (a *Accumulator) Bootstrapped() <-chan struct{} { return a.complete }

// markSynced counts a query's first Replace, and signals once every query has had one.
func (a *Accumulator) markSynced() {
	if int(a.synced.Add(1)) == len(a.queries) {
		close(a.complete)
		a.signal()
	}
}

// notify signals Changed once bootstrapped.
func (a *Accumulator) notify() {
	if a.bootstrapped() {
		a.signal()
	}
}

func (a *Accumulator) signal() {
	a.notifyMu.RLock()
	defer a.notifyMu.RUnlock()
	if a.stopped.Load() {
		return
	}
	select {
	case a.changed <- struct{}{}:
	default:
	}
}

// bigChangeSets counts the queries with at least parallelConvertMin changed objects waiting.
func (a *Accumulator) bigChangeSets() int {
	n := 0
	for _, q := range a.queries {
		q.store.mu.Lock()
		if len(q.store.dirty) >= parallelConvertMin {
			n++
		}
		q.store.mu.Unlock()
	}
	return n
}

// newItem transforms obj in place and, for an unstructured object, computes its status. obj is
// an *unstructured.Unstructured or a typed object of kind gvk. A typed object's status is
// computed later, from its statusView, when an Update first hands it out in an Entry (see
// item.statusOf): most typed consumers never ask for it, and the view costs a conversion of the
// object's status, which a store fed thousands of objects at once should not pay up front.
func (a *Accumulator) newItem(gvk schema.GroupVersionKind, obj any) *item {
	it := &item{obj: obj}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if a.transform != nil {
			a.transform(u)
		}
		it.status = resultOf(a.computeStatus(u))
	} else if ro, ok := obj.(runtime.Object); ok {
		// Protobuf and typed JSON decoding leave apiVersion and kind empty; a snapshot
		// object carries them, as one converted from unstructured always did.
		if k := ro.GetObjectKind(); k.GroupVersionKind().Kind == "" {
			k.SetGroupVersionKind(gvk)
		}
		if a.objectTransform != nil {
			a.objectTransform(ro)
		}
	}
	if m, ok := obj.(metav1.Object); ok {
		it.rv, it.uid = m.GetResourceVersion(), m.GetUID()
	}
	return it
}

// computeStatus is Options.Status, or kstatus.Compute without one.
func (a *Accumulator) computeStatus(u *unstructured.Unstructured) (*kstatus.Result, error) {
	if a.status != nil {
		return a.status(u)
	}
	return kstatus.Compute(u)
}

// resultOf turns what kstatus.Compute returns into the Result to keep: kstatus reports malformed
// fields with an error beside its best result; keep that result, and make one up only if there
// is none.
func resultOf(res *kstatus.Result, err error) *kstatus.Result {
	if res != nil {
		return res
	}
	r := &kstatus.Result{Status: kstatus.UnknownStatus}
	if err != nil {
		r.Message = err.Error()
	}
	return r
}

// queryErrors returns the recorded errors, wrapped with their query names.
func (a *Accumulator) queryErrors() error {
	a.errMu.Lock()
	defer a.errMu.Unlock()
	var errs []error
	for _, q := range a.queries {
		if q.err != nil {
			errs = append(errs, fmt.Errorf("accumulator: query %q: %w", q.spec.Name, q.err))
		}
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// Update fills target, a pointer to the caller's snapshot struct, with the latest complete
// view: each query fills the field its QuerySpec.Name names. Update reports whether it
// modified target, which it does when the view differs from the one this Accumulator handed
// out at its previous successful Update (the first fill counts), or when target does not hold
// that previous view (a fresh struct, say). It returns (false, nil) and leaves target untouched
// until every query has bootstrapped.
//
// A field is one of []*T, map[string]*T, []Entry[*T] or map[string]Entry[*T], where T is
// unstructured.Unstructured or the typed struct the scheme registers for the query's kind (any
// struct for a kind the scheme does not know). Maps are keyed "namespace/name", or "name" for
// cluster-scoped objects; slices are sorted by namespace, then name. Entry carries the status
// computed once per version (see Entry). A target that cannot hold the view is an error naming the
// field and the types, returned before anything is touched; so is an error recorded by
// SetError. Update never leaves a snapshot half filled.
//
// Objects are held once, never twice: the first Update to hand out a version of an object
// hands out the store's own object when it is of the field's type (and a conversion
// otherwise), and the store lets go of it, so the snapshot's object is the only copy of that
// version; an object that did not change is the very pointer the previous Update handed out
// (so the cost of Update follows the change, not the number of objects). The Accumulator
// never modifies an object, slice or Entry after handing it out (but see ReuseSlices), so a
// snapshot stays valid as long as the caller keeps it. A caller that modifies a snapshot's
// objects modifies only its own copies: never what the store holds, nor the fresh versions of
// objects that change later, nor another Accumulator's; but its edit shows in later snapshots
// of this Accumulator for as long as that object does not change, including a hand-out into
// another struct type or element type, which copies the object the view holds. Slices are always new (unless
// Options.ReuseSlices: then a field that still holds the slice handed out last is written in
// place, and the caller must not write to it). A map is
// updated in place, for the keys that changed, when the field still holds the map the previous
// Update handed out, and replaced by a new map otherwise: copy the map to keep an old view,
// or set the field to nil to get a clean one.
//
// Update is for one consumer: concurrent calls are serialized. It returns ctx.Err() promptly
// once ctx is done, leaving target untouched, and ErrStopped after Stop.
func (a *Accumulator) Update(ctx context.Context, target any) (bool, error) {
	return a.FilteredUpdate(ctx, target, nil, nil)
}

// UpdateWithDeltas is Update, and also sets *deltas (if deltas is not nil) to the changes from
// the view handed out at the previous successful Update to the new one: an ObjectAdd,
// ObjectUpdate or ObjectDelete per object that differs, ordered by query, then namespace,
// then name. They are net changes: an object added and deleted between two Updates gives no
// delta, and a relist that drops objects gives deletes. A version change that keeps the same
// resource version (the watch delivering a write the Overlay already showed) is no change.
// *deltas is set to nil when nothing changed, and left alone on error. The first fill gives an
// ObjectAdd for every object.
func (a *Accumulator) UpdateWithDeltas(ctx context.Context, target any, deltas *[]*Delta) (bool, error) {
	return a.FilteredUpdate(ctx, target, deltas, nil)
}

// FilteredUpdate is UpdateWithDeltas that keeps out of the view every object for which
// predicate returns false. The predicate is called once per new version of an object (never
// for one that did not change, nor for a delete), and its verdict stands until the object
// changes again, even across later calls with another predicate or none. An object that was in
// the view and whose new version the predicate refuses leaves the view with an ObjectDelete;
// an object refused while out of the view gives no delta. The predicate must not modify its
// argument, which is the Accumulator's own stored object when the store holds objects
// unstructured; a store that holds typed objects gives the predicate an unstructured
// conversion of each new version, a cost only predicates pay. If the predicate panics,
// FilteredUpdate recovers and returns the panic as an error, leaving target untouched; the
// changes stay pending for the next call. A nil predicate accepts everything.
func (a *Accumulator) FilteredUpdate(ctx context.Context, target any, deltas *[]*Delta, predicate func(*unstructured.Unstructured) bool) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	select {
	case a.updateSem <- struct{}{}:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	defer func() { <-a.updateSem }()

	if a.stopped.Load() {
		return false, ErrStopped
	}
	tv, p, err := a.planFor(target)
	if err != nil {
		return false, err
	}
	if err := a.queryErrors(); err != nil {
		return false, err
	}
	if a.check != nil {
		if err := a.check(); err != nil {
			return false, err
		}
	}
	if !a.bootstrapped() {
		return false, nil
	}
	if a.observer != nil {
		start := time.Now()
		defer func() { a.observer.Updated(time.Since(start)) }()
	}

	// Phase 1 may fail: it takes the changes from the stores, consults the overlay, runs the
	// predicate and converts the changed objects, touching neither target nor any last view.
	// Queries are independent here: when several have big change sets (a bootstrap, relists)
	// they are prepared side by side, the consumer waiting for them all. Not with a predicate,
	// which is the caller's code and was never promised to be called concurrently.
	pending := make([]*pending, len(a.queries))
	errs := make([]error, len(a.queries))
	if predicate == nil && a.bigChangeSets() > 1 {
		var wg sync.WaitGroup
		for i, q := range a.queries {
			wg.Go(func() { pending[i], errs[i] = a.prepare(ctx, q, &p.fields[i], nil) })
		}
		wg.Wait()
	} else {
		for i, q := range a.queries {
			if pending[i], errs[i] = a.prepare(ctx, q, &p.fields[i], predicate); errs[i] != nil {
				break
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			for _, pd := range pending {
				if pd != nil {
					pd.rollback()
				}
			}
			return false, err
		}
	}

	// Phase 2 cannot fail: it commits every query's changes to its last view and to target.
	var ds []*Delta
	written := false
	for _, pd := range pending {
		if pd.commit(tv) {
			written = true
		}
		if deltas != nil {
			ds = pd.appendDeltas(ds)
		}
	}
	if deltas != nil {
		*deltas = ds
	}
	return written, nil
}
