package kates_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
)

// cmView is the snapshot of a sharded view of ConfigMaps.
type cmView struct {
	ConfigMaps map[string]*kates.ConfigMap
}

// replicaClient returns a Client of cl of its own, as a replica has, whose default namespace
// is ns; cfg, if set, changes its REST config.
func replicaClient(t *testing.T, cl *testenv.Cluster, ns string, cfg func(*rest.Config)) *kates.Client {
	t.Helper()
	rc := rest.CopyConfig(cl.RESTConfig())
	if cfg != nil {
		cfg(rc)
	}
	c, err := kates.NewClientFromRESTConfig(rc, ns)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// allConfigMaps lists every ConfigMap of ns, unsharded: the truth the views are checked against.
func allConfigMaps(t *testing.T, c *kates.Client, ns string) map[string]*kates.ConfigMap {
	t.Helper()
	var cms []*kates.ConfigMap
	if err := c.List(context.Background(), kates.Query{Kind: "ConfigMap", Namespace: ns}, &cms); err != nil {
		t.Fatal(err)
	}
	out := map[string]*kates.ConfigMap{}
	for _, cm := range cms {
		out[cm.Namespace+"/"+cm.Name] = cm
	}
	return out
}

// checkPartition checks that views together hold every object of all exactly once, and each
// object in view i is in shard i of space.
func checkPartition(t *testing.T, space kates.ShardSpace, all map[string]*kates.ConfigMap, views []map[string]*kates.ConfigMap) {
	t.Helper()
	seen := map[string]int{}
	for i, v := range views {
		for key, cm := range v {
			seen[key]++
			if got := space.ShardOf(cm); got != i {
				t.Errorf("view %d holds %s, of shard %d", i, key, got)
			}
		}
	}
	for key := range all {
		if seen[key] != 1 {
			t.Errorf("%s seen by %d views, want 1", key, seen[key])
		}
	}
	for key := range seen {
		if all[key] == nil {
			t.Errorf("%s seen, but not in the namespace", key)
		}
	}
}

// TestShardedViewsPartition: n replicas, each watching shard i of n by UID, together see every
// ConfigMap of a namespace exactly once, each in the view of its own shard; so does List.
func TestShardedViewsPartition(t *testing.T) {
	c, ns := newClient(t)
	createConfigMaps(t, c, ns, "part", 300)
	all := allConfigMaps(t, c, ns)
	for _, n := range []int{2, 4, 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			space := kates.ShardSpace{Key: kates.ShardByUID, Count: n}
			views := make([]map[string]*kates.ConfigMap, n)
			for i := range n {
				r := replicaClient(t, cluster, ns, nil)
				// Half the replicas shard the Watch, half the query: the same views.
				opts, q := kates.WatchOptions{Sharding: kates.UIDShard(i, n)}, kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns}
				if i%2 == 1 {
					opts.Sharding, q.Sharding = nil, kates.UIDShard(i, n)
				}
				acc, err := r.WatchWith(ctx, opts, q)
				if err != nil {
					t.Fatal(err)
				}
				var snap cmView
				nextSnapshot(t, ctx, acc, &snap)
				if len(snap.ConfigMaps) == len(all) {
					t.Errorf("view %d of %d holds all %d objects", i, n, len(all))
				}
				views[i] = snap.ConfigMaps
			}
			checkPartition(t, space, all, views)

			listed := make([]map[string]*kates.ConfigMap, n)
			for i := range n {
				var cms []*kates.ConfigMap
				if err := c.List(ctx, kates.Query{Kind: "ConfigMap", Namespace: ns, Sharding: kates.UIDShard(i, n)}, &cms); err != nil {
					t.Fatal(err)
				}
				listed[i] = map[string]*kates.ConfigMap{}
				for _, cm := range cms {
					listed[i][cm.Namespace+"/"+cm.Name] = cm
				}
			}
			checkPartition(t, space, all, listed)
		})
	}
}

// TestShardedViewsByNamespace: sharded by namespace, each namespace is whole in one view.
func TestShardedViewsByNamespace(t *testing.T) {
	c, _ := newClient(t)
	nss := []string{newNamespace(t), newNamespace(t), newNamespace(t), newNamespace(t)}
	for _, ns := range nss {
		createConfigMaps(t, c, ns, "byns", 5)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 3
	space := kates.ShardSpace{Key: kates.ShardByNamespace, Count: n}
	holder := map[string]int{} // namespace → the view that holds it
	for i := range n {
		r := replicaClient(t, cluster, "", nil)
		acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: kates.NamespaceShard(i, n)},
			kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", LabelSelector: "set=byns"})
		if err != nil {
			t.Fatal(err)
		}
		var snap cmView
		nextSnapshot(t, ctx, acc, &snap)
		for _, cm := range snap.ConfigMaps {
			if h, ok := holder[cm.Namespace]; ok && h != i {
				t.Errorf("namespace %s split between views %d and %d", cm.Namespace, h, i)
			}
			holder[cm.Namespace] = i
		}
	}
	for _, ns := range nss {
		h, ok := holder[ns]
		if !ok {
			t.Errorf("namespace %s in no view", ns)
		} else if want := space.ShardOf(&metav1.ObjectMeta{Namespace: ns}); h != want {
			t.Errorf("namespace %s in view %d, its shard is %d", ns, h, want)
		}
	}
}

// waitFor updates acc into snap until cond holds, or fails after 30 s.
func waitFor(t *testing.T, ctx context.Context, acc *kates.Accumulator, snap any, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for !cond() {
		select {
		case <-acc.Changed():
			if _, err := acc.Update(ctx, snap); err != nil {
				t.Fatal(err)
			}
		case <-deadline:
			t.Fatalf("not within 30s: %s", what)
		}
	}
}

// TestShardedWriteCoherence: one client, two views (shards 0 and 1 of 2). Its write shows at
// once — in the next Update, with no wait for the watch — in the view of the object's shard,
// and never in the other; its delete of an object in a view hides it at once.
func TestShardedWriteCoherence(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 2}
	accs := make([]*kates.Accumulator, 2)
	snaps := make([]cmView, 2)
	for i := range accs {
		acc, err := c.WatchWith(ctx, kates.WatchOptions{Sharding: kates.UIDShard(i, 2)},
			kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		nextSnapshot(t, ctx, acc, &snaps[i])
		accs[i] = acc
	}
	inShard := [2]int{}
	for k := range 12 {
		cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("w-%d", k), Namespace: ns}}
		if err := c.Create(ctx, cm, cm); err != nil {
			t.Fatal(err)
		}
		own := space.ShardOf(cm)
		inShard[own]++
		key := ns + "/" + cm.Name
		for i, acc := range accs {
			if _, err := acc.Update(ctx, &snaps[i]); err != nil {
				t.Fatal(err)
			}
			if _, held := snaps[i].ConfigMaps[key]; held != (i == own) {
				t.Fatalf("right after the create of %s (shard %d), view %d holds it: %v", key, own, i, held)
			}
		}
	}
	if inShard[0] == 0 || inShard[1] == 0 {
		t.Fatalf("the writes all fell in one shard (%v): the test proves nothing", inShard)
	}
	// Once the watches caught up, each view still holds just its own.
	all := allConfigMaps(t, c, ns)
	for i, acc := range accs {
		waitFor(t, ctx, acc, &snaps[i], "view caught up", func() bool {
			n := 0
			for _, cm := range all {
				if space.ShardOf(cm) == i {
					n++
				}
			}
			return len(snaps[i].ConfigMaps) == n
		})
	}
	checkPartition(t, space, all, []map[string]*kates.ConfigMap{snaps[0].ConfigMaps, snaps[1].ConfigMaps})

	// A delete of an object in view 0 hides it there at once.
	var victim *kates.ConfigMap
	for _, cm := range snaps[0].ConfigMaps {
		victim = cm
		break
	}
	if err := c.Delete(ctx, victim, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := accs[0].Update(ctx, &snaps[0]); err != nil {
		t.Fatal(err)
	}
	if _, held := snaps[0].ConfigMaps[victim.Namespace+"/"+victim.Name]; held {
		t.Errorf("right after its delete, view 0 still holds %s", victim.Name)
	}
}

// ownedView is a replica's view of owners (ConfigMaps, placed by UID) and the Secrets they
// control (placed by owner).
type ownedView struct {
	Owners map[string]*kates.ConfigMap
	Owned  map[string]*kates.Secret
}

// createOwned creates n owner ConfigMaps ("set=owners"), each controlling two Secrets, and one
// Secret with no controller; it returns the owners by name.
func createOwned(t *testing.T, c *kates.Client, ns string, n int) map[string]*kates.ConfigMap {
	t.Helper()
	return createOwnedStamped(t, c, ns, n, nil)
}

// createOwnedStamped is createOwned, stamping the first Secret of each owner with its owner's
// shard of stamp, if stamp is not nil.
func createOwnedStamped(t *testing.T, c *kates.Client, ns string, n int, stamp *kates.ShardSpace) map[string]*kates.ConfigMap {
	t.Helper()
	return createOwnedCovering(t, c, ns, n, stamp, nil)
}

// createOwnedCovering is createOwnedStamped that goes on creating owners past n until each
// shard of stamp named in need holds at least that many: UIDs are random, so a test that
// needs owners in given shards would otherwise fail on an unlucky draw (3 owners in shard 0
// of 4 out of 24 is missed once in 25 runs).
func createOwnedCovering(t *testing.T, c *kates.Client, ns string, n int, stamp *kates.ShardSpace, need map[int]int) map[string]*kates.ConfigMap {
	t.Helper()
	ctx := context.Background()
	owners := map[string]*kates.ConfigMap{}
	held := map[int]int{}
	short := func() bool {
		for shard, least := range need {
			if held[shard] < least {
				return true
			}
		}
		return false
	}
	for k := 0; k < n || short(); k++ {
		if k >= 50*n {
			t.Fatalf("%d owners leave shards short of %v (hold %v)", k, need, held)
		}
		owner := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("owner-%d", k), Namespace: ns,
			Labels: map[string]string{"set": "owners"}}}
		if err := c.Create(ctx, owner, owner); err != nil {
			t.Fatal(err)
		}
		owners[owner.Name] = owner
		if stamp != nil {
			held[stamp.ShardOf(owner)]++
		}
		yes := true
		for j := range 2 {
			s := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("%s-s%d", owner.Name, j), Namespace: ns,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID, Controller: &yes}}}}
			if j == 0 && stamp != nil && !stamp.StampOwnerShard(s) {
				t.Fatalf("StampOwnerShard(%s) = false for an object with a controller", s.Name)
			}
			if err := c.Create(ctx, s, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.Create(ctx, &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "orphan", Namespace: ns}}, nil); err != nil {
		t.Fatal(err)
	}
	return owners
}

// TestShardedOwnerPlacement: owned Secrets placed by their controller land in the view of
// their owner ConfigMap, for every replica, and together the views see every Secret once.
func TestShardedOwnerPlacement(t *testing.T) {
	c, ns := newClient(t)
	owners := createOwned(t, c, ns, 40)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 3
	seen := map[string]int{}
	for i := range n {
		r := replicaClient(t, cluster, ns, nil)
		acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: kates.UIDShard(i, n)},
			kates.Query{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
			kates.Query{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwner})
		if err != nil {
			t.Fatal(err)
		}
		var snap ownedView
		nextSnapshot(t, ctx, acc, &snap)
		if len(snap.Owners) == 0 || len(snap.Owners) == len(owners) {
			t.Errorf("view %d holds %d of %d owners", i, len(snap.Owners), len(owners))
		}
		for _, s := range snap.Owned {
			seen[s.Name]++
			if s.Name == "orphan" {
				continue
			}
			owner := s.OwnerReferences[0].Name
			if snap.Owners[ns+"/"+owner] == nil {
				t.Errorf("view %d holds Secret %s but not its owner %s", i, s.Name, owner)
			}
		}
		for _, o := range snap.Owners {
			for j := range 2 {
				if snap.Owned[fmt.Sprintf("%s/%s-s%d", ns, o.Name, j)] == nil {
					t.Errorf("view %d holds owner %s but not its Secret s%d", i, o.Name, j)
				}
			}
		}
	}
	if seen["orphan"] != 1 {
		t.Errorf("the Secret without a controller was seen %d times, want 1", seen["orphan"])
	}
	if len(seen) < 2*len(owners)+1 {
		t.Errorf("the views saw %d Secrets, want at least %d", len(seen), 2*len(owners)+1)
	}
	for name, k := range seen {
		if k != 1 {
			t.Errorf("Secret %s seen %d times", name, k)
		}
	}
}

// requestLog records the shard selectors of a client's list and watch requests.
type requestLog struct {
	mu   sync.Mutex
	reqs []string // "list <selector>" or "watch <selector>"
}

func (l *requestLog) wrap(cfg *rest.Config) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			q := req.URL.Query()
			if sel := q.Get("shardSelector"); sel != "" {
				verb := "list"
				if q.Get("watch") == "true" || q.Get("watch") == "1" {
					verb = "watch"
				}
				if q.Get("sendInitialEvents") == "true" {
					verb = "watchlist"
				}
				l.mu.Lock()
				l.reqs = append(l.reqs, verb+" "+sel)
				l.mu.Unlock()
			}
			return rt.RoundTrip(req)
		})
	})
}

// since returns the requests recorded after the first n.
func (l *requestLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reqs[n:]...)
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// TestAddRemoveShard: a replica holding shard 0 of 4 adds shard 1 — listing that shard alone
// (its requests carry shard 1's selector only; the view gains shard 1's objects as adds and
// nothing else changes) — then removes shard 0, whose objects leave as ObjectMoved, never
// ObjectDelete, for both a query placed by key and one placed by owner.
func TestAddRemoveShard(t *testing.T) {
	c, ns := newClient(t)
	owners := createOwned(t, c, ns, 40)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	log := &requestLog{}
	r := replicaClient(t, cluster, ns, log.wrap)
	acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space, Owned: []int{0}}},
		kates.Query{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
		kates.Query{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwner})
	if err != nil {
		t.Fatal(err)
	}
	var snap ownedView
	nextSnapshot(t, ctx, acc, &snap)
	byShard := map[int][]string{} // owner names per shard
	for _, o := range owners {
		byShard[space.ShardOf(o)] = append(byShard[space.ShardOf(o)], o.Name)
	}
	orphan := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "orphan", Namespace: ns}}
	if err := r.Get(ctx, orphan, orphan); err != nil {
		t.Fatal(err)
	}
	orphanIn := func(i int) int { // the Secret without a controller, placed by its own UID
		if space.ShardOf(orphan) == i {
			return 1
		}
		return 0
	}
	ownerNames := func() []string {
		var out []string
		for _, o := range snap.Owners {
			out = append(out, o.Name)
		}
		sort.Strings(out)
		return out
	}
	want0 := append([]string(nil), byShard[0]...)
	sort.Strings(want0)
	if diff := cmp.Diff(want0, ownerNames()); diff != "" {
		t.Fatalf("shard 0's owners mismatch (-want +got):\n%s", diff)
	}
	if len(byShard[0]) == 0 || len(byShard[1]) == 0 {
		t.Fatalf("shards 0 and 1 hold %d and %d owners: the test proves nothing", len(byShard[0]), len(byShard[1]))
	}

	before := log.len()
	if err := acc.AddShard(ctx, 1); err != nil {
		t.Fatal(err)
	}
	sel1 := space.Selector(1).String()
	for _, req := range log.since(before) {
		if !strings.HasSuffix(req, " "+sel1) {
			t.Errorf("AddShard(1) sent %q; want shard 1's selector only", req)
		}
	}
	t.Logf("AddShard(1) sent: %q", log.since(before))
	if len(log.since(before)) == 0 {
		t.Error("AddShard(1) sent no request with shard 1's selector")
	}
	var deltas []*kates.Delta
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	want01 := append(append([]string(nil), byShard[0]...), byShard[1]...)
	sort.Strings(want01)
	if diff := cmp.Diff(want01, ownerNames()); diff != "" {
		t.Errorf("owners after AddShard(1) mismatch (-want +got):\n%s", diff)
	}
	for _, d := range deltas {
		if d.DeltaType != kates.ObjectAdd {
			t.Errorf("AddShard(1) gave %s of %s %s: only adds of shard 1 expected", d.DeltaType, d.Kind, d.Name)
		}
	}
	if got, want := len(deltas), 3*len(byShard[1])+orphanIn(1); got != want {
		t.Errorf("AddShard(1) gave %d deltas, want %d (shard 1's owners and their Secrets)", got, want)
	}
	if diff := cmp.Diff([]int{0, 1}, acc.Shards()); diff != "" {
		t.Errorf("Shards() mismatch (-want +got):\n%s", diff)
	}

	acc.RemoveShard(0)
	deltas = deltas[:0]
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	moved := map[string]int{}
	for _, d := range deltas {
		if d.DeltaType != kates.ObjectMoved {
			t.Errorf("RemoveShard(0) gave %s of %s %s, want moved", d.DeltaType, d.Kind, d.Name)
		}
		moved[d.Kind]++
	}
	if diff := cmp.Diff(map[string]int{"ConfigMap": len(byShard[0]), "Secret": 2*len(byShard[0]) + orphanIn(0)}, moved); diff != "" {
		t.Errorf("moved deltas by kind mismatch (-want +got):\n%s", diff)
	}
	want1 := append([]string(nil), byShard[1]...)
	sort.Strings(want1)
	if diff := cmp.Diff(want1, ownerNames()); diff != "" {
		t.Errorf("owners after RemoveShard(0) mismatch (-want +got):\n%s", diff)
	}

	// A delete in a shard still held is still a delete.
	victim := owners[byShard[1][0]]
	if err := r.Delete(ctx, victim, nil); err != nil {
		t.Fatal(err)
	}
	deltas = deltas[:0]
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"delete " + victim.Name}, deltaSummary(deltas, "ConfigMap")); diff != "" {
		t.Errorf("deltas of a delete mismatch (-want +got):\n%s", diff)
	}
}

// deltaSummary renders the deltas of kind as "type name".
func deltaSummary(deltas []*kates.Delta, kind string) []string {
	var out []string
	for _, d := range deltas {
		if d.Kind == kind {
			out = append(out, d.DeltaType.String()+" "+d.Name)
		}
	}
	return out
}

// TestShardedViewsWithoutGate: behind an API server that ignores shard selectors (and sends
// every object to every shard), the client's own match keeps n views an exact partition, for
// Watch and List, and the Client warns once that the network is not saved.
func TestShardedViewsWithoutGate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a cluster of its own")
	}
	// A cluster of this run's own whose API server lacks the ShardedListAndWatch gate, so it
	// ignores shard selectors; each run (-count) starts and stops one.
	gateless, err := testenv.Start(context.Background(), testenv.Options{Private: true, NoNodes: true,
		FeatureGates: map[string]bool{"ShardedListAndWatch": false}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := gateless.Stop(); err != nil {
			t.Log(err)
		}
	})
	var mu sync.Mutex
	var warnings []string
	defer kates.SetShardWarn(func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		warnings = append(warnings, fmt.Sprintf(format, args...))
	})()

	c, ns := newClientOn(t, gateless)
	createConfigMaps(t, c, ns, "nogate", 120)
	all := allConfigMaps(t, c, ns)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 3
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: n}
	// This server ignores the selector: a sharded LIST through client-go returns everything,
	// without shardInfo.
	cs, err := kubernetes.NewForConfig(gateless.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{ShardSelector: space.Selector(0).String()})
	if err != nil {
		t.Fatal(err)
	}
	if len(raw.Items) != len(all) || raw.ShardInfo != nil {
		t.Fatalf("the gateless server sent %d of %d objects for shard 0, shardInfo %v: it honours the selector", len(raw.Items), len(all), raw.ShardInfo)
	}

	r := replicaClient(t, gateless, ns, nil)
	accs := make([]*kates.Accumulator, n)
	snaps := make([]cmView, n)
	for i := range n {
		acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: kates.UIDShard(i, n)},
			kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		nextSnapshot(t, ctx, acc, &snaps[i])
		accs[i] = acc
	}
	views := func() []map[string]*kates.ConfigMap {
		out := make([]map[string]*kates.ConfigMap, n)
		for i := range snaps {
			out[i] = snaps[i].ConfigMaps
		}
		return out
	}
	checkPartition(t, space, all, views())

	// Watch events too: ConfigMaps created now (by another client, so through the watches
	// alone) show in their shard's view only.
	createConfigMaps(t, c, ns, "later", 30)
	all = allConfigMaps(t, c, ns)
	for i, acc := range accs {
		waitFor(t, ctx, acc, &snaps[i], "the new ConfigMaps", func() bool {
			for key := range all {
				if strings.Contains(key, "/later-") && space.ShardOf(all[key]) == i && snaps[i].ConfigMaps[key] == nil {
					return false
				}
			}
			return true
		})
	}
	time.Sleep(200 * time.Millisecond) // events of other shards, if kept, would show by now
	for i, acc := range accs {
		if _, err := acc.Update(ctx, &snaps[i]); err != nil {
			t.Fatal(err)
		}
	}
	checkPartition(t, space, all, views())

	listed := make([]map[string]*kates.ConfigMap, n)
	for i := range n {
		var cms []*kates.ConfigMap
		if err := r.List(ctx, kates.Query{Kind: "ConfigMap", Namespace: ns, Sharding: kates.UIDShard(i, n)}, &cms); err != nil {
			t.Fatal(err)
		}
		listed[i] = map[string]*kates.ConfigMap{}
		for _, cm := range cms {
			listed[i][cm.Namespace+"/"+cm.Name] = cm
		}
	}
	checkPartition(t, space, all, listed)

	// Membership works the same: shard 1 added, then shard 0 moved away, never deleted.
	dyn, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space, Owned: []int{0}}},
		kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var dsnap cmView
	nextSnapshot(t, ctx, dyn, &dsnap)
	if err := dyn.AddShard(ctx, 1); err != nil {
		t.Fatal(err)
	}
	dyn.RemoveShard(0)
	var deltas []*kates.Delta
	if _, err := dyn.UpdateWithDeltas(ctx, &dsnap, &deltas); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]*kates.ConfigMap) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	if diff := cmp.Diff(keys(snaps[1].ConfigMaps), keys(dsnap.ConfigMaps)); diff != "" {
		t.Errorf("the view moved to shard 1 mismatch (-shard 1's static view +moved view):\n%s", diff)
	}
	for _, d := range deltas {
		if d.DeltaType != kates.ObjectMoved && d.DeltaType != kates.ObjectAdd {
			t.Errorf("after AddShard(1) and RemoveShard(0): %s of %s", d.DeltaType, d.Name)
		}
	}

	if !r.ShardSelectorsIgnored() {
		t.Error("ShardSelectorsIgnored() = false behind a server without the gate")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warnings) != 1 {
		t.Fatalf("%d warnings, want 1: %q", len(warnings), warnings)
	}
	if !strings.Contains(warnings[0], "memory is saved, the network is not") {
		t.Errorf("warning %q does not say what the fallback costs", warnings[0])
	}
}

// TestShardGateDetected: behind the shared cluster's API server, which has the gate, the
// selectors are applied and nobody warns.
func TestShardGateDetected(t *testing.T) {
	c, ns := newClient(t)
	createConfigMaps(t, c, ns, "gate", 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := replicaClient(t, cluster, ns, nil)
	acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: kates.UIDShard(0, 2)},
		kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var snap cmView
	nextSnapshot(t, ctx, acc, &snap)
	// The check runs beside the reflector; give it the time of one request more.
	time.Sleep(500 * time.Millisecond)
	if r.ShardSelectorsIgnored() {
		t.Error("ShardSelectorsIgnored() = true behind a server with the gate")
	}
}

// TestShardGateDetectedForCustomResources: the API server filters custom resources by shard
// too but sends no metadata.shardInfo for them; the client must not take that for a server
// without the gate (it did, and warned that the network was not saved).
func TestShardGateDetectedForCustomResources(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	crd, group := crdFixture(t)
	if err := c.Create(ctx, crd, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
	if err := c.WaitFor(ctx, "widgets."+group); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		w := kates.NewUnstructured(group+"/v1", "Widget", ns, fmt.Sprintf("w%d", i))
		if err := c.Create(ctx, w, w); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var warnings []string
	defer kates.SetShardWarn(func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		warnings = append(warnings, fmt.Sprintf(format, args...))
	})()
	r := replicaClient(t, cluster, ns, nil)
	acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: kates.UIDShard(0, 2)},
		kates.Query{Name: "Widgets", Kind: "widgets." + group, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Widgets map[string]*kates.Unstructured
	}
	nextSnapshot(t, ctx, acc, &snap)
	time.Sleep(500 * time.Millisecond) // the check runs beside the reflector
	mu.Lock()
	defer mu.Unlock()
	if r.ShardSelectorsIgnored() || len(warnings) > 0 {
		t.Errorf("ShardSelectorsIgnored() = %v, warnings %q: behind a server with the gate, for a custom resource", r.ShardSelectorsIgnored(), warnings)
	}
	if n := len(snap.Widgets); n == 0 || n == 12 {
		t.Errorf("shard 0 of 2 holds %d of 12 Widgets: the view is not sharded", n)
	}
}

// TestShardingErrors: a sharding that cannot work is refused before any request, AddShard
// refuses a shard outside the space, and AddShard after the Watch ended says it stopped.
func TestShardingErrors(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q := kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns}
	tests := []struct {
		name string
		sh   *kates.Sharding
		want string
	}{
		{"no shards", &kates.Sharding{Space: kates.ShardSpace{Key: kates.ShardByUID}}, "a shard space of 0 shards"},
		{"shard outside", &kates.Sharding{Space: kates.ShardSpace{Key: kates.ShardByUID, Count: 2}, Owned: []int{2}}, "shard 2 of a space of 2"},
		{"bad key", &kates.Sharding{Space: kates.ShardSpace{Key: "object.metadata.name", Count: 2}}, `shard key "object.metadata.name"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.WatchWith(ctx, kates.WatchOptions{Sharding: tt.sh}, q)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Watch: %v, want an error with %q", err, tt.want)
			}
			qs := q
			qs.Sharding = tt.sh
			var cms []*kates.ConfigMap
			if err := c.List(ctx, qs, &cms); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("List: %v, want an error with %q", err, tt.want)
			}
		})
	}

	wctx, wcancel := context.WithCancel(ctx)
	acc, err := c.WatchWith(wctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: kates.ShardSpace{Key: kates.ShardByUID, Count: 4}}}, q)
	if err != nil {
		t.Fatal(err)
	}
	var snap cmView
	nextSnapshot(t, ctx, acc, &snap) // owns no shard: complete, and empty, at once
	if len(snap.ConfigMaps) != 0 {
		t.Errorf("a view of no shard holds %d objects", len(snap.ConfigMaps))
	}
	if err := acc.AddShard(ctx, 4); err == nil {
		t.Error("AddShard(4) of a space of 4: no error")
	}
	wcancel()
	if err := acc.AddShard(ctx, 1); !errors.Is(err, accumulator.ErrStopped) {
		t.Errorf("AddShard after the Watch ended: %v, want ErrStopped", err)
	}
}

// TestShardHandover: two replicas split four shards; shards move from one to the other and
// back, one RemoveShard then the other's AddShard, while a writer keeps creating ConfigMaps.
// No delta is ever a delete (nothing is deleted), and at the end the views are an exact
// partition of the namespace.
func TestShardHandover(t *testing.T) {
	c, ns := newClient(t)
	createConfigMaps(t, c, ns, "hand", 100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	type replica struct {
		acc    *kates.Accumulator
		snap   cmView
		shards []int
	}
	reps := []*replica{{shards: []int{0, 1}}, {shards: []int{2, 3}}}
	for _, r := range reps {
		var err error
		r.acc, err = replicaClient(t, cluster, ns, nil).WatchWith(ctx,
			kates.WatchOptions{Sharding: &kates.Sharding{Space: space, Owned: r.shards}},
			kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		nextSnapshot(t, ctx, r.acc, &r.snap)
	}
	// Each replica's consumer updates as changes come, and records every delta.
	var mu sync.Mutex
	var deletes []string
	var consumers sync.WaitGroup
	for i, r := range reps {
		consumers.Add(1)
		go func() {
			defer consumers.Done()
			for range r.acc.Changed() {
				var deltas []*kates.Delta
				mu.Lock()
				_, err := r.acc.UpdateWithDeltas(ctx, &r.snap, &deltas)
				for _, d := range deltas {
					if d.DeltaType == kates.ObjectDelete {
						deletes = append(deletes, fmt.Sprintf("replica %d: %s", i, d.Name))
					}
				}
				mu.Unlock()
				if err != nil && ctx.Err() == nil {
					t.Error(err)
				}
			}
		}()
	}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for k := 0; ctx.Err() == nil && k < 60; k++ {
			cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("live-%d", k), Namespace: ns}}
			if err := c.Create(ctx, cm, nil); err != nil && ctx.Err() == nil {
				t.Error(err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	moves := []struct{ shard, from, to int }{{1, 0, 1}, {2, 1, 0}, {1, 1, 0}, {3, 1, 0}, {0, 0, 1}}
	for _, m := range moves {
		reps[m.from].acc.RemoveShard(m.shard)
		if err := reps[m.to].acc.AddShard(ctx, m.shard); err != nil {
			t.Fatal(err)
		}
	}
	<-writerDone
	all := allConfigMaps(t, c, ns)
	// Wait for both views to settle on the final shards: replica 0 holds 1, 2, 3; replica 1, 0.
	owners := map[int]int{0: 1, 1: 0, 2: 0, 3: 0}
	for i, r := range reps {
		want := 0
		for _, cm := range all {
			if owners[space.ShardOf(cm)] == i {
				want++
			}
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			mu.Lock()
			n := len(r.snap.ConfigMaps)
			mu.Unlock()
			if n == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica %d holds %d objects, want %d", i, n, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	mu.Lock()
	views := []map[string]*kates.ConfigMap{reps[0].snap.ConfigMaps, reps[1].snap.ConfigMaps}
	seen := map[string]int{}
	for i, v := range views {
		for key, cm := range v {
			seen[key]++
			if owners[space.ShardOf(cm)] != i {
				t.Errorf("replica %d holds %s, of shard %d", i, key, space.ShardOf(cm))
			}
		}
	}
	for key := range all {
		if seen[key] != 1 {
			t.Errorf("%s seen by %d replicas, want 1", key, seen[key])
		}
	}
	if len(deletes) > 0 {
		t.Errorf("deletes seen though nothing was deleted: %q", deletes)
	}
	mu.Unlock()
	if diff := cmp.Diff([]int{1, 2, 3}, reps[0].acc.Shards()); diff != "" {
		t.Errorf("replica 0's Shards() mismatch (-want +got):\n%s", diff)
	}
	cancel()
	consumers.Wait()
}
