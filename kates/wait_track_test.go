package kates

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func testMapping(group, version, kind, resource string, namespaced bool) *meta.RESTMapping {
	scope := meta.RESTScopeRoot
	if namespaced {
		scope = meta.RESTScopeNamespace
	}
	return &meta.RESTMapping{
		Resource:         schema.GroupVersionResource{Group: group, Version: version, Resource: resource},
		GroupVersionKind: schema.GroupVersionKind{Group: group, Version: version, Kind: kind},
		Scope:            scope,
	}
}

var (
	deployMapping = testMapping("apps", "v1", "Deployment", "deployments", true)
	cmMapping     = testMapping("", "v1", "ConfigMap", "configmaps", true)
	rsMapping     = testMapping("apps", "v1", "ReplicaSet", "replicasets", true)
	crdMapping    = testMapping("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false)
)

func namedRow(m *meta.RESTMapping, ns, name string) *trackRow {
	r := &trackRow{ref: ObjectRef{Kind: m.GroupVersionKind.Kind, Namespace: ns, Name: name}}
	r.resolved(m, "default")
	return r
}

func selectionRow(m *meta.RESTMapping, ns, sel string, all bool) *trackRow {
	r := &trackRow{ref: ObjectRef{Kind: m.GroupVersionKind.Kind, Namespace: ns, LabelSelector: sel, AllNamespaces: all}}
	r.selector, _ = labels.Parse(sel)
	r.resolved(m, "default")
	return r
}

func TestPlanPartOneQueryPerKindAndNamespace(t *testing.T) {
	tests := []struct {
		name    string
		rows    []*trackRow
		related bool
		want    []Query
		// rowQuery is the index of the query each row reads.
		rowQuery []int
	}{
		{
			name:     "one object: a field selector",
			rows:     []*trackRow{namedRow(cmMapping, "a", "x")},
			want:     []Query{{Name: "Q0ConfigMap", Kind: "configmaps", Namespace: "a", FieldSelector: "metadata.name=x"}},
			rowQuery: []int{0},
		},
		{
			name: "several objects of a kind in a namespace: one namespace query",
			rows: []*trackRow{namedRow(cmMapping, "a", "x"), namedRow(cmMapping, "a", "y"), namedRow(cmMapping, "b", "x"), namedRow(cmMapping, "a", "x")},
			want: []Query{
				{Name: "Q0ConfigMap", Kind: "configmaps", Namespace: "a"},
				{Name: "Q1ConfigMap", Kind: "configmaps", Namespace: "b", FieldSelector: "metadata.name=x"},
			},
			rowQuery: []int{0, 0, 1, 0},
		},
		{
			name: "related kinds per namespace, shared with the objects of those kinds",
			rows: []*trackRow{namedRow(deployMapping, "a", "web"), namedRow(deployMapping, "a", "api"), namedRow(rsMapping, "a", "web-1"),
				namedRow(crdMapping, "ignored", "widgets.example.com")},
			related: true,
			want: []Query{
				{Name: "Q0ReplicaSet", Kind: "replicasets.v1.apps", Namespace: "a"},
				{Name: "Q1Pod", Kind: "pods", Namespace: "a"},
				{Name: "Q2Deployment", Kind: "deployments.v1.apps", Namespace: "a"},
				{Name: "Q3CustomResourceDefinition", Kind: "customresourcedefinitions.v1.apiextensions.k8s.io", FieldSelector: "metadata.name=widgets.example.com"},
			},
			rowQuery: []int{2, 2, 0, 3},
		},
		{
			name: "selections keep their selectors and may span every namespace",
			rows: []*trackRow{selectionRow(cmMapping, "a", "app=web", false), selectionRow(cmMapping, "", "", true), namedRow(cmMapping, "a", "x")},
			want: []Query{
				{Name: "Q0ConfigMap", Kind: "configmaps", Namespace: "a", LabelSelector: "app=web"},
				{Name: "Q1ConfigMap", Kind: "configmaps"},
				{Name: "Q2ConfigMap", Kind: "configmaps", Namespace: "a", FieldSelector: "metadata.name=x"},
			},
			rowQuery: []int{0, 1, 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, got := planPart(tt.rows, tt.related)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("planPart queries mismatch (-want +got):\n%s", diff)
			}
			var rowQuery []int
			for _, r := range tt.rows {
				rowQuery = append(rowQuery, r.query)
				if r.part != p {
					t.Errorf("row %s not pointed at the part", r.ref)
				}
			}
			if diff := cmp.Diff(tt.rowQuery, rowQuery); diff != "" {
				t.Errorf("rows' queries mismatch (-want +got):\n%s", diff)
			}
			if n := p.snap.Elem().NumField(); n != len(got) {
				t.Errorf("snapshot struct has %d fields for %d queries", n, len(got))
			}
		})
	}
}
