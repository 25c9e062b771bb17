package shards_test

import (
	"context"
	"log"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
)

// ExampleRun splits a controller's WebApps over its replicas: each replica's view holds the
// shards it owns, listed when it comes to own one and dropped (as moved, not deleted) when the
// shard moves on.
func ExampleRun() {
	ctx := context.Background()
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	acc, err := client.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{
		Space: kates.ShardSpace{Key: kates.ShardByUID, Count: 16}}},
		kates.Query{Name: "WebApps", Kind: "webapps.example.com"},
		kates.Query{Name: "Deployments", Kind: "deployments.apps", Placement: kates.PlaceByOwner})
	if err != nil {
		log.Fatal(err)
	}
	err = shards.Run(ctx, client, shards.Options{Name: "webapp", Shards: 16, Release: true},
		func(ctx context.Context, shard int) error {
			defer acc.RemoveShard(shard) // once this function's writes are done
			if err := acc.AddShard(ctx, shard); err != nil {
				return nil // the shard moved on while it was being listed
			}
			// Reconcile the shard's objects, writing with ctx (fenced by the shard's Lease),
			// until ctx ends; shards.HandedAway(ctx) tells a move from a lost Lease.
			<-ctx.Done()
			return nil
		})
	if err != nil {
		log.Fatal(err)
	}
}
