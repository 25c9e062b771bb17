package kates_test

import (
	"context"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
)

// TestOwnerLabelMoved: a replica holds shard 0 of 4, its owned Secrets placed by owner label.
// A Secret whose label is changed to shard 1 (mislabeled: its owner is in shard 0), and one
// moved to an owner of shard 2 and stamped for it, both leave the server's selection, which
// the server reports as deletions; the view reports them moved, as they still exist. A Secret
// deleted is reported deleted. It logs what the check of a deletion costs.
func TestOwnerLabelMoved(t *testing.T) {
	c, ns := newClient(t)
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	owners := createOwnedCovering(t, c, ns, 24, &space, map[int]int{0: 3, 2: 1})
	var in0, in2 []*kates.ConfigMap
	for _, o := range owners {
		switch space.ShardOf(o) {
		case 0:
			in0 = append(in0, o)
		case 2:
			in2 = append(in2, o)
		}
	}
	if len(in0) < 3 || len(in2) == 0 {
		t.Fatalf("shard 0 holds %d owners and shard 2 %d: the test proves nothing", len(in0), len(in2))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := replicaClient(t, cluster, ns, nil)
	acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space, Owned: []int{0}}},
		kates.Query{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
		kates.Query{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwnerLabel})
	if err != nil {
		t.Fatal(err)
	}
	var snap ownedView
	nextSnapshot(t, ctx, acc, &snap)

	stamped := func(o *kates.ConfigMap) string { return o.Name + "-s0" }
	relabeled, reowned, deleted := stamped(in0[0]), stamped(in0[1]), stamped(in0[2])
	for _, name := range []string{relabeled, reowned, deleted} {
		if _, ok := snap.Owned[ns+"/"+name]; !ok {
			t.Fatalf("shard 0's view lacks %s", name)
		}
	}
	edit := func(name string, change func(*kates.Secret)) {
		t.Helper()
		s := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}
		if err := c.Get(ctx, s, s); err != nil {
			t.Fatal(err)
		}
		change(s)
		if err := c.Update(ctx, s, nil); err != nil {
			t.Fatal(err)
		}
	}
	edit(relabeled, func(s *kates.Secret) { s.Labels[kates.OwnerShardLabel] = space.OwnerShardLabelValue(1) })
	yes := true
	edit(reowned, func(s *kates.Secret) {
		s.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: in2[0].Name, UID: in2[0].UID, Controller: &yes}}
		space.StampOwnerShard(s)
	})
	if err := c.Delete(ctx, &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: deleted, Namespace: ns}}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]kates.DeltaType{relabeled: kates.ObjectMoved, reowned: kates.ObjectMoved, deleted: kates.ObjectDelete}
	got := map[string]kates.DeltaType{}
	deadline := time.Now().Add(30 * time.Second)
	for len(got) < len(want) && time.Now().Before(deadline) {
		var deltas []*kates.Delta
		uctx, ucancel := context.WithTimeout(ctx, time.Second)
		select {
		case <-acc.Changed():
		case <-uctx.Done():
		}
		if _, err := acc.UpdateWithDeltas(uctx, &snap, &deltas); err != nil && uctx.Err() == nil {
			t.Fatal(err)
		}
		ucancel()
		for _, d := range deltas {
			if d.Kind == "Secret" {
				got[d.Name] = d.DeltaType
			}
		}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s left shard 0's view as %q, want %q", name, got[name], w)
		}
	}

	// The cost: each deletion the watch reports is checked with a metadata GET before it is
	// stored. Delete the rest of shard 0's Secrets at once and time the view's catching up.
	var rest []string
	for _, o := range in0[3:] {
		rest = append(rest, o.Name+"-s0", o.Name+"-s1")
	}
	rest = append(rest, in0[0].Name+"-s1", in0[1].Name+"-s1", in0[2].Name+"-s1")
	begin := time.Now()
	var wg sync.WaitGroup
	for _, name := range rest {
		wg.Go(func() {
			if err := c.Delete(ctx, &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	sent := time.Since(begin)
	for {
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
		left := 0
		for _, name := range rest {
			if _, ok := snap.Owned[ns+"/"+name]; ok {
				left++
			}
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d deleted Secrets still in the view", left, len(rest))
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("%d deletions sent at once, all answered in %s; the view had them all %s after the first was sent (each checked with a GET)",
		len(rest), sent.Round(time.Millisecond), time.Since(begin).Round(time.Millisecond))
}
