package accumulator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/kstatus"
)

// Widget is a custom resource the scheme does not know.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec `json:"spec"`
}

type WidgetSpec struct {
	Size   int    `json:"size"`
	Colour string `json:"colour"`
}

type (
	ConfigMapList []*corev1.ConfigMap
	Key           string
)

type Embedded struct {
	ConfigMaps []*corev1.ConfigMap
}

// fieldOf returns the field named Field of the struct target points to.
func fieldOf(target any) any {
	return reflect.ValueOf(target).Elem().FieldByName("Field").Interface()
}

func TestSnapshotFieldTypes(t *testing.T) {
	objs := loadObjects(t, "objects.yaml")
	cms := []string{"a/db@103", "a/web@102", "a-x/web@101"}
	tests := []struct {
		name   string
		gvk    schema.GroupVersionKind
		target func() any
		want   []string
	}{
		{"[]*T", configMapGVK, func() any { return &struct{ Field []*corev1.ConfigMap }{} }, cms},
		{"[]*Unstructured", configMapGVK, func() any { return &struct{ Field []*unstructured.Unstructured }{} }, cms},
		{"map[string]*T", configMapGVK, func() any { return &struct{ Field map[string]*corev1.ConfigMap }{} }, cms},
		{"map[string]*Unstructured", configMapGVK, func() any {
			return &struct {
				Field map[string]*unstructured.Unstructured
			}{}
		}, cms},
		{"[]Entry[*T]", configMapGVK, func() any {
			return &struct {
				Field []accumulator.Entry[*corev1.ConfigMap]
			}{}
		}, cms},
		{"[]Entry[*Unstructured]", configMapGVK, func() any {
			return &struct {
				Field []accumulator.Entry[*unstructured.Unstructured]
			}{}
		}, cms},
		{"map[string]Entry[*T]", configMapGVK, func() any {
			return &struct {
				Field map[string]accumulator.Entry[*corev1.ConfigMap]
			}{}
		}, cms},
		{"map[string]Entry[*Unstructured]", configMapGVK, func() any {
			return &struct {
				Field map[string]accumulator.Entry[*unstructured.Unstructured]
			}{}
		}, cms},
		{"named slice type", configMapGVK, func() any { return &struct{ Field ConfigMapList }{} }, cms},
		{"named key type", configMapGVK, func() any { return &struct{ Field map[Key]*corev1.ConfigMap }{} }, cms},
		{"apps/v1 Deployment", deploymentGVK, func() any { return &struct{ Field []*appsv1.Deployment }{} }, []string{"a/web@104"}},
		{"cluster-scoped keys", namespaceGVK, func() any { return &struct{ Field map[string]*corev1.Namespace }{} }, []string{"a@105", "a-x@106"}},
		{"custom kind into its struct", widgetGVK, func() any { return &struct{ Field []*Widget }{} }, []string{"a/w1@107"}},
		{"custom kind into Entry", widgetGVK, func() any {
			return &struct {
				Field map[string]accumulator.Entry[*Widget]
			}{}
		}, []string{"a/w1@107"}},
		{"custom kind unstructured", widgetGVK, func() any { return &struct{ Field []*unstructured.Unstructured }{} }, []string{"a/w1@107"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acc := mustNew(t, accumulator.Options{}, accumulator.QuerySpec{Name: "Field", GVK: tt.gvk})
			must(t, acc.Store("Field").Replace(ofKind(objs, tt.gvk), "200"))
			target := tt.target()
			if ok, _ := update(t, acc, target); !ok {
				t.Fatal("Update returned false")
			}
			if diff := cmp.Diff(tt.want, describe(t, fieldOf(target))); diff != "" {
				t.Errorf("snapshot mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSnapshotPromotedField(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "10", newCM("a", "x", "5"))
	var snap struct{ Embedded }
	update(t, acc, &snap)
	if diff := cmp.Diff([]string{"a/x@5"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("snapshot mismatch (-want +got):\n%s", diff)
	}
}

// TestSnapshotContent checks what the elements hold: the typed conversion of the stored
// object, and the status computed from it.
func TestSnapshotContent(t *testing.T) {
	objs := loadObjects(t, "objects.yaml")
	acc := mustNew(t, accumulator.Options{},
		accumulator.QuerySpec{Name: "Deployments", GVK: deploymentGVK},
		accumulator.QuerySpec{Name: "Widgets", GVK: widgetGVK})
	must(t, acc.Store("Deployments").Replace(ofKind(objs, deploymentGVK), "200"))
	must(t, acc.Store("Widgets").Replace(ofKind(objs, widgetGVK), "200"))
	var snap struct {
		Deployments []accumulator.Entry[*appsv1.Deployment]
		Widgets     []*Widget
	}
	update(t, acc, &snap)

	src := ofKind(objs, deploymentGVK)[0].(*unstructured.Unstructured)
	want := &appsv1.Deployment{}
	must(t, runtime.DefaultUnstructuredConverter.FromUnstructured(src.Object, want))
	wantStatus, _ := kstatus.Compute(src)
	if len(snap.Deployments) != 1 {
		t.Fatalf("got %d deployments", len(snap.Deployments))
	}
	if diff := cmp.Diff(want, snap.Deployments[0].Object); diff != "" {
		t.Errorf("Deployment mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(*wantStatus, snap.Deployments[0].Status); diff != "" {
		t.Errorf("status mismatch (-want +got):\n%s", diff)
	}

	wantWidget := []*Widget{{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "a", UID: "0b7c3f9e-0001-4000-8000-000000000007", ResourceVersion: "107"},
		Spec:       WidgetSpec{Size: 3, Colour: "red"},
	}}
	if diff := cmp.Diff(wantWidget, snap.Widgets); diff != "" {
		t.Errorf("Widget mismatch (-want +got):\n%s", diff)
	}
}

// TestConversionError checks that an object that cannot be converted fails the Update with
// its identity, leaves the target untouched, and stays pending until it changes.
func TestConversionError(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, accumulator.QuerySpec{Name: "Widgets", GVK: widgetGVK})
	bad := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"namespace": "a", "name": "w1", "resourceVersion": "5"},
		"spec":     map[string]any{"size": "three"},
	}}
	must(t, acc.Store("Widgets").Replace([]any{bad}, "10"))
	var snap struct{ Widgets []*Widget }
	for range 2 {
		ok, err := acc.Update(context.Background(), &snap)
		if ok || err == nil || !strings.Contains(err.Error(), `query "Widgets": convert Widget a/w1 to accumulator_test.Widget`) {
			t.Fatalf("Update = (%v, %v), want a conversion error naming the object", ok, err)
		}
		if snap.Widgets != nil {
			t.Fatal("a failed Update touched the target")
		}
	}
	fixed := bad.DeepCopy()
	fixed.SetResourceVersion("6")
	must(t, unstructured.SetNestedField(fixed.Object, int64(3), "spec", "size"))
	must(t, acc.Store("Widgets").Update(fixed))
	if ok, _ := update(t, acc, &snap); !ok || len(snap.Widgets) != 1 || snap.Widgets[0].Spec.Size != 3 {
		t.Fatalf("Update after the fix: ok=%v widgets=%+v", ok, snap.Widgets)
	}
}

type Inner struct{ ConfigMaps []*corev1.ConfigMap }

func TestWrongTargets(t *testing.T) {
	tests := []struct {
		name    string
		queries []accumulator.QuerySpec
		target  any
		wantErr []string
	}{
		{name: "nil", target: nil, wantErr: []string{"target is nil"}},
		{name: "not a pointer", target: cmSnapshot{}, wantErr: []string{"target is a accumulator_test.cmSnapshot; want a pointer to a snapshot struct"}},
		{name: "pointer to a non-struct", target: &[]*corev1.ConfigMap{}, wantErr: []string{"want a pointer to a snapshot struct"}},
		{name: "nil pointer", target: (*cmSnapshot)(nil), wantErr: []string{"target is a nil *accumulator_test.cmSnapshot"}},
		{name: "missing field", target: &struct{ Other []*corev1.ConfigMap }{}, wantErr: []string{`query "ConfigMaps"`, "has no field ConfigMaps"}},
		{name: "promoted through an embedded pointer", target: &struct{ *Inner }{}, wantErr: []string{"promoted through an embedded pointer"}},
		{
			name:    "field of another kind",
			queries: []accumulator.QuerySpec{{Name: "Deployments", GVK: deploymentGVK}},
			target:  &struct{ Deployments []*corev1.Service }{Deployments: []*corev1.Service{{}}},
			wantErr: []string{`query "Deployments" (apps/v1, Kind=Deployment)`, "Deployments has type []*v1.Service, which cannot hold Deployment", "T v1.Deployment or unstructured.Unstructured"},
		},
		{name: "elements not pointers", target: &struct{ ConfigMaps []corev1.ConfigMap }{}, wantErr: []string{"has type []v1.ConfigMap, which does not hold pointers to structs"}},
		{name: "entry of a non-pointer", target: &struct {
			ConfigMaps []accumulator.Entry[corev1.ConfigMap]
		}{}, wantErr: []string{"does not hold pointers to structs"}},
		{name: "map keyed by int", target: &struct{ ConfigMaps map[int]*corev1.ConfigMap }{}, wantErr: []string{"is not keyed by string"}},
		{name: "not a container", target: &struct{ ConfigMaps *corev1.ConfigMap }{}, wantErr: []string{"is neither a slice nor a map"}},
		{
			name:    "custom kind into a registered type",
			queries: []accumulator.QuerySpec{{Name: "Widgets", GVK: widgetGVK}},
			target:  &struct{ Widgets []*corev1.ConfigMap }{},
			wantErr: []string{"is registered for ConfigMap"},
		},
		{
			name:    "one wrong field of two touches neither",
			queries: []accumulator.QuerySpec{cmQuery("ConfigMaps", ""), {Name: "Deployments", GVK: deploymentGVK}},
			target: &struct {
				ConfigMaps  []*corev1.ConfigMap
				Deployments []*appsv1.ReplicaSet
			}{ConfigMaps: []*corev1.ConfigMap{{}}},
			wantErr: []string{"which cannot hold Deployment"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			queries := tt.queries
			if queries == nil {
				queries = []accumulator.QuerySpec{cmQuery("ConfigMaps", "")}
			}
			acc := mustNew(t, accumulator.Options{}, queries...)
			for _, q := range queries {
				replace(t, acc, q.Name, "10", newCM("a", "x", "5"))
			}
			var before any
			if v := reflect.ValueOf(tt.target); v.Kind() == reflect.Pointer && !v.IsNil() {
				before = reflect.ValueOf(tt.target).Elem().Interface()
			}
			for range 2 { // the second time from the cached plan
				ok, err := acc.Update(context.Background(), tt.target)
				if ok || err == nil {
					t.Fatalf("Update = (%v, %v), want an error", ok, err)
				}
				for _, want := range tt.wantErr {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not contain %q", err, want)
					}
				}
			}
			if before != nil {
				after := reflect.ValueOf(tt.target).Elem().Interface()
				if diff := cmp.Diff(before, after); diff != "" {
					t.Errorf("target touched (-before +after):\n%s", diff)
				}
			}
		})
	}
}

// TestCallerMutation checks that a caller editing its snapshot never reaches the store, the
// fresh copies of objects that change later, or another Accumulator.
func TestCallerMutation(t *testing.T) {
	x, y := newCM("a", "x", "5", "k", "x0"), newCM("a", "y", "6", "k", "y0")
	acc1 := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	acc2 := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	// acc1's store gets the very objects; acc2's gets copies, since a store owns what it is
	// given and may hand it out as it is.
	replace(t, acc1, "ConfigMaps", "10", x, y)
	replace(t, acc2, "ConfigMaps", "10", x.DeepCopy(), y.DeepCopy())

	var typed cmSnapshot
	update(t, acc1, &typed)
	first := typed.ConfigMaps
	for _, cm := range typed.ConfigMaps {
		cm.Data["k"] = "hacked"
		cm.Labels = map[string]string{"hacked": "yes"}
	}
	typed.ConfigMaps[0] = nil // and the slice itself

	// The stored objects are intact.
	for _, u := range []*unstructured.Unstructured{x, y} {
		if v, _, _ := unstructured.NestedString(u.Object, "data", "k"); v != u.GetName()+"0" || u.GetLabels() != nil {
			t.Errorf("%s: the store saw the caller's edit: %v", u.GetName(), u.Object)
		}
	}
	// Unstructured snapshots are the store's objects themselves, given up by the store: an
	// edit reaches no other Accumulator.
	var raw struct {
		ConfigMaps map[string]*unstructured.Unstructured
	}
	update(t, acc2, &raw)
	for _, u := range raw.ConfigMaps {
		must(t, unstructured.SetNestedField(u.Object, "hacked too", "data", "k"))
	}
	if v, _, _ := unstructured.NestedString(x.Object, "data", "k"); v != "x0" {
		t.Errorf("an edit of an unstructured snapshot reached the store: %v", x.Object)
	}
	acc3 := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	replace(t, acc3, "ConfigMaps", "10", x.DeepCopy(), y.DeepCopy())
	var other cmSnapshot
	update(t, acc3, &other)
	for _, cm := range other.ConfigMaps {
		if cm.Data["k"] != cm.Name+"0" {
			t.Errorf("another Accumulator saw the edit: %s data %v", cm.Name, cm.Data)
		}
	}

	// x changes: its new copy is fresh. y does not: it is the caller's own (edited) copy,
	// as Update documents.
	must(t, acc1.Store("ConfigMaps").Update(newCM("a", "x", "7", "k", "x1")))
	var deltas []*accumulator.Delta
	if _, err := acc1.UpdateWithDeltas(context.Background(), &typed, &deltas); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"update ConfigMaps a/x@7"}, deltaStrings(deltas)); diff != "" {
		t.Errorf("deltas mismatch (-want +got):\n%s", diff)
	}
	if got := typed.ConfigMaps[0]; got == nil || got.Data["k"] != "x1" || got.Labels != nil {
		t.Errorf("changed object x = %+v, want a fresh copy of version 7", got)
	}
	if typed.ConfigMaps[1] != first[1] {
		t.Error("unchanged object y was not carried over")
	}
	if first[0] != nil {
		t.Error("Update wrote into the slice the caller held")
	}
}

func TestUnchangedObjectsAreShared(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "10", newCM("a", "x", "5"), newCM("a", "y", "6"), newCM("b", "z", "7"))
	var snap struct {
		ConfigMaps []accumulator.Entry[*corev1.ConfigMap]
	}
	update(t, acc, &snap)
	old := snap.ConfigMaps

	must(t, acc.Store("ConfigMaps").Update(newCM("a", "y", "8")))
	update(t, acc, &snap)
	if &old[0] == &snap.ConfigMaps[0] {
		t.Fatal("a changed view reused the old slice")
	}
	if old[1].Object.ResourceVersion != "6" {
		t.Error("the old slice was modified")
	}
	if snap.ConfigMaps[0].Object != old[0].Object || snap.ConfigMaps[2].Object != old[2].Object {
		t.Error("unchanged objects were not carried over")
	}
	if snap.ConfigMaps[1].Object == old[1].Object || snap.ConfigMaps[1].Object.ResourceVersion != "8" {
		t.Error("the changed object was not handed out fresh")
	}
}

func TestMapInPlace(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	replace(t, acc, "ConfigMaps", "6", newCM("a", "x", "5"), newCM("a", "y", "6"))
	var snap struct{ ConfigMaps map[string]*corev1.ConfigMap }
	update(t, acc, &snap)
	handed := snap.ConfigMaps

	must(t, st.Update(newCM("a", "x", "7")))
	must(t, st.Delete(newCM("a", "y", "8")))
	must(t, st.Add(newCM("a", "z", "9")))
	update(t, acc, &snap)
	if reflect.ValueOf(snap.ConfigMaps).Pointer() != reflect.ValueOf(handed).Pointer() {
		t.Fatal("the map handed out last was replaced, not updated in place")
	}
	if diff := cmp.Diff([]string{"a/x@7", "a/z@9"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("in-place map mismatch (-want +got):\n%s", diff)
	}

	// A map the Accumulator did not hand out is not touched: the field gets a new one.
	mine := map[string]*corev1.ConfigMap{"mine": {}}
	snap.ConfigMaps = mine
	must(t, st.Update(newCM("a", "x", "10")))
	update(t, acc, &snap)
	if len(mine) != 1 || mine["mine"] == nil {
		t.Error("Update wrote into the caller's own map")
	}
	if diff := cmp.Diff([]string{"a/x@10", "a/z@9"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("rebuilt map mismatch (-want +got):\n%s", diff)
	}

	// Setting the field to nil asks for a clean map, even with no change.
	snap.ConfigMaps["a/x"].Data = map[string]string{"edited": "yes"}
	delete(snap.ConfigMaps, "a/z")
	snap.ConfigMaps = nil
	if ok, ds := update(t, acc, &snap); !ok || ds != nil {
		t.Errorf("Update into a nil map = %v, %v; want true and no deltas", ok, deltaStrings(ds))
	}
	if diff := cmp.Diff([]string{"a/x@10", "a/z@9"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("clean map mismatch (-want +got):\n%s", diff)
	}
}

// TestFreshTarget checks that a new snapshot struct gets the whole view even when nothing
// changed, sharing the objects of the previous one.
func TestFreshTarget(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("A", ""), cmQuery("B", ""))
	replace(t, acc, "A", "10", newCM("a", "x", "5"))
	replace(t, acc, "B", "10", newCM("b", "y", "6"))
	type snapshot struct {
		A []*corev1.ConfigMap
		B map[string]*corev1.ConfigMap
	}
	var s1 snapshot
	update(t, acc, &s1)
	if ok, _ := update(t, acc, &s1); ok {
		t.Error("Update of an up-to-date target returned true")
	}
	var s2 snapshot
	ok, ds := update(t, acc, &s2)
	if !ok || ds != nil {
		t.Errorf("Update into a fresh target = %v, %v; want true and no deltas", ok, deltaStrings(ds))
	}
	if len(s2.A) != 1 || s2.A[0] != s1.A[0] || s2.B["b/y"] != s1.B["b/y"] {
		t.Errorf("fresh target = %+v, want the objects of the previous view", s2)
	}
	if reflect.ValueOf(s2.B).Pointer() == reflect.ValueOf(s1.B).Pointer() {
		t.Error("a fresh target shares the previous target's map")
	}
}

// TestSwitchFieldTypes fills targets of different types from one Accumulator in turn.
func TestSwitchFieldTypes(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	replace(t, acc, "ConfigMaps", "6", newCM("a", "x", "5"), newCM("a", "y", "6"))
	var typed cmSnapshot
	var raw struct{ ConfigMaps []*unstructured.Unstructured }
	var entries struct {
		ConfigMaps map[string]accumulator.Entry[*corev1.ConfigMap]
	}
	update(t, acc, &typed)
	must(t, st.Update(newCM("a", "x", "7")))
	if _, ds := update(t, acc, &raw); len(ds) != 1 {
		t.Errorf("deltas = %v, want the one update", deltaStrings(ds))
	}
	must(t, st.Add(newCM("a", "z", "8")))
	update(t, acc, &entries)
	if ok, ds := update(t, acc, &typed); !ok || ds != nil {
		t.Errorf("back to the first type: %v, %v; want true, no deltas", ok, deltaStrings(ds))
	}
	want := []string{"a/x@7", "a/y@6", "a/z@8"}
	for name, field := range map[string]any{"typed": typed.ConfigMaps, "raw": raw.ConfigMaps, "entries": entries.ConfigMaps} {
		got := describe(t, field)
		if name == "raw" {
			want := want[:2] // filled before z was added
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
			}
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
		}
	}
}

// TestSortedOrderUnderChurn checks the slice order that Update keeps incrementally (one
// insert or delete per change for small batches, a merge for large ones) against a model, and
// the deltas against the model's differences.
func TestSortedOrderUnderChurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	replace(t, acc, "ConfigMaps", "1")
	model := map[string]string{} // "ns/name" -> rv
	var snap cmSnapshot
	update(t, acc, &snap)
	rv := 1
	for round := range 200 {
		before := maps2slice(model)
		batch := 1 + rng.IntN(3)
		if round%5 == 0 {
			batch = 20 + rng.IntN(60)
		}
		for range batch {
			rv++
			ns := []string{"a", "a-x", "b", "ab"}[rng.IntN(4)]
			name := fmt.Sprintf("cm-%d", rng.IntN(40))
			key := ns + "/" + name
			if _, ok := model[key]; ok && rng.IntN(3) == 0 {
				must(t, st.Delete(newCM(ns, name, fmt.Sprint(rv))))
				delete(model, key)
				continue
			}
			must(t, st.Update(newCM(ns, name, fmt.Sprint(rv))))
			model[key] = fmt.Sprint(rv)
		}
		if round%17 == 0 {
			// A relist that drops a third of the objects.
			var list []any
			for key, v := range model {
				if rng.IntN(3) == 0 {
					delete(model, key)
					continue
				}
				ns, name, _ := strings.Cut(key, "/")
				list = append(list, newCM(ns, name, v))
			}
			must(t, st.Replace(list, fmt.Sprint(rv)))
		}
		_, ds := update(t, acc, &snap)
		want := maps2slice(model)
		if diff := cmp.Diff(want, describe(t, snap.ConfigMaps)); diff != "" {
			t.Fatalf("round %d: view mismatch (-want +got):\n%s", round, diff)
		}
		if diff := cmp.Diff(modelDeltas(before, want), deltaStrings(ds)); diff != "" {
			t.Fatalf("round %d: deltas mismatch (-want +got):\n%s", round, diff)
		}
	}
}

func maps2slice(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"@"+v)
	}
	sortNsName(out)
	return out
}

// modelDeltas computes the deltas from view a to view b ("ns/name@rv", sorted).
func modelDeltas(a, b []string) []string {
	am, bm := map[string]string{}, map[string]string{}
	for _, s := range a {
		k, v, _ := strings.Cut(s, "@")
		am[k] = v
	}
	for _, s := range b {
		k, v, _ := strings.Cut(s, "@")
		bm[k] = v
	}
	keys := map[string]bool{}
	for k := range am {
		keys[k] = true
	}
	for k := range bm {
		keys[k] = true
	}
	var sorted []string
	for k := range keys {
		sorted = append(sorted, k)
	}
	sortNsName(sorted)
	var out []string
	for _, k := range sorted {
		av, inA := am[k]
		bv, inB := bm[k]
		switch {
		case !inA:
			out = append(out, "add ConfigMaps "+k+"@"+bv)
		case !inB:
			out = append(out, "delete ConfigMaps "+k+"@"+av)
		case av != bv:
			out = append(out, "update ConfigMaps "+k+"@"+bv)
		}
	}
	return out
}

// TestBigChangeSetConverts covers the parallel conversion of a bootstrap-sized change set: every
// object converted into its own place, and a bad object reported, deterministically, by name.
func TestBigChangeSetConverts(t *testing.T) {
	const n = 3000
	acc := mustNew(t, accumulator.Options{}, accumulator.QuerySpec{Name: "Widgets", GVK: widgetGVK})
	widget := func(i int, size any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"namespace": "a", "name": fmt.Sprintf("w%04d", i), "resourceVersion": fmt.Sprint(10 + i)},
			"spec":     map[string]any{"size": size},
		}}
	}
	objs := make([]any, n)
	for i := range n {
		objs[i] = widget(i, int64(i))
	}
	// Two bad objects, far apart: the first in key order is the one reported, every time.
	objs[2000] = widget(2000, "big")
	objs[2500] = widget(2500, "bigger")
	must(t, acc.Store("Widgets").Replace(objs, "99999"))
	var snap struct{ Widgets []*Widget }
	for range 3 {
		if _, err := acc.Update(context.Background(), &snap); err == nil || !strings.Contains(err.Error(), "a/w2000") {
			t.Fatalf("Update error %v, want the conversion error of a/w2000", err)
		}
	}
	for _, i := range []int{2000, 2500} {
		fixed := widget(i, int64(i))
		fixed.SetResourceVersion(fmt.Sprint(50000 + i)) // a new version: the same one is no change
		must(t, acc.Store("Widgets").Update(fixed))
	}
	if ok, _ := update(t, acc, &snap); !ok || len(snap.Widgets) != n {
		t.Fatalf("Update after the fix: ok=%v, %d widgets, want %d", ok, len(snap.Widgets), n)
	}
	for i, w := range snap.Widgets {
		if w.Name != fmt.Sprintf("w%04d", i) || w.Spec.Size != i {
			t.Fatalf("element %d is %s with size %d", i, w.Name, w.Spec.Size)
		}
	}
}

func TestReuseSlices(t *testing.T) {
	acc := mustNew(t, accumulator.Options{ReuseSlices: true}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	replace(t, acc, "ConfigMaps", "6", newCM("a", "x", "5"), newCM("a", "y", "6"))
	var snap struct{ ConfigMaps []*corev1.ConfigMap }
	update(t, acc, &snap)
	handed := snap.ConfigMaps

	// A change in place is written into the slice handed out: no new slice.
	must(t, st.Update(newCM("a", "x", "7")))
	if ok, _ := update(t, acc, &snap); !ok {
		t.Fatal("Update reported no change")
	}
	if reflect.ValueOf(snap.ConfigMaps).Pointer() != reflect.ValueOf(handed).Pointer() {
		t.Fatal("ReuseSlices: a change in place made a new slice")
	}
	if diff := cmp.Diff([]string{"a/x@7", "a/y@6"}, describe(t, handed)); diff != "" {
		t.Errorf("the reused slice (-want +got):\n%s", diff)
	}
	// Adds and deletes keep the order.
	must(t, st.Delete(newCM("a", "x", "8")))
	must(t, st.Add(newCM("a", "w", "9")))
	must(t, st.Add(newCM("b", "a", "10")))
	update(t, acc, &snap)
	if diff := cmp.Diff([]string{"a/w@9", "a/y@6", "b/a@10"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("after adds and deletes (-want +got):\n%s", diff)
	}
	// A slice the caller put there itself is never written to.
	mine := []*corev1.ConfigMap{{}}
	snap.ConfigMaps = mine
	must(t, st.Update(newCM("a", "y", "11")))
	update(t, acc, &snap)
	if mine[0].Name != "" {
		t.Error("Update wrote into the caller's own slice")
	}
	if diff := cmp.Diff([]string{"a/w@9", "a/y@11", "b/a@10"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("after replacing the field (-want +got):\n%s", diff)
	}
}
