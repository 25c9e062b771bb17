package kates_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/kates"
)

// labelLog records the label selectors of a client's list and watch requests of Secrets.
type labelLog struct {
	mu   sync.Mutex
	reqs []string // "list <selector>", "watch <selector>" or "watchlist <selector>"
}

func (l *labelLog) wrap(cfg *rest.Config) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if strings.HasSuffix(req.URL.Path, "/secrets") {
				q := req.URL.Query()
				verb := "list"
				if q.Get("watch") == "true" || q.Get("watch") == "1" {
					verb = "watch"
				}
				if q.Get("sendInitialEvents") == "true" {
					verb = "watchlist"
				}
				l.mu.Lock()
				l.reqs = append(l.reqs, verb+" "+q.Get("labelSelector"))
				l.mu.Unlock()
			}
			return rt.RoundTrip(req)
		})
	})
}

func (l *labelLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.reqs[n:])
}

func (l *labelLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// createStampedOwned is createOwned, but the first Secret of each owner is stamped with its
// owner's shard of space, and the second not (written before the stamp, or by someone who
// does not stamp).
func createStampedOwned(t *testing.T, c *kates.Client, ns string, space kates.ShardSpace, n int) map[string]*kates.ConfigMap {
	t.Helper()
	return createOwnedStamped(t, c, ns, n, &space)
}

// TestOwnerLabelPlacement: two replicas split 8 virtual shards (not adjacent: 0,2,4,6 and
// 1,3,5,7), owners placed by UID and their Secrets by owner label. Together the views see
// every Secret exactly once, stamped or not, each with its owner; the API server filters
// (the selector a replica sent leaves out the Secrets stamped with the other's shards, and
// only those); a Secret stamped later stays in its view as an update; one whose label names
// another shard than its owner's is in no view, even that of a replica holding both shards,
// and is warned of.
func TestOwnerLabelPlacement(t *testing.T) {
	c, ns := newClient(t)
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 8}
	owners := createStampedOwned(t, c, ns, space, 40)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	held := [][]int{{0, 2, 4, 6}, {1, 3, 5, 7}}
	var (
		accs  []*kates.Accumulator
		snaps = make([]ownedView, len(held))
		logs  []*labelLog
	)
	for i, owned := range held {
		log := &labelLog{}
		r := replicaClient(t, cluster, ns, log.wrap)
		acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space, Owned: owned}},
			kates.Query{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
			kates.Query{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwnerLabel})
		if err != nil {
			t.Fatal(err)
		}
		nextSnapshot(t, ctx, acc, &snaps[i])
		accs, logs = append(accs, acc), append(logs, log)
	}

	checkViews := func(when string, skip map[string]bool) {
		t.Helper()
		seen := map[string]int{}
		for i, snap := range snaps {
			if len(snap.Owners) == 0 || len(snap.Owners) == len(owners) {
				t.Errorf("%s: view %d holds %d of %d owners", when, i, len(snap.Owners), len(owners))
			}
			for _, s := range snap.Owned {
				seen[s.Name]++
				if s.Name == "orphan" {
					continue
				}
				if owner := s.OwnerReferences[0].Name; snap.Owners[ns+"/"+owner] == nil {
					t.Errorf("%s: view %d holds Secret %s but not its owner %s", when, i, s.Name, owner)
				}
			}
			for _, o := range snap.Owners {
				for j := range 2 {
					if name := fmt.Sprintf("%s-s%d", o.Name, j); snap.Owned[ns+"/"+name] == nil && !skip[name] {
						t.Errorf("%s: view %d holds owner %s but not its Secret %s", when, i, o.Name, name)
					}
				}
			}
		}
		var secrets []*kates.Secret
		if err := c.List(ctx, kates.Query{Kind: "Secret", Namespace: ns}, &secrets); err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, s := range secrets {
			if skip[s.Name] {
				if seen[s.Name] != 0 {
					t.Errorf("%s: Secret %s seen by %d views, want none", when, s.Name, seen[s.Name])
				}
				continue
			}
			want++
			if seen[s.Name] != 1 {
				t.Errorf("%s: Secret %s seen by %d views, want 1", when, s.Name, seen[s.Name])
			}
		}
		if want < 2*len(owners)+1 {
			t.Errorf("%s: %d Secrets in the namespace, want at least %d", when, want, 2*len(owners)+1)
		}
	}
	checkViews("at start", nil)
	for i, owned := range held {
		// List with the same sharding returns what the view holds.
		var listed []*kates.Secret
		q := kates.Query{Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwnerLabel, Sharding: &kates.Sharding{Space: space, Owned: owned}}
		if err := c.List(ctx, q, &listed); err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, s := range listed {
			got = append(got, s.Name)
		}
		for _, s := range snaps[i].Owned {
			want = append(want, s.Name)
		}
		slices.Sort(got)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("List of replica %d's shards mismatch with its view (-want +got):\n%s", i, diff)
		}
	}

	// The server filters: replica 0's requests carry "notin" the other replica's shards, and
	// a List with that selector returns every Secret but those stamped for replica 1.
	kube, err := kubernetes.NewForConfig(cluster.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	wantSel := kates.OwnerShardLabel + " notin (1-of-8,3-of-8,5-of-8,7-of-8)"
	reqs := logs[0].since(0)
	if len(reqs) == 0 {
		t.Fatal("replica 0 sent no request for Secrets")
	}
	for _, req := range reqs {
		if _, sel, _ := strings.Cut(req, " "); sel != wantSel {
			t.Errorf("replica 0 sent %q; want the selector %q", req, wantSel)
		}
	}
	list, err := kube.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{LabelSelector: wantSel})
	if err != nil {
		t.Fatal(err)
	}
	sent, stampedElsewhere := map[string]bool{}, 0
	for _, s := range list.Items {
		sent[s.Name] = true
	}
	for _, o := range owners {
		stamped := o.Name + "-s0"
		if space.ShardOf(o)%2 == 1 {
			stampedElsewhere++
			if sent[stamped] {
				t.Errorf("the server sent replica 0 Secret %s, stamped with shard %d", stamped, space.ShardOf(o))
			}
		} else if !sent[stamped] {
			t.Errorf("the server did not send replica 0 Secret %s, stamped with its shard %d", stamped, space.ShardOf(o))
		}
		if !sent[o.Name+"-s1"] {
			t.Errorf("the server did not send replica 0 the unstamped Secret %s-s1", o.Name)
		}
	}
	if stampedElsewhere == 0 {
		t.Fatal("no owner in replica 1's shards: the test proves nothing")
	}
	t.Logf("replica 0 is sent %d of %d Secrets (%d stamped for replica 1 left out)", len(list.Items), 2*len(owners)+1, stampedElsewhere)

	// Stamping a Secret its replica holds keeps it in that view: an update, no delete.
	var target *kates.Secret
	holder := -1
	for i := range snaps {
		for _, s := range snaps[i].Owned {
			if strings.HasSuffix(s.Name, "-s1") {
				target, holder = s.DeepCopy(), i
				break
			}
		}
		if target != nil {
			break
		}
	}
	if target == nil {
		t.Fatal("no unstamped Secret in any view")
	}
	space.StampOwnerShard(target)
	if err := c.Update(ctx, target, target); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, accs[holder], &snaps[holder], "the stamped Secret's label in its view", func() bool {
		s := snaps[holder].Owned[ns+"/"+target.Name]
		return s != nil && s.Labels[kates.OwnerShardLabel] != ""
	})

	// A Secret whose label names a shard of the other replica than its owner's: placed by its
	// owner, which the replica holding the labeled shard does not hold, and the replica
	// holding the owner's shard is not sent it. It is in neither view, and is warned of.
	var warnings []string
	var mu sync.Mutex
	defer kates.SetShardWarn(func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		warnings = append(warnings, fmt.Sprintf(format, args...))
	})()
	kates.ResetMislabeledWarning()
	var owner *kates.ConfigMap
	for _, o := range owners {
		if space.ShardOf(o)%2 == 0 {
			owner = o
			break
		}
	}
	yes := true
	bad := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "mislabeled", Namespace: ns,
		Labels:          map[string]string{kates.OwnerShardLabel: space.OwnerShardLabelValue((space.ShardOf(owner) + 1) % 8)},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID, Controller: &yes}}}}
	if err := c.Create(ctx, bad, bad); err != nil {
		t.Fatal(err)
	}
	// And one labeled with another shard of replica 0, which holds its owner's shard too: no
	// view holds it either.
	bad2 := bad.DeepCopy()
	bad2.ResourceVersion, bad2.UID, bad2.Name = "", "", "mislabeled-2"
	bad2.Labels[kates.OwnerShardLabel] = space.OwnerShardLabelValue((space.ShardOf(owner) + 2) % 8)
	if err := c.Create(ctx, bad2, nil); err != nil {
		t.Fatal(err)
	}
	// A marker for each replica, created after it: once each replica holds its marker, its
	// watch has delivered the mislabeled Secret too, if it was sent it.
	for i := range snaps {
		var marker *kates.Secret
		for _, o := range owners {
			if space.ShardOf(o)%2 == i {
				marker = &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("marker-%d", i), Namespace: ns,
					OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: o.Name, UID: o.UID, Controller: &yes}}}}
				space.StampOwnerShard(marker)
				break
			}
		}
		if err := c.Create(ctx, marker, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range snaps {
		waitFor(t, ctx, accs[i], &snaps[i], "the marker in its replica's view", func() bool {
			return snaps[i].Owned[fmt.Sprintf("%s/marker-%d", ns, i)] != nil
		})
	}
	checkViews("with mislabeled Secrets", map[string]bool{"mislabeled": true, "mislabeled-2": true})
	mu.Lock()
	defer mu.Unlock()
	if len(warnings) == 0 || !strings.Contains(warnings[0], ns+"/mislabeled") {
		t.Errorf("warnings %q; want one of %s/mislabeled", warnings, ns)
	}
}

// TestOwnerLabelAddRemoveShard: a replica holding shard 0 of 4 adds shard 1: it lists the
// query again with a selector no longer leaving shard 1 out, and the view gains shard 1's
// objects as adds only. It then removes shard 0: its objects leave as ObjectMoved, never
// ObjectDelete, with no list, and the next requests (its watches restart every second here)
// leave shard 0's stamped Secrets out.
func TestOwnerLabelAddRemoveShard(t *testing.T) {
	c, ns := newClient(t)
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	owners := createStampedOwned(t, c, ns, space, 40)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &labelLog{}
	r := replicaClient(t, cluster, ns, log.wrap)
	acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space, Owned: []int{0}}, WatchTimeout: time.Second},
		kates.Query{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
		kates.Query{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwnerLabel})
	if err != nil {
		t.Fatal(err)
	}
	var snap ownedView
	nextSnapshot(t, ctx, acc, &snap)
	byShard := map[int]int{}
	for _, o := range owners {
		byShard[space.ShardOf(o)]++
	}
	if byShard[0] == 0 || byShard[1] == 0 {
		t.Fatalf("shards 0 and 1 hold %d and %d owners: the test proves nothing", byShard[0], byShard[1])
	}
	orphan := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "orphan", Namespace: ns}}
	if err := r.Get(ctx, orphan, orphan); err != nil {
		t.Fatal(err)
	}
	orphanIn := func(i int) int {
		if space.ShardOf(orphan) == i {
			return 1
		}
		return 0
	}
	if got, want := len(snap.Owned), 2*byShard[0]+orphanIn(0); got != want {
		t.Errorf("shard 0's view holds %d Secrets, want %d", got, want)
	}

	before := log.len()
	if err := acc.AddShard(ctx, 1); err != nil {
		t.Fatal(err)
	}
	sel01 := kates.OwnerShardLabel + " notin (2-of-4,3-of-4)"
	added := log.since(before)
	if !slices.ContainsFunc(added, func(req string) bool { return !strings.HasPrefix(req, "watch ") && strings.HasSuffix(req, " "+sel01) }) {
		t.Errorf("AddShard(1) sent %q; want a list with %q", added, sel01)
	}
	var deltas []*kates.Delta
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	moved := map[string]int{}
	for _, d := range deltas {
		if d.DeltaType != kates.ObjectAdd {
			t.Errorf("AddShard(1) gave %s of %s %s: only adds of shard 1 expected", d.DeltaType, d.Kind, d.Name)
		}
		moved[d.Kind]++
	}
	if diff := cmp.Diff(map[string]int{"ConfigMap": byShard[1], "Secret": 2*byShard[1] + orphanIn(1)}, moved); diff != "" {
		t.Errorf("AddShard(1)'s adds by kind mismatch (-want +got):\n%s", diff)
	}

	before = log.len()
	acc.RemoveShard(0)
	deltas = deltas[:0]
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	clear(moved)
	for _, d := range deltas {
		if d.DeltaType != kates.ObjectMoved {
			t.Errorf("RemoveShard(0) gave %s of %s %s, want moved", d.DeltaType, d.Kind, d.Name)
		}
		moved[d.Kind]++
	}
	if diff := cmp.Diff(map[string]int{"ConfigMap": byShard[0], "Secret": 2*byShard[0] + orphanIn(0)}, moved); diff != "" {
		t.Errorf("RemoveShard(0)'s moves by kind mismatch (-want +got):\n%s", diff)
	}
	sel1 := kates.OwnerShardLabel + " notin (0-of-4,2-of-4,3-of-4)"
	deadline := time.Now().Add(30 * time.Second)
	for !slices.Contains(log.since(before), "watch "+sel1) {
		if time.Now().After(deadline) {
			t.Fatalf("no watch with %q 30 s after RemoveShard(0); sent %q", sel1, log.since(before))
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, req := range log.since(before) {
		if !strings.HasPrefix(req, "watch ") {
			t.Errorf("RemoveShard(0) was followed by %q: no list expected", req)
		}
	}
	if got, want := len(snap.Owned), 2*byShard[1]+orphanIn(1); got != want {
		t.Errorf("shard 1's view holds %d Secrets, want %d", got, want)
	}
}
