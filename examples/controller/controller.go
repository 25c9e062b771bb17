package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
)

// WebApp is the custom resource (testdata/crd.yaml). A Go struct of our own is enough for the
// Accumulator, which converts each WebApp into it once, as it arrives; DeepCopyObject makes it
// a runtime.Object for the client's writes, and Get/SetConditions a kstatus.Object for the
// condition helpers.
type WebApp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WebAppSpec   `json:"spec"`
	Status            WebAppStatus `json:"status,omitempty"`
}

// WebAppSpec is what the user asks for.
type WebAppSpec struct {
	Image    string `json:"image"`
	Replicas int32  `json:"replicas"`
	Port     int32  `json:"port"`
	// Headless makes the Service headless (clusterIP None): no virtual IP is taken from the
	// cluster's service range. A Service's clusterIP cannot change, so flipping it on an
	// existing WebApp leaves it Stalled.
	Headless bool `json:"headless,omitempty"`
}

// WebAppStatus is what the controller reports.
type WebAppStatus struct {
	// ObservedGeneration is the metadata.generation the status describes: kstatus reads it
	// first, so a reader never mistakes the status of an older spec for the current one.
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	AvailableReplicas  int32              `json:"availableReplicas,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

func (w *WebApp) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), w.Status.Conditions...)
	return &out
}

func (w *WebApp) GetConditions() []metav1.Condition  { return w.Status.Conditions }
func (w *WebApp) SetConditions(c []metav1.Condition) { w.Status.Conditions = c }

// Snapshot is the controller's whole view, filled by one Accumulator: every WebApp, and the
// Deployments and Services it owns (selected by the managed-by label, so the view holds
// nothing else), each Deployment with its computed kstatus.
type Snapshot struct {
	WebApps     map[string]*WebApp                        // keyed "namespace/name"
	Deployments map[string]kates.Entry[*kates.Deployment] // with its kstatus
	Services    map[string]*kates.Service
}

// Options configures a Controller. The zero value watches all namespaces and elects through
// the Lease "webapp-controller" in the client's namespace with the default timings.
type Options struct {
	// Namespace restricts the controller to one namespace. Default: all.
	Namespace string
	// Election configures the leader election (election.Run). Default Lease:
	// "webapp-controller" in the client's namespace; Views is set by the controller.
	Election election.Options
	// Log receives a line per action. Default: discarded.
	Log io.Writer
	// Retry is how long after a failed reconcile the controller reconciles again when nothing
	// changes meanwhile. Default 1 s.
	Retry time.Duration
	// Workers is how many WebApps a pass reconciles at once. Default 8.
	Workers int
	// Shards, if positive, runs the controller sharded (sharded.go): the replicas split the
	// WebApps into this many virtual shards and each reconciles those of the shards it owns,
	// instead of one leader reconciling all. Election's Lease names the group ("namespace/name":
	// its Leases are name-shard-<i> and name-member-<hash>), and its timings apply to every
	// shard's Lease. Every replica must be given the same count. Default 0: leader election.
	Shards int
}

// Controller reconciles WebApps. Create it with New and run it with Run.
type Controller struct {
	client *kates.Client
	opts   Options

	// acc is set by Run, before the controller serves as ready.
	acc atomic.Pointer[kates.Accumulator]
	// snap is the view; only the leading loop touches it (one at a time: see Run).
	snap    Snapshot
	leading atomic.Bool
	// wonAt is when this replica last started leading (for tests and /readyz's message).
	wonMu sync.Mutex
	wonAt time.Time

	// shards is what sharded mode reconciles; nil otherwise.
	shards *shardSet

	reconciles *prometheus.CounterVec
	duration   prometheus.Histogram
	leader     prometheus.Gauge
	owned      prometheus.Gauge
	left       *prometheus.CounterVec
	// handovers counts and times the shards this replica takes and gives up (sharded mode).
	handovers *metrics.ShardHandovers
}

// FieldManager is the server-side apply field manager of everything the controller writes.
const FieldManager = "webapp-controller"

// New returns a Controller that registers its metrics on reg: reconcile passes by result, their
// duration, and whether this replica leads (names as controller-runtime's, prefixed webapp_).
func New(client *kates.Client, opts Options, reg prometheus.Registerer) (*Controller, error) {
	if opts.Election.Lease == "" {
		opts.Election.Lease = "webapp-controller"
	}
	if opts.Election.Identity == "" {
		host, _ := os.Hostname()
		opts.Election.Identity = host + "_" + rand.String(6)
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Retry == 0 {
		opts.Retry = time.Second
	}
	if opts.Workers <= 0 {
		opts.Workers = 8
	}
	c := &Controller{
		client: client,
		opts:   opts,
		reconciles: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "webapp_reconcile_total",
			Help: "Reconcile passes over the whole view, by result (success, error).",
		}, []string{"result"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "webapp_reconcile_time_seconds",
			Help:    "How long a reconcile pass over the whole view took, Update included.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 14),
		}),
		leader: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "webapp_leader",
			Help: "1 while this replica holds the lease and reconciles, 0 while it stands by.",
		}),
		owned: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "webapp_shards_owned",
			Help: "The shards this replica owns and reconciles (sharded mode, -shards).",
		}),
		left: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "webapp_view_left_total",
			Help: "WebApps that left this replica's view, by reason: deleted, or moved to another replica's shard (sharded mode).",
		}, []string{"reason"}),
		handovers: metrics.NewShardHandovers(),
	}
	for _, m := range []prometheus.Collector{c.reconciles, c.duration, c.leader, c.owned, c.left} {
		if err := reg.Register(m); err != nil {
			return nil, fmt.Errorf("register metrics: %w", err)
		}
	}
	if opts.Shards > 0 {
		if err := c.handovers.Register(reg); err != nil {
			return nil, fmt.Errorf("register metrics: %w", err)
		}
	}
	return c, nil
}

// Run watches, then reconciles whenever this replica holds the lease, until ctx ends.
//
// The Watch starts before the election, and is not stopped when the replica loses the lease:
// every replica keeps a complete, current view while it stands by (a warm standby), so the one
// that wins reconciles at once from its first Update instead of listing everything first. A
// replica that loses the lease stands by again with its view still warm.
func (c *Controller) Run(ctx context.Context) error {
	if c.opts.Shards > 0 {
		return c.runSharded(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	acc, err := c.client.WatchWith(ctx, kates.WatchOptions{Snapshot: (*Snapshot)(nil)},
		kates.Query{Name: "WebApps", Kind: "webapps.examples.kates.dev", Namespace: c.opts.Namespace},
		kates.Query{Name: "Deployments", Kind: "deployments.apps", Namespace: c.opts.Namespace, LabelSelector: managedBySelector},
		kates.Query{Name: "Services", Kind: "services", Namespace: c.opts.Namespace, LabelSelector: managedBySelector},
	)
	if err != nil {
		return err
	}
	c.acc.Store(acc)
	go func() {
		select {
		case <-acc.Bootstrapped():
			fmt.Fprintf(c.opts.Log, "%s: view complete; campaigning\n", c.opts.Election.Identity)
		case <-ctx.Done():
		}
	}()
	opts := c.opts.Election
	opts.Views = []*kates.Accumulator{acc}
	for {
		err = election.Run(ctx, c.client, opts, c.lead)
		if !errors.Is(err, kates.ErrLeaseLost) {
			break
		}
		fmt.Fprintf(c.opts.Log, "%s: lost the lease; standing by\n", opts.Identity)
	}
	// Changed is closed once every goroutine of the Watch has returned: return after them.
	cancel()
	for range acc.Changed() {
	}
	return err
}

// lead is the reconcile loop of the replica that holds the lease: one reconcile pass per
// signal on Changed, over the latest complete view. Events that arrive while a pass runs leave
// one signal (Changed has capacity 1), so a burst of a hundred changes costs one or two passes,
// never a queue of a hundred: only the latest state is ever reconciled. A failed pass is retried
// after opts.Retry, or sooner if something changes.
func (c *Controller) lead(ctx context.Context) error {
	acc := c.acc.Load()
	c.wonMu.Lock()
	c.wonAt = time.Now()
	c.wonMu.Unlock()
	c.leading.Store(true)
	c.leader.Set(1)
	defer func() { c.leading.Store(false); c.leader.Set(0) }()
	fmt.Fprintf(c.opts.Log, "%s: leading\n", c.opts.Election.Identity)

	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-acc.Changed():
			if !ok {
				return nil
			}
		case <-retry:
		}
		retry = nil
		begin := time.Now()
		err := c.pass(ctx, acc)
		if ctx.Err() != nil {
			return nil // a pass cut short by the lost lease or shutdown is no failure
		}
		c.duration.Observe(time.Since(begin).Seconds())
		if err != nil {
			c.reconciles.WithLabelValues("error").Inc()
			fmt.Fprintf(c.opts.Log, "reconcile: %v\n", err)
			retry = time.After(c.opts.Retry)
			continue
		}
		c.reconciles.WithLabelValues("success").Inc()
	}
}

// pass updates the view and reconciles every WebApp in it. The controller is level-based: it
// compares each WebApp with what it owns now, whatever changed, so a pass never depends on
// having seen every event — which is what lets the Accumulator shed them.
func (c *Controller) pass(ctx context.Context, acc *kates.Accumulator) error {
	if _, err := acc.Update(ctx, &c.snap); err != nil {
		return err // a persistent list or watch failure: Forbidden, say
	}
	// WebApps are independent: reconcile up to opts.Workers at once. After a failover or a
	// burst, a pass has a write or two to make for each of many WebApps, and one at a time
	// their round trips add up (60 WebApps: 6-10 s on a loaded machine, most of it waiting).
	// The view is only read during a pass, so the workers share it without a lock.
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	workers := make(chan struct{}, c.opts.Workers)
	for _, app := range c.snap.WebApps {
		workers <- struct{}{}
		wg.Go(func() {
			defer func() { <-workers }()
			if err := c.reconcile(ctx, app); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Leading reports whether this replica holds the lease and reconciles, and since when.
func (c *Controller) Leading() (bool, time.Time) {
	c.wonMu.Lock()
	defer c.wonMu.Unlock()
	return c.leading.Load(), c.wonAt
}
