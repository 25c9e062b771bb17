package kates_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/testenv/katestest"
)

// nextSnapshot is katestest.NextSnapshot.
func nextSnapshot(t *testing.T, ctx context.Context, acc *kates.Accumulator, snap any) {
	t.Helper()
	katestest.NextSnapshot(t, ctx, acc, snap)
}

// createConfigMaps is katestest.CreateConfigMaps.
func createConfigMaps(t *testing.T, c *kates.Client, ns, prefix string, n int) {
	t.Helper()
	katestest.CreateConfigMaps(t, c, ns, prefix, n)
}

func deployment(ns, name string, replicas int32) *kates.Deployment {
	labels := map[string]string{"app": name}
	return &kates.Deployment{
		ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns},
		Spec: kates.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &kates.LabelSelector{MatchLabels: labels},
			Template: kates.PodTemplateSpec{
				ObjectMeta: kates.ObjectMeta{Labels: labels},
				Spec:       kates.PodSpec{Containers: []kates.Container{{Name: "main", Image: "example.com/app:1"}}},
			},
		},
	}
}

func TestWatchBootstrapsEveryQueryCompletely(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	createConfigMaps(t, c, ns, "boot", 1000)
	for i := range 3 {
		svc := &kates.Service{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("svc-%d", i), Namespace: ns},
			Spec: kates.ServiceSpec{Ports: []kates.ServicePort{{Port: 80}}}}
		if err := c.Create(ctx, svc, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Create(ctx, deployment(ns, fmt.Sprintf("dep-%d", i), 1), nil); err != nil {
			t.Fatal(err)
		}
	}
	acc, err := c.WatchWith(ctx, kates.WatchOptions{PageSize: 100},
		kates.Query{Name: "ConfigMaps", Kind: "configmaps", Namespace: ns, LabelSelector: "set=boot"},
		kates.Query{Name: "Services", Kind: "svc", Namespace: ns},
		kates.Query{Name: "Deployments", Kind: "deploy", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		ConfigMaps  []*kates.ConfigMap
		Services    map[string]*kates.Service
		Deployments []kates.Entry[*kates.Deployment]
	}
	// Before the first notification, Update must not hand out a partial view.
	if ok, err := acc.Update(ctx, &snap); err != nil || (ok && len(snap.ConfigMaps) != 1000) {
		t.Fatalf("early Update: ok=%v err=%v with %d ConfigMaps", ok, err, len(snap.ConfigMaps))
	}
	nextSnapshot(t, ctx, acc, &snap)
	if len(snap.ConfigMaps) != 1000 || len(snap.Services) != 3 || len(snap.Deployments) != 3 {
		t.Fatalf("first snapshot: %d ConfigMaps, %d Services, %d Deployments; want 1000, 3, 3",
			len(snap.ConfigMaps), len(snap.Services), len(snap.Deployments))
	}
	if snap.Services[ns+"/svc-1"] == nil {
		t.Errorf("Services map lacks %s/svc-1", ns)
	}
	if snap.ConfigMaps[0].ManagedFields != nil {
		t.Error("managedFields not stripped by default")
	}
}

func TestWatchShowsOwnWritesAtOnce(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "watched=yes"})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps map[string]*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)

	update := func() {
		t.Helper()
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
	}
	key := ns + "/coherent"
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "coherent", Namespace: ns, Labels: map[string]string{"watched": "yes"}}}
	if err := c.Create(ctx, cm, cm); err != nil {
		t.Fatal(err)
	}
	update()
	if snap.ConfigMaps[key] == nil {
		t.Fatal("created object missing from the Update right after Create")
	}

	// One object updated 100 times: every snapshot after a write shows it or a later one.
	for i := range 100 {
		cm.Data = map[string]string{"i": fmt.Sprint(i)}
		if err := c.Update(ctx, cm, cm); err != nil {
			t.Fatal(err)
		}
		update()
		got := snap.ConfigMaps[key]
		if got == nil {
			t.Fatalf("write %d: object missing", i)
		}
		var n int
		fmt.Sscan(got.Data["i"], &n)
		if got.Data["i"] == "" || n < i {
			t.Fatalf("write %d: snapshot shows i=%q, an older write", i, got.Data["i"])
		}
	}

	// An object whose labels stop matching leaves the view at once.
	cm.Labels = map[string]string{"watched": "no"}
	if err := c.Update(ctx, cm, cm); err != nil {
		t.Fatal(err)
	}
	update()
	if snap.ConfigMaps[key] != nil {
		t.Fatal("object whose labels stopped matching still in the view")
	}
	cm.Labels = map[string]string{"watched": "yes"}
	if err := c.Update(ctx, cm, cm); err != nil {
		t.Fatal(err)
	}
	update()
	if snap.ConfigMaps[key] == nil {
		t.Fatal("object matching again missing")
	}

	// Delete by name only: gone in the next Update.
	if err := c.Delete(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "coherent"), nil); err != nil {
		t.Fatal(err)
	}
	update()
	if snap.ConfigMaps[key] != nil {
		t.Fatal("deleted object still in the Update right after Delete")
	}

	// Created in another namespace: never enters this namespace's view.
	other := newNamespace(t)
	if err := c.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "elsewhere", Namespace: other, Labels: map[string]string{"watched": "yes"}}}, nil); err != nil {
		t.Fatal(err)
	}
	update()
	if len(snap.ConfigMaps) != 0 {
		t.Fatalf("view holds %d objects, want none: %v", len(snap.ConfigMaps), keys(snap.ConfigMaps))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestWatchCoalescesForASlowConsumer(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 5,000 changes")
	}
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=burst"})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps []*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)

	// 5,000 changes: 50 objects, each created and updated 99 times, by another client, so the
	// watch (not the overlay) must deliver them.
	writer, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns) // unthrottled
	if err != nil {
		t.Fatal(err)
	}
	const objects, versions = 50, 100
	done := make(chan error, 1)
	go func() {
		var wg sync.WaitGroup
		errs := make(chan error, objects)
		for o := range objects {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("burst-%02d", o), Labels: map[string]string{"set": "burst"}},
					Data: map[string]string{"v": "0"}}
				if err := writer.Create(ctx, cm, cm); err != nil {
					errs <- err
					return
				}
				for v := 1; v < versions; v++ {
					cm.Data["v"] = fmt.Sprint(v)
					if err := writer.Update(ctx, cm, cm); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		done <- <-errs
	}()

	updates := 0
	final := func() bool {
		if len(snap.ConfigMaps) != objects {
			return false
		}
		for _, cm := range snap.ConfigMaps {
			if cm.Data["v"] != fmt.Sprint(versions-1) {
				return false
			}
		}
		return true
	}
	begin := time.Now()
	var writeErr error
	writing := true
	updatesWhileWriting := 0
	for !final() {
		if time.Since(begin) > 3*time.Minute {
			t.Fatalf("final state not reached after %d Updates", updates)
		}
		select {
		case err := <-done:
			writeErr, writing = err, false
			if writeErr != nil {
				t.Fatal(writeErr)
			}
			updatesWhileWriting = updates
			continue
		case <-acc.Changed():
		case <-time.After(5 * time.Second):
			if !writing {
				t.Fatalf("no notification and not final: %d objects", len(snap.ConfigMaps))
			}
			continue
		}
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
		updates++
		time.Sleep(time.Second) // the slow consumer
	}
	if writing {
		updatesWhileWriting = updates // final before the writer returned: nothing was left over
	}
	t.Logf("%d changes reached a consumer sleeping 1s per Update in %d Updates (%s), %d of them after the last write",
		objects*versions, updates, time.Since(begin).Round(time.Millisecond), updates-updatesWhileWriting)
	// A consumer that sleeps 1s per Update can never make more Updates than seconds pass, so
	// the count alone proves nothing (the writes take 20 s on a quiet machine, 80 s on a loaded
	// one). What load shedding promises is that no backlog builds up: once the writes stop, the
	// next Update or two show the final state, however many changes came while it slept.
	if after := updates - updatesWhileWriting; after > 3 {
		t.Errorf("%d Updates after the last of %d changes before the final state: a backlog, not coalesced", after, objects*versions)
	}
}

func TestWatchForbiddenIsAnError(t *testing.T) {
	_, ns := newClient(t)
	path, err := cluster.KubeconfigAs("eve")
	if err != nil {
		t.Fatal(err)
	}
	c, err := kates.NewClient(kates.ClientConfig{Kubeconfig: path, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	acc, err := c.Watch(ctx, kates.Query{Name: "Secrets", Kind: "secrets", Namespace: ns})
	if err != nil {
		if !apierrors.IsForbidden(err) {
			t.Fatalf("Watch: got %v, want Forbidden", err)
		}
		return
	}
	var snap struct{ Secrets []*kates.Secret }
	select {
	case <-acc.Changed():
	case <-ctx.Done():
		t.Fatal("no notification of the Forbidden error")
	}
	_, err = acc.Update(ctx, &snap)
	if !apierrors.IsForbidden(err) {
		t.Fatalf("Update: got %v, want Forbidden", err)
	}
}

func TestWatchEntryStatusFollowsRollout(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	acc, err := c.Watch(ctx, kates.Query{Name: "Deployments", Kind: "deploy", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Deployments map[string]kates.Entry[*kates.Deployment]
	}
	nextSnapshot(t, ctx, acc, &snap)
	// The rollout is held by a node selector no node matches, so InProgress is a state the
	// entry stays in until the test ends it, not one a fast rollout may coalesce away (the
	// Accumulator hands over the latest view, not every step: kwok's nodes make pods ready
	// within a tenth of a second).
	held := deployment(ns, "web", 3)
	held.Spec.Template.Spec.NodeSelector = map[string]string{"kates.dev/no-such-node": "true"}
	if err := c.Create(ctx, held, nil); err != nil {
		t.Fatal(err)
	}
	waitEntry := func(want kstatus.Status) kates.Entry[*kates.Deployment] {
		t.Helper()
		seen := map[kstatus.Status]bool{}
		for {
			if _, err := acc.Update(ctx, &snap); err != nil {
				t.Fatal(err)
			}
			if e, ok := snap.Deployments[ns+"/web"]; ok {
				seen[e.Status.Status] = true
				if e.Status.Status == want {
					return e
				}
			}
			select {
			case <-acc.Changed():
			case <-ctx.Done():
				t.Fatalf("never %s; statuses seen %v", want, seen)
			}
		}
	}
	if e := waitEntry(kstatus.InProgressStatus); e.Object.Status.AvailableReplicas != 0 {
		t.Errorf("InProgress with %d available replicas, want 0 while no node matches", e.Object.Status.AvailableReplicas)
	}
	release := []byte(`{"spec":{"template":{"spec":{"nodeSelector":null}}}}`)
	if err := c.Patch(ctx, deployment(ns, "web", 3), kates.MergePatchType, release, nil); err != nil {
		t.Fatal(err)
	}
	if e := waitEntry(kstatus.CurrentStatus); e.Object.Status.AvailableReplicas != 3 {
		t.Errorf("Current with %d available replicas", e.Object.Status.AvailableReplicas)
	}
}

func TestWatchStopsWithContext(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps []*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)
	cancel()
	select {
	case _, ok := <-acc.Changed():
		for ok {
			_, ok = <-acc.Changed()
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Changed not closed 10s after the context ended")
	}
}

func TestWatchRejectsBadQueries(t *testing.T) {
	c, _ := newClient(t)
	ctx := context.Background()
	tests := []struct {
		name string
		q    kates.Query
	}{
		{"unknown kind", kates.Query{Name: "X", Kind: "gizmos"}},
		{"bad label selector", kates.Query{Name: "X", Kind: "cm", LabelSelector: "a in (b"}},
		{"bad field selector", kates.Query{Name: "X", Kind: "cm", FieldSelector: "a=b=c=("}},
		{"unexported name", kates.Query{Name: "x", Kind: "cm"}},
		{"no name", kates.Query{Kind: "cm"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := c.Watch(ctx, tt.q); err == nil {
				t.Errorf("Watch(%+v): no error", tt.q)
			}
		})
	}
}

func TestWatchMetadataOnly(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "big", Namespace: ns, Labels: map[string]string{"set": "meta"}},
		Data: map[string]string{"payload": "x"}}
	if err := c.Create(ctx, cm, nil); err != nil {
		t.Fatal(err)
	}
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=meta", MetadataOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps []*kates.Unstructured }
	nextSnapshot(t, ctx, acc, &snap)
	if len(snap.ConfigMaps) != 1 {
		t.Fatalf("%d objects, want 1", len(snap.ConfigMaps))
	}
	got := snap.ConfigMaps[0]
	if got.GetName() != "big" || got.GetKind() != "ConfigMap" || got.GetLabels()["set"] != "meta" || got.GetResourceVersion() == "" {
		t.Errorf("metadata missing: %v", got.Object)
	}
	if _, has := got.Object["data"]; has {
		t.Errorf("metadata-only object carries data: %v", got.Object)
	}
	// Changes still arrive.
	if err := c.Patch(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "big"), kates.MergePatchType, []byte(`{"metadata":{"labels":{"extra":"1"}}}`), nil); err != nil {
		t.Fatal(err)
	}
	for snap.ConfigMaps[0].GetLabels()["extra"] != "1" {
		select {
		case <-acc.Changed():
		case <-time.After(10 * time.Second):
			t.Fatal("label change never arrived")
		}
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
		// The client's own write shows at once, but as metadata only, like the watch's.
		if _, has := snap.ConfigMaps[0].Object["data"]; has {
			t.Fatalf("metadata-only view shows data after the client's own write: %v", snap.ConfigMaps[0].Object)
		}
	}
}

// TestWatchConvertsAheadForTheSnapshotType: with WatchOptions.Snapshot, objects are converted
// (and transformed) as they arrive, once each, whether the initial list is streamed or paged,
// and the snapshot is complete and current; a snapshot type that cannot hold a query's kind is
// refused by Watch itself.
func TestWatchConvertsAheadForTheSnapshotType(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	createConfigMaps(t, c, ns, "ahead", 300)
	type snapshot struct {
		ConfigMaps map[string]kates.Entry[*kates.ConfigMap]
	}
	var transforms atomic.Int64
	q := kates.Query{Name: "ConfigMaps", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=ahead"}
	acc, err := c.WatchWith(ctx, kates.WatchOptions{
		Snapshot:  (*snapshot)(nil),
		Transform: func(*kates.Unstructured) { transforms.Add(1) },
	}, q)
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshot
	nextSnapshot(t, ctx, acc, &snap)
	if len(snap.ConfigMaps) != 300 {
		t.Fatalf("first snapshot has %d ConfigMaps, want 300", len(snap.ConfigMaps))
	}
	if n := transforms.Load(); n != 300 {
		t.Errorf("Transform ran %d times for 300 objects, want once each", n)
	}
	key := ns + "/ahead-0042"
	if e := snap.ConfigMaps[key]; e.Object == nil || e.Object.Labels["set"] != "ahead" || e.Status.Status != kstatus.CurrentStatus {
		t.Errorf("%s = %+v, want the typed ConfigMap, Current", key, e)
	}
	changed := snap.ConfigMaps[key].Object.DeepCopy()
	changed.Data = map[string]string{"v": "2"}
	if err := c.Update(ctx, changed, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := acc.Update(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	if got := snap.ConfigMaps[key].Object.Data["v"]; got != "2" {
		t.Errorf("after an update, %s data v = %q, want 2", key, got)
	}

	_, err = c.WatchWith(ctx, kates.WatchOptions{Snapshot: (*struct{ ConfigMaps []*kates.Pod })(nil)}, q)
	if err == nil || !strings.Contains(err.Error(), "cannot hold ConfigMap") {
		t.Errorf("Watch with a snapshot type of Pods for ConfigMaps: %v, want an error saying it cannot hold them", err)
	}
}

// TestWatchStoreFormsAgree runs the same objects through every way Watch can hold them: typed
// from protobuf (the default for built-in kinds), unstructured from JSON decoded in one pass
// (what custom resources get, and any Watch with a Transform), and unstructured held for an
// unstructured snapshot type. Each must give the same typed snapshot, statuses included, and
// show the client's own write at once.
func TestWatchStoreFormsAgree(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	createConfigMaps(t, c, ns, "forms", 20)
	if err := c.Create(ctx, deployment(ns, "web", 2), nil); err != nil {
		t.Fatal(err)
	}
	type snapshot struct {
		ConfigMaps  []kates.Entry[*kates.ConfigMap]
		Deployments []kates.Entry[*kates.Deployment]
	}
	forms := []struct {
		name string
		opts kates.WatchOptions
	}{
		{"typed", kates.WatchOptions{}},
		{"unstructured", kates.WatchOptions{Transform: func(*kates.Unstructured) {}}},
		{"held-unstructured", kates.WatchOptions{Snapshot: (*struct {
			ConfigMaps  []*kates.Unstructured
			Deployments map[string]kates.Entry[*kates.Unstructured]
		})(nil)}},
	}
	describeSnap := func(s *snapshot) []string {
		var out []string
		for _, e := range s.ConfigMaps {
			out = append(out, fmt.Sprintf("cm %s@%s %v %v %s %s/%s", e.Object.Name, e.Object.ResourceVersion, e.Object.Labels,
				e.Object.Data, e.Status.Status, e.Object.APIVersion, e.Object.Kind))
			if e.Object.ManagedFields != nil {
				out = append(out, "managedFields kept on "+e.Object.Name)
			}
		}
		for _, e := range s.Deployments {
			out = append(out, fmt.Sprintf("deploy %s %s %q replicas %d/%d", e.Object.Name, e.Status.Status, e.Status.Message,
				e.Object.Status.AvailableReplicas, *e.Object.Spec.Replicas))
		}
		return out
	}
	accs := make([]*kates.Accumulator, len(forms))
	snaps := make([]snapshot, len(forms))
	for i, form := range forms {
		acc, err := c.WatchWith(ctx, form.opts,
			kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=forms"},
			kates.Query{Name: "Deployments", Kind: "deploy", Namespace: ns})
		if err != nil {
			t.Fatalf("%s: %v", form.name, err)
		}
		accs[i] = acc
	}
	// Wait until the rollout is over in every view, then compare (retrying while a late status
	// write reaches one view before another).
	for attempt := 0; ; attempt++ {
		for i := range forms {
			for {
				if _, err := accs[i].Update(ctx, &snaps[i]); err != nil {
					t.Fatalf("%s: %v", forms[i].name, err)
				}
				if len(snaps[i].Deployments) == 1 && snaps[i].Deployments[0].Status.Status == kstatus.CurrentStatus {
					break
				}
				select {
				case <-accs[i].Changed():
				case <-ctx.Done():
					t.Fatalf("%s: rollout never Current", forms[i].name)
				}
			}
		}
		same := true
		for i := range forms[1:] {
			if diff := cmp.Diff(describeSnap(&snaps[0]), describeSnap(&snaps[i+1])); diff != "" {
				same = false
				if attempt == 20 {
					t.Errorf("%s store's snapshot differs from the typed store's (-typed +%s):\n%s", forms[i+1].name, forms[i+1].name, diff)
				}
			}
		}
		if same || attempt == 20 {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if len(snaps[0].ConfigMaps) != 20 {
		t.Errorf("%d ConfigMaps, want 20", len(snaps[0].ConfigMaps))
	}

	// The client's own write shows at once in every form.
	cm := snaps[0].ConfigMaps[3].Object.DeepCopy()
	cm.Data = map[string]string{"written": "yes"}
	if err := c.Update(ctx, cm, cm); err != nil {
		t.Fatal(err)
	}
	for i, form := range forms {
		if _, err := accs[i].Update(ctx, &snaps[i]); err != nil {
			t.Fatal(err)
		}
		if got := snaps[i].ConfigMaps[3].Object; got.Data["written"] != "yes" || got.ResourceVersion != cm.ResourceVersion {
			t.Errorf("%s: after Update: %s@%s data %v, want the write (@%s)", form.name, got.Name, got.ResourceVersion, got.Data, cm.ResourceVersion)
		}
	}
}
