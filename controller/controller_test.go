package controller_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/kates"
)

// The tests run a small controller on the local cluster: each ConfigMap labelled app=<test>
// (the primary kind) owns a Deployment of zero replicas whose image is the ConfigMap's
// data.image. Built-in kinds only, so the owner mapping is exercised on real owner references.

type view struct {
	Apps        map[string]*kates.ConfigMap
	Deployments map[string]*kates.Deployment
	Widgets     []*kates.Unstructured // TestNotReadyBeforeTheViewIsComplete's only
}

const fieldManager = "controller-test"

// harness runs a controller in a namespace of its own and records what it reconciles.
type harness struct {
	t      *testing.T
	client *kates.Client
	ns     string
	label  string

	mu          sync.Mutex
	counts      map[string]int
	inflight    map[string]int
	maxInflight int
	log         []string // keys in the order their reconciles began
	// before, if set, runs first in each reconcile; a non-nil result or error ends it there.
	before func(ctx context.Context, key controller.Key) (*controller.Result, error)
}

func newHarness(t *testing.T, apps int) *harness {
	t.Helper()
	c, ns := newClient(t)
	h := &harness{t: t, client: c, ns: ns, label: "app=" + ns, counts: map[string]int{}, inflight: map[string]int{}}
	for i := range apps {
		h.createApp(fmt.Sprintf("app-%d", i), "nginx:1")
	}
	return h
}

func (h *harness) createApp(name, image string) {
	h.t.Helper()
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: h.ns, Labels: map[string]string{"app": h.ns}},
		Data: map[string]string{"image": image}}
	require.NoError(h.t, h.client.Create(context.Background(), cm, nil))
}

// options returns the controller's options; the test may change them before start.
func (h *harness) options() controller.Options[view] {
	return controller.Options[view]{
		Name: "test",
		Queries: []kates.Query{
			{Name: "Apps", Kind: "configmaps", Namespace: h.ns, LabelSelector: h.label},
			{Name: "Deployments", Kind: "deployments.apps", Namespace: h.ns},
		},
		For:       "Apps",
		Reconcile: h.reconcile,
		Workers:   4,
	}
}

func (h *harness) reconcile(ctx context.Context, req controller.Request[view]) (controller.Result, error) {
	key := req.Key.String()
	h.mu.Lock()
	h.counts[key]++
	h.inflight[key]++
	h.maxInflight = max(h.maxInflight, h.inflight[key])
	h.log = append(h.log, key)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.inflight[key]--
		h.mu.Unlock()
	}()
	if h.before != nil {
		if res, err := h.before(ctx, req.Key); res != nil || err != nil {
			return *orZero(res), err
		}
	}
	var app *kates.ConfigMap
	var dep *kates.Deployment
	req.View(func(v *view) { app, dep = v.Apps[key], v.Deployments[key] })
	if app == nil || app.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	image := app.Data["image"]
	if dep != nil && len(dep.Spec.Template.Spec.Containers) == 1 && dep.Spec.Template.Spec.Containers[0].Image == image {
		return controller.Result{}, nil
	}
	return controller.Result{}, h.client.Apply(ctx, deploymentFor(app), nil, kates.FieldManager(fieldManager), kates.ForceOwnership())
}

func orZero(r *controller.Result) *controller.Result {
	if r == nil {
		return &controller.Result{}
	}
	return r
}

func deploymentFor(app *kates.ConfigMap) *kates.Deployment {
	zero := int32(0)
	labels := map[string]string{"app": app.Name}
	yes := true
	return &kates.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: kates.ObjectMeta{Name: app.Name, Namespace: app.Namespace, OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "v1", Kind: "ConfigMap", Name: app.Name, UID: app.UID, Controller: &yes}}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &zero,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: app.Data["image"]}}},
			},
		},
	}
}

// start runs the controller until the test ends, and returns it and a function that stops it
// and returns Run's error.
func (h *harness) start(opts controller.Options[view]) (*controller.Controller[view], func() error) {
	h.t.Helper()
	ctrl, err := controller.New(h.client, opts)
	require.NoError(h.t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(ctx) }()
	var once sync.Once
	var runErr error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case runErr = <-done:
			case <-time.After(time.Minute):
				runErr = errors.New("Run did not return within a minute of its context ending")
			}
		})
		return runErr
	}
	h.t.Cleanup(func() { _ = stop() })
	return ctrl, stop
}

// snapshot returns the reconcile counts and resets them.
func (h *harness) takeCounts() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.counts
	h.counts = map[string]int{}
	return out
}

func (h *harness) count(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.counts[key]
}

// settle waits until every app has its Deployment, every Deployment has been rolled out by the
// cluster's Deployment controller (its status written for its generation: the last write
// anyone but the controller makes to it), and no reconcile has run for quiet.
func (h *harness) settle(apps int, quiet time.Duration) {
	h.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	last, lastChange := -1, time.Now()
	for time.Now().Before(deadline) {
		var deps []*kates.Deployment
		require.NoError(h.t, h.client.List(context.Background(), kates.Query{Kind: "deployments.apps", Namespace: h.ns}, &deps))
		h.mu.Lock()
		total := len(h.log)
		h.mu.Unlock()
		if total != last {
			last, lastChange = total, time.Now()
		}
		if len(deps) == apps && rolledOut(deps) && time.Since(lastChange) >= quiet {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	h.t.Fatalf("not settled within two minutes: %d reconciles", last)
}

// rolledOut reports whether the Deployment controller has finished with every one of deps.
func rolledOut(deps []*kates.Deployment) bool {
	for _, d := range deps {
		done := false
		for _, c := range d.Status.Conditions {
			if c.Type == appsv1.DeploymentProgressing && c.Reason == "NewReplicaSetAvailable" {
				done = true
			}
		}
		if !done || d.Status.ObservedGeneration != d.Generation {
			return false
		}
	}
	return true
}

func (h *harness) patchApp(name, patch string) {
	h.t.Helper()
	require.NoError(h.t, h.client.Patch(context.Background(), &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: h.ns}},
		kates.MergePatchType, []byte(patch), nil))
}

// eventually polls f every 20 ms until it returns nil, or fails with its last error.
func eventually(t *testing.T, d time.Duration, f func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestOnlyChangedObjectsAreReconciled(t *testing.T) {
	const apps = 20
	h := newHarness(t, apps)
	_, stop := h.start(h.options())
	h.settle(apps, time.Second)
	first := h.takeCounts()
	assert.Len(t, first, apps, "every app is reconciled when the view first completes")

	// A change to one primary object reconciles it, and nothing else.
	h.patchApp("app-3", `{"metadata":{"annotations":{"touched":"1"}}}`)
	eventually(t, 10*time.Second, func() error {
		if h.count(h.ns+"/app-3") == 0 {
			return errors.New("app-3 not reconciled after its change")
		}
		return nil
	})
	time.Sleep(time.Second) // room for anything else to be (wrongly) reconciled
	assert.Equal(t, map[string]int{h.ns + "/app-3": 1}, h.takeCounts())

	// A change to an owned Deployment reconciles its owner, and nothing else.
	require.NoError(t, h.client.Patch(context.Background(), &kates.Deployment{ObjectMeta: kates.ObjectMeta{Name: "app-7", Namespace: h.ns}},
		kates.MergePatchType, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"tampered:1"}]}}}}`), nil))
	eventually(t, 10*time.Second, func() error {
		var dep kates.Deployment
		if err := h.client.Get(context.Background(), &kates.Deployment{ObjectMeta: kates.ObjectMeta{Name: "app-7", Namespace: h.ns}}, &dep); err != nil {
			return err
		}
		if img := dep.Spec.Template.Spec.Containers[0].Image; img != "nginx:1" {
			return fmt.Errorf("app-7's Deployment has image %s: its owner was not reconciled back", img)
		}
		return nil
	})
	h.settle(apps, time.Second)
	counts := h.takeCounts()
	assert.Positive(t, counts[h.ns+"/app-7"])
	delete(counts, h.ns+"/app-7")
	assert.Empty(t, counts, "only the owner of the changed Deployment is reconciled")

	// A deleted primary is reconciled once more (it finds it gone), then forgotten.
	require.NoError(t, h.client.Delete(context.Background(), &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "app-0", Namespace: h.ns}}, nil))
	eventually(t, 10*time.Second, func() error {
		if h.count(h.ns+"/app-0") == 0 {
			return errors.New("app-0 not reconciled after its deletion")
		}
		return nil
	})
	require.NoError(t, stop())
	h.mu.Lock()
	defer h.mu.Unlock()
	assert.Equal(t, 1, h.maxInflight, "a key is never reconciled twice at once")
}

// TestBurstIsOneOrTwoReconciles holds a key's reconcile while its object changes fifty times:
// the changes merge into one more reconcile, run after the first returns, never beside it.
func TestBurstIsOneOrTwoReconciles(t *testing.T) {
	h := newHarness(t, 3)
	gate := make(chan struct{})
	var holding sync.Once
	held := make(chan struct{})
	burst := h.ns + "/app-1"
	var bursting sync.Mutex
	inBurst := false
	h.before = func(ctx context.Context, key controller.Key) (*controller.Result, error) {
		bursting.Lock()
		b := inBurst
		bursting.Unlock()
		if b && key.String() == burst {
			holding.Do(func() { close(held) })
			select {
			case <-gate:
			case <-ctx.Done():
			}
		}
		return nil, nil
	}
	_, stop := h.start(h.options())
	h.settle(3, time.Second)
	h.takeCounts()

	bursting.Lock()
	inBurst = true
	bursting.Unlock()
	h.patchApp("app-1", `{"metadata":{"annotations":{"n":"0"}}}`)
	select {
	case <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("the burst's first change was not reconciled")
	}
	for i := 1; i <= 50; i++ {
		h.patchApp("app-1", fmt.Sprintf(`{"metadata":{"annotations":{"n":"%d"}}}`, i))
	}
	// Let the changes reach the view and the queue while the first reconcile is held.
	eventually(t, 10*time.Second, func() error {
		var cm kates.ConfigMap
		if err := h.client.Get(context.Background(), &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "app-1", Namespace: h.ns}}, &cm); err != nil {
			return err
		}
		if cm.Annotations["n"] != "50" {
			return errors.New("burst not written yet")
		}
		return nil
	})
	time.Sleep(500 * time.Millisecond)
	assert.Equal(t, 1, h.count(burst), "no second reconcile of the key while the first runs")
	bursting.Lock()
	inBurst = false
	bursting.Unlock()
	close(gate)
	h.settle(3, time.Second)
	assert.Equal(t, map[string]int{burst: 2}, h.takeCounts(), "fifty changes during one reconcile are one more reconcile")
	require.NoError(t, stop())
	h.mu.Lock()
	defer h.mu.Unlock()
	assert.Equal(t, 1, h.maxInflight)
}

// TestFailingKeyBacksOffAlone: a key whose reconcile fails is retried with growing delays,
// while changes to other keys are reconciled at once, even with a single worker.
func TestFailingKeyBacksOffAlone(t *testing.T) {
	h := newHarness(t, 3)
	bad := h.ns + "/app-0"
	var mu sync.Mutex
	var attempts []time.Time
	h.before = func(ctx context.Context, key controller.Key) (*controller.Result, error) {
		if key.String() == bad {
			mu.Lock()
			attempts = append(attempts, time.Now())
			mu.Unlock()
			return nil, errors.New("always fails")
		}
		return nil, nil
	}
	opts := h.options()
	opts.Workers = 1
	opts.BackoffBase = 200 * time.Millisecond
	opts.BackoffMax = time.Minute
	_, stop := h.start(opts)
	eventually(t, 30*time.Second, func() error {
		mu.Lock()
		defer mu.Unlock()
		if len(attempts) < 5 {
			return fmt.Errorf("%d attempts of the failing key", len(attempts))
		}
		return nil
	})
	// Meanwhile, a change to another key is reconciled before the failing key's next retry
	// (which is now at least 0.8 s away).
	h.takeCounts()
	mu.Lock()
	n := len(attempts)
	mu.Unlock()
	h.patchApp("app-2", `{"metadata":{"annotations":{"touched":"1"}}}`)
	eventually(t, 10*time.Second, func() error {
		if h.count(h.ns+"/app-2") == 0 {
			return errors.New("app-2 not reconciled")
		}
		return nil
	})
	mu.Lock()
	// No hot loop: over its life the failing key was tried no more often than its backoff
	// allows (the n-th retry at least 100 ms·2ⁿ⁻² after the one before, so within T at most
	// log₂(T/100 ms)+2 tries), while app-2, changed meanwhile, was reconciled on the one worker.
	life := time.Since(attempts[0])
	assert.LessOrEqual(t, float64(len(attempts)), math.Log2(float64(life)/float64(100*time.Millisecond))+2,
		"%d tries of the failing key in %s (app-2's change came at the %dth)", len(attempts), life, n)
	gaps := make([]time.Duration, 0, len(attempts))
	for i := 1; i < len(attempts); i++ {
		gaps = append(gaps, attempts[i].Sub(attempts[i-1]))
	}
	mu.Unlock()
	require.NoError(t, stop())
	// Backoff: the n-th retry waits at least base·2ⁿ⁻¹/2 (the bottom of its jitter), whatever
	// the load adds: 100, 200, 400 and 800 ms for the first four.
	for i, least := range []time.Duration{100, 200, 400, 800} {
		assert.GreaterOrEqual(t, gaps[i], least*time.Millisecond, "gap %d of %v", i, gaps)
	}
}

func TestRequeueAfterAndResync(t *testing.T) {
	t.Run("requeue after", func(t *testing.T) {
		h := newHarness(t, 2)
		var once sync.Once
		asked := make(chan time.Time, 1)
		h.before = func(ctx context.Context, key controller.Key) (*controller.Result, error) {
			if key.Name == "app-1" {
				var res *controller.Result
				once.Do(func() { asked <- time.Now(); res = &controller.Result{RequeueAfter: 700 * time.Millisecond} })
				return res, nil
			}
			return nil, nil
		}
		_, stop := h.start(h.options())
		at := <-asked
		eventually(t, 10*time.Second, func() error {
			if h.count(h.ns+"/app-1") < 2 {
				return errors.New("app-1 not reconciled again")
			}
			return nil
		})
		assert.GreaterOrEqual(t, time.Since(at), 700*time.Millisecond)
		require.NoError(t, stop())
	})
	t.Run("resync", func(t *testing.T) {
		h := newHarness(t, 3)
		opts := h.options()
		opts.Resync = time.Second
		_, stop := h.start(opts)
		h.settle(3, 200*time.Millisecond)
		h.takeCounts()
		time.Sleep(2500 * time.Millisecond)
		counts := h.takeCounts()
		for i := range 3 {
			assert.GreaterOrEqual(t, counts[fmt.Sprintf("%s/app-%d", h.ns, i)], 1, "resync reconciles every key: %v", counts)
		}
		require.NoError(t, stop())
	})
}

func TestMapAndDeltaObjects(t *testing.T) {
	// A mapping by label rather than owner reference: a Secret labelled app=<name>
	// concerns that app.
	h := newHarness(t, 2)
	opts := controller.Options[struct {
		Apps    map[string]*kates.ConfigMap
		Secrets map[string]*kates.Secret
	}]{
		Name: "map",
		Queries: []kates.Query{
			{Name: "Apps", Kind: "configmaps", Namespace: h.ns, LabelSelector: h.label},
			{Name: "Secrets", Kind: "secrets", Namespace: h.ns, LabelSelector: "app"},
		},
		For: "Apps",
		Map: map[string]func(*kates.Delta) []controller.Key{
			"Secrets": func(d *kates.Delta) []controller.Key {
				return []controller.Key{{Namespace: d.Namespace, Name: d.Object.GetLabels()["app"]}}
			},
		},
	}
	var mu sync.Mutex
	counts := map[string]int{}
	opts.Reconcile = func(ctx context.Context, req controller.Request[struct {
		Apps    map[string]*kates.ConfigMap
		Secrets map[string]*kates.Secret
	}]) (controller.Result, error) {
		mu.Lock()
		counts[req.Key.Name]++
		mu.Unlock()
		return controller.Result{}, nil
	}
	ctrl, err := controller.New(h.client, opts)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(ctx) }()
	defer func() { cancel(); require.NoError(t, <-done) }()
	eventually(t, 20*time.Second, func() error {
		mu.Lock()
		defer mu.Unlock()
		if len(counts) < 2 {
			return fmt.Errorf("first reconciles: %v", counts)
		}
		return nil
	})
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	clear(counts)
	mu.Unlock()
	secret := &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "s", Namespace: h.ns, Labels: map[string]string{"app": "app-1"}}}
	require.NoError(t, h.client.Create(context.Background(), secret, nil))
	eventually(t, 10*time.Second, func() error {
		mu.Lock()
		defer mu.Unlock()
		if counts["app-1"] == 0 {
			return fmt.Errorf("the labelled Secret did not reconcile its app: %v", counts)
		}
		return nil
	})
	// Its deletion too: the mapping reads the last version's labels.
	mu.Lock()
	clear(counts)
	mu.Unlock()
	require.NoError(t, h.client.Delete(context.Background(), secret, nil))
	eventually(t, 10*time.Second, func() error {
		mu.Lock()
		defer mu.Unlock()
		if counts["app-1"] == 0 {
			return fmt.Errorf("the Secret's deletion did not reconcile its app: %v", counts)
		}
		return nil
	})
	mu.Lock()
	assert.Zero(t, counts["app-0"], "app-0 reconciled for another app's Secret: %v", maps.Clone(counts))
	mu.Unlock()
}

func TestOptionsAreChecked(t *testing.T) {
	c, _ := newClient(t)
	reconcile := func(context.Context, controller.Request[view]) (controller.Result, error) {
		return controller.Result{}, nil
	}
	queries := []kates.Query{{Name: "Apps", Kind: "configmaps"}}
	for name, opts := range map[string]controller.Options[view]{
		"no name":      {Queries: queries, For: "Apps", Reconcile: reconcile},
		"no reconcile": {Name: "x", Queries: queries, For: "Apps"},
		"unknown For":  {Name: "x", Queries: queries, For: "Nope", Reconcile: reconcile},
		"map of For":   {Name: "x", Queries: queries, For: "Apps", Reconcile: reconcile, Map: map[string]func(*kates.Delta) []controller.Key{"Apps": nil}},
	} {
		_, err := controller.New(c, opts)
		assert.Error(t, err, name)
	}
}
