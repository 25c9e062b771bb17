package apply

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/kates"
)

// TestBatchOrderPutsCRDsThenNamespacesFirst: CustomResourceDefinitions, then Namespaces, then
// the rest in the order given; each CRD's kind is known by the name WaitFor takes.
func TestBatchOrderPutsCRDsThenNamespacesFirst(t *testing.T) {
	data, err := os.ReadFile("../testdata/manifests/crd-batch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := kates.ParseUnstructuredManifests(string(data))
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
