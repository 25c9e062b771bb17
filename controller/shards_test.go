package controller_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
)

// TestShardedReplicasSplitTheKeys: two sharded replicas reconcile every key, each key on the
// replica that owns its shard; the owned Deployments are stamped with their owner's shard, so
// each replica's view holds only its own; when one replica stops, the other takes its shards
// and reconciles their keys, and nothing it held is reconciled as deleted.
func TestShardedReplicasSplitTheKeys(t *testing.T) {
	const apps, count = 12, 4
	a := newHarness(t, apps)
	b := &harness{t: t, client: a.client, ns: a.ns, label: a.label, counts: map[string]int{}, inflight: map[string]int{}}
	sharded := func(h *harness, id string) *shards.Options {
		return &shards.Options{Name: "test-controller", Identity: id, Shards: count, LeaseDuration: testLease,
			RenewDeadline: testRenew, RetryPeriod: testRetry, Release: true}
	}
	optsA, optsB := a.options(), b.options()
	optsA.Shards, optsB.Shards = sharded(a, "a"), sharded(b, "b")
	optsA.Queries[1].Placement = kates.PlaceByOwnerLabel
	optsB.Queries[1].Placement = kates.PlaceByOwnerLabel
	ctrlA, stopA := a.start(optsA)
	ctrlB, stopB := b.start(optsB)

	// Both replicas hold shards, and together all of them (a joined first, so it held them all
	// until b joined and took its share).
	eventually(t, 30*time.Second, func() error {
		sa, sb := ctrlA.Shards(), ctrlB.Shards()
		all := slices.Sorted(slices.Values(append(slices.Clone(sa), sb...)))
		if len(sa) == 0 || len(sb) == 0 || !slices.Equal(all, []int{0, 1, 2, 3}) {
			return fmt.Errorf("shards: a %v, b %v", sa, sb)
		}
		return nil
	})
	a.settle(apps, time.Second)
	b.settle(apps, time.Second)
	// The first replica held every shard before the second joined: each key may have been
	// reconciled on both. From now on, every change is reconciled on its shard's owner alone.
	a.takeCounts()
	b.takeCounts()
	for i := range apps {
		a.patchApp(fmt.Sprintf("app-%d", i), `{"metadata":{"annotations":{"touched":"1"}}}`)
	}
	a.settle(apps, time.Second)
	b.settle(apps, time.Second)
	ca, cb := a.takeCounts(), b.takeCounts()
	for i := range apps {
		key := fmt.Sprintf("%s/app-%d", a.ns, i)
		assert.True(t, (ca[key] > 0) != (cb[key] > 0), "%s reconciled by a %d times, by b %d times", key, ca[key], cb[key])
	}

	// Every Deployment carries its owner's shard, the label the API server selects on.
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: count}
	var cms []*kates.ConfigMap
	require.NoError(t, a.client.List(t.Context(), kates.Query{Kind: "configmaps", Namespace: a.ns, LabelSelector: a.label}, &cms))
	var deps []*kates.Deployment
	require.NoError(t, a.client.List(t.Context(), kates.Query{Kind: "deployments.apps", Namespace: a.ns}, &deps))
	shardOf := map[string]int{}
	for _, cm := range cms {
		shardOf[cm.Name] = space.ShardOf(cm)
	}
	for _, d := range deps {
		assert.Equal(t, shardOf[d.Name], space.ShardOfOwner(d), "Deployment %s's owner shard", d.Name)
	}

	// b stops (releasing): a takes every shard and reconciles b's keys once each, as adds.
	held := slices.Clone(ctrlB.Shards())
	b.takeCounts()
	require.NoError(t, stopB())
	assert.Empty(t, b.takeCounts(), "b reconciled the keys of the shards it gave up, as if deleted")
	eventually(t, 30*time.Second, func() error {
		if s := ctrlA.Shards(); len(s) != count {
			return fmt.Errorf("a holds %v", s)
		}
		return nil
	})
	a.settle(apps, time.Second)
	moved := a.takeCounts()
	for name, i := range shardOf {
		key := a.ns + "/" + name
		if slices.Contains(held, i) {
			assert.Positive(t, moved[key], "%s (shard %d, b's) not reconciled by a after b stopped", key, i)
		}
	}
	if t.Failed() {
		t.Logf("b held %v; a reconciled %v", held, slices.Sorted(maps.Keys(moved)))
	}
	require.NoError(t, stopA())
}
