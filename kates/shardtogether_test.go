package kates_test

import (
	"context"
	"net/http"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/kates"
)

// listGate records the lists a client sends (leaving out one-object probes and continuations),
// as "<resource> <shardSelector> <labelSelector>", and holds back the first list of the
// resource hold until release is closed.
type listGate struct {
	mu        sync.Mutex
	lists     []string
	hold      string
	held      chan struct{} // closed when the held list has been sent
	release   chan struct{}
	heldOnce  sync.Once
	cancelled atomic.Int32 // held lists cancelled while held back
}

func (g *listGate) wrap(cfg *rest.Config) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			q := req.URL.Query()
			if req.Method != http.MethodGet || q.Get("watch") == "true" || q.Get("watch") == "1" ||
				q.Get("limit") == "1" || q.Get("continue") != "" || !slices.Contains([]string{"configmaps", "secrets"}, path.Base(req.URL.Path)) {
				return rt.RoundTrip(req)
			}
			resource := path.Base(req.URL.Path)
			g.mu.Lock()
			first := len(slices.DeleteFunc(slices.Clone(g.lists), func(l string) bool { return l[:len(resource)] != resource })) == 0
			g.lists = append(g.lists, resource+" "+q.Get("shardSelector")+" "+q.Get("labelSelector"))
			g.mu.Unlock()
			if resource == g.hold && first {
				g.heldOnce.Do(func() { close(g.held) })
				select {
				case <-g.release:
				case <-req.Context().Done():
					g.cancelled.Add(1)
					return nil, req.Context().Err()
				}
			}
			return rt.RoundTrip(req)
		})
	})
}

func (g *listGate) of(resource string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, l := range g.lists {
		if len(l) > len(resource) && l[:len(resource)+1] == resource+" " {
			out = append(out, l)
		}
	}
	return out
}

// ownerLabelWatch starts a Watch of owners (placed by key) and their Secrets (placed by owner
// label) in a space of 8 shards, holding none yet, through a client whose lists gate records.
func ownerLabelWatch(t *testing.T, ctx context.Context, ns string, space kates.ShardSpace, gate *listGate) *kates.Accumulator {
	t.Helper()
	r := replicaClient(t, cluster, ns, gate.wrap)
	acc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: &kates.Sharding{Space: space}},
		kates.Query{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
		kates.Query{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwnerLabel})
	if err != nil {
		t.Fatal(err)
	}
	return acc
}

// checkOwnedView checks that acc's view holds exactly the owners of shards, and their Secrets.
func checkOwnedView(t *testing.T, ctx context.Context, acc *kates.Accumulator, space kates.ShardSpace, owners map[string]*kates.ConfigMap, shards ...int) {
	t.Helper()
	var snap ownedView
	if _, err := acc.Update(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, o := range owners {
		if slices.Contains(shards, space.ShardOf(o)) {
			want++
			if _, ok := snap.Owners[o.Namespace+"/"+o.Name]; !ok {
				t.Errorf("owner %s of shard %d is not in the view of shards %v", o.Name, space.ShardOf(o), shards)
			}
		}
	}
	owned := 0
	for _, s := range snap.Owned {
		if s.Name != "orphan" {
			owned++
		}
	}
	if len(snap.Owners) != want || owned != 2*want {
		t.Errorf("the view of shards %v holds %d owners and %d owned Secrets, want %d and %d", shards, len(snap.Owners), owned, want, 2*want)
	}
}

// TestShardsTakenTogetherListedOnce: four shards added at once, as shards.Run starts the runs
// of a dead replica's shards it has taken together, are one change to the view: each query
// lists once, for the four of them, placed by key (one shard selector) or by owner label
// (one label selector), and the view then holds them whole.
func TestShardsTakenTogetherListedOnce(t *testing.T) {
	c, ns := newClient(t)
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 8}
	owners := createStampedOwned(t, c, ns, space, 32)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gate := &listGate{}
	acc := ownerLabelWatch(t, ctx, ns, space, gate)
	taken := []int{1, 2, 5, 6}
	var wg sync.WaitGroup
	for k, i := range taken {
		// A few milliseconds apart, as runs started together call AddShard: far enough
		// apart that each would otherwise have sent its own list.
		time.Sleep(time.Duration(min(k, 1)) * 2 * time.Millisecond)
		wg.Go(func() {
			if err := acc.AddShard(ctx, i); err != nil {
				t.Errorf("AddShard(%d) = %v", i, err)
			}
		})
	}
	wg.Wait()
	if got := gate.of("configmaps"); len(got) != 1 || got[0] != "configmaps "+space.Selector(taken...).String()+" set=owners" {
		t.Errorf("the owners were listed %q, want once, for shards %v", got, taken)
	}
	labelSel := kates.OwnerShardLabel + " notin (0-of-8,3-of-8,4-of-8,7-of-8)"
	if got := gate.of("secrets"); len(got) != 1 || got[0] != "secrets  "+labelSel {
		t.Errorf("the owned Secrets were listed %q, want once, with %q", got, labelSel)
	}
	checkOwnedView(t, ctx, acc, space, owners, taken...)
}

// TestOwnerLabelRelistNotRestarted: a query placed by owner label lists every shard held in
// one list. A shard added while that list is under way neither restarts it (its request is
// not cancelled) nor lists beside it: it is listed once, after it, and both AddShards return
// with their shards whole in the view.
func TestOwnerLabelRelistNotRestarted(t *testing.T) {
	c, ns := newClient(t)
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 8}
	owners := createStampedOwned(t, c, ns, space, 32)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gate := &listGate{hold: "secrets", held: make(chan struct{}), release: make(chan struct{})}
	acc := ownerLabelWatch(t, ctx, ns, space, gate)
	added := make(chan error, 2)
	go func() { added <- acc.AddShard(ctx, 0) }()
	select {
	case <-gate.held:
	case <-ctx.Done():
		t.Fatal("shard 0's list of Secrets was never sent")
	}
	go func() { added <- acc.AddShard(ctx, 1) }()
	time.Sleep(500 * time.Millisecond) // AddShard(1) is served well within this
	if got := gate.of("secrets"); len(got) != 1 {
		t.Errorf("adding shard 1 while shard 0's Secrets were listed sent %q, want no second list yet", got)
	}
	close(gate.release)
	for range 2 {
		if err := <-added; err != nil {
			t.Fatalf("AddShard = %v", err)
		}
	}
	if n := gate.cancelled.Load(); n != 0 {
		t.Errorf("shard 0's list was cancelled: adding shard 1 restarted it")
	}
	others := func(held ...int) string {
		return kates.OwnerShardLabel + " notin (" + func() string {
			var s string
			for i := range space.Count {
				if !slices.Contains(held, i) {
					if s != "" {
						s += ","
					}
					s += space.OwnerShardLabelValue(i)
				}
			}
			return s
		}() + ")"
	}
	want := []string{"secrets  " + others(0), "secrets  " + others(0, 1)}
	if got := gate.of("secrets"); !slices.Equal(got, want) {
		t.Errorf("the Secrets were listed %q, want %q", got, want)
	}
	checkOwnedView(t, ctx, acc, space, owners, 0, 1)
}
