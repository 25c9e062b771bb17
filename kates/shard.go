package kates

import (
	"fmt"
	"math/bits"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/sharding"
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
func hashString(s string) uint64 {
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
	// are decoded into the store), the network and the decoding do not. Under
	// ShardByNamespace owners and owned objects share a namespace already, so PlaceByOwner is
	// PlaceByKey there.
	PlaceByOwner
	// PlaceEverywhere leaves the query unsharded: every replica holds all of its objects
	// (cluster configuration, Nodes, ...).
	PlaceEverywhere
)

// String returns "by-key", "by-owner" or "everywhere".
func (p Placement) String() string {
	switch p {
	case PlaceByKey:
		return "by-key"
	case PlaceByOwner:
		return "by-owner"
	case PlaceEverywhere:
		return "everywhere"
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
	if p == PlaceByOwner && s.Key == ShardByUID {
		return s.ShardOfOwner
	}
	return s.ShardOf
}
