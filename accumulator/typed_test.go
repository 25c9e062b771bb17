package accumulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/kates-dev/kates/accumulator"
)

// storeForm is one way objects can reach a store.
type storeForm struct {
	name string
	opts func(*accumulator.Options)
	// feed turns a scripted object into what the reflector hands the store.
	feed func(t testing.TB, u *unstructured.Unstructured) any
}

// typedSnapshot is the snapshot TestTypedAndUnstructuredStoresAgree fills.
type typedSnapshot struct {
	ConfigMaps  []accumulator.Entry[*corev1.ConfigMap]
	Deployments map[string]accumulator.Entry[*appsv1.Deployment]
	Pods        []*corev1.Pod
}

// storeForms are the three forms a store holds objects in: unstructured as they arrive (a
// custom resource; or kates with a Transform), typed as they arrive (kates' protobuf decoding
// of built-in kinds), and unstructured arrivals held typed because Options.Snapshot names the
// type.
var storeForms = []storeForm{
	{"unstructured", func(*accumulator.Options) {}, func(_ testing.TB, u *unstructured.Unstructured) any { return u.DeepCopy() }},
	{"typed", func(*accumulator.Options) {}, toTyped},
	{"held-typed", func(o *accumulator.Options) { o.Snapshot = (*typedSnapshot)(nil) },
		func(_ testing.TB, u *unstructured.Unstructured) any { return u.DeepCopy() }},
}

// toTyped converts u into the struct client-go's scheme registers for its kind, as a protobuf
// decode gives it: without apiVersion and kind.
func toTyped(t testing.TB, u *unstructured.Unstructured) any {
	t.Helper()
	typ := clientgoscheme.Scheme.AllKnownTypes()[u.GroupVersionKind()]
	if typ == nil {
		t.Fatalf("no typed form for %s", u.GroupVersionKind())
	}
	obj := reflect.New(typ).Interface().(runtime.Object)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj); err != nil {
		t.Fatal(err)
	}
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return obj
}

func withStatus(u *unstructured.Unstructured, path []string, v any) *unstructured.Unstructured {
	_ = unstructured.SetNestedField(u.Object, v, path...)
	return u
}

// TestTypedAndUnstructuredStoresAgree scripts one event stream (a bootstrap, adds, updates and
// deletes, the client's own writes through the overlay and the store catching up with them, a
// predicate, Updates into another struct type and into an unstructured field) through each
// form of store, and checks that every form gives the same snapshots, statuses and deltas.
func TestTypedAndUnstructuredStoresAgree(t *testing.T) {
	objs := loadObjects(t, "objects.yaml")
	var cms, deploys []*unstructured.Unstructured
	for _, u := range objs {
		switch u.GroupVersionKind() {
		case configMapGVK:
			cms = append(cms, u)
		case deploymentGVK:
			deploys = append(deploys, u)
		}
	}
	cms = append(cms, manyCMs(3, 200)...)
	pods := []*unstructured.Unstructured{
		newPod("a", "p1", "300", "Running"),
		withStatus(newPod("a", "p2", "301", "Pending"), []string{"status", "conditions"},
			[]any{map[string]any{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}}),
	}

	logs := map[string][]string{}
	for _, form := range storeForms {
		t.Run(form.name, func(t *testing.T) {
			logs[form.name] = scriptTypedStream(t, form, cms, deploys, pods)
		})
	}
	for _, form := range storeForms[1:] {
		if diff := cmp.Diff(logs["unstructured"], logs[form.name]); diff != "" {
			t.Errorf("%s store differs from the unstructured one (-unstructured +%s):\n%s", form.name, form.name, diff)
		}
	}
}

func scriptTypedStream(t *testing.T, form storeForm, cms, deploys, pods []*unstructured.Unstructured) []string {
	var snap typedSnapshot
	return scriptStream(t, form, cms, deploys, pods, &snap, func() any { return snap })
}

// scriptStream runs TestTypedAndUnstructuredStoresAgree's script, Updating snap (a pointer to a
// snapshot struct of ConfigMaps, Deployments and Pods) and logging what render returns of it.
func scriptStream(t *testing.T, form storeForm, cms, deploys, pods []*unstructured.Unstructured, snap any, render func() any) []string {
	ov := &fakeOverlay{}
	opts := accumulator.Options{Overlay: ov}
	form.opts(&opts)
	acc := mustNew(t, opts,
		cmQuery("ConfigMaps", ""),
		accumulator.QuerySpec{Name: "Deployments", GVK: deploymentGVK},
		accumulator.QuerySpec{Name: "Pods", GVK: podGVK})
	feedAll := func(us []*unstructured.Unstructured) []any {
		out := make([]any, len(us))
		for i, u := range us {
			out[i] = form.feed(t, u)
		}
		return out
	}
	must(t, acc.Store("ConfigMaps").Replace(feedAll(cms), "1000"))
	must(t, acc.Store("Deployments").Replace(feedAll(deploys), "1000"))
	must(t, acc.Store("Pods").Replace(feedAll(pods), "1000"))

	var log []string
	record := func(step string, deltas []*accumulator.Delta) {
		t.Helper()
		data, err := json.Marshal(render())
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, fmt.Sprintf("%s: %s deltas %v", step, data, deltaStrings(deltas)))
	}
	step := func(name string) {
		t.Helper()
		var ds []*accumulator.Delta
		if _, err := acc.UpdateWithDeltas(context.Background(), snap, &ds); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		record(name, ds)
	}
	step("bootstrap")

	// Events: an add, a Pod that becomes Ready, a delete.
	must(t, acc.Store("ConfigMaps").Add(form.feed(t, newCM("b", "new", "1001", "k", "v"))))
	ready := withStatus(newPod("a", "p2", "1002", "Running"), []string{"status", "conditions"},
		[]any{map[string]any{"type": "Ready", "status": "True"}})
	must(t, acc.Store("Pods").Update(form.feed(t, ready)))
	must(t, acc.Store("ConfigMaps").Delete(form.feed(t, cms[0])))
	step("events")

	// The client's own writes: a ConfigMap updated, a Pod deleted.
	written1 := newCM("a", "cm-0001", "1010", "k", "written")
	ov.set(configMapGVK, written(written1))
	ov.set(podGVK, deleted("a", "p1", "300", "uid-a-p1"))
	step("overlay")
	// The store catches up: the write arrives, the Pod is deleted.
	must(t, acc.Store("ConfigMaps").Update(form.feed(t, written1.DeepCopy())))
	must(t, acc.Store("Pods").Delete(form.feed(t, newPod("a", "p1", "1011", "Running"))))
	ov.set(configMapGVK)
	ov.set(podGVK)
	step("caught up")

	// A write whose record is dropped before the store sees it: the stored version comes back.
	ov.set(configMapGVK, accumulator.Write{Namespace: "a", Name: "cm-0002", Deleted: true, ResourceVersion: "202", UID: typesUID("uid-a-cm-0002")})
	step("hidden")
	ov.set(configMapGVK)
	step("back")

	// A predicate refuses a changed version.
	must(t, acc.Store("ConfigMaps").Update(form.feed(t, withLabels(newCM("a", "cm-0000", "1020", "k", "x"), "app", "hidden"))))
	var fds []*accumulator.Delta
	if _, err := acc.FilteredUpdate(context.Background(), snap, &fds, func(u *unstructured.Unstructured) bool {
		return u.GetLabels()["app"] != "hidden" && u.GetKind() != ""
	}); err != nil {
		t.Fatal(err)
	}
	record("filtered", fds)

	// Other struct types: every object converted again, from the view's copies.
	var other struct {
		ConfigMaps  map[string]*unstructured.Unstructured
		Deployments []*appsv1.Deployment
		Pods        map[string]accumulator.Entry[*corev1.Pod]
	}
	if _, err := acc.Update(context.Background(), &other); err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for k, e := range other.Pods {
		statuses = append(statuses, k+" "+string(e.Status.Status))
	}
	sortNsName(statuses)
	log = append(log, fmt.Sprintf("other: %v %v pods %v", describe(t, other.ConfigMaps), describe(t, other.Deployments), statuses))
	for _, u := range other.ConfigMaps {
		if u.GetKind() != "ConfigMap" || u.GetAPIVersion() != "v1" {
			t.Errorf("unstructured %s has apiVersion %q, kind %q", u.GetName(), u.GetAPIVersion(), u.GetKind())
		}
	}
	fresh := reflect.ValueOf(snap).Elem()
	fresh.SetZero()
	step("fresh struct")
	return log
}
