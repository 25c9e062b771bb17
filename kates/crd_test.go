package kates_test

import (
	"context"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// manifestWithUniqueGroup parses testdata/path with its example.com group made unique to the test.
func manifestWithUniqueGroup(t testing.TB, path string) ([]kates.Object, string) {
	t.Helper()
	return katestest.ManifestWithUniqueGroup(t, "../testdata/"+path)
}

// crdFixture is testdata/crds/widgets.yaml's CRD with a unique group and short name.
func crdFixture(t *testing.T) (*apiextensionsv1.CustomResourceDefinition, string) {
	t.Helper()
	objs, group := manifestWithUniqueGroup(t, "crds/widgets.yaml")
	crd := objs[0].(*apiextensionsv1.CustomResourceDefinition)
	crd.Spec.Names.ShortNames = []string{"wdg" + group[1:4]}
	return crd, group
}

func TestCRDWaitForShortNameAndStatus(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crd, group := crdFixture(t)
	if err := c.Create(ctx, crd, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })

	begin := time.Now()
	if err := c.WaitFor(ctx, "widgets."+group); err != nil {
		t.Fatalf("WaitFor: %v", err)
	}
	t.Logf("CRD served %s after WaitFor started", time.Since(begin).Round(time.Millisecond))

	short := crd.Spec.Names.ShortNames[0]
	m, err := c.Mapping(short)
	if err != nil {
		t.Fatalf("Mapping(%q): %v", short, err)
	}
	if m.GroupVersionKind.Kind != "Widget" || m.GroupVersionKind.Group != group {
		t.Errorf("Mapping(%q) = %v, want Widget in %s", short, m.GroupVersionKind, group)
	}
	for _, arg := range []string{"widgets." + group, "widgets.v1." + group, "Widget." + group, "widget"} {
		if _, err := c.Mapping(arg); err != nil {
			t.Errorf("Mapping(%q): %v", arg, err)
		}
	}

	w := kates.NewUnstructured(group+"/v1", "Widget", ns, "w1")
	_ = unstructured.SetNestedField(w.Object, "blue", "spec", "color")
	if err := c.Create(ctx, w, w); err != nil {
		t.Fatalf("Create Widget: %v", err)
	}
	_ = unstructured.SetNestedField(w.Object, "Ready", "status", "phase")
	var got kates.Unstructured
	if err := c.UpdateStatus(ctx, w, &got); err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
	if phase, _, _ := unstructured.NestedString(got.Object, "status", "phase"); phase != "Ready" {
		t.Errorf("status.phase = %q, want Ready", phase)
	}
	// Update ignores status on a kind with a status subresource.
	_ = unstructured.SetNestedField(got.Object, "Broken", "status", "phase")
	if err := c.Update(ctx, &got, &got); err != nil {
		t.Fatal(err)
	}
	if phase, _, _ := unstructured.NestedString(got.Object, "status", "phase"); phase != "Ready" {
		t.Errorf("Update changed status.phase to %q", phase)
	}
}

func TestWaitForTimesOutNamingTheKind(t *testing.T) {
	c, _ := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err := c.WaitFor(ctx, "neverthings.example.com")
	if err == nil || !strings.Contains(err.Error(), "neverthings.example.com") || ctx.Err() == nil {
		t.Errorf("WaitFor of a kind that never comes: got %v, want the context's error naming the kind", err)
	}
}

func TestWatchWaitsForAKindInstalledLater(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crd, group := crdFixture(t)
	go func() {
		time.Sleep(500 * time.Millisecond)
		if err := c.Create(ctx, crd, nil); err != nil {
			t.Error(err)
		}
	}()
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
	acc, err := c.WatchWith(ctx, kates.WatchOptions{WaitForKinds: true},
		kates.Query{Name: "Widgets", Kind: "widgets." + group, Namespace: ns})
	if err != nil {
		t.Fatalf("Watch of a kind installed later: %v", err)
	}
	w := kates.NewUnstructured(group+"/v1", "Widget", ns, "late")
	if err := c.Create(ctx, w, nil); err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Widgets []kates.Entry[*kates.Unstructured]
	}
	for len(snap.Widgets) == 0 {
		select {
		case <-acc.Changed():
		case <-ctx.Done():
			t.Fatal("widget never showed")
		}
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
	}
	if snap.Widgets[0].Object.GetName() != "late" {
		t.Errorf("got %s, want late", snap.Widgets[0].Object.GetName())
	}
}
