package apply_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/apply"
	"github.com/kates-dev/kates/applyset"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// actions lists "Kind name action" for each result, in order.
func actions(res *apply.Result) []string {
	var out []string
	for _, o := range res.Objects {
		out = append(out, o.GroupVersionKind.Kind+" "+o.Name+" "+string(o.Action))
	}
	return out
}

func configMap(name, value string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": map[string]any{"k": value}}
}

func timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestRunCRDAndItsCustomResourceInOneBatch: a custom resource given before its CRD is applied
// after it, once its kind is served, and the wait sees both Current; the server's warning of
// the deprecated version is the Gizmo's, not the others'; each object's last status is in the
// result.
func TestRunCRDAndItsCustomResourceInOneBatch(t *testing.T) {
	c, _ := newClient(t)
	objs, _ := manifests(t, c, "crd-and-cr.yaml")
	var reported []string
	res, err := apply.Run(timeout(t), c, objs, apply.Options{
		Wait:     true,
		OnResult: func(r apply.ObjectResult) { reported = append(reported, r.Name+" "+string(r.Action)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"CustomResourceDefinition " + res.Objects[0].Name + " applied", "Gizmo g1 applied", "ConfigMap settings applied"}
	if diff := cmp.Diff(want, actions(res)); diff != "" {
		t.Errorf("Run() mismatch (-want +got):\n%s", diff)
	}
	if len(reported) != 3 {
		t.Errorf("OnResult called %d times, want 3", len(reported))
	}
	for _, o := range res.Objects {
		if o.Wait != apply.WaitCurrent || o.Status == nil || o.Status.Status != kstatus.CurrentStatus {
			t.Errorf("%s: wait %q, status %+v; want waited for and Current", o, o.Wait, o.Status)
		}
		deprecated := slices(o.Warnings, "Gizmo is deprecated")
		if deprecated != (o.GroupVersionKind.Kind == "Gizmo") {
			t.Errorf("%s: warnings %q; want the deprecation warning on the Gizmo alone", o, o.Warnings)
		}
		if o.Source.File != "crd-and-cr.yaml" {
			t.Errorf("%s: source %q, want crd-and-cr.yaml", o, o.Source)
		}
	}
	if got := res.Objects[1].Source.String(); got != "crd-and-cr.yaml: document 1" {
		t.Errorf("Gizmo's source %q, want crd-and-cr.yaml: document 1", got)
	}
}

func slices(list []string, part string) bool {
	for _, s := range list {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}

// TestRunHonoursTheWaitAnnotation: a Deployment no Node can run, annotated "false", is not
// waited for (the wait would last until its timeout); one annotated "exists" is waited for
// only until it exists; the ConfigMap until it is Current. An unknown value refuses the batch.
func TestRunHonoursTheWaitAnnotation(t *testing.T) {
	c, ns := newClient(t)
	stuck := func(name, wait string) *kates.Deployment {
		d := &kates.Deployment{}
		d.Name, d.Annotations = name, map[string]string{apply.WaitAnnotation: wait}
		d.Spec.Selector = &kates.LabelSelector{MatchLabels: map[string]string{"app": name}}
		d.Spec.Template.Labels = map[string]string{"app": name}
		d.Spec.Template.Spec.NodeSelector = map[string]string{"no-such-node": "true"}
		d.Spec.Template.Spec.Containers = []kates.Container{{Name: "c", Image: "example.com/c:1"}}
		return d
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := apply.Run(ctx, c, []any{stuck("skipped", "false"), stuck("existing", "exists"), configMap("plain", "1")}, apply.Options{Wait: true})
	if err != nil {
		t.Fatalf("Run: %v (a wait on the annotated Deployments would time out)", err)
	}
	got := map[string]apply.WaitGoal{}
	for _, o := range res.Objects {
		got[o.Name] = o.Wait
		if (o.Status != nil) == (o.Wait == apply.WaitNone) {
			t.Errorf("%s: wait %q with status %v; want a status exactly when waited for", o, o.Wait, o.Status)
		}
	}
	if diff := cmp.Diff(map[string]apply.WaitGoal{"skipped": apply.WaitNone, "existing": apply.WaitExists, "plain": apply.WaitCurrent}, got); diff != "" {
		t.Errorf("wait goals mismatch (-want +got):\n%s", diff)
	}

	_, err = apply.Run(ctx, c, []any{configMap("first", "1"), stuck("odd", "maybe")}, apply.Options{Wait: true})
	var invalid *apply.InvalidError
	if !errors.As(err, &invalid) || !strings.Contains(err.Error(), `(Deployment odd): annotation kates.dev/wait: "maybe"`) {
		t.Errorf("Run with kates.dev/wait: maybe: %v, want an InvalidError naming the object and value", err)
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "first"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap first after a refused batch: %v, want NotFound", err)
	}
}

// TestRunPrunesTheApplySet: with an ApplySet, a second run without an object deletes it,
// reports it Pruned, and waits until it is gone.
func TestRunPrunesTheApplySet(t *testing.T) {
	c, ns := newClient(t)
	ctx := timeout(t)
	run := func(objs ...any) *apply.Result {
		t.Helper()
		set, err := applyset.Open(ctx, c, applyset.Options{Parent: "app"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := apply.Run(ctx, c, objs, apply.Options{ApplySet: set, Wait: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	run(configMap("a", "1"), configMap("b", "1"))
	res := run(configMap("a", "1"))
	if diff := cmp.Diff([]string{"ConfigMap a unchanged", "ConfigMap b pruned"}, actions(res)); diff != "" {
		t.Errorf("second Run mismatch (-want +got):\n%s", diff)
	}
	b := res.Objects[1]
	if b.Wait != apply.WaitDeleted || b.Status == nil || b.Status.Status != kstatus.NotFoundStatus || b.UID == "" {
		t.Errorf("pruned b: wait %q, status %+v, uid %q; want waited until NotFound, by UID", b.Wait, b.Status, b.UID)
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "b"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap b after the prune: %v, want NotFound", err)
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "a"), nil); err != nil {
		t.Errorf("configmap a after the prune: %v, want kept", err)
	}
}

// TestRunDryRunWritesNothing: a dry run answers for every object and persists nothing; a
// custom resource whose CRD is only dry-run is Skipped; what a dry-run prune would delete is
// reported and kept.
func TestRunDryRunWritesNothing(t *testing.T) {
	c, ns := newClient(t)
	ctx := timeout(t)
	set, err := applyset.Open(ctx, c, applyset.Options{Parent: "app"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apply.Run(ctx, c, []any{configMap("old", "1")}, apply.Options{ApplySet: set}); err != nil {
		t.Fatal(err)
	}
	objs, group := manifests(t, c, "crd-and-cr.yaml")
	if set, err = applyset.Open(ctx, c, applyset.Options{Parent: "app", DryRun: true}); err != nil {
		t.Fatal(err)
	}
	res, err := apply.Run(ctx, c, objs, apply.Options{DryRun: true, ApplySet: set})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"CustomResourceDefinition gizmos." + group + " applied", "Gizmo g1 skipped", "ConfigMap settings applied", "ConfigMap old pruned"}
	if diff := cmp.Diff(want, actions(res)); diff != "" {
		t.Errorf("dry Run mismatch (-want +got):\n%s", diff)
	}
	if res.Objects[2].Object == nil || res.Objects[2].Object.GetNamespace() != ns {
		t.Errorf("dry run of the ConfigMap: answer %v, want the server's, in %s", res.Objects[2].Object, ns)
	}
	for _, o := range []*unstructured.Unstructured{
		kates.NewUnstructured("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "gizmos."+group),
		kates.NewUnstructured("v1", "ConfigMap", ns, "settings"),
	} {
		if err := c.Get(ctx, o, nil); !apierrors.IsNotFound(err) {
			t.Errorf("%s %s after a dry run: %v, want NotFound", o.GetKind(), o.GetName(), err)
		}
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "old"), nil); err != nil {
		t.Errorf("configmap old after a dry-run prune: %v, want kept", err)
	}
	if _, err := apply.Run(ctx, c, objs, apply.Options{DryRun: true, Wait: true}); err == nil {
		t.Errorf("Run with DryRun and Wait: no error, want one")
	}
}

// TestRunRefusesAnInvalidBatchBeforeWriting: one object invalid (against the cluster's schema,
// or its CRD's in the batch) and nothing is applied, not even the valid objects before it;
// every problem is listed with its source.
func TestRunRefusesAnInvalidBatchBeforeWriting(t *testing.T) {
	c, ns := newClient(t)
	ctx := timeout(t)
	objs, group := manifests(t, c, "crd-and-cr.yaml")
	bad := configMap("second", "1")
	bad["metadata"].(map[string]any)["labels"] = map[string]any{"a b": "c"}
	gizmo := objs[0].(kates.ManifestObject)
	gizmo.Object.Object["spec"] = map[string]any{"size": int64(11)} // the CRD says at most 10
	res, err := apply.Run(ctx, c, append([]any{configMap("first", "1"), bad}, objs...), apply.Options{})
	var invalid *apply.InvalidError
	if !errors.As(err, &invalid) {
		t.Fatalf("Run: %v, want an InvalidError", err)
	}
	if invalid.Invalid != 2 || invalid.Total != 5 {
		t.Errorf("InvalidError: %d of %d invalid, want 2 of 5", invalid.Invalid, invalid.Total)
	}
	for _, want := range []string{"2 of 5 objects invalid, nothing applied", "object 2 (ConfigMap second): metadata.labels", "crd-and-cr.yaml: document 1 (Gizmo g1): spec.size"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	for _, o := range res.Objects {
		if o.Action != apply.NotApplied {
			t.Errorf("%s: %s, want not applied", o, o.Action)
		}
	}
	for _, o := range []*unstructured.Unstructured{
		kates.NewUnstructured("v1", "ConfigMap", ns, "first"),
		kates.NewUnstructured("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "gizmos."+group),
	} {
		if err := c.Get(ctx, o, nil); !apierrors.IsNotFound(err) {
			t.Errorf("%s %s after a refused batch: %v, want NotFound", o.GetKind(), o.GetName(), err)
		}
	}
}

// TestRunRefusesDuplicates: a batch that defines one object twice (here three times, once
// with the namespace spelled out and twice leaving it to the Client) is refused before
// anything is written, naming the object and every file and document that defines it.
func TestRunRefusesDuplicates(t *testing.T) {
	c, ns := newClient(t)
	ctx := timeout(t)
	def := func(file string, doc int, namespace string) kates.ManifestObject {
		u := &unstructured.Unstructured{Object: configMap("dup", file)}
		u.SetNamespace(namespace)
		return kates.ManifestObject{Source: file, Document: doc, Object: u}
	}
	objs := []any{configMap("unique", "1"), def("a.yaml", 1, ""), def("b.yaml", 3, ns), def("c.yaml", 2, "")}
	_, err := apply.Run(ctx, c, objs, apply.Options{})
	var dup *apply.DuplicateError
	if !errors.As(err, &dup) {
		t.Fatalf("Run: %v, want a DuplicateError", err)
	}
	want := "ConfigMap " + ns + "/dup is defined 3 times: a.yaml: document 1, b.yaml: document 3, c.yaml: document 2"
	if len(dup.Duplicates) != 1 || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want one duplicate: %q", err, want)
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "unique"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap unique after a refused batch: %v, want NotFound", err)
	}
}

// TestRunSaysUnchanged: a re-apply of an object that did not change is Unchanged, in a dry run
// too; a changed one is Applied.
func TestRunSaysUnchanged(t *testing.T) {
	c, _ := newClient(t)
	ctx := timeout(t)
	for _, tt := range []struct {
		name   string
		value  string
		dryRun bool
		want   apply.Action
	}{
		{"first", "1", false, apply.Applied},
		{"again", "1", false, apply.Unchanged},
		{"again, dry run", "1", true, apply.Unchanged},
		{"changed, dry run", "2", true, apply.Applied},
		{"changed", "2", false, apply.Applied},
		{"changed again", "2", false, apply.Unchanged},
	} {
		res, err := apply.Run(ctx, c, []any{configMap("cfg", tt.value)}, apply.Options{DryRun: tt.dryRun})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := res.Objects[0].Action; got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestRunStopsAtAFailureAndSaysWhere: with validation off, the server refuses the second
// object; the first stays applied, the third is not sent, and the error says so and still
// answers apierrors' questions.
func TestRunStopsAtAFailureAndSaysWhere(t *testing.T) {
	c, ns := newClient(t)
	ctx := timeout(t)
	bad := configMap("second", "1")
	bad["data"] = map[string]any{"k": []any{int64(1)}}
	res, err := apply.Run(ctx, c, []any{configMap("first", "1"), bad, configMap("third", "1")}, apply.Options{NoValidate: true})
	var batchErr *apply.BatchError
	if !errors.As(err, &batchErr) {
		t.Fatalf("Run: %v, want a BatchError", err)
	}
	if diff := cmp.Diff([]string{"ConfigMap first applied", "ConfigMap second failed", "ConfigMap third not applied"}, actions(res)); diff != "" {
		t.Errorf("Run mismatch (-want +got):\n%s", diff)
	}
	if batchErr.Applied != 1 || batchErr.NotApplied != 1 || batchErr.Object.Name != "second" || res.Objects[1].Err == nil {
		t.Errorf("BatchError %+v, want second failed, 1 applied before it and 1 not applied", batchErr)
	}
	if !apierrors.IsBadRequest(err) && !apierrors.IsInvalid(err) {
		t.Errorf("error %v: apierrors does not see the server's refusal through it", err)
	}
	if !strings.Contains(err.Error(), "object 2 (ConfigMap "+ns+"/second)") || !strings.Contains(err.Error(), "1 of 3 objects applied before it, 1 not applied") {
		t.Errorf("error %q does not say which object failed and what was applied", err)
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "third"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap third: %v, want NotFound: not sent", err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := apply.Run(cancelled, c, []any{configMap("late", "1")}, apply.Options{NoValidate: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: %v, want context.Canceled", err)
	}
}
