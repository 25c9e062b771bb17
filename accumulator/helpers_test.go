package accumulator_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/accumulator"
)

var (
	configMapGVK  = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	deploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	namespaceGVK  = schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}
	podGVK        = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	widgetGVK     = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
)

// newCM returns a ConfigMap with a UID derived from its name and the given resource version
// and data (key, value pairs).
func newCM(ns, name, rv string, data ...string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata": map[string]any{
			"namespace":       ns,
			"name":            name,
			"uid":             "uid-" + ns + "-" + name,
			"resourceVersion": rv,
		},
	}}
	if len(data) > 0 {
		d := map[string]any{}
		for i := 0; i+1 < len(data); i += 2 {
			d[data[i]] = data[i+1]
		}
		u.Object["data"] = d
	}
	return u
}

func withLabels(u *unstructured.Unstructured, kv ...string) *unstructured.Unstructured {
	l := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		l[kv[i]] = kv[i+1]
	}
	u.SetLabels(l)
	return u
}

func withUID(u *unstructured.Unstructured, uid string) *unstructured.Unstructured {
	u.SetUID(types.UID(uid))
	return u
}

// loadObjects reads the multi-document YAML file testdata/accumulator/name.
func loadObjects(t testing.TB, name string) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile("../testdata/accumulator/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var objs []*unstructured.Unstructured
	for doc := range bytes.SplitSeq(data, []byte("\n---\n")) {
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(j); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		objs = append(objs, u)
	}
	return objs
}

// ofKind returns deep copies of the objects of kind gvk.
func ofKind(objs []*unstructured.Unstructured, gvk schema.GroupVersionKind) []any {
	var out []any
	for _, u := range objs {
		if u.GroupVersionKind() == gvk {
			out = append(out, u.DeepCopy())
		}
	}
	return out
}

func mustNew(t testing.TB, opts accumulator.Options, queries ...accumulator.QuerySpec) *accumulator.Accumulator {
	t.Helper()
	acc, err := accumulator.New(queries, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(acc.Stop)
	return acc
}

func cmQuery(name, ns string) accumulator.QuerySpec {
	return accumulator.QuerySpec{Name: name, GVK: configMapGVK, Namespace: ns}
}

// replace feeds a complete list to the store of query q.
func replace(t testing.TB, acc *accumulator.Accumulator, q, rv string, objs ...*unstructured.Unstructured) {
	t.Helper()
	list := make([]any, len(objs))
	for i, o := range objs {
		list[i] = o
	}
	if err := acc.Store(q).Replace(list, rv); err != nil {
		t.Fatal(err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// signalled reports whether Changed holds a signal, consuming it.
func signalled(acc *accumulator.Accumulator) bool {
	select {
	case _, ok := <-acc.Changed():
		return ok
	default:
		return false
	}
}

// update calls UpdateWithDeltas and fails the test on error.
func update(t testing.TB, acc *accumulator.Accumulator, target any) (bool, []*accumulator.Delta) {
	t.Helper()
	var deltas []*accumulator.Delta
	ok, err := acc.UpdateWithDeltas(context.Background(), target, &deltas)
	if err != nil {
		t.Fatalf("UpdateWithDeltas: %v", err)
	}
	return ok, deltas
}

// describe renders a snapshot field (any supported type) as sorted "ns/name@rv" strings, and
// checks that slices are sorted by namespace, then name.
func describe(t testing.TB, field any) []string {
	t.Helper()
	v := reflect.ValueOf(field)
	var out []string
	add := func(key string, e reflect.Value) {
		if e.Kind() == reflect.Struct {
			e = e.FieldByName("Object")
		}
		var ns, name, rv string
		switch o := e.Interface().(type) {
		case *unstructured.Unstructured:
			ns, name, rv = o.GetNamespace(), o.GetName(), o.GetResourceVersion()
		case interface {
			GetNamespace() string
			GetName() string
			GetResourceVersion() string
		}:
			ns, name, rv = o.GetNamespace(), o.GetName(), o.GetResourceVersion()
		default:
			t.Fatalf("describe: unexpected element %T", o)
		}
		s := name + "@" + rv
		if ns != "" {
			s = ns + "/" + s
		}
		if key != "" && key != strings.SplitN(s, "@", 2)[0] {
			t.Errorf("map key %q holds %s", key, s)
		}
		out = append(out, s)
	}
	switch v.Kind() {
	case reflect.Slice:
		for i := range v.Len() {
			add("", v.Index(i))
		}
		for i := 1; i < len(out); i++ {
			if !nsNameLess(out[i-1], out[i]) {
				t.Errorf("slice not sorted: %q before %q", out[i-1], out[i])
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			add(k.String(), v.MapIndex(k))
		}
		sortNsName(out)
	default:
		t.Fatalf("describe: %T", field)
	}
	return out
}

func splitNsName(s string) (string, string) {
	s, _, _ = strings.Cut(s, "@")
	if ns, name, ok := strings.Cut(s, "/"); ok {
		return ns, name
	}
	return "", s
}

func nsNameLess(a, b string) bool {
	ans, an := splitNsName(a)
	bns, bn := splitNsName(b)
	if ans != bns {
		return ans < bns
	}
	return an < bn
}

func sortNsName(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && nsNameLess(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// deltaStrings renders deltas as "type query ns/name@rv".
func deltaStrings(ds []*accumulator.Delta) []string {
	var out []string
	for _, d := range ds {
		key := d.Name
		if d.Namespace != "" {
			key = d.Namespace + "/" + d.Name
		}
		s := fmt.Sprintf("%s %s %s@%s", d.DeltaType, d.Query, key, d.ResourceVersion)
		// The delta's Object must be the version it names: the new one, or the last seen.
		switch o := d.Object; {
		case o == nil:
			s += " (no Object)"
		case o.GetNamespace() != d.Namespace || o.GetName() != d.Name || o.GetResourceVersion() != d.ResourceVersion:
			s += fmt.Sprintf(" (Object %s/%s@%s)", o.GetNamespace(), o.GetName(), o.GetResourceVersion())
		}
		out = append(out, s)
	}
	return out
}

func typesUID(s string) types.UID { return types.UID(s) }
