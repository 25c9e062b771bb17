package controller_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	coordinationv1 "k8s.io/api/coordination/v1"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

func electionOptions(id string) *election.Options {
	return &election.Options{Lease: "test-controller", Identity: id, LeaseDuration: testLease,
		RenewDeadline: testRenew, RetryPeriod: testRetry, Release: true}
}

func leaseHolder(t *testing.T, c *kates.Client, ns string) string {
	t.Helper()
	var l coordinationv1.Lease
	err := c.Get(context.Background(), &coordinationv1.Lease{ObjectMeta: kates.ObjectMeta{Name: "test-controller", Namespace: ns}}, &l)
	require.NoError(t, err)
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// TestShutdownDrainsThenReleases: when Run's context ends during a reconcile, the reconcile
// finishes with its context intact (its write goes through, inside the term), no other key is
// started, and only then is the Lease released; Run returns after all of it, leaving no
// goroutine behind.
func TestShutdownDrainsThenReleases(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	h := newHarness(t, 3)
	var holding atomic.Bool
	started := make(chan struct{}, 1)
	var finished atomic.Bool
	var writeErr, ctxErr atomic.Value
	h.before = func(ctx context.Context, key controller.Key) (*controller.Result, error) {
		if key.Name != "app-1" || !holding.Load() {
			return nil, nil
		}
		started <- struct{}{}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			ctxErr.Store(ctx.Err())
		}
		err := h.client.Patch(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "app-2", Namespace: h.ns}},
			kates.MergePatchType, []byte(`{"metadata":{"annotations":{"written-while-draining":"yes"}}}`), nil)
		writeErr.Store(errOrNil{err})
		finished.Store(true)
		return &controller.Result{}, nil
	}
	opts := h.options()
	opts.Election = electionOptions("only")
	opts.ShutdownTimeout = 20 * time.Second
	ctrl, stop := h.start(opts)
	h.settle(3, 500*time.Millisecond)
	assert.True(t, ctrl.Leading())
	assert.Equal(t, "only", leaseHolder(t, h.client, h.ns))

	holding.Store(true)
	h.patchApp("app-1", `{"metadata":{"annotations":{"go":"1"}}}`)
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("app-1 not reconciled")
	}
	before := h.takeCounts()
	require.NoError(t, stop())
	assert.True(t, finished.Load(), "Run returned before the reconcile in flight")
	assert.Nil(t, ctxErr.Load(), "the reconcile's context was cancelled during the drain")
	assert.Equal(t, errOrNil{}, writeErr.Load(), "the reconcile's write during the drain failed")
	assert.Empty(t, h.takeCounts(), "a key was started after shutdown began (before: %v)", before)
	assert.Equal(t, "", leaseHolder(t, h.client, h.ns), "the Lease was not released")
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
}

type errOrNil struct{ err error }

// TestShutdownTimeoutCancels: a reconcile that outlasts ShutdownTimeout has its context
// cancelled, and Run returns.
func TestShutdownTimeoutCancels(t *testing.T) {
	h := newHarness(t, 1)
	started := make(chan struct{}, 1)
	var hold atomic.Bool
	h.before = func(ctx context.Context, key controller.Key) (*controller.Result, error) {
		if hold.Load() {
			started <- struct{}{}
			<-ctx.Done() // only the timeout ends it
			return nil, ctx.Err()
		}
		return nil, nil
	}
	opts := h.options()
	opts.ShutdownTimeout = 300 * time.Millisecond
	_, stop := h.start(opts)
	h.settle(1, 300*time.Millisecond)
	hold.Store(true)
	h.patchApp("app-0", `{"metadata":{"annotations":{"go":"1"}}}`)
	<-started
	begin := time.Now()
	require.NoError(t, stop())
	assert.GreaterOrEqual(t, time.Since(begin), 300*time.Millisecond)
}

// TestStandbyReconcilesNothing: of two replicas, only the leader reconciles; the standby takes
// over when the leader stops, reconciling every key once from its warm view, and changes after.
func TestStandbyReconcilesNothing(t *testing.T) {
	const apps = 5
	a := newHarness(t, apps)
	b := &harness{t: t, client: a.client, ns: a.ns, label: a.label, counts: map[string]int{}, inflight: map[string]int{}}
	optsA := a.options()
	optsA.Election = electionOptions("a")
	ctrlA, stopA := a.start(optsA)
	a.settle(apps, 300*time.Millisecond)
	require.True(t, ctrlA.Leading())

	optsB := b.options()
	optsB.Election = electionOptions("b")
	ctrlB, stopB := b.start(optsB)
	eventually(t, 20*time.Second, func() error { return ctrlB.Ready() })
	a.patchApp("app-1", `{"metadata":{"annotations":{"n":"1"}}}`)
	eventually(t, 10*time.Second, func() error {
		if a.count(a.ns+"/app-1") < 2 {
			return errors.New("leader did not reconcile the change")
		}
		return nil
	})
	time.Sleep(500 * time.Millisecond)
	assert.False(t, ctrlB.Leading())
	assert.Empty(t, b.takeCounts(), "the standby reconciled")

	require.NoError(t, stopA()) // releases: b takes over at once
	eventually(t, 20*time.Second, func() error {
		if !ctrlB.Leading() {
			return errors.New("b does not lead")
		}
		return nil
	})
	b.settle(apps, 300*time.Millisecond)
	counts := b.takeCounts()
	assert.Len(t, counts, apps, "the new leader reconciles every key once: %v", counts)
	b.patchApp("app-3", `{"metadata":{"annotations":{"n":"2"}}}`)
	eventually(t, 10*time.Second, func() error {
		if b.count(b.ns+"/app-3") == 0 {
			return errors.New("the new leader did not reconcile a change")
		}
		return nil
	})
	require.NoError(t, stopB())
}

// TestNotReadyBeforeTheViewIsComplete: a controller whose view cannot complete (a query of a
// kind not served yet, waited for) is not ready and reconciles nothing; once the kind is
// served, it becomes ready and reconciles.
func TestNotReadyBeforeTheViewIsComplete(t *testing.T) {
	h := newHarness(t, 2)
	objs, group := katestest.ManifestWithUniqueGroup(t, "testdata/widgets-crd.yaml")
	opts := h.options()
	opts.Queries = append(opts.Queries, kates.Query{Name: "Widgets", Kind: "widgets." + group, Namespace: h.ns})
	opts.Watch.WaitForKinds = true
	ctrl, err := controller.New(h.client, opts)
	require.NoError(t, err)
	assert.ErrorContains(t, ctrl.Ready(), "not running")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(ctx) }()
	defer func() { cancel(); require.NoError(t, <-done) }()
	time.Sleep(time.Second)
	assert.ErrorContains(t, ctrl.Ready(), "view not complete")
	assert.Empty(t, h.takeCounts(), "reconciled before the view was complete")

	require.NoError(t, h.client.Apply(context.Background(), objs[0], nil, kates.FieldManager(fieldManager)))
	t.Cleanup(func() { _ = h.client.Delete(context.Background(), objs[0], nil) })
	eventually(t, time.Minute, func() error { return ctrl.Ready() })
	h.settle(2, 300*time.Millisecond)
	assert.Len(t, h.takeCounts(), 2)
}
