package apply

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/kates"
)

// TestBatchOrderPutsCRDsThenNamespacesFirst: CustomResourceDefinitions, then Namespaces, then
// the rest in the order given; each CRD's kind is known by the name WaitFor takes.
func TestBatchOrderPutsCRDsThenNamespacesFirst(t *testing.T) {
	objs, err := kates.ParseUnstructuredManifests(`
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: ns}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec: {group: example.com, names: {kind: Widget, plural: widgets}, scope: Cluster}
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: ns}
`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBatch(nil, toAny(objs))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var sources []int
	for _, it := range b.items {
		got = append(got, it.obj.GetName())
		sources = append(sources, it.source.Document)
	}
	if diff := cmp.Diff([]string{"widgets.example.com", "ns", "a", "w", "s"}, got); diff != "" {
		t.Errorf("order mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{4, 3, 1, 2, 5}, sources); diff != "" {
		t.Errorf("documents mismatch (-want +got):\n%s", diff)
	}
	crd := b.crdKinds[b.items[2].gvk.GroupKind()]
	if len(b.crdKinds) != 1 || b.crdKinds[b.items[3].gvk.GroupKind()].resource != "widgets.example.com" || crd.resource != "" {
		t.Errorf("crdKinds = %v, want Widget.example.com as widgets.example.com", b.crdKinds)
	}
	if b.crdKinds[b.items[3].gvk.GroupKind()].namespaced {
		t.Errorf("Widget: namespaced, want cluster-scoped as its CRD says")
	}
}

func toAny[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
