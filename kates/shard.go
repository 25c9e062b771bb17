package kates

import (
	"context"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/sharding"

	"github.com/kates-dev/kates/internal/protodecode"
)

// ShardKey is the object field a ShardSpace hashes: one of the two the API server's shard
// selectors accept (KEP-5866).
type ShardKey string

const (
	// ShardByUID spreads objects evenly whatever their namespaces.
	ShardByUID ShardKey = "object.metadata.uid"
	// ShardByNamespace keeps each namespace whole in one shard. Every cluster-scoped object
	// has the empty namespace, so all of them hash alike and land in one shard.
	ShardByNamespace ShardKey = "object.metadata.namespace"
)

// ShardSpace splits the 64-bit FNV-1a hash of Key into Count virtual shards of equal width:
// shard i holds the hashes from ⌈i·2⁶⁴/Count⌉ up to, but not including, ⌈(i+1)·2⁶⁴/Count⌉.
// Replicas that agree on a ShardSpace agree on where every object belongs, without talking:
// it is the API server's own hash (k8s.io/apimachinery/pkg/sharding), so a shard selector
// sent to the server and the client's own match pick the same objects.
type ShardSpace struct {
	Key   ShardKey
	Count int
}

// Valid reports why s cannot split anything, or nil.
func (s ShardSpace) Valid() error {
	if s.Key != ShardByUID && s.Key != ShardByNamespace {
		return fmt.Errorf("kates: shard key %q: want %q or %q", s.Key, ShardByUID, ShardByNamespace)
	}
	if s.Count < 1 {
		return fmt.Errorf("kates: a shard space of %d shards", s.Count)
	}
	return nil
}

// start returns the first hash of shard i, for 0 ≤ i < Count; for i == Count, 0 with last
// set (the end of the space, 2⁶⁴, does not fit in a uint64).
func (s ShardSpace) start(i int) (h uint64, last bool) {
	if i >= s.Count {
		return 0, true
	}
	q, r := bits.Div64(uint64(i), 0, uint64(s.Count)) // i·2⁶⁴ / Count
	if r != 0 {
		q++
	}
	return q, false
}

// Requirement returns shard i's range in the API server's terms. It panics if i is outside
// [0, Count).
func (s ShardSpace) Requirement(i int) sharding.ShardRangeRequirement {
	if i < 0 || i >= s.Count {
		panic(fmt.Sprintf("kates: shard %d of a space of %d", i, s.Count))
	}
	return s.rangeOf(i, i+1)
}

// rangeOf is the requirement covering shards from up to (not including) to.
func (s ShardSpace) rangeOf(from, to int) sharding.ShardRangeRequirement {
	start, _ := s.start(from)
	end := "0x10000000000000000" // 2⁶⁴, the server's one 17-digit value
	if e, last := s.start(to); !last {
		end = fmt.Sprintf("0x%016x", e)
	}
	return sharding.ShardRangeRequirement{Key: string(s.Key), Start: fmt.Sprintf("0x%016x", start), End: end}
}

// Selector returns the selector of the given shards: one range per run of adjacent shards,
// ORed. With no shards it is sharding.Everything(), which selects everything: callers that
// mean "no shard" must not ask.
func (s ShardSpace) Selector(shards ...int) sharding.Selector {
	sorted := slices.Clone(shards)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	var reqs []sharding.ShardRangeRequirement
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[j-1]+1 {
			j++
		}
		reqs = append(reqs, s.rangeOf(sorted[i], sorted[j-1]+1))
		i = j
	}
	return sharding.NewSelector(reqs...)
}

// ShardOf returns the shard obj falls in by s.Key, as the server's selector places it.
func (s ShardSpace) ShardOf(obj metav1.Object) int {
	return s.shardOfHash(hashString(keyValue(s.Key, obj)))
}

// shardOfHash is the shard of hash h: ⌊h·Count/2⁶⁴⌋, which is exactly the i with
// start(i) ≤ h < start(i+1) given start's rounding up.
func (s ShardSpace) shardOfHash(h uint64) int {
	hi, _ := bits.Mul64(h, uint64(s.Count))
	return int(hi)
}

// itemShard is placer's placement of an object read from its protobuf bytes (see
// protodecode.ReadItemMeta) instead of decoded: the same field, hashed the same way, so that a
// list item it places in a shard not held is one the store would drop. The one difference: an
// object placed by owner label whose label disagrees with its controller, which placer puts in
// no shard, is placed here by its controller (keepItem decodes labeled objects regardless).
// TestItemShardAgreesWithPlacer holds the two together.
func (s ShardSpace) itemShard(p Placement, m protodecode.ItemMeta) int {
	switch {
	case s.Key == ShardByNamespace:
		return s.shardOfHash(hashString(m.Namespace))
	case (p == PlaceByOwner || p == PlaceByOwnerLabel) && m.HasController:
		return s.shardOfHash(hashString(m.ControllerUID))
	}
	return s.shardOfHash(hashString(m.UID))
}

// ShardOfOwner returns the shard of obj's controller under PlaceByOwner: by the hash of the
// controller ownerReference's UID, or of obj's own UID when it has no controller. So an owned
// object's ShardOfOwner is its owner's ShardOf in a space by UID.
func (s ShardSpace) ShardOfOwner(obj metav1.Object) int {
	if uid, ok := controllerUID(obj); ok {
		return s.shardOfHash(hashString(uid))
	}
	return s.shardOfHash(hashString(keyValue(ShardByUID, obj)))
}

// keyValue reads the field key names from obj. An unstructured object's metadata is read in
// place: its getters walk the maps through a variadic path, several times the cost.
func keyValue(key ShardKey, obj metav1.Object) string {
	field := "uid"
	if key == ShardByNamespace {
		field = "namespace"
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		meta, _ := u.Object["metadata"].(map[string]any)
		v, _ := meta[field].(string)
		return v
	}
	if key == ShardByNamespace {
		return obj.GetNamespace()
	}
	return string(obj.GetUID())
}

// hashString is FNV-1a 64 of s, as sharding.HashField computes it, without its allocations
// (a hasher, a byte slice and a hex string per call): the client matches every object it
// receives, so this is on the path of every list item and watch event.
func hashString[T string | []byte](s T) uint64 {
	const (
		offset64 = 14695981039346656037
		prime64  = 1099511628211
	)
	h := uint64(offset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime64
	}
	return h
}

// controllerUID returns the UID of obj's controller ownerReference. An unstructured object's
// references are read in place: GetOwnerReferences would convert every one of them.
func controllerUID(obj metav1.Object) (string, bool) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		meta, _ := u.Object["metadata"].(map[string]any)
		refs, _ := meta["ownerReferences"].([]any)
		for _, r := range refs {
			ref, _ := r.(map[string]any)
			if c, _ := ref["controller"].(bool); c {
				uid, ok := ref["uid"].(string)
				return uid, ok
			}
		}
		return "", false
	}
	for _, ref := range obj.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			return string(ref.UID), true
		}
	}
	return "", false
}

// Placement says how a sharded Watch places one query's objects in shards.
type Placement int

const (
	// PlaceByKey, the default, places each object by its own Sharding.Space.Key (its UID or
	// namespace). The API server selects the objects: a replica receives, decodes and holds
	// only its shards' objects, so both memory and network shrink with the shards.
	PlaceByKey Placement = iota
	// PlaceByOwner places each object with its controller: by the FNV-1a hash of its
	// controller ownerReference's UID, so that the Deployments a WebApp owns land in the shard
	// of that WebApp (placed by its UID). An object with no controller is placed by its own
	// UID. The server cannot select on owner references, so the query lists and watches every
	// object and the client keeps its shards' ones: memory shrinks with the shards (only they
	// are decoded into the store), the network and the decoding do not, nor the time to a
	// first view. Stamp the owned objects and use PlaceByOwnerLabel to have the server
	// select them. Under
	// ShardByNamespace owners and owned objects share a namespace already, so PlaceByOwner is
	// PlaceByKey there.
	PlaceByOwner
	// PlaceEverywhere leaves the query unsharded: every replica holds all of its objects
	// (cluster configuration, Nodes, ...).
	PlaceEverywhere
	// PlaceByOwnerLabel places each object as PlaceByOwner does, and lets the API server
	// select the objects stamped with their controller's shard (the OwnerShardLabel label,
	// which ShardSpace.StampOwnerShard sets): the query's requests carry the label selector
	// "OwnerShardLabel notin (the shards other replicas hold)", so a replica receives and
	// decodes only its own shards' stamped objects, and every object not stamped for this
	// space (written before stamping, by someone else, or for another shard count). Those
	// it places on the client as PlaceByOwner does, so nothing unstamped is lost, and each
	// costs every replica its network and decoding until it is stamped. The label only
	// narrows what the server sends: which shard an object is in is always decided by its
	// controller's UID, so a stale or wrong label (a controller changed, a hand edit) never
	// puts an object in two views; see OwnerShardLabel for where such an object goes. Adding
	// a shard lists the query again with the wider selector (as PlaceByOwner does: once
	// for shards added together, and after a list under way, which is not restarted); removing
	// one drops its objects at once and narrows the selector from the next request on (a
	// watch that restarts, a relist), without listing again. Under ShardByNamespace it is
	// PlaceByKey, as PlaceByOwner is.
	PlaceByOwnerLabel
)

// String returns "by-key", "by-owner", "everywhere" or "by-owner-label".
func (p Placement) String() string {
	switch p {
	case PlaceByKey:
		return "by-key"
	case PlaceByOwner:
		return "by-owner"
	case PlaceEverywhere:
		return "everywhere"
	case PlaceByOwnerLabel:
		return "by-owner-label"
	}
	return fmt.Sprintf("Placement(%d)", int(p))
}

// Sharding restricts a view to some shards of a ShardSpace: set as WatchOptions.Sharding, it
// applies to every query of the Watch (but those placed everywhere), and
// Accumulator.AddShard and RemoveShard change the shards later; set as Query.Sharding, to that
// query alone, for good.
type Sharding struct {
	Space ShardSpace
	// Owned are the shards held from the start. Empty: none yet (a replica waiting for its
	// shards to be assigned); the view is then complete, and empty, at once.
	Owned []int
}

// UIDShard is shard i of n by UID: the simple static sharding of n replicas.
func UIDShard(i, n int) *Sharding {
	return &Sharding{Space: ShardSpace{Key: ShardByUID, Count: n}, Owned: []int{i}}
}

// NamespaceShard is shard i of n by namespace: each namespace whole in one of n replicas, all
// cluster-scoped objects in the shard of the empty namespace.
func NamespaceShard(i, n int) *Sharding {
	return &Sharding{Space: ShardSpace{Key: ShardByNamespace, Count: n}, Owned: []int{i}}
}

// validate checks sh's space and shards.
func (sh *Sharding) validate() error {
	if err := sh.Space.Valid(); err != nil {
		return err
	}
	for _, i := range sh.Owned {
		if i < 0 || i >= sh.Space.Count {
			return fmt.Errorf("kates: shard %d of a space of %d", i, sh.Space.Count)
		}
	}
	return nil
}

// placer returns the function placing objects in sh's space under placement p.
func (s ShardSpace) placer(p Placement) func(metav1.Object) int {
	if s.Key != ShardByUID {
		return s.ShardOf
	}
	switch p {
	case PlaceByOwner:
		return s.ShardOfOwner
	case PlaceByOwnerLabel:
		return s.shardOfOwnerChecked
	}
	return s.ShardOf
}

// OwnerShardLabel is the label ShardSpace.StampOwnerShard sets on an owned object: the shard
// of the object's controller in a space by UID, as "i-of-n" ("3-of-16": shard 3 of 16). A
// query placed by PlaceByOwnerLabel asks the API server for the objects of its own shards by
// it. The count is in the value so that a space of another count reads the label as absent:
// changing a group's shard count costs network (the objects are sent to every replica and
// placed on the client) until they are stamped again, never a lost object.
//
// Virtual shard numbers do not change when replicas join or leave, so neither does the label:
// it is written once, when the object is. It goes stale only when the object's controller
// changes, or someone edits it. The label never moves an object: its controller's UID decides
// its shard (the owner's hash wins), and an object whose label names another shard is
// mislabeled and in no view at all. The API server sends it to the replica holding the
// labeled shard, which drops it and logs a warning (at most one every 10 s); the replica
// holding the controller's shard is not sent it; one that held it sees it leave as
// ObjectMoved. (The server reports an object leaving a selector as deleted; the replica asks
// it whether the object still exists before it believes that: one metadata GET per deletion
// its watch of the query reports, about 2 ms each on a local cluster, made in turn on the
// query's watch goroutine, so that a mass deletion reaches the view that much later.) Keeping it would be worse: the replica that receives
// it could keep it only while it holds the labeled shard, and would never hear of it again
// once it hands that shard away. A controller that stamps every owned object it writes, and
// writes the owned objects of each owner it reconciles whether its view shows them or not (a
// server-side apply, say), mends a mislabeled object on its next reconcile of the owner.
const OwnerShardLabel = "shards.kates.dev/owner-shard"

// OwnerShardLabelValue returns the value of OwnerShardLabel for shard i of s: "i-of-Count".
func (s ShardSpace) OwnerShardLabelValue(i int) string {
	return strconv.Itoa(i) + "-of-" + strconv.Itoa(s.Count)
}

// StampOwnerShard sets OwnerShardLabel on obj, an owned object about to be written, to the
// shard of its controller (its controller ownerReference's UID, hashed as ShardOfOwner does,
// whatever s.Key), so that queries placed by PlaceByOwnerLabel have the API server select
// it. It reports whether obj has a controller; without one it leaves obj alone (such an
// object is placed by its own UID, which it may not have yet). The labels map is replaced,
// not changed in place: obj's may be shared with other objects (WatchOptions.SharedValues).
func (s ShardSpace) StampOwnerShard(obj metav1.Object) bool {
	uid, ok := controllerUID(obj)
	if !ok {
		return false
	}
	value := s.OwnerShardLabelValue(s.shardOfHash(hashString(uid)))
	old := obj.GetLabels()
	if old[OwnerShardLabel] == value {
		return true
	}
	labels := make(map[string]string, len(old)+1)
	maps.Copy(labels, old)
	labels[OwnerShardLabel] = value
	obj.SetLabels(labels)
	return true
}

// ownerShardKey is the context key of the shard space whose OwnerShardLabel a Client stamps
// on the owned objects it writes.
type ownerShardKey struct{}

// WithOwnerShardStamp returns a context whose Client writes stamp their object with
// OwnerShardLabel for space (see StampOwnerShard): Create, Update, Apply and Upsert label every
// object that has a controller ownerReference before sending it. shards.Run gives each shard's
// run such a context, so the objects a sharded controller writes are selected by the API server
// for queries placed by PlaceByOwnerLabel without the controller stamping them: an object
// written without the label costs every replica its network and decoding until it is stamped.
// Patch is left alone (its bytes are the caller's), and so is an object without a controller.
func WithOwnerShardStamp(ctx context.Context, space ShardSpace) context.Context {
	return context.WithValue(ctx, ownerShardKey{}, space)
}

// OwnerShardStampFrom returns the shard space ctx's writes are stamped for, if any (see
// WithOwnerShardStamp).
func OwnerShardStampFrom(ctx context.Context) (ShardSpace, bool) {
	s, ok := ctx.Value(ownerShardKey{}).(ShardSpace)
	return s, ok && s.Count > 0
}

// stampForContext stamps obj, about to be written with ctx, with its owner's shard if ctx asks
// for it (WithOwnerShardStamp).
func stampForContext(ctx context.Context, obj metav1.Object) {
	if s, ok := OwnerShardStampFrom(ctx); ok {
		s.StampOwnerShard(obj)
	}
}

// labeledShard returns the shard obj's OwnerShardLabel names in s, and whether it names one
// of s (a label of another count, or no label, is none).
func (s ShardSpace) labeledShard(obj metav1.Object) (int, bool) {
	var v string
	if u, ok := obj.(*unstructured.Unstructured); ok {
		meta, _ := u.Object["metadata"].(map[string]any)
		labels, _ := meta["labels"].(map[string]any)
		v, _ = labels[OwnerShardLabel].(string)
	} else {
		v = obj.GetLabels()[OwnerShardLabel]
	}
	if v == "" {
		return 0, false
	}
	num, count, ok := strings.Cut(v, "-of-")
	if !ok || count != strconv.Itoa(s.Count) {
		return 0, false
	}
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || i >= s.Count {
		return 0, false
	}
	return i, true
}

// ownerLabelSelector is the label requirement of a query placed by PlaceByOwnerLabel whose
// store holds the shards owns reports: every object but those stamped with a shard held
// elsewhere. "" when every shard is held (nothing to leave out).
func (s ShardSpace) ownerLabelSelector(owns func(int) bool) string {
	var others []string
	for i := range s.Count {
		if !owns(i) {
			others = append(others, s.OwnerShardLabelValue(i))
		}
	}
	if len(others) == 0 {
		return ""
	}
	return OwnerShardLabel + " notin (" + strings.Join(others, ",") + ")"
}

// noShard is the shard of an object no view holds: a mislabeled one (see OwnerShardLabel).
const noShard = -2

// shardOfOwnerChecked is ShardOfOwner for PlaceByOwnerLabel, but an object whose
// OwnerShardLabel names another shard than its controller's is in none (noShard), and warned
// of: see OwnerShardLabel.
func (s ShardSpace) shardOfOwnerChecked(obj metav1.Object) int {
	i := s.ShardOfOwner(obj)
	if labeled, ok := s.labeledShard(obj); ok && labeled != i {
		warnMislabeled(obj, s.OwnerShardLabelValue(labeled), s.OwnerShardLabelValue(i))
		return noShard
	}
	return i
}

// mislabeled counts the objects met whose OwnerShardLabel disagreed with their controller's
// UID; mislabeledWarned is when the last warning was logged (Unix nanoseconds).
var mislabeled, mislabeledWarned atomic.Int64

// warnMislabeled logs a mislabeled object, at most once every 10 s (an object is placed
// several times as it arrives, and a batch of them would flood the log).
func warnMislabeled(obj metav1.Object, labeled, owner string) {
	n := mislabeled.Add(1)
	now := time.Now().UnixNano()
	last := mislabeledWarned.Load()
	if now-last < int64(10*time.Second) || !mislabeledWarned.CompareAndSwap(last, now) {
		return
	}
	shardWarn("kates: %s/%s is labeled %s=%s, but its controller's UID places it in shard %s: the object is placed by its controller "+
		"and is in no replica's view that does not hold both shards, until it is stamped again (ShardSpace.StampOwnerShard); %d such placements so far",
		obj.GetNamespace(), obj.GetName(), OwnerShardLabel, labeled, owner, n)
}
