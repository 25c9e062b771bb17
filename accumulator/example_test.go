package accumulator_test

import (
	"context"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/accumulator"
)

// configMap builds the object a reflector would decode.
func configMap(ns, name, rv string, data map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"namespace": ns, "name": name, "resourceVersion": rv, "uid": "uid-" + name},
		"data":       data,
	}}
}

// Feeding the stores by hand, as the reflectors of kates.Watch do: nothing is visible until
// the initial list arrived, and a burst of events is one signal and one Update.
func Example() {
	ctx := context.Background()
	acc, err := accumulator.New([]accumulator.QuerySpec{
		{Name: "ConfigMaps", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Namespace: "web"},
	}, accumulator.Options{})
	if err != nil {
		panic(err)
	}
	defer acc.Stop()
	store := acc.Store("ConfigMaps")

	var snap struct {
		ConfigMaps []*corev1.ConfigMap
	}
	ok, _ := acc.Update(ctx, &snap)
	fmt.Println("before the initial list:", ok, len(acc.Changed()))

	// The initial list, however many pages it took.
	_ = store.Replace([]any{
		configMap("web", "nginx", "10", map[string]any{"port": "80"}),
		configMap("web", "app", "11", map[string]any{"debug": "false"}),
	}, "11")
	<-acc.Changed()
	ok, _ = acc.Update(ctx, &snap)
	fmt.Println("after the initial list:", ok)
	for _, cm := range snap.ConfigMaps {
		fmt.Printf("  %s %v\n", cm.Name, cm.Data)
	}

	// A burst of events while the consumer is busy.
	for i, rv := range []string{"12", "13", "14"} {
		_ = store.Update(configMap("web", "nginx", rv, map[string]any{"port": fmt.Sprint(8080 + i)}))
	}
	fmt.Println("signals waiting:", len(acc.Changed()))
	<-acc.Changed()
	var deltas []*accumulator.Delta
	ok, _ = acc.UpdateWithDeltas(ctx, &snap, &deltas)
	fmt.Println("after the burst:", ok)
	for _, d := range deltas {
		fmt.Printf("  %s %s/%s@%s\n", d.DeltaType, d.Namespace, d.Name, d.ResourceVersion)
	}
	fmt.Printf("  nginx %v\n", snap.ConfigMaps[1].Data)

	// Output:
	// before the initial list: false 0
	// after the initial list: true
	//   app map[debug:false]
	//   nginx map[port:80]
	// signals waiting: 1
	// after the burst: true
	//   update web/nginx@14
	//   nginx map[port:8082]
}

// staticOverlay reports a fixed set of write records.
type staticOverlay []accumulator.Write

func (o staticOverlay) Writes(schema.GroupVersionKind) []accumulator.Write { return o }

// The client's own write shows before the watch delivers it, and the watch's copy of it later
// is no change.
func Example_overlay() {
	ctx := context.Background()
	created := configMap("web", "feature", "20", map[string]any{"on": "true"})
	acc, err := accumulator.New([]accumulator.QuerySpec{
		{Name: "ConfigMaps", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}},
	}, accumulator.Options{Overlay: staticOverlay{{
		Namespace: "web", Name: "feature", Object: created, ResourceVersion: "20",
	}}})
	if err != nil {
		panic(err)
	}
	defer acc.Stop()
	_ = acc.Store("ConfigMaps").Replace(nil, "19")

	var snap struct {
		ConfigMaps map[string]*unstructured.Unstructured
	}
	var deltas []*accumulator.Delta
	_, _ = acc.UpdateWithDeltas(ctx, &snap, &deltas)
	fmt.Println("before the watch:", slices.Sorted(maps.Keys(snap.ConfigMaps)), deltas[0].DeltaType)

	_ = acc.Store("ConfigMaps").Add(created.DeepCopy())
	ok, _ := acc.UpdateWithDeltas(ctx, &snap, &deltas)
	fmt.Println("after the watch:", slices.Sorted(maps.Keys(snap.ConfigMaps)), ok, len(deltas))

	// Output:
	// before the watch: [web/feature] add
	// after the watch: [web/feature] false 0
}

// FilteredUpdate keeps out what the predicate refuses; it judges each new version once.
func ExampleAccumulator_FilteredUpdate() {
	ctx := context.Background()
	acc, err := accumulator.New([]accumulator.QuerySpec{
		{Name: "ConfigMaps", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}},
	}, accumulator.Options{})
	if err != nil {
		panic(err)
	}
	defer acc.Stop()
	_ = acc.Store("ConfigMaps").Replace([]any{
		configMap("a", "small", "1", map[string]any{"size": "1"}),
		configMap("a", "huge", "2", map[string]any{"size": "1000"}),
	}, "2")

	var judged []string
	notHuge := func(u *unstructured.Unstructured) bool {
		judged = append(judged, u.GetName())
		size, _, _ := unstructured.NestedString(u.Object, "data", "size")
		return len(size) < 4
	}
	var snap struct {
		ConfigMaps []accumulator.Entry[*corev1.ConfigMap]
	}
	var deltas []*accumulator.Delta
	fmt.Println("first:")
	_, _ = acc.FilteredUpdate(ctx, &snap, &deltas, notHuge)
	slices.Sort(judged)
	fmt.Println("  judged:", judged)
	for _, e := range snap.ConfigMaps {
		fmt.Println("  in view:", e.Object.Name)
	}

	_ = acc.Store("ConfigMaps").Update(configMap("a", "huge", "3", map[string]any{"size": "10"}))
	fmt.Println("after huge shrank:")
	judged = nil
	_, _ = acc.FilteredUpdate(ctx, &snap, &deltas, notHuge)
	fmt.Println("  judged:", judged)
	for _, d := range deltas {
		fmt.Println("  delta:", d.DeltaType, d.Name)
	}

	// Output:
	// first:
	//   judged: [huge small]
	//   in view: small
	// after huge shrank:
	//   judged: [huge]
	//   delta: add huge
}
