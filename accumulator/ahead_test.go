package accumulator_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
)

// Options.Snapshot: objects are converted into the snapshot's types as they reach the store,
// and Update hands those out instead of converting.

func manyCMs(n int, rvBase int) []*unstructured.Unstructured {
	out := make([]*unstructured.Unstructured, n)
	for i := range n {
		out[i] = withLabels(newCM("a", fmt.Sprintf("cm-%04d", i), fmt.Sprint(rvBase+i), "k", fmt.Sprint(i)), "app", "x")
	}
	return out
}

func TestConvertAheadRejectsABadSnapshotType(t *testing.T) {
	tests := []struct {
		name     string
		snapshot any
		want     string
	}{
		{name: "not a pointer", snapshot: cmSnapshot{}, want: "want a pointer to a snapshot struct"},
		{name: "pointer to a non-struct", snapshot: new(int), want: "want a pointer to a snapshot struct"},
		{name: "a field of the wrong kind", snapshot: (*struct{ ConfigMaps []*corev1.Pod })(nil), want: "cannot hold ConfigMap"},
		{name: "a missing field", snapshot: (*struct{ Other []*corev1.ConfigMap })(nil), want: "has no field ConfigMaps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := accumulator.New([]accumulator.QuerySpec{cmQuery("ConfigMaps", "")}, accumulator.Options{Snapshot: tt.snapshot})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// mallocs returns how many heap allocations f made.
func mallocs(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// TestConvertAheadFillsTheSameSnapshot: with or without the hint, the snapshot is the same, and
// the hint takes the conversion out of Update: counted in allocations, since a typed
// conversion allocates for every map and string field of every object.
func TestConvertAheadFillsTheSameSnapshot(t *testing.T) {
	const n = 300
	type snapshot struct {
		ConfigMaps map[string]accumulator.Entry[*corev1.ConfigMap]
	}
	run := func(opts accumulator.Options) (snapshot, uint64) {
		acc := mustNew(t, opts, cmQuery("ConfigMaps", ""))
		var snap snapshot
		var allocs uint64
		// A bootstrap, then a relist in which everything changed.
		for round, rv := range []int{10, 1000} {
			replace(t, acc, "ConfigMaps", fmt.Sprint(100000+round), manyCMs(n, rv)...)
			allocs = mallocs(func() {
				if _, err := acc.Update(context.Background(), &snap); err != nil {
					t.Fatal(err)
				}
			})
		}
		return snap, allocs
	}
	plain, without := run(accumulator.Options{})
	hinted, with := run(accumulator.Options{Snapshot: (*snapshot)(nil)})
	if diff := cmp.Diff(plain, hinted); diff != "" {
		t.Fatalf("snapshot with the hint differs (-without +with):\n%s", diff)
	}
	if len(hinted.ConfigMaps) != n || hinted.ConfigMaps["a/cm-0007"].Object.Data["k"] != "7" {
		t.Fatalf("snapshot with the hint: %d ConfigMaps, want %d with their data", len(hinted.ConfigMaps), n)
	}
	t.Logf("allocations of an Update of %d changed objects: %d without the hint, %d with", n, without, with)
	if with*3 > without {
		t.Errorf("Update with the hint allocated %d times, without %d: it still converts", with, without)
	}
}

// TestConvertAheadHandsOutEachObjectOnce: the object converted ahead goes to the first Update
// that hands it out, and the store keeps no other copy; another hand-out of the same version
// (into a field of another element type, which makes Update convert every object again) is a
// fresh copy of the view's object, so the two hand-outs never share an object. (An edit made
// before the second hand-out shows in it, as it does in every later snapshot of an unchanged
// object.)
func TestConvertAheadHandsOutEachObjectOnce(t *testing.T) {
	acc := mustNew(t, accumulator.Options{Snapshot: (*cmSnapshot)(nil)}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "100", manyCMs(3, 10)...)
	var first cmSnapshot
	update(t, acc, &first)
	for _, cm := range first.ConfigMaps {
		cm.Data["k"] = "hacked"
	}
	var second struct {
		ConfigMaps map[string]accumulator.Entry[*corev1.ConfigMap]
	}
	update(t, acc, &second)
	if len(second.ConfigMaps) != 3 {
		t.Fatalf("second snapshot has %d ConfigMaps, want 3", len(second.ConfigMaps))
	}
	for _, cm := range first.ConfigMaps {
		other := second.ConfigMaps["a/"+cm.Name].Object
		if other == nil || other == cm || other.Data["k"] != "hacked" {
			t.Fatalf("%s: second hand-out %p data %v; want a fresh copy of the first, %p", cm.Name, other, other.Data, cm)
		}
		other.Data["k"] = "second"
		if cm.Data["k"] != "hacked" {
			t.Errorf("%s: an edit of the second hand-out reached the first: %v", cm.Name, cm.Data)
		}
	}
	// A new version is the store's again, unedited.
	must(t, acc.Store("ConfigMaps").Update(newCM("a", "cm-0001", "500", "k", "new")))
	update(t, acc, &second)
	if got := second.ConfigMaps["a/cm-0001"].Object.Data; got["k"] != "new" {
		t.Errorf("new version data %v, want k=new", got)
	}
}

// TestConvertAheadConversionErrorIsReported: an object that cannot be converted as it arrives
// is reported by Update, as without the hint.
func TestConvertAheadConversionErrorIsReported(t *testing.T) {
	type snapshot struct{ Widgets []*Widget }
	acc := mustNew(t, accumulator.Options{Snapshot: (*snapshot)(nil)}, accumulator.QuerySpec{Name: "Widgets", GVK: widgetGVK})
	bad := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"namespace": "a", "name": "w1", "resourceVersion": "5"},
		"spec":     map[string]any{"size": "three"},
	}}
	must(t, acc.Store("Widgets").Replace([]any{bad}, "10"))
	var snap snapshot
	if ok, err := acc.Update(context.Background(), &snap); ok || err == nil || !strings.Contains(err.Error(), "convert Widget a/w1") {
		t.Fatalf("Update = (%v, %v), want the conversion error", ok, err)
	}
}

// TestTransformerBuildsItemsAsTheyArrive: a Reflector in WatchList mode passes each object of
// the initial stream through Store.Transformer into a temporary store, then hands them all to
// Replace. Transform runs once per object, Replace takes the transformed objects, and the
// snapshot is what a plain Replace gives.
func TestTransformerBuildsItemsAsTheyArrive(t *testing.T) {
	calls := 0
	opts := accumulator.Options{
		Snapshot: (*cmSnapshot)(nil),
		Transform: func(u *unstructured.Unstructured) {
			calls++
			u.SetAnnotations(map[string]string{"seen": fmt.Sprint(calls)})
		},
	}
	acc := mustNew(t, opts, cmQuery("ConfigMaps", ""))
	store := acc.Store("ConfigMaps")
	var _ cache.TransformingStore = store
	transform := store.Transformer()
	var list []any
	for _, u := range manyCMs(5, 10) {
		obj, err := transform(u)
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, obj)
	}
	must(t, store.Replace(list, "100"))
	var snap cmSnapshot
	_, deltas := update(t, acc, &snap)
	if calls != 5 {
		t.Errorf("Transform ran %d times for 5 objects, want once each", calls)
	}
	if len(snap.ConfigMaps) != 5 || len(deltas) != 5 {
		t.Fatalf("%d ConfigMaps and %d deltas after the bootstrap, want 5 and 5", len(snap.ConfigMaps), len(deltas))
	}
	for i, cm := range snap.ConfigMaps {
		if cm.Name != fmt.Sprintf("cm-%04d", i) || cm.Annotations["seen"] != fmt.Sprint(i+1) || cm.Data["k"] != fmt.Sprint(i) {
			t.Errorf("element %d: %s annotations %v data %v", i, cm.Name, cm.Annotations, cm.Data)
		}
	}
	// Objects of another type pass through untouched, and Replace refuses them by name.
	odd, err := transform("not an object")
	if err != nil || odd != "not an object" {
		t.Errorf("Transformer of a string = (%v, %v), want it back unchanged", odd, err)
	}
	if err := store.Replace([]any{odd}, "101"); err == nil || !strings.Contains(err.Error(), "got string") {
		t.Errorf("Replace of a string: %v, want an error naming its type", err)
	}
}
