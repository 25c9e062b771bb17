package shards_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
)

// peerEnv, set in a child's environment, makes this test binary run one replica instead of
// the tests: "kates/n/i" or "informer/n/i" (replica i of n; n = 1 is unsharded).
const peerEnv = "SHARDBENCH_PEER"

// Peers.
const (
	peerKates      = "kates"
	peerKatesByKey = "kates-by-key"
	// peerKatesOwnerLabel places the ConfigMaps by their controller too, but the server
	// selects them by the label stamped with their Widget's shard (kates.PlaceByOwnerLabel).
	peerKatesOwnerLabel = "kates-owner-label"
	peerInformer        = "informer"
	// peerKatesRun is kates-owner-label run as a controller runs it: a member of a group of
	// replicas (shards.Run over labelSpace's 16 shards), each adding the shards it comes to
	// own; it reports "held" each time the shards its view holds complete change.
	peerKatesRun = "kates-run"
	// groupEnv names the shards.Run group of kates-run peers (one per handover measured).
	groupEnv = "SHARDBENCH_GROUP"
)

var configMapsGVR = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// peerReport is a line a replica writes on its standard output, as JSON.
type peerReport struct {
	// Event is "view" once the first view is complete, "added" once a shard AddShard added
	// is complete, "held" (kates-run) once the shards the view holds complete changed,
	// "error" if anything failed.
	Event string `json:"event"`
	// Shards is how many shards the view holds complete ("held").
	Shards int `json:"shards,omitempty"`
	// Seconds is the time from starting to watch to the first complete view ("view"), or
	// AddShard's ("added").
	Seconds float64 `json:"seconds"`
	// HeapBytes is the live heap the view retains: HeapAlloc after two GCs once the view is
	// complete, less the same before starting to watch (clients built and kinds looked up).
	HeapBytes int64 `json:"heapBytes"`
	// Widgets and ConfigMaps are how many objects the view holds.
	// Done is when the view was complete ("added": when AddShard returned), in Unix
	// nanoseconds, for the parent to time a handover from the kill.
	Done       int64  `json:"done"`
	Widgets    int    `json:"widgets"`
	ConfigMaps int    `json:"configMaps"`
	Error      string `json:"error,omitempty"`
}

// runPeer runs the replica spec names ("kates/2/0") until its standard input closes: it
// writes a "view" report once its first view is complete, then obeys "add I" lines (kates
// only: AddShard(I), then an "added" report).
func runPeer(spec string) int {
	if os.Getenv("BENCH_SHARDS_HEAPPROFILE") != "" {
		runtime.MemProfileRate = 4096 // every few KB: a view's small objects, not a sample of them
	}
	out := json.NewEncoder(os.Stdout)
	fail := func(err error) int {
		_ = out.Encode(peerReport{Event: "error", Error: err.Error()})
		return 1
	}
	parts := strings.Split(spec, "/")
	if len(parts) != 3 {
		return fail(fmt.Errorf("%s=%q: want peer/n/i", peerEnv, spec))
	}
	n, err1 := strconv.Atoi(parts[1])
	i, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return fail(fmt.Errorf("%s=%q: bad n or i", peerEnv, spec))
	}
	cfg, err := peerConfig()
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		r      replica
		outMu  sync.Mutex
		report = func(rep peerReport) {
			outMu.Lock()
			defer outMu.Unlock()
			_ = out.Encode(rep)
		}
	)
	switch parts[0] {
	case peerKatesRun:
		r, err = newRunReplica(cfg, report)
	case peerKates:
		r, err = newKatesReplica(cfg, n, i, kates.PlaceByOwner)
	case peerKatesByKey:
		r, err = newKatesReplica(cfg, n, i, kates.PlaceByKey)
	case peerKatesOwnerLabel:
		r, err = newKatesReplica(cfg, n, i, kates.PlaceByOwnerLabel)
	case peerInformer:
		r, err = newInformerReplica(cfg, n, i)
	default:
		err = fmt.Errorf("%s=%q: no peer %q", peerEnv, spec, parts[0])
	}
	if err != nil {
		return fail(err)
	}
	before := heapAlloc()
	begin := time.Now()
	if err := r.start(ctx); err != nil {
		return fail(err)
	}
	rep := peerReport{Event: "view", Seconds: time.Since(begin).Seconds()}
	rep.HeapBytes = int64(heapAlloc()) - int64(before)
	if dir := os.Getenv("BENCH_SHARDS_HEAPPROFILE"); dir != "" {
		// What the view's heap is: inuse_space of a profile taken now.
		if err := writeHeapProfile(filepath.Join(dir, fmt.Sprintf("%s-%d-of-%d.pb.gz", parts[0], i, n))); err != nil {
			return fail(err)
		}
	}
	if rep.Widgets, rep.ConfigMaps, err = r.count(ctx); err != nil {
		return fail(err)
	}
	report(rep)

	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		if strings.TrimSpace(lines.Text()) == "" {
			continue
		}
		var shard int
		if _, err := fmt.Sscanf(lines.Text(), "add %d", &shard); err != nil {
			return fail(fmt.Errorf("command %q: %w", lines.Text(), err))
		}
		begin := time.Now()
		if err := r.addShard(ctx, shard); err != nil {
			return fail(err)
		}
		rep := peerReport{Event: "added", Seconds: time.Since(begin).Seconds(), Done: time.Now().UnixNano()}
		if rep.Widgets, rep.ConfigMaps, err = r.count(ctx); err != nil {
			return fail(err)
		}
		report(rep)
	}
	cancel()
	r.stop()
	return 0
}

// peerConfig is the rest.Config of a replica, as a program builds one: the client library's
// own throttling defaults apply.
func peerConfig() (*rest.Config, error) {
	cfg, err := configFrom(os.Getenv("KATES_TEST_KUBECONFIG"))
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 0, 0
	cfg.UserAgent = "kates-shardbench-replica"
	return cfg, nil
}

// replica is one peer's replica. start returns once its first view is complete.
type replica interface {
	start(ctx context.Context) error
	count(ctx context.Context) (widgets, configMaps int, err error)
	addShard(ctx context.Context, i int) error
	stop()
}

// katesReplica watches Widgets and ConfigMaps with one Client.WatchWith; sharded, the
// Widgets by UID and the ConfigMaps as placement says: by their controller's UID
// (PlaceByOwner, the client selects them) or by their own (PlaceByKey, the server does, as
// for the informer).
type katesReplica struct {
	client  *kates.Client
	opts    kates.WatchOptions
	queries []kates.Query
	acc     *kates.Accumulator
}

func newKatesReplica(cfg *rest.Config, n, i int, placement kates.Placement) (*katesReplica, error) {
	c, err := kates.NewClientFromRESTConfig(cfg, namespace)
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"Widget", "ConfigMap"} {
		if _, err := c.Mapping(k); err != nil {
			return nil, err
		}
	}
	r := &katesReplica{client: c, queries: []kates.Query{
		{Name: "Widgets", Kind: "Widget", Namespace: namespace},
		{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: namespace},
	}}
	if n > 1 {
		r.opts.Sharding = kates.UIDShard(i, n)
		r.queries[1].Placement = placement
	}
	if n > 1 && placement == kates.PlaceByOwnerLabel {
		// The label names a shard of labelSpace's 16: replica i of n holds the 16/n
		// adjacent ones that make up shard i of n (so the Widgets are the same as the
		// other peers', sent as one range).
		owned := []int{}
		for s := i * labelShards / n; s < (i+1)*labelShards/n; s++ {
			owned = append(owned, s)
		}
		r.opts.Sharding = &kates.Sharding{Space: labelSpace, Owned: owned}
	}
	return r, nil
}

func (r *katesReplica) start(ctx context.Context) error {
	var err error
	if r.acc, err = r.client.WatchWith(ctx, r.opts, r.queries...); err != nil {
		return err
	}
	select {
	case <-r.acc.Bootstrapped():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *katesReplica) count(ctx context.Context) (int, int, error) {
	var snap struct {
		Widgets    []*unstructured.Unstructured
		ConfigMaps []*unstructured.Unstructured
	}
	if _, err := r.acc.Update(ctx, &snap); err != nil {
		return 0, 0, err
	}
	return len(snap.Widgets), len(snap.ConfigMaps), nil
}

func (r *katesReplica) addShard(ctx context.Context, i int) error { return r.acc.AddShard(ctx, i) }

func (r *katesReplica) stop() {
	for range r.acc.Changed() { // closed once every goroutine of the Watch is done
	}
}

// runReplica is a katesReplica run by shards.Run: its view starts with no shard, and holds
// those of labelSpace's 16 the group assigns it (the Widgets by UID, the ConfigMaps by owner
// label), each added once its Lease is held and moved out when handed away.
type runReplica struct {
	*katesReplica
	report func(peerReport)
	done   chan struct{} // closed when shards.Run returns

	mu   sync.Mutex
	held map[int]bool
}

func newRunReplica(cfg *rest.Config, report func(peerReport)) (*runReplica, error) {
	kr, err := newKatesReplica(cfg, 1, 0, kates.PlaceByOwnerLabel)
	if err != nil {
		return nil, err
	}
	kr.opts.Sharding = &kates.Sharding{Space: labelSpace}
	kr.queries[1].Placement = kates.PlaceByOwnerLabel
	return &runReplica{katesReplica: kr, report: report, done: make(chan struct{}), held: map[int]bool{}}, nil
}

// start starts watching (the view of no shard is complete at once) and joins the group.
func (r *runReplica) start(ctx context.Context) error {
	group := os.Getenv(groupEnv)
	if group == "" {
		return fmt.Errorf("%s is not set", groupEnv)
	}
	if err := r.katesReplica.start(ctx); err != nil {
		return err
	}
	go func() {
		defer close(r.done)
		err := shards.Run(ctx, r.client, shards.Options{Name: group, Namespace: namespace, Shards: labelShards,
			LeaseDuration: 3 * time.Second, RenewDeadline: 2 * time.Second, RetryPeriod: 500 * time.Millisecond, Release: true},
			func(ctx context.Context, shard int) error {
				if err := r.acc.AddShard(ctx, shard); err != nil {
					return nil // handed away while listing
				}
				r.set(ctx, shard, true)
				<-ctx.Done()
				r.acc.RemoveShard(shard)
				r.set(ctx, shard, false)
				return nil
			})
		if err != nil && ctx.Err() == nil {
			r.report(peerReport{Event: "error", Error: err.Error()})
		}
	}()
	return nil
}

// set records that the view holds shard complete, or no longer does, and reports it.
func (r *runReplica) set(ctx context.Context, shard int, held bool) {
	r.mu.Lock()
	if held {
		r.held[shard] = true
	} else {
		delete(r.held, shard)
	}
	rep := peerReport{Event: "held", Shards: len(r.held), Done: time.Now().UnixNano()}
	r.mu.Unlock()
	if rep.Shards == labelShards {
		// Counted only when it holds everything: an Update of a fresh snapshot per shard
		// would slow the takeover it measures.
		rep.Widgets, rep.ConfigMaps, _ = r.count(context.WithoutCancel(ctx))
	}
	r.report(rep)
}

func (r *runReplica) stop() {
	<-r.done
	r.katesReplica.stop()
}

// informerReplica watches Widgets and ConfigMaps with two client-go dynamic informers with
// their defaults; sharded, both are given shard i of n's selector, so the server selects each
// object by its own UID.
type informerReplica struct {
	factory dynamicinformer.DynamicSharedInformerFactory
	infs    []cache.SharedIndexInformer
}

func newInformerReplica(cfg *rest.Config, n, i int) (*informerReplica, error) {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	var tweak dynamicinformer.TweakListOptionsFunc
	if n > 1 {
		selector := kates.ShardSpace{Key: kates.ShardByUID, Count: n}.Selector(i).String()
		tweak = func(o *metav1.ListOptions) { o.ShardSelector = selector }
	}
	r := &informerReplica{factory: dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, namespace, tweak)}
	for _, gvr := range []schema.GroupVersionResource{widgetsGVR, configMapsGVR} {
		r.infs = append(r.infs, r.factory.ForResource(gvr).Informer())
	}
	return r, nil
}

func (r *informerReplica) start(ctx context.Context) error {
	r.factory.Start(ctx.Done())
	checkers := make([]cache.DoneChecker, len(r.infs))
	for i, inf := range r.infs {
		checkers[i] = inf.HasSyncedChecker()
	}
	if !cache.WaitFor(ctx, "", checkers...) {
		return fmt.Errorf("informers did not sync")
	}
	return nil
}

func (r *informerReplica) count(context.Context) (int, int, error) {
	return len(r.infs[0].GetStore().ListKeys()), len(r.infs[1].GetStore().ListKeys()), nil
}

func (r *informerReplica) addShard(context.Context, int) error {
	return fmt.Errorf("an informer's selector is fixed: no AddShard")
}

func (r *informerReplica) stop() { r.factory.Shutdown() }

// heapAlloc returns the live heap after two full collections (the second frees what the
// first's finalizers released).
// writeHeapProfile writes a heap profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.WriteHeapProfile(f)
}

func heapAlloc() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
