package kates_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kates-dev/kates/kates"
)

// TestConcurrentAddShard adds four shards at once, as shards.Run's callbacks do when a replica
// comes to own several: each AddShard of a query placed by owner replaces that query's one
// list, and every call returns — once the view holds its shard — rather than wait forever on
// a list the next call stopped.
func TestConcurrentAddShard(t *testing.T) {
	c, ns := newClient(t)
	owners := createOwned(t, c, ns, 20)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	acc, err := c.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space}},
		kates.Query{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
		kates.Query{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwner})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			addCtx, stop := context.WithTimeout(ctx, 20*time.Second)
			defer stop()
			if err := acc.AddShard(addCtx, i); err != nil {
				t.Errorf("AddShard(%d) = %v", i, err)
			}
		})
	}
	wg.Wait()
	var snap ownedView
	if _, err := acc.Update(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	if len(snap.Owners) != len(owners) || len(snap.Owned) != 2*len(owners)+1 {
		t.Errorf("after adding every shard the view holds %d owners and %d owned, want %d and %d",
			len(snap.Owners), len(snap.Owned), len(owners), 2*len(owners)+1)
	}
}
