package kates_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/zstdcompact"
)

// compactSnap and structSnap are the same queries, held compact and as structs.
type compactSnap struct {
	ConfigMaps  map[string]kates.Compact[*corev1.ConfigMap]
	Deployments []kates.Compact[*kates.Deployment]
	Pods        map[string]kates.Compact[*corev1.Pod]
}

type structSnap struct {
	ConfigMaps  map[string]kates.Entry[*corev1.ConfigMap]
	Deployments []kates.Entry[*kates.Deployment]
	Pods        map[string]kates.Entry[*corev1.Pod]
}

// decoded is what a compact or struct view holds of one object, to compare them.
type decoded struct {
	Object any
	Status string
}

func decodeCompact[T any](t *testing.T, c kates.Compact[T]) decoded {
	t.Helper()
	obj, err := c.Get()
	require.NoError(t, err)
	return decoded{Object: obj, Status: string(c.Status().Status) + ": " + c.Status().Message}
}

// views renders both snapshots as "kind ns/name" → object and status.
func views(t *testing.T, cs compactSnap, ss structSnap) (compact, structs map[string]decoded) {
	t.Helper()
	compact, structs = map[string]decoded{}, map[string]decoded{}
	for k, c := range cs.ConfigMaps {
		compact["cm "+k] = decodeCompact(t, c)
	}
	for _, c := range cs.Deployments {
		compact["deploy "+c.Namespace()+"/"+c.Name()] = decodeCompact(t, c)
	}
	for k, c := range cs.Pods {
		compact["pod "+k] = decodeCompact(t, c)
	}
	for k, e := range ss.ConfigMaps {
		structs["cm "+k] = decoded{e.Object, string(e.Status.Status) + ": " + e.Status.Message}
	}
	for _, e := range ss.Deployments {
		structs["deploy "+e.Object.Namespace+"/"+e.Object.Name] = decoded{e.Object, string(e.Status.Status) + ": " + e.Status.Message}
	}
	for k, e := range ss.Pods {
		structs["pod "+k] = decoded{e.Object, string(e.Status.Status) + ": " + e.Status.Message}
	}
	return compact, structs
}

// TestCompactViewAgreesWithStructs watches the same queries (ConfigMaps by label, a
// Deployment and its Pods) twice from one client, held compact and as structs, and checks
// that the two views hold the same objects with the same statuses through creates, updates,
// deletes, a label change that takes an object out of the selector and one that brings another
// in, other writers (the controllers' Pods and statuses), and the client's own writes, shown
// by both at once, before their watches deliver them; with and without a Compressor (zstdcompact).
func TestCompactViewAgreesWithStructs(t *testing.T) {
	for _, compress := range []bool{false, true} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) { testCompactViewAgreesWithStructs(t, compress) })
	}
}

func testCompactViewAgreesWithStructs(t *testing.T, compress bool) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	cm := func(name, set string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns,
			Labels:      map[string]string{"set": set, "app": name, "tier": "web"},
			Annotations: map[string]string{"note": "made by " + t.Name()}},
			Data: map[string]string{"config.yaml": "key: " + name + "\n", "other": "x"}}
	}
	for _, name := range []string{"a", "b", "c"} {
		require.NoError(t, c.Create(ctx, cm(name, "compact"), nil))
	}
	require.NoError(t, c.Create(ctx, cm("outside", "other"), nil))
	require.NoError(t, c.Create(ctx, deployment(ns, "web", 2), nil))

	queries := []kates.Query{
		{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=compact"},
		{Name: "Deployments", Kind: "deploy", Namespace: ns},
		{Name: "Pods", Kind: "pod", Namespace: ns, LabelSelector: "app=web"},
	}
	compactOpts := kates.WatchOptions{Snapshot: (*compactSnap)(nil)}
	if compress {
		compactOpts.Compressor = zstdcompact.New()
	}
	compactAcc, err := c.WatchWith(ctx, compactOpts, queries...)
	require.NoError(t, err)
	structAcc, err := c.Watch(ctx, queries...)
	require.NoError(t, err)
	for _, q := range queries {
		require.True(t, compactAcc.Store(q.Name).Compact(), "query %s compacts as objects arrive", q.Name)
	}
	var cs compactSnap
	var ss structSnap
	nextSnapshot(t, ctx, compactAcc, &cs)
	nextSnapshot(t, ctx, structAcc, &ss)

	// agree updates both views until they agree and cond holds of the struct view.
	agree := func(what string, cond func() bool) {
		t.Helper()
		var diff string
		for ctx.Err() == nil {
			_, err := compactAcc.Update(ctx, &cs)
			require.NoError(t, err)
			_, err = structAcc.Update(ctx, &ss)
			require.NoError(t, err)
			compact, structs := views(t, cs, ss)
			if diff = cmp.Diff(structs, compact, cmpopts.EquateEmpty()); diff == "" && cond() {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("%s: the views never agreed; last difference (-struct +compact):\n%s", what, diff)
	}
	// now checks that both views show what cond wants at once (the client's own writes), and
	// agree.
	now := func(what string, cond func() bool) {
		t.Helper()
		_, err := compactAcc.Update(ctx, &cs)
		require.NoError(t, err)
		_, err = structAcc.Update(ctx, &ss)
		require.NoError(t, err)
		require.True(t, cond(), "%s: not shown at once", what)
		compact, structs := views(t, cs, ss)
		if diff := cmp.Diff(structs, compact, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: views differ (-struct +compact):\n%s", what, diff)
		}
	}
	readyPods := func(n int) func() bool {
		return func() bool {
			ready := 0
			for _, e := range ss.Pods {
				if e.Status.Status == "Current" {
					ready++
				}
			}
			return len(ss.Pods) == n && ready == n && len(ss.Deployments) == 1 && ss.Deployments[0].Status.Status == "Current"
		}
	}
	agree("bootstrap", func() bool { return len(ss.ConfigMaps) == 3 })
	agree("rollout", readyPods(2))

	// The client's own writes show in both at once.
	var written corev1.ConfigMap
	updated := cm("a", "compact")
	updated.Data["config.yaml"] = "key: updated\n"
	require.NoError(t, c.Update(ctx, updated, &written))
	now("update", func() bool {
		return cs.ConfigMaps[ns+"/a"].ResourceVersion() == written.ResourceVersion &&
			ss.ConfigMaps[ns+"/a"].Object.ResourceVersion == written.ResourceVersion
	})
	patch := []byte(`{"metadata":{"labels":{"set":"elsewhere"}}}`)
	require.NoError(t, c.Patch(ctx, cm("b", ""), types.MergePatchType, patch, nil))
	now("label out of the selector", func() bool {
		_, inC := cs.ConfigMaps[ns+"/b"]
		_, inS := ss.ConfigMaps[ns+"/b"]
		return !inC && !inS
	})
	patch = []byte(`{"metadata":{"labels":{"set":"compact"}}}`)
	require.NoError(t, c.Patch(ctx, cm("outside", ""), types.MergePatchType, patch, nil))
	now("label into the selector", func() bool {
		_, inC := cs.ConfigMaps[ns+"/outside"]
		_, inS := ss.ConfigMaps[ns+"/outside"]
		return inC && inS
	})
	require.NoError(t, c.Delete(ctx, cm("c", ""), nil))
	now("delete", func() bool { return len(cs.ConfigMaps) == 2 && len(ss.ConfigMaps) == 2 })
	require.NoError(t, c.Create(ctx, cm("d", "compact"), nil))
	now("create", func() bool { return len(cs.ConfigMaps) == 3 && len(ss.ConfigMaps) == 3 })
	agree("caught up", func() bool { return len(ss.ConfigMaps) == 3 })

	// Other writers: the controllers scale the Deployment's Pods and report their status.
	var d kates.Deployment
	require.NoError(t, c.Get(ctx, deployment(ns, "web", 0), &d))
	d.Spec.Replicas = ptr.To(int32(3))
	require.NoError(t, c.Update(ctx, &d, nil))
	agree("scaled up", readyPods(3))

	// A caller editing a decoded object changes nothing held.
	obj, err := cs.ConfigMaps[ns+"/a"].Get()
	require.NoError(t, err)
	obj.Data["config.yaml"] = "edited"
	obj.Labels["set"] = "edited"
	var fresh compactSnap
	_, err = compactAcc.Update(ctx, &fresh)
	require.NoError(t, err)
	again, err := fresh.ConfigMaps[ns+"/a"].Get()
	require.NoError(t, err)
	require.Equal(t, "key: updated\n", again.Data["config.yaml"])
	require.Equal(t, "compact", again.Labels["set"])
	if compress {
		for k, c := range fresh.ConfigMaps {
			obj, err := c.Get()
			require.NoError(t, err)
			plain, err := obj.Marshal()
			require.NoError(t, err)
			require.Less(t, c.Size(), len(plain), "%s held compressed", k)
		}
	}

	// FilteredUpdate: the predicate sees each new version (decoded for it, in compact mode),
	// and both views leave out the same.
	dNew := cm("d", "compact")
	dNew.Data["other"] = "changed"
	require.NoError(t, c.Update(ctx, dNew, nil))
	notD := func(u *kates.Unstructured) bool { return u.GetKind() != "ConfigMap" || u.GetName() != "d" }
	_, err = compactAcc.FilteredUpdate(ctx, &cs, nil, notD)
	require.NoError(t, err)
	_, err = structAcc.FilteredUpdate(ctx, &ss, nil, notD)
	require.NoError(t, err)
	var names []string
	for _, c := range cs.ConfigMaps {
		names = append(names, c.Name())
	}
	sort.Strings(names)
	require.Equal(t, []string{"a", "outside"}, names, "filtered ConfigMaps")
	compact, structs := views(t, cs, ss)
	require.Empty(t, cmp.Diff(structs, compact, cmpopts.EquateEmpty()), "filtered views differ (-struct +compact)")
}

type compactOwnedView struct {
	Owners map[string]kates.Compact[*kates.ConfigMap]
	Owned  map[string]kates.Compact[*kates.Secret]
}

// TestCompactShardedViewAgreesWithStructs: a replica watches owners and the Secrets they
// control (placed by their owner's UID) in shard 0 of 4, compact and as structs; both views
// hold the same objects as shards are added and moved away, and as the client writes.
func TestCompactShardedViewAgreesWithStructs(t *testing.T) {
	c, ns := newClient(t)
	createOwned(t, c, ns, 40)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: 4}
	r := replicaClient(t, cluster, ns, nil)
	queries := []kates.Query{
		{Name: "Owners", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=owners"},
		{Name: "Owned", Kind: "Secret", Namespace: ns, Placement: kates.PlaceByOwner},
	}
	sharding := func() *kates.Sharding { return &kates.Sharding{Space: space, Owned: []int{0}} }
	compactAcc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: sharding(), Snapshot: (*compactOwnedView)(nil)}, queries...)
	require.NoError(t, err)
	structAcc, err := r.WatchWith(ctx, kates.WatchOptions{Sharding: sharding()}, queries...)
	require.NoError(t, err)
	var cs compactOwnedView
	var ss ownedView
	nextSnapshot(t, ctx, compactAcc, &cs)
	nextSnapshot(t, ctx, structAcc, &ss)

	render := func() (compact, structs map[string]any) {
		compact, structs = map[string]any{}, map[string]any{}
		for k, c := range cs.Owners {
			compact["owner "+k] = decodeCompact(t, c).Object
		}
		for k, c := range cs.Owned {
			compact["owned "+k] = decodeCompact(t, c).Object
		}
		for k, o := range ss.Owners {
			structs["owner "+k] = o
		}
		for k, o := range ss.Owned {
			structs["owned "+k] = o
		}
		return compact, structs
	}
	agree := func(what string) {
		t.Helper()
		var diff string
		for ctx.Err() == nil {
			_, err := compactAcc.Update(ctx, &cs)
			require.NoError(t, err)
			_, err = structAcc.Update(ctx, &ss)
			require.NoError(t, err)
			compact, structs := render()
			if diff = cmp.Diff(structs, compact, cmpopts.EquateEmpty()); diff == "" && len(structs) > 0 {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("%s: the views never agreed; last difference (-struct +compact):\n%s", what, diff)
	}
	agree("shard 0")
	owners0 := len(ss.Owners)
	require.NoError(t, compactAcc.AddShard(ctx, 1))
	require.NoError(t, structAcc.AddShard(ctx, 1))
	agree("shards 0 and 1")
	require.Greater(t, len(ss.Owners), owners0, "shard 1 added owners")
	compactAcc.RemoveShard(0)
	structAcc.RemoveShard(0)
	var ds []*kates.Delta
	_, err = compactAcc.UpdateWithDeltas(ctx, &cs, &ds)
	require.NoError(t, err)
	for _, d := range ds {
		require.Equal(t, kates.ObjectMoved, d.DeltaType, "%s %s", d.Kind, d.Name)
		require.NotNil(t, d.Object, "delta Object of %s", d.Name)
	}
	agree("shard 1")

	// The client's own write of an owner in a held shard shows at once in both.
	var name string
	for _, o := range ss.Owners {
		name = o.Name
		break
	}
	var cm kates.ConfigMap
	require.NoError(t, r.Get(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}, &cm))
	cm.Data = map[string]string{"written": "yes"}
	var written kates.ConfigMap
	require.NoError(t, r.Update(ctx, &cm, &written))
	_, err = compactAcc.Update(ctx, &cs)
	require.NoError(t, err)
	require.Equal(t, written.ResourceVersion, cs.Owners[ns+"/"+name].ResourceVersion(), "the write shows at once")
	agree("written")
}
