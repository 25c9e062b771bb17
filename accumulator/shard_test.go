package accumulator_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/accumulator"
)

// shardByLabel places the test's objects: the shard is the label's value (a stand-in for a
// hash), read in place (GetLabels would copy the labels, which a benchmark would measure).
func shardByLabel(m metav1.Object) int {
	u := m.(*unstructured.Unstructured)
	meta, _ := u.Object["metadata"].(map[string]any)
	labels, _ := meta["labels"].(map[string]any)
	s, _ := labels["shard"].(string)
	n, _ := strconv.Atoi(s)
	return n
}

func inShard(ns, name, rv string, shard int) *unstructured.Unstructured {
	return withLabels(newCM(ns, name, rv), "shard", strconv.Itoa(shard))
}

func feedReplace(t *testing.T, f *accumulator.Feed, rv string, objs ...*unstructured.Unstructured) {
	t.Helper()
	list := make([]any, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	must(t, f.Replace(list, rv))
}

// TestShardFeeds scripts a sharded query: a feed per shard, objects of other shards dropped
// (a server that ignores the selector), bootstrap waiting for every feed, a shard added later
// and one moved away (ObjectMoved, not ObjectDelete), and the client's writes matched by shard.
func TestShardFeeds(t *testing.T) {
	ov := &fakeOverlay{}
	spec := cmQuery("ConfigMaps", "")
	spec.ShardOf = shardByLabel
	acc := mustNew(t, accumulator.Options{Overlay: ov}, spec)
	st := acc.Store("ConfigMaps")
	st.Own(0)
	st.Own(1)
	f0, f1 := st.NewFeed(0), st.NewFeed(1)
	var snap struct{ ConfigMaps []*unstructured.Unstructured }

	// A server without the gate sends every shard to every feed.
	all := []*unstructured.Unstructured{inShard("a", "x0", "5", 0), inShard("a", "y1", "6", 1), inShard("a", "z2", "7", 2)}
	feedReplace(t, f0, "10", all...)
	if signalled(acc) {
		t.Fatal("bootstrapped before every feed listed")
	}
	feedReplace(t, f1, "11", all...)
	if !signalled(acc) {
		t.Fatal("not bootstrapped once every feed listed")
	}
	_, deltas := update(t, acc, &snap)
	if diff := cmp.Diff([]string{"a/x0@5", "a/y1@6"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Fatalf("view mismatch (-want +got):\n%s", diff)
	}
	if got := acc.ResourceVersion("ConfigMaps"); got != "10" {
		t.Errorf("watermark %q, want the oldest feed's, 10", got)
	}

	// Events of other shards are dropped; a feed's relist leaves the other shard alone.
	must(t, f0.Add(inShard("a", "w2", "12", 2)))
	must(t, f1.Update(inShard("a", "y1", "13", 1)))
	feedReplace(t, f0, "14", inShard("a", "x0", "5", 0), inShard("a", "v0", "14", 0))
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"add ConfigMaps a/v0@14", "update ConfigMaps a/y1@13"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas mismatch (-want +got):\n%s", diff)
	}

	// The client's writes: one in shard 2 never shows; one in shard 0 does, at once.
	ov.set(configMapGVK, written(inShard("a", "u2", "20", 2)), written(inShard("a", "t0", "21", 0)))
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"add ConfigMaps a/t0@21"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas of the client's writes mismatch (-want +got):\n%s", diff)
	}
	ov.set(configMapGVK)

	// Shard 2 is added: bootstrapped by its own feed, the others untouched.
	st.Own(2)
	f2 := st.NewFeed(2)
	feedReplace(t, f2, "22", inShard("a", "z2", "7", 2))
	<-f2.Synced()
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"delete ConfigMaps a/t0@21", "add ConfigMaps a/z2@7"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas after AddShard mismatch (-want +got):\n%s", diff)
	}

	// Shard 0 moves away: its objects are moved, not deleted, and its feed's late events
	// are ignored.
	st.MoveOut(0)
	f0.Close()
	must(t, f0.Add(inShard("a", "s0", "30", 0)))
	must(t, f0.Delete(inShard("a", "z2", "31", 2)))
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"moved ConfigMaps a/v0@14", "moved ConfigMaps a/x0@5"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas after MoveOut mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a/y1@13", "a/z2@7"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("view after MoveOut mismatch (-want +got):\n%s", diff)
	}
	// A real delete is still a delete.
	must(t, f1.Delete(inShard("a", "y1", "32", 1)))
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"delete ConfigMaps a/y1@13"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas of a delete mismatch (-want +got):\n%s", diff)
	}
}

// TestShardFeedOfSeveralShards scripts one feed for shards 0 and 2 (shards that arrived
// together, listed with one selector) beside a feed for shard 1: its Replace replaces its two
// shards' objects only; once shard 2 is moved out, the feed goes on for shard 0 and drops what
// it still sends of shard 2, and a feed opened when shard 2 comes back is the only one to cover
// it.
func TestShardFeedOfSeveralShards(t *testing.T) {
	spec := cmQuery("ConfigMaps", "")
	spec.ShardOf = shardByLabel
	acc := mustNew(t, accumulator.Options{}, spec)
	st := acc.Store("ConfigMaps")
	for _, i := range []int{0, 1, 2} {
		st.Own(i)
	}
	f02, f1 := st.NewFeed(0, 2), st.NewFeed(1)
	var snap struct{ ConfigMaps []*unstructured.Unstructured }
	all := []*unstructured.Unstructured{inShard("a", "x0", "5", 0), inShard("a", "y1", "6", 1), inShard("a", "z2", "7", 2), inShard("a", "w3", "8", 3)}
	feedReplace(t, f02, "10", all...)
	feedReplace(t, f1, "11", all...)
	if !signalled(acc) {
		t.Fatal("not bootstrapped once both feeds listed")
	}
	update(t, acc, &snap)
	if diff := cmp.Diff([]string{"a/x0@5", "a/y1@6", "a/z2@7"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Fatalf("view mismatch (-want +got):\n%s", diff)
	}

	// A relist of shards 0 and 2 replaces theirs and leaves shard 1's alone.
	feedReplace(t, f02, "12", inShard("a", "z2", "12", 2))
	_, deltas := update(t, acc, &snap)
	if diff := cmp.Diff([]string{"delete ConfigMaps a/x0@5", "update ConfigMaps a/z2@12"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas of the relist mismatch (-want +got):\n%s", diff)
	}

	// Shard 2 moves out: the feed goes on for shard 0 only.
	st.MoveOut(2)
	must(t, f02.Update(inShard("a", "z2", "13", 2)))
	must(t, f02.Add(inShard("a", "v0", "14", 0)))
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"add ConfigMaps a/v0@14", "moved ConfigMaps a/z2@12"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas after moving shard 2 out mismatch (-want +got):\n%s", diff)
	}

	// Shard 2 comes back with a feed of its own; the old feed's late events of it are dropped.
	st.Own(2)
	f2 := st.NewFeed(2)
	feedReplace(t, f2, "15", inShard("a", "z2", "15", 2))
	must(t, f02.Delete(inShard("a", "z2", "16", 2)))
	must(t, f02.Update(inShard("a", "z2", "13", 2)))
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"add ConfigMaps a/z2@15"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas after shard 2 came back mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a/v0@14", "a/y1@6", "a/z2@15"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("view mismatch (-want +got):\n%s", diff)
	}
}

// TestShardFeedAllShards: a feed over every owned shard (placement the server cannot select)
// follows the store's shards, and an object whose placement changes leaves as moved.
func TestShardFeedAllShards(t *testing.T) {
	spec := cmQuery("ConfigMaps", "")
	spec.ShardOf = shardByLabel
	acc := mustNew(t, accumulator.Options{}, spec)
	st := acc.Store("ConfigMaps")
	st.Own(1)
	f := st.NewFeed(accumulator.AllShards)
	feedReplace(t, f, "10", inShard("a", "x0", "5", 0), inShard("a", "y1", "6", 1))
	var snap struct {
		ConfigMaps map[string]*unstructured.Unstructured
	}
	update(t, acc, &snap)
	must(t, f.Update(inShard("a", "y1", "11", 0))) // re-placed in shard 0
	_, deltas := update(t, acc, &snap)
	if diff := cmp.Diff([]string{"moved ConfigMaps a/y1@6"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas mismatch (-want +got):\n%s", diff)
	}
}

// TestShardNoFeeds: a sharded query that owns no shard bootstraps, empty, when its store is
// replaced with nothing, and AddShard on an unsharded Accumulator says so.
func TestShardNoFeeds(t *testing.T) {
	spec := cmQuery("ConfigMaps", "")
	spec.ShardOf = shardByLabel
	acc := mustNew(t, accumulator.Options{}, spec)
	must(t, acc.Store("ConfigMaps").Replace(nil, ""))
	if !signalled(acc) {
		t.Fatal("not bootstrapped")
	}
	if err := acc.AddShard(t.Context(), 0); err != accumulator.ErrNotSharded {
		t.Errorf("AddShard without a Sharder: %v, want ErrNotSharded", err)
	}
}

// TestShardOverlayMoves: the client's own write that places an object in a shard the view
// does not hold takes it out as moved, and a shard moved away takes the client's recent
// writes of it out at once, as moved, though the watermark has not passed them.
func TestShardOverlayMoves(t *testing.T) {
	ov := &fakeOverlay{}
	spec := cmQuery("ConfigMaps", "")
	spec.ShardOf = shardByLabel
	acc := mustNew(t, accumulator.Options{Overlay: ov}, spec)
	st := acc.Store("ConfigMaps")
	st.Own(0)
	st.Own(1)
	f0, f1 := st.NewFeed(0), st.NewFeed(1)
	feedReplace(t, f0, "10", inShard("a", "x0", "5", 0))
	feedReplace(t, f1, "10", inShard("a", "y1", "6", 1))
	var snap struct {
		ConfigMaps map[string]*unstructured.Unstructured
	}
	update(t, acc, &snap)

	ov.set(configMapGVK, written(inShard("a", "x0", "20", 2)), written(inShard("a", "w1", "21", 1)))
	_, deltas := update(t, acc, &snap)
	if diff := cmp.Diff([]string{"add ConfigMaps a/w1@21", "moved ConfigMaps a/x0@5"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas of the client's writes mismatch (-want +got):\n%s", diff)
	}
	st.MoveOut(1)
	f1.Close()
	_, deltas = update(t, acc, &snap)
	if diff := cmp.Diff([]string{"moved ConfigMaps a/w1@21", "moved ConfigMaps a/y1@6"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas of MoveOut mismatch (-want +got):\n%s", diff)
	}
	if len(snap.ConfigMaps) != 0 {
		t.Errorf("view holds %d objects, want none", len(snap.ConfigMaps))
	}
}

// BenchmarkFeedEvent measures one watch event through a Feed of a sharded query: one of a
// shard the store holds (stored), and one of another shard (dropped, as behind a server that
// ignores shard selectors), against the same event into an unsharded store. The events are
// built beforehand, two versions of 1024 objects taken in turn, so only the store is measured.
func BenchmarkFeedEvent(b *testing.B) {
	events := func(shard int) [2][]*unstructured.Unstructured {
		var out [2][]*unstructured.Unstructured
		for v := range out {
			for i := range 1024 {
				out[v] = append(out[v], inShard("a", fmt.Sprintf("cm-%d", i), strconv.Itoa(v+1), shard))
			}
		}
		return out
	}
	run := func(b *testing.B, update func(any) error, shard int) {
		evs := events(shard)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := update(evs[(i/1024)%2][i%1024]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("unsharded", func(b *testing.B) {
		acc := mustNew(b, accumulator.Options{}, cmQuery("ConfigMaps", ""))
		run(b, acc.Store("ConfigMaps").Update, 0)
	})
	sharded := func(b *testing.B) *accumulator.Feed {
		spec := cmQuery("ConfigMaps", "")
		spec.ShardOf = shardByLabel
		acc := mustNew(b, accumulator.Options{}, spec)
		acc.Store("ConfigMaps").Own(0)
		return acc.Store("ConfigMaps").NewFeed(0)
	}
	b.Run("feed-stored", func(b *testing.B) { run(b, sharded(b).Update, 0) })
	b.Run("feed-dropped", func(b *testing.B) { run(b, sharded(b).Update, 1) })
}

// TestShardFeedReplacedBeforeBootstrap: a feed replaced by a new one before its first list
// (a shard added while the query still bootstraps) leaves the bootstrap waiting for the new
// feed; a feed closed with none after it (the last shard removed) completes it, empty.
func TestShardFeedReplacedBeforeBootstrap(t *testing.T) {
	spec := cmQuery("ConfigMaps", "")
	spec.ShardOf = shardByLabel
	acc := mustNew(t, accumulator.Options{}, spec)
	st := acc.Store("ConfigMaps")
	st.Own(0)
	old := st.NewFeed(accumulator.AllShards)
	st.Own(1)
	next := st.NewFeed(accumulator.AllShards)
	old.Close()
	if signalled(acc) {
		t.Fatal("bootstrapped when the replaced feed closed")
	}
	feedReplace(t, next, "10", inShard("a", "x0", "5", 0), inShard("a", "y1", "6", 1))
	if !signalled(acc) {
		t.Fatal("not bootstrapped by the new feed's list")
	}

	acc2 := mustNew(t, accumulator.Options{}, spec)
	st2 := acc2.Store("ConfigMaps")
	st2.Own(0)
	only := st2.NewFeed(0)
	st2.MoveOut(0)
	only.Close()
	if !signalled(acc2) {
		t.Fatal("not bootstrapped once its only feed closed")
	}
}
