package kates_test

import (
	"context"
	"testing"
	"time"

	"github.com/kates-dev/kates/kates"
)

// shardLabel is the label a sharder (kubernetes-controller-sharding's, for a ControllerRing
// named "webapps") sets to the shard an object is assigned to.
const shardLabel = "shard.alpha.sharding.timebertt.dev/webapps"

// shardReplica is one shard's replica: a client of its own and an Accumulator of its shard.
type shardReplica struct {
	client *kates.Client
	acc    *kates.Accumulator
	snap   struct{ ConfigMaps map[string]*kates.ConfigMap }
}

func newShardReplica(t *testing.T, ctx context.Context, ns, selector string) *shardReplica {
	t.Helper()
	c, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns, LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	r := &shardReplica{client: c, acc: acc}
	nextSnapshot(t, ctx, acc, &r.snap)
	return r
}

// deltasFor updates r's view until a delta for the ConfigMap named name shows, and returns the
// deltas for it.
func (r *shardReplica) deltasFor(t *testing.T, ctx context.Context, name string) []*kates.Delta {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case <-r.acc.Changed():
		case <-deadline:
			t.Fatalf("no delta for %s within 30s", name)
		}
		var deltas []*kates.Delta
		if _, err := r.acc.UpdateWithDeltas(ctx, &r.snap, &deltas); err != nil {
			t.Fatal(err)
		}
		var out []*kates.Delta
		for _, d := range deltas {
			if d.Name == name {
				out = append(out, d)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
}

func relabel(t *testing.T, ctx context.Context, c *kates.Client, ns, name, shard string) {
	t.Helper()
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}
	patch := `{"metadata":{"labels":{"` + shardLabel + `":"` + shard + `"}}}`
	if err := c.Patch(ctx, cm, kates.MergePatchType, []byte(patch), nil); err != nil {
		t.Fatal(err)
	}
}

// TestShardMoveIsDeleteAndAdd: two replicas each watch one label-hash shard of ConfigMaps, as a
// sharder assigns them with a label. An object moved from one shard to the other is an
// ObjectDelete in the deltas of the shard it left and an ObjectAdd in the one it entered —
// whether the sharder moves it or the replica itself does (its own write, shown before the
// watch delivers it) — and is never lost or held by both views once both have updated.
func TestShardMoveIsDeleteAndAdd(t *testing.T) {
	sharder, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for name, shard := range map[string]string{"a": "shard-0", "b": "shard-1"} {
		cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{shardLabel: shard}}}
		if err := sharder.Create(ctx, cm, nil); err != nil {
			t.Fatal(err)
		}
	}
	// A set-based selector, as a replica that also takes over a draining shard would use.
	r0 := newShardReplica(t, ctx, ns, shardLabel+" in (shard-0)")
	r1 := newShardReplica(t, ctx, ns, shardLabel+"=shard-1")
	if _, ok := r0.snap.ConfigMaps[ns+"/a"]; !ok || len(r0.snap.ConfigMaps) != 1 {
		t.Fatalf("shard-0 holds %v, want a alone", keys(r0.snap.ConfigMaps))
	}

	check := func(what string, deltas []*kates.Delta, want kates.DeltaType) {
		t.Helper()
		if len(deltas) != 1 || deltas[0].DeltaType != want {
			t.Errorf("%s: deltas %v, want one %v", what, deltaTypes(deltas), want)
		}
	}
	relabel(t, ctx, sharder, ns, "a", "shard-1") // the sharder moves a
	check("shard-0 after a left it", r0.deltasFor(t, ctx, "a"), kates.ObjectDelete)
	check("shard-1 after a entered it", r1.deltasFor(t, ctx, "a"), kates.ObjectAdd)
	if _, ok := r0.snap.ConfigMaps[ns+"/a"]; ok {
		t.Error("shard-0 still holds a after it left")
	}
	if _, ok := r1.snap.ConfigMaps[ns+"/a"]; !ok {
		t.Error("shard-1 does not hold a after it entered")
	}

	relabel(t, ctx, r1.client, ns, "a", "shard-0") // the replica hands a back itself
	check("shard-1 after handing a back", r1.deltasFor(t, ctx, "a"), kates.ObjectDelete)
	check("shard-0 after a came back", r0.deltasFor(t, ctx, "a"), kates.ObjectAdd)
	if len(r0.snap.ConfigMaps) != 1 || len(r1.snap.ConfigMaps) != 1 {
		t.Errorf("shards hold %v and %v, want a and b", keys(r0.snap.ConfigMaps), keys(r1.snap.ConfigMaps))
	}
}

func deltaTypes(deltas []*kates.Delta) []string {
	out := make([]string, 0, len(deltas))
	for _, d := range deltas {
		out = append(out, d.DeltaType.String()+" "+d.Name+"@"+d.ResourceVersion)
	}
	return out
}
