package kates_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/uuid"

	"github.com/kates-dev/kates/kates"
)

// TestShardSpaceMatchesServerSelector: for every space size tried, each object falls in
// exactly one shard, the one whose requirement apimachinery's selector (the code the API
// server runs) matches, by UID and by namespace.
func TestShardSpaceMatchesServerSelector(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	objs := make([]*kates.ConfigMap, 1000)
	for i := range objs {
		objs[i] = &kates.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			UID: uuid.NewUUID(), Namespace: fmt.Sprintf("ns-%d", rng.IntN(300)), Name: "x"}}
	}
	objs[0].Namespace = "" // a cluster-scoped object hashes the empty namespace
	for _, key := range []kates.ShardKey{kates.ShardByUID, kates.ShardByNamespace} {
		for _, n := range []int{1, 2, 3, 4, 7, 16, 61} {
			t.Run(fmt.Sprintf("%s/%d", key, n), func(t *testing.T) {
				space := kates.ShardSpace{Key: key, Count: n}
				sels := make([]sharding.Selector, n)
				for i := range n {
					sels[i] = sharding.NewSelector(space.Requirement(i))
				}
				for _, o := range objs {
					got := space.ShardOf(o)
					var matched []int
					for i, sel := range sels {
						if ok, err := sel.Matches(o); err != nil {
							t.Fatal(err)
						} else if ok {
							matched = append(matched, i)
						}
					}
					if diff := cmp.Diff([]int{got}, matched); diff != "" {
						t.Fatalf("%s %q: ShardOf vs server selectors (-ShardOf +matched):\n%s", key, o.UID, diff)
					}
				}
			})
		}
	}
}

// TestShardSpaceSelector: the selector of several shards merges adjacent ones into one range
// and matches exactly the objects of those shards.
func TestShardSpaceSelector(t *testing.T) {
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	tests := []struct {
		name   string
		shards []int
		want   string
	}{
		{"one", []int{1}, "shardRange(object.metadata.uid, '0x4000000000000000', '0x8000000000000000')"},
		{"last", []int{3}, "shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')"},
		{"adjacent merge", []int{2, 1}, "shardRange(object.metadata.uid, '0x4000000000000000', '0xc000000000000000')"},
		{"apart", []int{0, 3, 0}, "shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || " +
			"shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')"},
		{"all", []int{0, 1, 2, 3}, "shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel := space.Selector(tt.shards...)
			if diff := cmp.Diff(tt.want, sel.String()); diff != "" {
				t.Errorf("Selector(%v) mismatch (-want +got):\n%s", tt.shards, diff)
			}
			in := map[int]bool{}
			for _, s := range tt.shards {
				in[s] = true
			}
			for range 500 {
				o := &metav1.ObjectMeta{UID: uuid.NewUUID()}
				ok, err := sel.Matches(&kates.ConfigMap{ObjectMeta: *o})
				if err != nil {
					t.Fatal(err)
				}
				if ok != in[space.ShardOf(o)] {
					t.Fatalf("uid %s in shard %d: selector says %v", o.UID, space.ShardOf(o), ok)
				}
			}
		})
	}
	// Seven shards do not divide 2⁶⁴: the ranges still tile the space with no gap.
	seven := kates.ShardSpace{Key: kates.ShardByUID, Count: 7}
	for i := 1; i < 7; i++ {
		if prev, next := seven.Requirement(i-1), seven.Requirement(i); prev.End != next.Start {
			t.Errorf("shard %d ends at %s, shard %d starts at %s", i-1, prev.End, i, next.Start)
		}
	}
}

// ownedBy returns a ConfigMap whose controller is owner.
func ownedBy(owner types.UID) *kates.ConfigMap {
	yes := true
	return &kates.ConfigMap{ObjectMeta: metav1.ObjectMeta{UID: uuid.NewUUID(), OwnerReferences: []metav1.OwnerReference{
		{UID: uuid.NewUUID(), Kind: "Other"}, // not the controller: ignored
		{UID: owner, Kind: "WebApp", Controller: &yes},
	}}}
}

// TestShardOfOwner: an owned object lands in its controller's shard; one without a controller
// by its own UID.
func TestShardOfOwner(t *testing.T) {
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 7}
	for range 200 {
		owner := &kates.ConfigMap{ObjectMeta: metav1.ObjectMeta{UID: uuid.NewUUID()}}
		owned := ownedBy(owner.UID)
		u := &unstructured.Unstructured{}
		u.SetUID(owned.UID)
		u.SetOwnerReferences(owned.OwnerReferences)
		if got, want := space.ShardOfOwner(owned), space.ShardOf(owner); got != want {
			t.Fatalf("typed owned object in shard %d, its owner in %d", got, want)
		}
		if got, want := space.ShardOfOwner(u), space.ShardOf(owner); got != want {
			t.Fatalf("unstructured owned object in shard %d, its owner in %d", got, want)
		}
		orphan := &kates.ConfigMap{ObjectMeta: metav1.ObjectMeta{UID: uuid.NewUUID()}}
		if got, want := space.ShardOfOwner(orphan), space.ShardOf(orphan); got != want {
			t.Fatalf("object without a controller in shard %d, by its UID in %d", got, want)
		}
	}
}

// BenchmarkShardMatch measures the client-side match of one object, typed and unstructured,
// by its UID and by its owner, against apimachinery's Selector.Matches (the server's code).
func BenchmarkShardMatch(b *testing.B) {
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 16}
	owner := uuid.NewUUID()
	typed := ownedBy(owner)
	u := &unstructured.Unstructured{}
	u.SetUID(typed.UID)
	u.SetOwnerReferences(typed.OwnerReferences)
	b.Run("ShardOf/typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = space.ShardOf(typed)
		}
	})
	b.Run("ShardOf/unstructured", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = space.ShardOf(u)
		}
	})
	b.Run("apimachinery-Selector.Matches/typed", func(b *testing.B) {
		sel := sharding.NewSelector(space.Requirement(3))
		b.ReportAllocs()
		for b.Loop() {
			_, _ = sel.Matches(typed)
		}
	})
	for _, obj := range []struct {
		name string
		o    metav1.Object
	}{{"typed", typed}, {"unstructured", u}} {
		b.Run("ShardOfOwner/"+obj.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = space.ShardOfOwner(obj.o)
			}
		})
	}
}

// TestStampOwnerShard: the label names the controller's shard, typed or unstructured; the
// object's labels map is replaced, never changed in place; an object without a controller is
// left alone.
func TestStampOwnerShard(t *testing.T) {
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 16}
	yes, no := true, false
	refs := []metav1.OwnerReference{
		{APIVersion: "v1", Kind: "ConfigMap", Name: "not-the-controller", UID: "11111111-0000-4000-8000-000000000000", Controller: &no},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: "22222222-0000-4000-8000-000000000000", Controller: &yes},
	}
	want := space.OwnerShardLabelValue(space.ShardOf(&metav1.ObjectMeta{UID: refs[1].UID}))

	shared := map[string]string{"app": "web"}
	typed := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "s", Labels: shared, OwnerReferences: refs}}
	if !space.StampOwnerShard(typed) {
		t.Fatal("StampOwnerShard(typed) = false")
	}
	if diff := cmp.Diff(map[string]string{"app": "web", kates.OwnerShardLabel: want}, typed.Labels); diff != "" {
		t.Errorf("typed labels mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"app": "web"}, shared); diff != "" {
		t.Errorf("the labels map the object held was changed in place (-want +got):\n%s", diff)
	}

	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "s", "labels": map[string]any{kates.OwnerShardLabel: "3-of-8"}}}}
	u.SetOwnerReferences(refs)
	if !space.StampOwnerShard(u) {
		t.Fatal("StampOwnerShard(unstructured) = false")
	}
	if got := u.GetLabels()[kates.OwnerShardLabel]; got != want {
		t.Errorf("unstructured label = %q, want %q (a label of another count overwritten)", got, want)
	}
	if got, want := space.ShardOfOwner(u), space.ShardOfOwner(typed); got != want {
		t.Errorf("ShardOfOwner: unstructured %d, typed %d", got, want)
	}

	orphan := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "orphan", OwnerReferences: refs[:1]}}
	if space.StampOwnerShard(orphan) || orphan.Labels != nil {
		t.Errorf("StampOwnerShard of an object without a controller stamped it: %v", orphan.Labels)
	}
	if got := (kates.ShardSpace{Key: kates.ShardByUID, Count: 16}).OwnerShardLabelValue(3); got != "3-of-16" {
		t.Errorf("OwnerShardLabelValue(3) = %q, want %q", got, "3-of-16")
	}
}
