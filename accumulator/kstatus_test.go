package accumulator_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/kstatus"
)

// TestEntryStatusNeedsKstatus asserts statuses that only the real kstatus.Compute gives: it
// depends on package kstatus, not only on this one. If it fails while every other test
// passes, check kstatus first.
//
// A ConfigMap is Current (it has nothing to reconcile); a Deployment whose
// status.observedGeneration is behind metadata.generation is InProgress.
func TestEntryStatusNeedsKstatus(t *testing.T) {
	objs := loadObjects(t, "objects.yaml")
	acc := mustNew(t, accumulator.Options{},
		cmQuery("ConfigMaps", ""),
		accumulator.QuerySpec{Name: "Deployments", GVK: deploymentGVK})
	must(t, acc.Store("ConfigMaps").Replace(ofKind(objs, configMapGVK), "200"))
	must(t, acc.Store("Deployments").Replace(ofKind(objs, deploymentGVK), "200"))
	var snap struct {
		ConfigMaps  []accumulator.Entry[*corev1.ConfigMap]
		Deployments map[string]accumulator.Entry[*appsv1.Deployment]
	}
	update(t, acc, &snap)

	got := map[string]kstatus.Status{}
	for _, e := range snap.ConfigMaps {
		got["ConfigMap "+e.Object.Namespace+"/"+e.Object.Name] = e.Status.Status
	}
	for key, e := range snap.Deployments {
		got["Deployment "+key] = e.Status.Status
	}
	want := map[string]kstatus.Status{
		"ConfigMap a/db":    kstatus.CurrentStatus,
		"ConfigMap a/web":   kstatus.CurrentStatus,
		"ConfigMap a-x/web": kstatus.CurrentStatus,
		"Deployment a/web":  kstatus.InProgressStatus,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses mismatch (-want +got):\n%s", diff)
	}

	// The InProgress result carries a Reconciling condition; editing it in the snapshot
	// reaches neither the store nor a later copy.
	e := snap.Deployments["a/web"]
	if len(e.Status.Conditions) == 0 {
		t.Fatal("InProgress Deployment has no conditions")
	}
	e.Status.Conditions[0].Message = "edited"
	var again struct {
		ConfigMaps  map[string]*corev1.ConfigMap
		Deployments []accumulator.Entry[*unstructured.Unstructured]
	}
	update(t, acc, &again) // another element type: everything is converted afresh
	if m := again.Deployments[0].Status.Conditions[0].Message; m == "edited" {
		t.Error("an edit of a handed-out condition reached the store")
	}
}
