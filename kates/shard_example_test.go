package kates_test

import (
	"context"
	"fmt"
	"log"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
)

// Replica i of n watches its shard of the ConfigMaps and the Secrets they control, and
// reconciles what it holds. A Secret leaving the view as moved is another replica's now:
// nothing to clean up.
func ExampleClient_WatchWith_sharded() {
	const i, n = 0, 3
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	acc, err := client.WatchWith(ctx, kates.WatchOptions{Sharding: kates.UIDShard(i, n)},
		kates.Query{Name: "Owners", Kind: "ConfigMap"},
		kates.Query{Name: "Owned", Kind: "Secret", Placement: kates.PlaceByOwner})
	if err != nil {
		log.Fatal(err)
	}
	var snap struct {
		Owners map[string]*kates.ConfigMap
		Owned  map[string]*kates.Secret
	}
	for range acc.Changed() {
		var deltas []*kates.Delta
		if ok, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); !ok || err != nil {
			continue
		}
		for _, d := range deltas {
			switch d.DeltaType {
			case kates.ObjectDelete:
				fmt.Println("deleted, clean up:", d.Kind, d.Name)
			case kates.ObjectMoved:
				fmt.Println("another replica's now:", d.Kind, d.Name)
			}
		}
	}
}

// Virtual shards: the shard space is fixed, the replicas' share of it is not. Where an object
// and the objects it controls land, without asking the server.
func ExampleShardSpace() {
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	owner := &metav1.ObjectMeta{UID: "9d3c5f4e-0000-4000-8000-000000000001"}
	yes := true
	owned := &metav1.ObjectMeta{UID: "9d3c5f4e-0000-4000-8000-000000000002",
		OwnerReferences: []metav1.OwnerReference{{UID: owner.UID, Controller: &yes}}}
	fmt.Println(space.ShardOf(owner) == space.ShardOfOwner(owned))
	fmt.Println(space.Selector(1, 2))
	// Output:
	// true
	// shardRange(object.metadata.uid, '0x4000000000000000', '0xc000000000000000')
}

// A controller stamps what it writes with its owner's shard, so that replicas watching the
// owned kind with PlaceByOwnerLabel have the API server send each only its own shards'.
func ExampleShardSpace_StampOwnerShard() {
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 16}
	yes := true
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "web-config", Namespace: "shop",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "example.com/v1", Kind: "WebApp", Name: "web",
			UID: "9d3c5f4e-0000-4000-8000-000000000001", Controller: &yes}}}}
	fmt.Println(space.StampOwnerShard(cm))
	fmt.Println(cm.Labels[kates.OwnerShardLabel])
	fmt.Println(space.StampOwnerShard(&kates.ConfigMap{})) // no controller: placed by its own UID
	// Output:
	// true
	// 13-of-16
	// false
}
