package accumulator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
)

func TestDeltas(t *testing.T) {
	initial := []*unstructured.Unstructured{newCM("a", "x", "5"), newCM("a", "y", "6"), newCM("b", "z", "7")}
	tests := []struct {
		name   string
		events func(t *testing.T, st *accumulator.Store)
		want   []string
	}{
		{
			name: "add, update, delete",
			events: func(t *testing.T, st *accumulator.Store) {
				must(t, st.Add(newCM("a", "w", "10")))
				must(t, st.Update(newCM("a", "x", "11")))
				must(t, st.Delete(newCM("b", "z", "12")))
			},
			want: []string{"add ConfigMaps a/w@10", "update ConfigMaps a/x@11", "delete ConfigMaps b/z@7"},
		},
		{
			name: "add then delete before the caller looked is nothing",
			events: func(t *testing.T, st *accumulator.Store) {
				must(t, st.Add(newCM("a", "w", "10")))
				must(t, st.Update(newCM("a", "w", "11")))
				must(t, st.Delete(newCM("a", "w", "12")))
			},
		},
		{
			name: "delete then recreate is an update",
			events: func(t *testing.T, st *accumulator.Store) {
				must(t, st.Delete(newCM("a", "x", "10")))
				must(t, st.Add(withUID(newCM("a", "x", "11"), "uid-new")))
			},
			want: []string{"update ConfigMaps a/x@11"},
		},
		{
			name: "several updates are one",
			events: func(t *testing.T, st *accumulator.Store) {
				for _, rv := range []string{"10", "11", "12"} {
					must(t, st.Update(newCM("a", "y", rv)))
				}
			},
			want: []string{"update ConfigMaps a/y@12"},
		},
		{
			name: "a relist that drops objects gives deletes",
			events: func(t *testing.T, st *accumulator.Store) {
				must(t, st.Replace([]any{newCM("a", "x", "5"), newCM("a", "y", "13"), newCM("c", "v", "14")}, "20"))
			},
			want: []string{"update ConfigMaps a/y@13", "delete ConfigMaps b/z@7", "add ConfigMaps c/v@14"},
		},
		{
			name: "a delete whose final state is unknown",
			events: func(t *testing.T, st *accumulator.Store) {
				must(t, st.Delete(cache.DeletedFinalStateUnknown{Key: "a/y", Obj: newCM("a", "y", "6")}))
			},
			want: []string{"delete ConfigMaps a/y@6"},
		},
		{
			name: "deleting what is not there is nothing",
			events: func(t *testing.T, st *accumulator.Store) {
				must(t, st.Delete(newCM("a", "nope", "10")))
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
			replace(t, acc, "ConfigMaps", "9", initial...)
			var snap cmSnapshot
			update(t, acc, &snap)

			tt.events(t, acc.Store("ConfigMaps"))
			ok, ds := update(t, acc, &snap)
			if diff := cmp.Diff(tt.want, deltaStrings(ds)); diff != "" {
				t.Errorf("deltas mismatch (-want +got):\n%s", diff)
			}
			if ok != (len(tt.want) > 0) {
				t.Errorf("Update = %v, want %v", ok, len(tt.want) > 0)
			}
		})
	}
}

func TestDeltaFields(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, accumulator.QuerySpec{Name: "Deployments", GVK: deploymentGVK})
	objs := loadObjects(t, "objects.yaml")
	must(t, acc.Store("Deployments").Replace(ofKind(objs, deploymentGVK), "200"))
	var snap struct{ Deployments []*unstructured.Unstructured }
	_, ds := update(t, acc, &snap)
	want := []*accumulator.Delta{{
		Query: "Deployments", APIVersion: "apps/v1", Kind: "Deployment",
		Namespace: "a", Name: "web", ResourceVersion: "104", DeltaType: accumulator.ObjectAdd,
	}}
	if diff := cmp.Diff(want, ds, cmpopts.IgnoreFields(accumulator.Delta{}, "Object")); diff != "" {
		t.Errorf("deltas mismatch (-want +got):\n%s", diff)
	}
	// Object is the snapshot's own object, not a copy.
	if len(ds) == 1 && len(snap.Deployments) == 1 && ds[0].Object != snap.Deployments[0] {
		t.Errorf("Delta.Object = %p, want the snapshot's object %p", ds[0].Object, snap.Deployments[0])
	}
}

func TestDeltaTypeJSON(t *testing.T) {
	for _, dt := range []accumulator.DeltaType{accumulator.ObjectAdd, accumulator.ObjectUpdate, accumulator.ObjectDelete} {
		data, err := json.Marshal(dt)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != `"`+dt.String()+`"` {
			t.Errorf("Marshal(%v) = %s", dt, data)
		}
		var back accumulator.DeltaType
		if err := json.Unmarshal(data, &back); err != nil || back != dt {
			t.Errorf("Unmarshal(%s) = %v, %v", data, back, err)
		}
	}
	d := accumulator.Delta{Query: "Q", APIVersion: "v1", Kind: "ConfigMap", Name: "x", DeltaType: accumulator.ObjectDelete}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"query":"Q","apiVersion":"v1","kind":"ConfigMap","name":"x","deltaType":"delete"}`; string(data) != want {
		t.Errorf("Marshal(Delta) = %s, want %s", data, want)
	}
	if _, err := json.Marshal(accumulator.DeltaType(7)); err == nil {
		t.Error("Marshal(DeltaType(7)) succeeded")
	}
	var dt accumulator.DeltaType
	if err := json.Unmarshal([]byte(`"upsert"`), &dt); err == nil {
		t.Error(`Unmarshal("upsert") succeeded`)
	}
	if s := accumulator.DeltaType(7).String(); s != "DeltaType(7)" {
		t.Errorf("String() = %q", s)
	}
}

func TestFilteredUpdate(t *testing.T) {
	ctx := context.Background()
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	replace(t, acc, "ConfigMaps", "10",
		withLabels(newCM("a", "keep", "1"), "keep", "yes"),
		withLabels(newCM("a", "drop", "2"), "keep", "no"),
		withLabels(newCM("a", "flip", "3"), "keep", "yes"))

	var calls []string
	keep := func(u *unstructured.Unstructured) bool {
		calls = append(calls, u.GetName()+"@"+u.GetResourceVersion())
		return u.GetLabels()["keep"] == "yes"
	}
	var snap cmSnapshot
	var ds []*accumulator.Delta
	filtered := func() {
		t.Helper()
		calls = nil
		if _, err := acc.FilteredUpdate(ctx, &snap, &ds, keep); err != nil {
			t.Fatal(err)
		}
		sortNsName(calls)
	}

	filtered()
	if diff := cmp.Diff([]string{"a/flip@3", "a/keep@1"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("first view mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"add ConfigMaps a/flip@3", "add ConfigMaps a/keep@1"}, deltaStrings(ds)); diff != "" {
		t.Errorf("first deltas mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"drop@2", "flip@3", "keep@1"}, calls); diff != "" {
		t.Errorf("predicate calls mismatch (-want +got):\n%s", diff)
	}

	// Only changed objects are judged; a refused version of an object in the view takes it
	// out with a delete.
	must(t, st.Update(withLabels(newCM("a", "flip", "11"), "keep", "no")))
	filtered()
	if diff := cmp.Diff([]string{"flip@11"}, calls); diff != "" {
		t.Errorf("predicate calls mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a/keep@1"}, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("view mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"delete ConfigMaps a/flip@3"}, deltaStrings(ds)); diff != "" {
		t.Errorf("deltas mismatch (-want +got):\n%s", diff)
	}

	// The verdict stands until the object changes, even for an Update without a predicate.
	if ok, _ := update(t, acc, &snap); ok {
		t.Error("Update without changes returned true")
	}
	must(t, st.Update(withLabels(newCM("a", "drop", "12"), "keep", "yes")))
	must(t, st.Update(withLabels(newCM("a", "keep", "13"), "keep", "no")))
	filtered()
	if diff := cmp.Diff([]string{"drop@12", "keep@13"}, calls); diff != "" {
		t.Errorf("predicate calls mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"add ConfigMaps a/drop@12", "delete ConfigMaps a/keep@1"}, deltaStrings(ds)); diff != "" {
		t.Errorf("deltas mismatch (-want +got):\n%s", diff)
	}
	// Deleting a refused object is no delta; the predicate is not called for deletes.
	must(t, st.Delete(newCM("a", "keep", "14")))
	filtered()
	if len(calls) != 0 || len(ds) != 0 {
		t.Errorf("delete of a refused object: calls %v, deltas %v", calls, deltaStrings(ds))
	}
}

func TestFilteredUpdatePanic(t *testing.T) {
	ctx := context.Background()
	acc := mustNew(t, accumulator.Options{}, cmQuery("A", ""), cmQuery("B", ""))
	replace(t, acc, "A", "10", newCM("a", "x", "1"))
	replace(t, acc, "B", "10", newCM("b", "boom", "2"))
	type snapshot struct{ A, B []*corev1.ConfigMap }
	var snap snapshot
	ds := []*accumulator.Delta{{Name: "sentinel"}}
	ok, err := acc.FilteredUpdate(ctx, &snap, &ds, func(u *unstructured.Unstructured) bool {
		if u.GetName() == "boom" {
			panic("kaboom")
		}
		return true
	})
	if ok || err == nil || !strings.Contains(err.Error(), "predicate panicked on ConfigMap b/boom: kaboom") {
		t.Fatalf("FilteredUpdate = (%v, %v), want the panic as an error", ok, err)
	}
	if snap.A != nil || snap.B != nil || len(ds) != 1 || ds[0].Name != "sentinel" {
		t.Fatalf("a panicking predicate touched the snapshot %+v or deltas %v", snap, ds)
	}
	// Nothing was lost: the next Update sees every change.
	_, got := update(t, acc, &snap)
	if diff := cmp.Diff([]string{"add A a/x@1", "add B b/boom@2"}, deltaStrings(got)); diff != "" {
		t.Errorf("deltas after the panic mismatch (-want +got):\n%s", diff)
	}
}
