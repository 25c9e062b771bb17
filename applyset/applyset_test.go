package applyset_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/applyset"
	"github.com/kates-dev/kates/kates"
)

// TestApplysetIDAsKEP3659: the ID is "applyset-" + base64url(sha256("name.namespace.kind.group"))
// + "-v1". The first vector's leading characters were published by a third party for kubectl's
// ID of a cluster-scoped WorkspaceSet "sgs" of group sgs.snucse.org ("applyset-eGaq9sV3nwMTqoxo..."),
// computed independently of this code.
func TestApplysetIDAsKEP3659(t *testing.T) {
	tests := []struct {
		name                          string
		group, kind, namespace, name2 string
		want                          string
	}{
		{"cluster-scoped custom resource", "sgs.snucse.org", "WorkspaceSet", "", "sgs", "applyset-eGaq9sV3nwMTqoxoanOqvTcx-fUhHfmcx173gQrutHk-v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := applyset.ID(tt.group, tt.kind, tt.namespace, tt.name2)
			if got != tt.want {
				t.Errorf("ID() = %q, want %q", got, tt.want)
			}
		})
	}
	// A Secret parent: core group "", so the hashed text ends with ".".
	a, b := applyset.ID("", "Secret", "ns", "web"), applyset.ID("", "ConfigMap", "ns", "web")
	if a == b || !strings.HasPrefix(a, "applyset-") || !strings.HasSuffix(a, "-v1") || len(a) != len("applyset-")+43+len("-v1") {
		t.Errorf("ID of a Secret %q and a ConfigMap %q: want distinct applyset-<43 base64url characters>-v1", a, b)
	}
}

func configMap(ns, name string) *unstructured.Unstructured {
	u := kates.NewUnstructured("v1", "ConfigMap", ns, name)
	u.Object["data"] = map[string]any{"k": name}
	return u
}

// TestApplysetPrunesOnlyMembersThatLeft: a second apply of the set without some objects deletes
// exactly those: not an object outside the set (no label, or another set's), not one applied
// again; the parent carries the KEP-3659 label and annotations, recording the kinds and
// namespaces of what is in the set; a dry run deletes nothing.
func TestApplysetPrunesOnlyMembersThatLeft(t *testing.T) {
	c, ns := newClient(t)
	other := newNamespace(t)
	ctx := context.Background()
	tooling := "kates/v9.9.9"
	open := func(dryRun bool) *applyset.Set {
		t.Helper()
		set, err := applyset.Open(ctx, c, applyset.Options{Parent: "app", Tooling: tooling, DryRun: dryRun})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	// Outside the set: an unlabelled ConfigMap and one of another set, in its namespaces.
	outsider := configMap(ns, "outsider")
	foreign := configMap(other, "foreign")
	foreign.SetLabels(map[string]string{applyset.PartOfLabel: applyset.ID("", "Secret", ns, "elsewhere")})
	for _, o := range []*unstructured.Unstructured{outsider, foreign} {
		if err := c.Create(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
	}

	set := open(false)
	secret := kates.NewUnstructured("v1", "Secret", ns, "s")
	secret.Object["stringData"] = map[string]any{"k": "v"}
	if _, err := set.ApplyAll(ctx, []*unstructured.Unstructured{configMap(ns, "a"), configMap(ns, "b"), configMap(other, "c"), secret}); err != nil {
		t.Fatal(err)
	}
	if pruned, err := set.Prune(ctx); err != nil || len(pruned) != 0 {
		t.Fatalf("first Prune: %v, %v; want nothing pruned", pruned, err)
	}
	id := applyset.ID("", "Secret", ns, "app")
	if set.ID() != id {
		t.Errorf("ID() = %q, want %q", set.ID(), id)
	}
	parent := &unstructured.Unstructured{}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "Secret", ns, "app"), parent); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{applyset.ParentIDLabel: id}, parent.GetLabels()); diff != "" {
		t.Errorf("parent labels mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{
		"applyset.kubernetes.io/tooling":               tooling,
		"applyset.kubernetes.io/contains-group-kinds":  "ConfigMap,Secret",
		"applyset.kubernetes.io/additional-namespaces": other,
	}, parent.GetAnnotations()); diff != "" {
		t.Errorf("parent annotations mismatch (-want +got):\n%s", diff)
	}
	member := &unstructured.Unstructured{}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", other, "c"), member); err != nil {
		t.Fatal(err)
	}
	if got := member.GetLabels()[applyset.PartOfLabel]; got != id {
		t.Errorf("member label %s = %q, want %q", applyset.PartOfLabel, got, id)
	}

	// A dry run of the set with a alone: b, c and the Secret would go; nothing does.
	set = open(true)
	if _, err := set.ApplyAll(ctx, []*unstructured.Unstructured{configMap(ns, "a")}); err != nil {
		t.Fatal(err)
	}
	pruned, err := set.Prune(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := func(ps []applyset.PrunedObject) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Kind+" "+p.Namespace+"/"+p.Name)
		}
		return out
	}
	want := []string{"ConfigMap " + ns + "/b", "ConfigMap " + other + "/c", "Secret " + ns + "/s"}
	slices.Sort(want) // Prune's order: kind, namespace, name (the namespaces' names are random)
	if diff := cmp.Diff(want, names(pruned)); diff != "" {
		t.Errorf("dry-run Prune mismatch (-want +got):\n%s", diff)
	}
	for _, o := range []*unstructured.Unstructured{configMap(ns, "b"), configMap(other, "c"), secret} {
		if err := c.Get(ctx, o, nil); err != nil {
			t.Errorf("after a dry run: %v, want the object kept", err)
		}
	}

	// For real: exactly those go; the outsiders stay; the parent records ConfigMap in ns alone.
	set = open(false)
	if _, err := set.ApplyAll(ctx, []*unstructured.Unstructured{configMap(ns, "a")}); err != nil {
		t.Fatal(err)
	}
	pruned, err = set.Prune(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, names(pruned)); diff != "" {
		t.Errorf("Prune mismatch (-want +got):\n%s", diff)
	}
	for _, o := range []*unstructured.Unstructured{configMap(ns, "b"), configMap(other, "c"), secret} {
		if err := c.Get(ctx, o, nil); !apierrors.IsNotFound(err) {
			t.Errorf("pruned %s %s: Get = %v, want NotFound", o.GetKind(), o.GetName(), err)
		}
	}
	for _, o := range []*unstructured.Unstructured{configMap(ns, "a"), outsider, foreign} {
		if err := c.Get(ctx, o, nil); err != nil {
			t.Errorf("%s/%s: %v, want it kept", o.GetNamespace(), o.GetName(), err)
		}
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "Secret", ns, "app"), parent); err != nil {
		t.Fatal(err)
	}
	if got := parent.GetAnnotations(); got[applyset.GroupKindsAnnotation] != "ConfigMap" || got[applyset.AdditionalNamespacesAnnotation] != "" {
		t.Errorf("parent annotations after the prune: %v, want ConfigMap and no additional namespace", got)
	}
}

// TestApplysetRefusesWhatIsNotItsOwn: a parent of another tool, an existing object that is not
// a parent, and a member labelled for another set are refused before anything is written.
func TestApplysetRefusesWhatIsNotItsOwn(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	helm := kates.NewUnstructured("v1", "Secret", ns, "helm")
	helm.SetLabels(map[string]string{applyset.ParentIDLabel: applyset.ID("", "Secret", ns, "helm")})
	helm.SetAnnotations(map[string]string{applyset.ToolingAnnotation: "helm/v3", applyset.GroupKindsAnnotation: ""})
	plain := kates.NewUnstructured("v1", "ConfigMap", ns, "plain")
	for _, o := range []*unstructured.Unstructured{helm, plain} {
		if err := c.Create(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ parent, want string }{
		{"helm", `managed by "helm", not "kates"`},
		{"configmaps/plain", "is not an ApplySet parent"},
		{"deployments.apps/x", "cannot be an ApplySet parent"},
		{"/x", "want [RESOURCE[.GROUP]/]NAME"},
	} {
		_, err := applyset.Open(ctx, c, applyset.Options{Parent: tt.parent})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q) = %v, want an error saying %q", tt.parent, err, tt.want)
		}
	}
	set, err := applyset.Open(ctx, c, applyset.Options{Parent: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	taken := configMap(ns, "taken")
	taken.SetLabels(map[string]string{applyset.PartOfLabel: "applyset-other-v1"})
	if err := set.Prepare(ctx, []*unstructured.Unstructured{taken}); err == nil || !strings.Contains(err.Error(), "of another set") {
		t.Errorf("Prepare of another set's member: %v, want refused", err)
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "Secret", ns, "mine"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("parent after a refused Prepare: %v, want NotFound: nothing written", err)
	}
}

// TestApplysetCustomResourceParent: a custom resource may be the parent once its
// CustomResourceDefinition carries applyset.kubernetes.io/is-parent-type, as kubectl requires;
// it is never created by the set, and the ID hashes its kind and group.
func TestApplysetCustomResourceParent(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crd, group := crdFixture(t)
	if err := c.Create(ctx, crd, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
	if err := c.WaitFor(ctx, "widgets."+group); err != nil {
		t.Fatal(err)
	}
	parent := "widgets." + group + "/owner"
	if _, err := applyset.Open(ctx, c, applyset.Options{Parent: parent}); err == nil || !strings.Contains(err.Error(), "cannot be an ApplySet parent") {
		t.Fatalf("Open of an unlabelled CRD's kind: %v, want refused", err)
	}
	label := []byte(`{"metadata":{"labels":{"` + applyset.ParentTypeLabel + `":"true"}}}`)
	if err := c.Patch(ctx, crd, kates.MergePatchType, label, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := applyset.Open(ctx, c, applyset.Options{Parent: parent}); err == nil || !strings.Contains(err.Error(), "create it first") {
		t.Fatalf("Open of a missing custom resource parent: %v, want refused", err)
	}
	// Made by hand, as for kubectl: with the set's ID and the tool.
	owner := kates.NewUnstructured(group+"/v1", "Widget", ns, "owner")
	owner.SetLabels(map[string]string{applyset.ParentIDLabel: applyset.ID(group, "Widget", ns, "owner")})
	owner.SetAnnotations(map[string]string{applyset.ToolingAnnotation: "kates/v1", applyset.GroupKindsAnnotation: ""})
	if err := c.Create(ctx, owner, nil); err != nil {
		t.Fatal(err)
	}
	set, err := applyset.Open(ctx, c, applyset.Options{Parent: parent})
	if err != nil {
		t.Fatal(err)
	}
	if want := applyset.ID(group, "Widget", ns, "owner"); set.ID() != want {
		t.Errorf("ID() = %q, want %q", set.ID(), want)
	}
	if _, err := set.ApplyAll(ctx, []*unstructured.Unstructured{configMap(ns, "m")}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	got := &unstructured.Unstructured{}
	if err := c.Get(ctx, kates.NewUnstructured(group+"/v1", "Widget", ns, "owner"), got); err != nil {
		t.Fatal(err)
	}
	if got.GetLabels()[applyset.ParentIDLabel] != set.ID() || got.GetAnnotations()[applyset.GroupKindsAnnotation] != "ConfigMap" {
		t.Errorf("parent Widget: labels %v, annotations %v; want the set's ID and ConfigMap", got.GetLabels(), got.GetAnnotations())
	}
}
