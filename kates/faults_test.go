package kates_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/kates"
)

// faultSnapshot is what the fault tests watch.
type faultSnapshot struct {
	ConfigMaps  map[string]*kates.ConfigMap
	Deployments map[string]*kates.Deployment
}

// consumer runs the Update loop of a controller in the background and records every delta and
// the latest snapshot, so a test can check that nothing was lost or invented.
type consumer struct {
	mu     sync.Mutex
	snap   faultSnapshot
	deltas map[string][]kates.DeltaType // "Query namespace/name" → every delta, in order
	errs   []error
	done   chan struct{}
}

func startConsumer(ctx context.Context, acc *kates.Accumulator) *consumer {
	c := &consumer{deltas: map[string][]kates.DeltaType{}, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		var snap faultSnapshot
		for range acc.Changed() {
			var ds []*kates.Delta
			_, err := acc.UpdateWithDeltas(ctx, &snap, &ds)
			c.mu.Lock()
			if err != nil {
				c.errs = append(c.errs, err)
			}
			for _, d := range ds {
				key := d.Query + " " + d.Namespace + "/" + d.Name
				c.deltas[key] = append(c.deltas[key], d.DeltaType)
			}
			c.snap = faultSnapshot{ConfigMaps: clone(snap.ConfigMaps), Deployments: clone(snap.Deployments)}
			c.mu.Unlock()
		}
	}()
	return c
}

func clone[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// resetDeltas forgets the deltas seen so far: what follows is measured from here.
func (c *consumer) resetDeltas() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deltas = map[string][]kates.DeltaType{}
}

// waitFor waits until cond holds on the latest snapshot.
func (c *consumer) waitFor(t *testing.T, timeout time.Duration, what string, cond func(faultSnapshot) bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		c.mu.Lock()
		ok := cond(c.snap)
		c.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached within %s", what, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// versions maps each ConfigMap's key to its resource version.
func versions(cms map[string]*kates.ConfigMap) map[string]string {
	out := make(map[string]string, len(cms))
	for k, cm := range cms {
		out[k] = cm.ResourceVersion
	}
	return out
}

// truth lists the ConfigMaps of set in ns through c, keyed as the snapshot keys them.
func truth(t *testing.T, c *kates.Client, ns, set string) map[string]string {
	t.Helper()
	var cms []*kates.ConfigMap
	if err := c.List(context.Background(), kates.Query{Kind: "cm", Namespace: ns, LabelSelector: "set=" + set}, &cms); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string, len(cms))
	for _, cm := range cms {
		out[cm.Namespace+"/"+cm.Name] = cm.ResourceVersion
	}
	return out
}

func sameVersions(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// outage stops the private cluster's API server A, runs change through a second API server B on
// the same etcd, optionally compacts etcd, and starts A again.
func outage(t *testing.T, compact bool, change func(b *kates.Client)) {
	t.Helper()
	cl := privateCluster(t)
	ctx := context.Background()
	cfgB, stopB, err := cl.StartSecondAPIServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopB)
	if err := cl.StopAPIServer(); err != nil {
		t.Fatal(err)
	}
	b, err := kates.NewClientFromRESTConfig(cfgB, "")
	if err != nil {
		t.Fatal(err)
	}
	change(b)
	if compact {
		rev, err := cl.CompactEtcd(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("compacted etcd at revision %d while A was down", rev)
	}
	if err := cl.StartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
}

// forEach runs f(i) for i in [0, n) on 16 goroutines and fails the test on the first error.
func forEach(t *testing.T, n int, f func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	var failed atomic.Value
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := f(i); err != nil {
				failed.Store(err)
			}
		}()
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
}

func cmName(i int) string { return fmt.Sprintf("cm-%04d", i) }

func TestAPIServerRestartLosesNothing(t *testing.T) {
	testOutage(t, false)
}

func TestCompactionWhileDisconnectedReportsDeletes(t *testing.T) {
	testOutage(t, true)
}

// testOutage: an accumulator watches through API server A; while A is down, 200 ConfigMaps are
// created, 200 updated and 200 deleted through B (and Deployments created and deleted); when A is
// back, the snapshot equals a fresh List, and the deltas report every change exactly.
func testOutage(t *testing.T, compact bool) {
	cl := privateCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, ns := newClientOn(t, cl)

	// 400 to start with: 0–199 will be updated, 200–399 deleted; 400–599 will be created.
	forEach(t, 400, func(i int) error {
		return a.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: cmName(i), Labels: map[string]string{"set": "fault"}},
			Data: map[string]string{"v": "0"}}, nil)
	})
	for i := range 2 {
		if err := a.Create(ctx, deployment(ns, fmt.Sprintf("old-%d", i), 1), nil); err != nil {
			t.Fatal(err)
		}
	}
	acc, err := a.WatchWith(ctx, kates.WatchOptions{PersistentErrorAfter: 2 * time.Minute},
		kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=fault"},
		kates.Query{Name: "Deployments", Kind: "deploy", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	con := startConsumer(ctx, acc)
	con.waitFor(t, 30*time.Second, "bootstrap", func(s faultSnapshot) bool { return len(s.ConfigMaps) == 400 && len(s.Deployments) == 2 })
	con.resetDeltas()

	begin := time.Now()
	outage(t, compact, func(b *kates.Client) {
		forEach(t, 600, func(i int) error {
			ref := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: cmName(i), Namespace: ns, Labels: map[string]string{"set": "fault"}},
				Data: map[string]string{"v": "1"}}
			switch {
			case i < 200:
				return b.Patch(ctx, ref, kates.MergePatchType, []byte(`{"data":{"v":"1"}}`), nil)
			case i < 400:
				return b.Delete(ctx, ref, nil)
			default:
				return b.Create(ctx, ref, nil)
			}
		})
		if err := b.Create(ctx, deployment(ns, "new-0", 1), nil); err != nil {
			t.Error(err)
		}
		if err := b.Delete(ctx, deployment(ns, "old-0", 1), nil); err != nil {
			t.Error(err)
		}
	})

	want := truth(t, a, ns, "fault")
	con.waitFor(t, 60*time.Second, "snapshot equal to a fresh List", func(s faultSnapshot) bool {
		return sameVersions(want, versions(s.ConfigMaps)) && s.Deployments[ns+"/new-0"] != nil && s.Deployments[ns+"/old-0"] == nil
	})
	t.Logf("converged %s after the outage began", time.Since(begin).Round(time.Millisecond))

	con.mu.Lock()
	defer con.mu.Unlock()
	var problems []string
	for i := range 600 {
		key := "ConfigMaps " + ns + "/" + cmName(i)
		got := fmt.Sprint(con.deltas[key])
		var expect string
		switch {
		case i < 200:
			expect = fmt.Sprint([]kates.DeltaType{kates.ObjectUpdate})
		case i < 400:
			expect = fmt.Sprint([]kates.DeltaType{kates.ObjectDelete})
		default:
			expect = fmt.Sprint([]kates.DeltaType{kates.ObjectAdd})
		}
		if got != expect {
			problems = append(problems, fmt.Sprintf("%s: deltas %s, want %s", cmName(i), got, expect))
		}
	}
	if d := con.deltas["Deployments "+ns+"/new-0"]; len(d) == 0 || d[0] != kates.ObjectAdd {
		problems = append(problems, fmt.Sprintf("Deployment new-0: deltas %v, want an add first", d))
	}
	if d := con.deltas["Deployments "+ns+"/old-0"]; len(d) == 0 || d[len(d)-1] != kates.ObjectDelete {
		problems = append(problems, fmt.Sprintf("Deployment old-0: deltas %v, want a delete last", d))
	}
	for key := range con.deltas {
		var i int
		if _, err := fmt.Sscanf(key, "ConfigMaps "+ns+"/cm-%04d", &i); err == nil && i >= 600 {
			problems = append(problems, "invented delta for "+key)
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Errorf("%d problems, first ones:\n%v", len(problems), problems[:min(10, len(problems))])
	}
	for _, err := range con.errs {
		t.Logf("Update error during the outage (tolerated: transient): %v", err)
	}
}

func TestRevokedAccessIsSurfaced(t *testing.T) {
	admin, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	role := &rbacv1.Role{ObjectMeta: kates.ObjectMeta{Name: "cm-reader", Namespace: ns},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list", "watch"}}}}
	binding := &rbacv1.RoleBinding{ObjectMeta: kates.ObjectMeta{Name: "rita-reads", Namespace: ns},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "cm-reader"},
		Subjects: []rbacv1.Subject{{Kind: "User", Name: "rita", APIGroup: "rbac.authorization.k8s.io"}}}
	if err := admin.Create(ctx, role, nil); err != nil {
		t.Fatal(err)
	}
	if err := admin.Create(ctx, binding, nil); err != nil {
		t.Fatal(err)
	}
	rita, err := kates.NewClientFromRESTConfig(cluster.RESTConfigAs("rita"), ns)
	if err != nil {
		t.Fatal(err)
	}
	// RBAC reaches the authorizer through an informer: allow a moment.
	for rita.List(ctx, kates.Query{Kind: "cm", Namespace: ns}, &[]*kates.ConfigMap{}) != nil {
		time.Sleep(50 * time.Millisecond)
	}
	acc, err := rita.WatchWith(ctx, kates.WatchOptions{WatchTimeout: time.Second},
		kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps []*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)

	if err := admin.Delete(ctx, binding, nil); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	for {
		select {
		case <-acc.Changed():
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("revoked access never surfaced")
		}
		if _, err := acc.Update(ctx, &snap); err != nil {
			if !apierrors.IsForbidden(err) {
				t.Fatalf("Update after revocation: got %v, want Forbidden", err)
			}
			t.Logf("revocation surfaced %s later: %v", time.Since(revoked).Round(time.Millisecond), err)
			return
		}
	}
}

func TestConcurrentWritersStayCoherent(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=writers"})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps map[string]*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)

	const writers, writes = 50, 20
	var written [writers]atomic.Int64 // the last version each writer's write returned
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("w-%02d", w), Labels: map[string]string{"set": "writers"}},
				Data: map[string]string{"v": "1"}}
			if err := c.Create(ctx, cm, cm); err != nil {
				errs <- err
				return
			}
			written[w].Store(1)
			for v := 2; v <= writes; v++ {
				cm.Data["v"] = fmt.Sprint(v)
				if err := c.Update(ctx, cm, cm); err != nil {
					errs <- err
					return
				}
				written[w].Store(int64(v))
			}
		}()
	}
	stop := make(chan struct{})
	go func() { wg.Wait(); close(stop) }()

	checks := 0
	for finished := false; !finished; {
		select {
		case <-stop:
			finished = true
		default:
		}
		// Every write that returned before this Update began must show in it.
		var before [writers]int64
		for w := range writers {
			before[w] = written[w].Load()
		}
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
		checks++
		for w := range writers {
			if before[w] == 0 {
				continue
			}
			cm := snap.ConfigMaps[fmt.Sprintf("%s/w-%02d", ns, w)]
			var got int64
			if cm != nil {
				fmt.Sscan(cm.Data["v"], &got)
			}
			if got < before[w] {
				t.Fatalf("writer %d's write v=%d returned before an Update that shows v=%d", w, before[w], got)
			}
		}
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	t.Logf("%d writes by %d writers, %d coherence checks", writers*writes, writers, checks)
}

func TestShutdownLeavesNoGoroutine(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	createConfigMaps(t, c, ns, "shut", 300)
	// Warm the connection up: its goroutines belong to the client, not to a Watch.
	if err := c.List(ctx, kates.Query{Kind: "cm", Namespace: ns}, &[]*kates.ConfigMap{}); err != nil {
		t.Fatal(err)
	}
	ignore := goleak.IgnoreCurrent()
	for _, after := range []time.Duration{0, time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond, time.Second} {
		wctx, cancel := context.WithCancel(ctx)
		acc, err := c.WatchWith(wctx, kates.WatchOptions{PageSize: 50},
			kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns},
			kates.Query{Name: "Services", Kind: "svc", Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		// A consumer in mid-Update when the context ends.
		updating := make(chan struct{})
		go func() {
			defer close(updating)
			var snap struct {
				ConfigMaps []*kates.ConfigMap
				Services   []*kates.Service
			}
			for range acc.Changed() {
				_, _ = acc.Update(wctx, &snap)
			}
		}()
		time.Sleep(after)
		cancel()
		select {
		case <-updating:
		case <-time.After(10 * time.Second):
			t.Fatalf("cancel after %s: Changed not closed within 10s", after)
		}
	}
	goleak.VerifyNone(t, ignore)
}

// TestBurstSoak is the long burst of the reliability suite: `make soak` runs it.
func TestBurstSoak(t *testing.T) {
	if os.Getenv("KATES_SOAK") == "" {
		t.Skip("set KATES_SOAK=1 (make soak) to run the 20,000-change burst")
	}
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writer, err := kates.NewClientFromRESTConfig(unthrottled(cluster.RESTConfig()), ns)
	if err != nil {
		t.Fatal(err)
	}
	const objects, versions = 200, 100 // 20,000 changes
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=soak"})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps map[string]*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)
	// Objects first, so the heap before and after holds the same number of them.
	forEach(t, objects, func(i int) error {
		return writer.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: cmName(i), Labels: map[string]string{"set": "soak"}},
			Data: map[string]string{"v": "0"}}, nil)
	})
	for len(snap.ConfigMaps) < objects {
		<-acc.Changed()
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
	}
	heapBefore, goroutinesBefore := heap(), runtime.NumGoroutine()

	begin := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		forEach(t, objects, func(i int) error {
			for v := 1; v < versions; v++ {
				p := fmt.Sprintf(`{"data":{"v":"%d"}}`, v)
				if err := writer.Patch(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: cmName(i)}}, kates.MergePatchType, []byte(p), nil); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	final := func() bool {
		for _, cm := range snap.ConfigMaps {
			if cm.Data["v"] != fmt.Sprint(versions-1) {
				return false
			}
		}
		return len(snap.ConfigMaps) == objects
	}
	updates := 0
	for !final() {
		select {
		case <-acc.Changed():
		case <-time.After(10 * time.Second):
		}
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
		updates++
		time.Sleep(500 * time.Millisecond)
	}
	<-done
	elapsed := time.Since(begin)
	snap.ConfigMaps = nil // the test's own copy of the view is not the accumulator's
	heapAfter := heap()
	t.Logf("burst: %d changes in %s (%.0f/s), %d Updates by a consumer sleeping 500ms; heap %d KiB before, %d KiB after (%.1f%%); goroutines %d before, %d after",
		objects*(versions-1), elapsed.Round(time.Millisecond), float64(objects*(versions-1))/elapsed.Seconds(), updates,
		heapBefore/1024, heapAfter/1024, 100*float64(int64(heapAfter)-int64(heapBefore))/float64(heapBefore),
		goroutinesBefore, runtime.NumGoroutine())
	if float64(heapAfter) > 1.1*float64(heapBefore) {
		t.Errorf("heap grew from %d to %d bytes (>10%%)", heapBefore, heapAfter)
	}
	ignore := goleak.IgnoreCurrent()
	cancel()
	for range acc.Changed() {
	}
	goleak.VerifyNone(t, ignore)
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func unthrottled(cfg *rest.Config) *rest.Config {
	cfg.QPS = -1
	return cfg
}
