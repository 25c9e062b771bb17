package accumulator

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/kstatus"
)

// QuerySpec is one resolved query: which objects to watch and which field of the caller's
// snapshot struct they fill.
type QuerySpec struct {
	// Name is the snapshot struct field this query fills. It must be an exported Go
	// identifier, unique within one Accumulator.
	Name string
	// GVK is the resolved kind. Objects arrive as *unstructured.Unstructured of this kind.
	GVK schema.GroupVersionKind
	// Namespace restricts the query to one namespace; "" means all namespaces (or a
	// cluster-scoped kind).
	Namespace string
	// LabelSelector restricts the query by labels; nil means everything.
	LabelSelector labels.Selector
	// FieldSelector restricts the query by fields; nil means everything.
	FieldSelector fields.Selector
	// ShardOf, if set, makes the query sharded: it returns the shard an object is placed in,
	// and the view holds only the objects of the shards its Store owns (see Store.Own,
	// Store.NewFeed, Store.MoveOut), the client's own writes included. It must be cheap (it
	// runs on every object that arrives and every write shown) and safe for concurrent use.
	// Default nil: not sharded.
	ShardOf func(metav1.Object) int
}

// Options configures an Accumulator.
type Options struct {
	// Overlay supplies the client's own recent writes, so that a snapshot shows a write as soon
	// as it returned, before the watch delivers it. Default: nil, no overlay.
	Overlay Overlay

	// Transform is applied to every object before it is stored (for example to strip
	// managedFields), and to a private copy of every object the Overlay reports. It may mutate
	// its argument, and must not keep it. Default: nil, objects are stored as they arrive.
	Transform func(*unstructured.Unstructured)

	// ObjectTransform is Transform for typed objects: a store fed typed objects (decoded from
	// protobuf, say) applies it to each before computing its status, since Transform takes
	// only unstructured ones. It may mutate its argument, and must not keep it. Default: nil.
	ObjectTransform func(runtime.Object)

	// ReuseSlices lets Update write a query's changes into the slice it handed out at the
	// previous Update, when the snapshot field still holds that slice, instead of handing out a
	// new slice each time. An Update that changes objects in place then costs what changed, not
	// one pointer copy per object in the view; adds and deletes still shift the elements after
	// them. The price: a copy of the slice the caller kept from an earlier Update sees the later
	// changes, as it would for a map field. Default false: slices handed out are never written
	// again. Map fields are updated in place either way.
	ReuseSlices bool

	// Snapshot, if not nil, is a pointer to the snapshot struct type that Updates will fill
	// (its value is not read: (*MySnapshot)(nil) will do). New checks the type as Update
	// would, and each store then holds its objects as its field's Go type (Store.Hold):
	// objects that arrive in another form (unstructured, for a custom resource with a struct
	// of its own) are converted once, as they reach the store, in the reflector's goroutine,
	// instead of in Update. A bootstrap's conversion then overlaps with the list still
	// streaming in, Update hands out the held object itself, and the store and the snapshot
	// share that one copy. Updates into other struct types still work, converting copies.
	// The price: every version that arrives is converted, where Update converts only the
	// latest version of what changed since the previous Update; for a consumer much slower
	// than a busy kind's events, leave it unset and let load shedding save the work. Objects
	// that arrive typed (kates decodes built-in kinds from protobuf) need no conversion either
	// way.
	Snapshot any

	// Compressor, if set, makes compact objects (see Compact) held compressed: each query's
	// objects by a Codec of its own, which the Compressor makes from the protobuf encoding
	// of the first object the query compacts and which is never changed. Name, Namespace
	// and ResourceVersion are kept uncompressed beside, and Status is computed on arrival as
	// without compression; Get and Meta decompress first. It trades CPU on arrival and on
	// every Get, Meta and delta for memory: see the kates package documentation's Compact
	// views for the measured figures. Package github.com/kates-dev/kates/zstdcompact
	// provides one (zstd against that first object as a raw dictionary); it lives apart so
	// that a program that never compresses links no compression library. Default nil:
	// compact objects are held as their protobuf encoding. Struct fields are unaffected.
	Compressor Compressor

	// Scheme knows the typed Go structs of the kinds it has registered. It is used to convert
	// unstructured objects into typed snapshot fields and to check that a snapshot field can
	// hold its query's kind. Default: k8s.io/client-go/kubernetes/scheme.Scheme.
	Scheme *runtime.Scheme

	// Status computes the status stored beside each object (Entry.Status). Default:
	// kstatus.Compute. kates sets it to apply status rules (kstatus.ComputeWith).
	Status func(*unstructured.Unstructured) (*kstatus.Result, error)

	// Observer, if not nil, is told of every event, list and Update, for metrics (see
	// Observer). Default: nil, nothing is observed and nothing is paid for it.
	Observer Observer

	// Sharder changes the shards of sharded queries for AddShard and RemoveShard. Default
	// nil: AddShard returns ErrNotSharded.
	Sharder Sharder
	// Check, if not nil, runs at the start of every Update, in the caller's goroutine (so
	// that it reads the caller's snapshot without racing with the caller), and an error it
	// returns is Update's. kates sets it to its mutation detector (WatchOptions.MutationDetector).
	// Default: nil.
	Check func() error
}

// Overlay knows how to report the client's own writes that a watch may not have delivered yet.
type Overlay interface {
	// Writes returns the current write records for gvk, at most one (the newest) per object,
	// in any namespace. It must be safe for concurrent use. The Accumulator never modifies
	// the records or their objects.
	Writes(gvk schema.GroupVersionKind) []Write
}

// Write is one write record: what the API server answered to a create, update, patch or delete
// the client made.
type Write struct {
	Namespace, Name string
	// Object is the server's response; nil for a delete.
	Object *unstructured.Unstructured
	// Deleted marks a delete.
	Deleted bool
	// ResourceVersion is the write's resource version. For a delete it is the deleted
	// object's last resource version if known, else "".
	ResourceVersion string
	// UID is, for a delete, the deleted object's UID if known, else "". A store that holds an
	// object of the same name with another UID holds a newer object, and the delete record
	// no longer applies to it. Unused for other writes (their Object carries the UID).
	UID types.UID
}

// DeltaType says how an object changed between two views.
type DeltaType int

const (
	ObjectAdd DeltaType = iota
	ObjectUpdate
	ObjectDelete
	// ObjectMoved: the object left a sharded view because its shard moved away from this
	// view (Accumulator.RemoveShard) or, placed by its owner, because its controller is placed
	// in another shard. It was not deleted: another replica holds it now, and a controller
	// must not clean up after it.
	ObjectMoved
)

var deltaTypeNames = [...]string{ObjectAdd: "add", ObjectUpdate: "update", ObjectDelete: "delete", ObjectMoved: "moved"}

// String returns "add", "update", "delete" or "moved".
func (t DeltaType) String() string {
	if t >= 0 && int(t) < len(deltaTypeNames) {
		return deltaTypeNames[t]
	}
	return fmt.Sprintf("DeltaType(%d)", int(t))
}

// MarshalJSON encodes t as its String.
func (t DeltaType) MarshalJSON() ([]byte, error) {
	if t < 0 || int(t) >= len(deltaTypeNames) {
		return nil, fmt.Errorf("accumulator: invalid DeltaType %d", int(t))
	}
	return json.Marshal(t.String())
}

// UnmarshalJSON decodes "add", "update", "delete" or "moved".
func (t *DeltaType) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("accumulator: DeltaType: %w", err)
	}
	for i, name := range deltaTypeNames {
		if name == s {
			*t = DeltaType(i)
			return nil
		}
	}
	return fmt.Errorf("accumulator: unknown DeltaType %q", s)
}

// Delta is one change of one object between the view a caller held and its new view.
type Delta struct {
	// Query is the QuerySpec.Name of the query whose view changed.
	Query      string `json:"query"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// ResourceVersion is the new version for an add or update, and the last version the
	// caller saw for a delete.
	ResourceVersion string    `json:"resourceVersion,omitempty"`
	DeltaType       DeltaType `json:"deltaType"`
	// Object is the object as the new view holds it for an add or update, and as the last
	// view held it for a delete or move (the Object of an Entry). It is the view's own object,
	// shared with the snapshot: read it, never modify it.
	// It lets a consumer map a change to the objects it concerns (an owner, say) without a
	// lookup, including a deleted object's last labels and owner references.
	Object metav1.Object `json:"-"`
}

// Entry is a snapshot element that carries an object together with its computed status.
// Use it as the element of a snapshot field: []Entry[*appsv1.Deployment],
// map[string]Entry[*unstructured.Unstructured], ...
type Entry[T any] struct {
	Object T
	// Status was computed once per version of the object: as it arrived, in a store that
	// holds objects unstructured, or when an Update first handed that version out in an
	// Entry, in a store that holds them typed (from the fields kstatus reads; see the package
	// documentation).
	Status kstatus.Result
}
