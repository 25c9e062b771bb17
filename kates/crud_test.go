package kates_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kates"
)

// forms builds the same ConfigMap as each kind of value the client accepts.
var forms = map[string]func(ns, name string, data map[string]string) any{
	"typed": func(ns, name string, data map[string]string) any {
		return &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Namespace: ns, Name: name}, Data: data}
	},
	"unstructured": func(ns, name string, data map[string]string) any {
		u := kates.NewUnstructured("v1", "ConfigMap", ns, name)
		if data != nil {
			_ = unstructured.SetNestedStringMap(u.Object, data, "data")
		}
		return u
	},
	"map": func(ns, name string, data map[string]string) any {
		m := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"namespace": ns, "name": name}}
		if data != nil {
			d := map[string]any{}
			for k, v := range data {
				d[k] = v
			}
			m["data"] = d
		}
		return m
	},
}

func TestCRUDWithEveryValueForm(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	for form, build := range forms {
		t.Run(form, func(t *testing.T) {
			name := "cm-" + form
			var created kates.ConfigMap
			if err := c.Create(ctx, build(ns, name, map[string]string{"a": "1"}), &created); err != nil {
				t.Fatalf("Create: %v", err)
			}
			if created.UID == "" || created.ResourceVersion == "" {
				t.Fatalf("Create did not store the server's answer: %+v", created.ObjectMeta)
			}

			var got kates.Unstructured
			if err := c.Get(ctx, build(ns, name, nil), &got); err != nil {
				t.Fatalf("Get: %v", err)
			}
			if diff := cmp.Diff(map[string]any{"a": "1"}, got.Object["data"]); diff != "" {
				t.Errorf("Get data mismatch (-want +got):\n%s", diff)
			}

			created.Data["b"] = "2"
			var updated map[string]any
			if err := c.Update(ctx, &created, &updated); err != nil {
				t.Fatalf("Update: %v", err)
			}
			if diff := cmp.Diff(map[string]any{"a": "1", "b": "2"}, updated["data"]); diff != "" {
				t.Errorf("Update data mismatch (-want +got):\n%s", diff)
			}

			var patched kates.ConfigMap
			if err := c.Patch(ctx, build(ns, name, nil), kates.MergePatchType, []byte(`{"data":{"c":"3"}}`), &patched); err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if diff := cmp.Diff(map[string]string{"a": "1", "b": "2", "c": "3"}, patched.Data); diff != "" {
				t.Errorf("Patch data mismatch (-want +got):\n%s", diff)
			}

			if err := c.Delete(ctx, build(ns, name, nil), nil); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			err := c.Get(ctx, build(ns, name, nil), nil)
			if !apierrors.IsNotFound(err) {
				t.Fatalf("Get after Delete: got %v, want NotFound", err)
			}
		})
	}
}

func TestDefaultNamespaceAndNilTarget(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	if err := c.Create(ctx, &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "s"}, StringData: map[string]string{"k": "v"}}, nil); err != nil {
		t.Fatal(err)
	}
	var got kates.Secret
	if err := c.Get(ctx, &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "s"}}, &got); err != nil {
		t.Fatal(err)
	}
	if got.Namespace != ns || string(got.Data["k"]) != "v" {
		t.Errorf("got namespace %q data %v, want namespace %q and k=v", got.Namespace, got.Data, ns)
	}
}

func TestKindResolution(t *testing.T) {
	c, _ := newClient(t)
	deploy := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	svc := schema.GroupVersionKind{Version: "v1", Kind: "Service"}
	tests := []struct {
		arg  string
		want schema.GroupVersionKind
	}{
		{"svc", svc},
		{"services", svc},
		{"service", svc},
		{"Service", svc},
		{"deploy", deploy},
		{"deployments", deploy},
		{"Deployment", deploy},
		{"deployments.apps", deploy},
		{"deployments.v1.apps", deploy},
		{"Deployment.apps", deploy},
		{"Deployment.v1.apps", deploy},
		{"cm", schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}},
		{"crd", schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}},
		{"clusterroles.rbac.authorization.k8s.io", schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			m, err := c.Mapping(tt.arg)
			if err != nil {
				t.Fatalf("Mapping(%q): %v", tt.arg, err)
			}
			if diff := cmp.Diff(tt.want, m.GroupVersionKind); diff != "" {
				t.Errorf("Mapping(%q) mismatch (-want +got):\n%s", tt.arg, diff)
			}
		})
	}
}

func TestUnknownKindNamesItAndSuggests(t *testing.T) {
	c, _ := newClient(t)
	_, err := c.Mapping("deploymnt")
	if !kates.IsUnknownKind(err) {
		t.Fatalf("Mapping(deploymnt): got %v, want an unknown kind error", err)
	}
	var uk *kates.UnknownKindError
	if !errors.As(err, &uk) {
		t.Fatalf("error %T is not an *UnknownKindError", err)
	}
	if !strings.Contains(err.Error(), `"deploymnt"`) || !contains(uk.Suggestions, "deployments.apps") {
		t.Errorf("error %q should name the kind and suggest deployments.apps (suggestions %v)", err, uk.Suggestions)
	}

	// An object of an unknown kind fails the same way before any request.
	err = c.Create(context.Background(), kates.NewUnstructured("example.com/v1", "Gizmo", "", "g"), nil)
	if !kates.IsUnknownKind(err) || !strings.Contains(err.Error(), "Gizmo") {
		t.Errorf("Create of an unknown kind: got %v, want an unknown kind error naming Gizmo", err)
	}
	err = c.List(context.Background(), kates.Query{Kind: "nosuchthings"}, &[]*kates.Unstructured{})
	if !kates.IsUnknownKind(err) {
		t.Errorf("List of an unknown kind: got %v, want an unknown kind error", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestApplyCreateChangeConflictForce(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	manifest := func(data map[string]string) *kates.ConfigMap {
		return &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "applied", Namespace: ns}, Data: data}
	}
	var got kates.ConfigMap
	if err := c.Apply(ctx, manifest(map[string]string{"a": "1", "b": "1"}), &got); err != nil {
		t.Fatalf("Apply (create): %v", err)
	}
	if got.UID == "" {
		t.Fatal("Apply did not create")
	}
	// Leaving out a field this manager set removes it; changing one changes it.
	if err := c.Apply(ctx, manifest(map[string]string{"a": "2"}), &got); err != nil {
		t.Fatalf("Apply (change): %v", err)
	}
	if diff := cmp.Diff(map[string]string{"a": "2"}, got.Data); diff != "" {
		t.Errorf("after change (-want +got):\n%s", diff)
	}
	// Another manager may not take "a" without force.
	err := c.Apply(ctx, manifest(map[string]string{"a": "3"}), nil, kates.FieldManager("intruder"))
	if !apierrors.IsConflict(err) {
		t.Fatalf("Apply by another manager: got %v, want Conflict", err)
	}
	if !strings.Contains(err.Error(), "ConfigMap "+ns+"/applied") {
		t.Errorf("error %q does not name the object", err)
	}
	if err := c.Apply(ctx, manifest(map[string]string{"a": "3"}), &got, kates.FieldManager("intruder"), kates.ForceOwnership()); err != nil {
		t.Fatalf("forced Apply: %v", err)
	}
	if got.Data["a"] != "3" {
		t.Errorf("forced Apply: a = %q, want 3", got.Data["a"])
	}
}

func TestUpsertRacingWritersAllLand(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	const writers = 10
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			label := map[string]string{fmt.Sprintf("writer-%d", i): "yes"}
			res := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "contended", Namespace: ns, Labels: label}}
			src := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Labels: label, Annotations: map[string]string{fmt.Sprintf("note-%d", i): "hi"}}}
			errs[i] = c.Upsert(ctx, res, src, nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	var got kates.ConfigMap
	if err := c.Get(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "contended", Namespace: ns}}, &got); err != nil {
		t.Fatal(err)
	}
	for i := range writers {
		if got.Labels[fmt.Sprintf("writer-%d", i)] != "yes" {
			t.Errorf("label of writer %d missing: labels %v", i, got.Labels)
		}
	}
	// The creator's source is its resource; every other writer merged an annotation.
	notes := 0
	for k := range got.Annotations {
		if strings.HasPrefix(k, "note-") {
			notes++
		}
	}
	if notes < writers-1 {
		t.Errorf("%d annotations merged, want at least %d: %v", notes, writers-1, got.Annotations)
	}
}

func TestListPagesSelectorsAndNamespaces(t *testing.T) {
	c, ns1 := newClient(t)
	ns2 := newNamespace(t)
	ctx := context.Background()
	const perNS = 600 // 1,200 in all: more than two pages of 500
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	var mu sync.Mutex
	var createErr error
	for _, ns := range []string{ns1, ns2} {
		for i := range perNS {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				parity := "even"
				if i%2 == 1 {
					parity = "odd"
				}
				cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{
					Name: fmt.Sprintf("cm-%04d", i), Namespace: ns,
					Labels: map[string]string{"parity": parity, "suite": "list-" + ns1},
				}}
				if err := c.Create(ctx, cm, nil); err != nil {
					mu.Lock()
					createErr = err
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if createErr != nil {
		t.Fatal(createErr)
	}

	var all []*kates.ConfigMap
	if err := c.List(ctx, kates.Query{Kind: "configmaps", LabelSelector: "suite=list-" + ns1}, &all); err != nil {
		t.Fatal(err)
	}
	if len(all) != 2*perNS {
		t.Errorf("all namespaces: %d objects, want %d", len(all), 2*perNS)
	}
	var odd []kates.Unstructured
	if err := c.List(ctx, kates.Query{Kind: "cm", Namespace: ns2, LabelSelector: "parity=odd"}, &odd); err != nil {
		t.Fatal(err)
	}
	if len(odd) != perNS/2 {
		t.Errorf("odd in %s: %d objects, want %d", ns2, len(odd), perNS/2)
	}
	for _, u := range odd {
		if u.GetNamespace() != ns2 || u.GetLabels()["parity"] != "odd" {
			t.Fatalf("selector leaked %s/%s %v", u.GetNamespace(), u.GetName(), u.GetLabels())
		}
	}
	var byField []kates.Object
	if err := c.List(ctx, kates.Query{Kind: "ConfigMap", Namespace: ns1, FieldSelector: "metadata.name=cm-0007"}, &byField); err != nil {
		t.Fatal(err)
	}
	if len(byField) != 1 || byField[0].GetName() != "cm-0007" {
		t.Errorf("field selector: got %d objects, want cm-0007", len(byField))
	}
	if _, ok := byField[0].(*kates.ConfigMap); !ok {
		t.Errorf("Object element is %T, want *kates.ConfigMap", byField[0])
	}
	names := make([]string, 0, len(all))
	for _, cm := range all {
		names = append(names, cm.Namespace+"/"+cm.Name)
	}
	sort.Strings(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			t.Fatalf("duplicate %s across pages", names[i])
		}
	}
}

func TestListRejectsBadTargetsAndSelectors(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	var svcs []*kates.Service
	if err := c.List(ctx, kates.Query{Kind: "deploy", Namespace: ns}, &svcs); err == nil || !strings.Contains(err.Error(), "cannot hold") {
		t.Errorf("Deployments into []*Service: got %v, want a 'cannot hold' error", err)
	}
	if err := c.List(ctx, kates.Query{Kind: "cm"}, []*kates.ConfigMap{}); err == nil {
		t.Error("non-pointer target: no error")
	}
	if err := c.List(ctx, kates.Query{Kind: "cm", LabelSelector: "a in (b"}, &[]*kates.ConfigMap{}); err == nil || !strings.Contains(err.Error(), "label selector") {
		t.Errorf("bad label selector: got %v", err)
	}
}

func TestErrorsAreRecognisable(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	missing := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "missing", Namespace: ns}}
	if err := c.Get(ctx, missing, nil); !apierrors.IsNotFound(err) || !strings.Contains(err.Error(), "ConfigMap "+ns+"/missing") {
		t.Errorf("Get missing: got %v, want NotFound naming the object", err)
	}
	if err := c.Delete(ctx, missing, nil); !apierrors.IsNotFound(err) {
		t.Errorf("Delete missing: got %v, want NotFound", err)
	}
	dup := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "dup", Namespace: ns}}
	if err := c.Create(ctx, dup, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, dup, nil); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second Create: got %v, want AlreadyExists", err)
	}
	stale := dup.DeepCopy()
	stale.ResourceVersion = "1"
	if err := c.Update(ctx, stale, nil); !apierrors.IsConflict(err) {
		t.Errorf("Update with a stale resourceVersion: got %v, want Conflict", err)
	}

	restrictedPath, err := cluster.KubeconfigAs("mallory")
	if err != nil {
		t.Fatal(err)
	}
	restricted, err := kates.NewClient(kates.ClientConfig{Kubeconfig: restrictedPath, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	if err := restricted.Get(ctx, dup, nil); !apierrors.IsForbidden(err) {
		t.Errorf("Get as mallory: got %v, want Forbidden", err)
	}
	if err := restricted.List(ctx, kates.Query{Kind: "cm", Namespace: ns}, &[]*kates.ConfigMap{}); !apierrors.IsForbidden(err) {
		t.Errorf("List as mallory: got %v, want Forbidden", err)
	}
	if err := c.Create(ctx, struct{ X int }{1}, nil); err == nil {
		t.Error("Create of a plain struct: no error")
	}
	if err := c.Create(ctx, (*kates.Pod)(nil), nil); err == nil {
		t.Error("Create of a nil *Pod: no error")
	}
}

func TestServerInfo(t *testing.T) {
	c, _ := newClient(t)
	v, err := c.ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if v.Major != "1" || !strings.HasPrefix(v.Minor, "37") {
		t.Errorf("server version %s.%s, want 1.37", v.Major, v.Minor)
	}
	lists, err := c.ServerPreferredResources()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range lists {
		for _, r := range l.APIResources {
			if l.GroupVersion == "apps/v1" && r.Name == "deployments" {
				found = true
			}
		}
	}
	if !found {
		t.Error("apps/v1 deployments not among preferred resources")
	}
	if c.InCluster() {
		t.Error("InCluster() = true outside a cluster")
	}
}

// TestCategoryExpandsAsKubectl: "all" is the resources kubectl's `get all` shows, each once
// (autoscaling serves HPAs in two versions); an unknown category is not one.
func TestCategoryExpandsAsKubectl(t *testing.T) {
	c, _ := newClient(t)
	all, ok := c.Category("all")
	if !ok {
		t.Fatal(`Category("all") not found`)
	}
	count := map[string]int{}
	for _, r := range all {
		count[r]++
		if _, err := c.Mapping(r); err != nil {
			t.Errorf("resource %q of all does not resolve: %v", r, err)
		}
	}
	for _, want := range []string{"pods", "services", "deployments.apps", "statefulsets.apps", "jobs.batch", "horizontalpodautoscalers.autoscaling"} {
		if count[want] != 1 {
			t.Errorf("all lists %s %d times, want once: %v", want, count[want], all)
		}
	}
	if count["configmaps"] != 0 || count["secrets"] != 0 {
		t.Errorf("all lists configmaps or secrets, which kubectl's does not: %v", all)
	}
	if got, ok := c.Category("no-such-category"); ok || got != nil {
		t.Errorf(`Category("no-such-category") = %v, %v; want nothing`, got, ok)
	}
}

// TestApplyRefusesAMisspelledField: an object applied as written (not through a Go type, which
// would drop the field) with a field its kind lacks is refused as a bad request naming the
// field's path, and nothing is written.
func TestApplyRefusesAMisspelledField(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	objs, err := kates.ParseUnstructuredManifests("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo, namespace: " + ns + "}\ndata: {a: b}\ndatta: {c: d}\n")
	if err != nil {
		t.Fatal(err)
	}
	typo := objs[0].Object
	err = c.Apply(ctx, typo, nil)
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), ".datta") {
		t.Errorf("Apply = %v, want a bad request naming .datta", err)
	}
	if err := c.Get(ctx, typo, nil); !apierrors.IsNotFound(err) {
		t.Errorf("Get after the refused Apply: %v, want NotFound", err)
	}
	if err := c.Apply(ctx, typo, nil, kates.FieldValidation("Lenient")); err == nil || !strings.Contains(err.Error(), `field validation "Lenient"`) {
		t.Errorf("Apply with an unknown validation mode = %v, want an error naming it", err)
	}
}
