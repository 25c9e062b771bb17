package kates_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/kates"
)

func TestParseManifestsMixed(t *testing.T) {
	data, err := os.ReadFile("../testdata/manifests/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := kates.ParseManifests(string(data))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = typeAndName(got, o)
	}
	want := []string{"*v1.Deployment web", "*unstructured.Unstructured w", "*v1.ConfigMap a", "*v1.Service b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseManifests mismatch (-want +got):\n%s", diff)
	}
	if d := objs[0].(*kates.Deployment); *d.Spec.Replicas != 2 || d.Namespace != "demo" {
		t.Errorf("Deployment not decoded: replicas %v namespace %q", d.Spec.Replicas, d.Namespace)
	}
}

func typeAndName(out []string, o kates.Object) []string {
	return append(out, fmt.Sprintf("%T %s", o, o.GetName()))
}

func TestParseManifestsJSON(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
	}{
		{"object", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`, 1},
		{"stream", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}} {"apiVersion":"v1","kind":"Secret","metadata":{"name":"b"}}`, 2},
		{"array", `[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}},{"apiVersion":"v1","kind":"Secret","metadata":{"name":"b"}}]`, 2},
		{"empty", "", 0},
		{"only comments", "# hello\n---\n# world\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := kates.ParseManifests(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != tt.want {
				t.Errorf("got %d objects, want %d", len(objs), tt.want)
			}
		})
	}
}

func TestParseManifestsErrorsNameTheDocument(t *testing.T) {
	tests := []struct {
		name, text string
		doc        int
		mention    string
	}{
		{"bad yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: [oops\n", 2, "invalid YAML"},
		{"no kind", "apiVersion: v1\nmetadata: {name: a}\n", 1, "missing kind"},
		// A leading "---" opens the first document, as in YAML: the second is the bad one.
		{"no apiVersion", "---\n---\nkind: ConfigMap\nmetadata: {name: a}\n", 2, "missing apiVersion"},
		{"scalar", "just a string\n", 1, "not an object"},
		{"bad metadata", "apiVersion: v1\nkind: ConfigMap\nmetadata: 5\n", 1, "metadata"},
		{"bad field type", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: many}\n", 1, "Deployment d"},
		{"bad json", `{"apiVersion": "v1",`, 1, "invalid JSON"},
		{"bad list item", "apiVersion: v1\nkind: List\nitems: [5]\n", 1, "item 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := kates.ParseManifests(tt.text)
			if err == nil {
				t.Fatalf("no error; got %d objects", len(objs))
			}
			if objs != nil {
				t.Errorf("got %d objects beside the error, want none", len(objs))
			}
			var me *kates.ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %T is not a *ManifestError: %v", err, err)
			}
			if me.Document != tt.doc || !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error %q: want document %d mentioning %q", err, tt.doc, tt.mention)
			}
		})
	}
}

func FuzzParseManifests(f *testing.F) {
	if data, err := os.ReadFile("../testdata/manifests/mixed.yaml"); err == nil {
		f.Add(string(data))
	}
	f.Add(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}]}`)
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, labels: {x: 1}}\ndata: {k: 2}\n")
	f.Add("[1, 2]")
	f.Add("---\n- a\n- b\n")
	f.Fuzz(func(t *testing.T, text string) {
		objs, err := kates.ParseManifests(text)
		if err != nil && objs != nil {
			t.Fatalf("objects returned beside error %v", err)
		}
		for _, o := range objs {
			if o == nil || o.GetObjectKind().GroupVersionKind().Kind == "" {
				t.Fatalf("object without kind: %#v", o)
			}
		}
		written, werr := kates.ParseUnstructuredManifests(text)
		if werr != nil && written != nil {
			t.Fatalf("ParseUnstructuredManifests: objects returned beside error %v", werr)
		}
		// As written reads everything the typed parse reads (and more: a field of the wrong
		// type is the server's to refuse).
		if err == nil && (werr != nil || len(written) != len(objs)) {
			t.Fatalf("ParseManifests read %d objects, ParseUnstructuredManifests %d (error %v)", len(objs), len(written), werr)
		}
	})
}

// TestParseUnstructuredManifestsKeepsWhatWasWritten checks what ParseManifests' typed
// conversion would lose: a misspelled field, a value of the wrong type; and the document
// numbers, which count Lists and empty documents as documents.
func TestParseUnstructuredManifestsKeepsWhatWasWritten(t *testing.T) {
	text := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec: {replicass: 2, replicas: three}
---
# only a comment
---
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
`
	objs, err := kates.ParseUnstructuredManifests(text)
	if err != nil {
		t.Fatal(err)
	}
	type doc struct {
		Document int
		Name     string
		Spec     any
	}
	var got []doc
	for _, o := range objs {
		got = append(got, doc{o.Document, o.Object.GetName(), o.Object.Object["spec"]})
	}
	want := []doc{
		{1, "web", map[string]any{"replicass": int64(2), "replicas": "three"}},
		{3, "a", nil},
		{3, "b", nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseUnstructuredManifests mismatch (-want +got):\n%s", diff)
	}
	if _, err := kates.ParseManifests(text); err == nil || !strings.Contains(err.Error(), "document 1") {
		t.Errorf("ParseManifests of a value of the wrong type = %v, want an error naming document 1", err)
	}
}
