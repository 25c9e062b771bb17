package kates_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/kates"
)

// gatedLists records the shard selectors of a client's lists (plain or streaming, leaving out
// one-object probes and continuations) and watches, and holds back the response of any list
// whose selector is in hold until release is closed: a list still under way, for as long as a
// test needs. Its record is a requestLog's (len, since), kept by rules of its own.
type gatedLists struct {
	requestLog // "list <selector>" or "watch <selector>"
	hold       map[string]bool
	release    chan struct{}
	// held receives the selector of each held list once it has been sent.
	held chan string
	// cancelled counts the held lists whose request was cancelled while held back.
	cancelled atomic.Int32
}

func (g *gatedLists) wrap(cfg *rest.Config) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			q := req.URL.Query()
			sel := q.Get("shardSelector")
			if sel == "" || q.Get("limit") == "1" || q.Get("continue") != "" {
				return rt.RoundTrip(req)
			}
			verb := "list"
			if (q.Get("watch") == "true" || q.Get("watch") == "1") && q.Get("sendInitialEvents") != "true" {
				verb = "watch"
			}
			g.mu.Lock()
			g.reqs = append(g.reqs, verb+" "+sel)
			g.mu.Unlock()
			if verb == "list" && g.hold[sel] {
				g.held <- sel
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

// lists returns the selectors of the lists recorded after the first n.
func (g *gatedLists) lists(n int) []string {
	var out []string
	for _, r := range g.since(n) {
		if sel, ok := strings.CutPrefix(r, "list "); ok {
			out = append(out, sel)
		}
	}
	return out
}

// shardNames returns the names of the ConfigMaps of owners in shards of space, sorted.
func shardNames(space kates.ShardSpace, owners map[string]*kates.ConfigMap, shards ...int) []string {
	var out []string
	for name, o := range owners {
		if slices.Contains(shards, space.ShardOf(o)) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// createInShards creates ConfigMaps labeled set=owners in ns, at least 24, until each of shards
// of space holds two (UIDs are random, so a fixed number could leave one empty), and returns
// them by name.
func createInShards(t *testing.T, ctx context.Context, c *kates.Client, ns string, space kates.ShardSpace, shards ...int) map[string]*kates.ConfigMap {
	t.Helper()
	out := map[string]*kates.ConfigMap{}
	held := map[int]int{}
	short := func() bool {
		for _, i := range shards {
			if held[i] < 2 {
				return true
			}
		}
		return false
	}
	for k := 0; len(out) < 24 || short(); k++ {
		if k == 1000 {
			t.Fatalf("1,000 ConfigMaps and shards %v still hold %v", shards, held)
		}
		cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("owner-%d", k), Namespace: ns,
			Labels: map[string]string{"set": "owners"}}}
		if err := c.Create(ctx, cm, cm); err != nil {
			t.Fatal(err)
		}
		out[cm.Name] = cm
		held[space.ShardOf(cm)]++
	}
	return out
}

// TestShardsArrivingTogetherShareAList: the API server walks the whole collection for every
// request with a shard selector, so the shards a replica holds at once are listed and watched
// with one selector, not one request each: those it starts with, and those added together (as
// when a replica takes over a dead one's shards). A shard added while another's list is under
// way does not restart it: it is listed once that list is done. Removing one
// shard of such a reflector narrows its selector from the next request on, its objects leave as
// moved, and its later writes stay out of the view; adding it back lists it alone.
func TestShardsArrivingTogetherShareAList(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 8}
	owners := createInShards(t, ctx, c, ns, space, 0, 1, 2, 3, 5)
	gate := &gatedLists{hold: map[string]bool{space.Selector(1).String(): true}, release: make(chan struct{}), held: make(chan string, 4)}
	r := replicaClient(t, cluster, ns, gate.wrap)
	acc, err := r.WatchWith(ctx, kates.WatchOptions{WatchTimeout: time.Second, Sharding: &kates.Sharding{Space: space, Owned: []int{0, 2, 5}}},
		kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"})
	if err != nil {
		t.Fatal(err)
	}
	var snap cmView
	names := func() []string {
		out := slices.Collect(func(yield func(string) bool) {
			for _, cm := range snap.ConfigMaps {
				if !yield(cm.Name) {
					return
				}
			}
		})
		sort.Strings(out)
		return out
	}
	nextSnapshot(t, ctx, acc, &snap)
	if diff := cmp.Diff(shardNames(space, owners, 0, 2, 5), names()); diff != "" {
		t.Fatalf("the view of shards 0, 2 and 5 mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{space.Selector(0, 2, 5).String()}, gate.lists(0)); diff != "" {
		t.Errorf("starting with shards 0, 2 and 5 listed (-want +got):\n%s", diff)
	}

	// Shard 1's list is held back; shard 3, added meanwhile, neither restarts it nor lists
	// beside it: it is listed once shard 1's list is done.
	before := gate.len()
	added := make(chan error, 2)
	go func() { added <- acc.AddShard(ctx, 1) }()
	select {
	case <-gate.held:
	case <-ctx.Done():
		t.Fatal("shard 1's list was never sent")
	}
	go func() { added <- acc.AddShard(ctx, 3) }()
	time.Sleep(500 * time.Millisecond) // AddShard(3) is served well within this
	if diff := cmp.Diff([]string{space.Selector(1).String()}, gate.lists(before)); diff != "" {
		t.Errorf("adding shard 3 while shard 1's list was under way listed at once (-want +got):\n%s", diff)
	}
	close(gate.release)
	for range 2 {
		if err := <-added; err != nil {
			t.Fatalf("AddShard = %v", err)
		}
	}
	if n := gate.cancelled.Load(); n != 0 {
		t.Errorf("%d held lists were cancelled: adding shard 3 restarted shard 1's list", n)
	}
	if diff := cmp.Diff([]string{space.Selector(1).String(), space.Selector(3).String()}, gate.lists(before)); diff != "" {
		t.Errorf("adding shard 3 while shard 1's list was under way listed (-want +got):\n%s", diff)
	}
	var deltas []*kates.Delta
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shardNames(space, owners, 0, 1, 2, 3, 5), names()); diff != "" {
		t.Errorf("the view after adding shards 1 and 3 mismatch (-want +got):\n%s", diff)
	}
	var adds []string
	for _, d := range deltas {
		adds = append(adds, fmt.Sprintf("%s %s", d.DeltaType, d.Name))
	}
	sort.Strings(adds)
	var wantAdds []string
	for _, name := range shardNames(space, owners, 1, 3) {
		wantAdds = append(wantAdds, fmt.Sprintf("%s %s", kates.ObjectAdd, name))
	}
	if diff := cmp.Diff(wantAdds, adds); diff != "" {
		t.Errorf("deltas of adding shards 1 and 3 mismatch (-want +got):\n%s", diff)
	}

	// Removing shard 2 narrows the first reflector to shards 0 and 5.
	before = gate.len()
	acc.RemoveShard(2)
	deltas = deltas[:0]
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, d := range deltas {
		if o := owners[d.Name]; d.DeltaType != kates.ObjectMoved || o == nil || space.ShardOf(o) != 2 {
			t.Errorf("RemoveShard(2) gave %s of %s, want shard 2's objects moved", d.DeltaType, d.Name)
		}
		moved++
	}
	if want := len(shardNames(space, owners, 2)); moved != want {
		t.Errorf("RemoveShard(2) moved %d objects, want %d", moved, want)
	}
	narrowed := space.Selector(0, 5).String()
	for !slices.Contains(gate.since(before), "watch "+narrowed) {
		select {
		case <-ctx.Done():
			t.Fatalf("no watch with shards 0 and 5's selector after RemoveShard(2); requests: %q", gate.since(before))
		case <-time.After(100 * time.Millisecond):
		}
	}
	for _, req := range gate.since(before) {
		if strings.Contains(req, space.Selector(0, 2, 5).String()) && strings.HasPrefix(req, "list") {
			t.Errorf("RemoveShard(2) listed again: %q", req)
		}
	}

	// A write to shard 2 stays out of the view; one to shard 0 shows.
	in2, in0 := owners[shardNames(space, owners, 2)[0]], owners[shardNames(space, owners, 0)[0]]
	for _, o := range []*kates.ConfigMap{in2, in0} {
		o.Data = map[string]string{"touched": "yes"}
		if err := r.Update(ctx, o, o); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, ctx, acc, &snap, "shard 0's write", func() bool {
		cm := snap.ConfigMaps[ns+"/"+in0.Name]
		return cm != nil && cm.Data["touched"] == "yes"
	})
	if _, ok := snap.ConfigMaps[ns+"/"+in2.Name]; ok {
		t.Errorf("%s, of shard 2, is in the view after RemoveShard(2)", in2.Name)
	}

	// Shard 2 back: listed alone, and its objects come back once each.
	before = gate.len()
	if err := acc.AddShard(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{space.Selector(2).String()}, gate.lists(before)); diff != "" {
		t.Errorf("adding shard 2 back listed (-want +got):\n%s", diff)
	}
	deltas = deltas[:0]
	if _, err := acc.UpdateWithDeltas(ctx, &snap, &deltas); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shardNames(space, owners, 0, 1, 2, 3, 5), names()); diff != "" {
		t.Errorf("the view after adding shard 2 back mismatch (-want +got):\n%s", diff)
	}
	if got := snap.ConfigMaps[ns+"/"+in2.Name]; got == nil || got.Data["touched"] != "yes" {
		t.Errorf("%s after adding shard 2 back = %v, want its write", in2.Name, got)
	}
	in2.Data["touched"] = "again"
	if err := r.Update(ctx, in2, in2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, acc, &snap, "shard 2's second write", func() bool {
		cm := snap.ConfigMaps[ns+"/"+in2.Name]
		return cm != nil && cm.Data["touched"] == "again"
	})
	if got, want := len(snap.ConfigMaps), len(shardNames(space, owners, 0, 1, 2, 3, 5)); got != want {
		t.Errorf("the view holds %d ConfigMaps, want %d", got, want)
	}
}
