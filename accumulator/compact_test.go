package accumulator_test

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/zstdcompact"
)

// compactSnapshot is typedSnapshot's compact twin.
type compactSnapshot struct {
	ConfigMaps  []accumulator.Compact[*corev1.ConfigMap]
	Deployments map[string]accumulator.Compact[*appsv1.Deployment]
	Pods        []accumulator.Compact[*corev1.Pod]
}

// asTyped decodes every element of s into the typedSnapshot a struct view holds.
func (s *compactSnapshot) asTyped(t testing.TB) typedSnapshot {
	t.Helper()
	var out typedSnapshot
	for _, c := range s.ConfigMaps {
		out.ConfigMaps = append(out.ConfigMaps, accumulator.Entry[*corev1.ConfigMap]{Object: mustGet(t, c), Status: c.Status()})
	}
	if s.Deployments != nil {
		out.Deployments = map[string]accumulator.Entry[*appsv1.Deployment]{}
	}
	for k, c := range s.Deployments {
		out.Deployments[k] = accumulator.Entry[*appsv1.Deployment]{Object: mustGet(t, c), Status: c.Status()}
	}
	for _, c := range s.Pods {
		out.Pods = append(out.Pods, mustGet(t, c))
	}
	return out
}

// mustGet decodes c, checking the accessors that read its encoding against the object.
func mustGet[T interface{ GetName() string }](t testing.TB, c accumulator.Compact[T]) T {
	t.Helper()
	obj, err := c.Get()
	if err != nil {
		t.Fatal(err)
	}
	m := any(obj).(metav1.Object)
	if c.Name() != m.GetName() || c.Namespace() != m.GetNamespace() || c.ResourceVersion() != m.GetResourceVersion() {
		t.Errorf("Compact accessors say %s/%s@%s; object is %s/%s@%s", c.Namespace(), c.Name(), c.ResourceVersion(),
			m.GetNamespace(), m.GetName(), m.GetResourceVersion())
	}
	return obj
}

// TestCompactAndStructViewsAgree runs TestTypedAndUnstructuredStoresAgree's script (a
// bootstrap, adds, updates and deletes, the client's own writes and the store catching up, a
// predicate, Updates into other struct types) into compact fields, from stores that compact at
// Update (fed typed objects, no Options.Snapshot) and stores that compact as objects arrive
// (Options.Snapshot; fed typed, as kates' protobuf decoding does, and unstructured, as its JSON
// fallback does), and checks that what the compact views decode, with their statuses and
// deltas, is what the typed store's struct view holds, step by step.
func TestCompactAndStructViewsAgree(t *testing.T) {
	objs := loadObjects(t, "objects.yaml")
	var cms, deploys []*unstructured.Unstructured
	for _, u := range objs {
		switch u.GroupVersionKind() {
		case configMapGVK:
			cms = append(cms, u)
		case deploymentGVK:
			deploys = append(deploys, u)
		}
	}
	cms = append(cms, manyCMs(3, 200)...)
	pods := []*unstructured.Unstructured{
		newPod("a", "p1", "300", "Running"),
		withStatus(newPod("a", "p2", "301", "Pending"), []string{"status", "conditions"},
			[]any{map[string]any{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}}),
	}
	var want []string
	t.Run("struct", func(t *testing.T) { want = scriptTypedStream(t, storeForms[1], cms, deploys, pods) })

	held := func(o *accumulator.Options) { o.Snapshot = (*compactSnapshot)(nil) }
	compressed := func(o *accumulator.Options) { o.Compressor = zstdcompact.New() }
	heldCompressed := func(o *accumulator.Options) { held(o); compressed(o) }
	unstructuredCopy := func(_ testing.TB, u *unstructured.Unstructured) any { return u.DeepCopy() }
	for _, form := range []storeForm{
		{"compact at update", func(*accumulator.Options) {}, toTyped},
		{"compact on arrival", held, toTyped},
		{"compact on arrival, unstructured", held, unstructuredCopy},
		{"compressed at update", compressed, toTyped},
		{"compressed on arrival", heldCompressed, toTyped},
		{"compressed on arrival, unstructured", heldCompressed, unstructuredCopy},
	} {
		t.Run(form.name, func(t *testing.T) {
			var snap compactSnapshot
			got := scriptStream(t, form, cms, deploys, pods, &snap, func() any { return snap.asTyped(t) })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("compact view differs from the struct view (-struct +compact):\n%s", diff)
			}
		})
	}
}

// TestCompactGetIsTheCallersOwn: an object Get returns is new each time; editing it changes
// nothing the view holds, nor what the next Get or another snapshot decodes.
func TestCompactGetIsTheCallersOwn(t *testing.T) {
	for _, compress := range []bool{false, true} {
		t.Run("compress="+strconv.FormatBool(compress), func(t *testing.T) { testCompactGetIsTheCallersOwn(t, compress) })
	}
}

func testCompactGetIsTheCallersOwn(t *testing.T, compress bool) {
	opts := accumulator.Options{Snapshot: (*compactSnapshot)(nil)}
	if compress {
		opts.Compressor = zstdcompact.New()
	}
	acc := mustNew(t, opts,
		cmQuery("ConfigMaps", ""),
		accumulator.QuerySpec{Name: "Deployments", GVK: deploymentGVK},
		accumulator.QuerySpec{Name: "Pods", GVK: podGVK})
	replace(t, acc, "ConfigMaps", "10", withLabels(newCM("a", "one", "5", "k", "v"), "app", "web"))
	replace(t, acc, "Deployments", "10")
	replace(t, acc, "Pods", "10", newPod("a", "p", "6", "Running"))
	var snap compactSnapshot
	var ds []*accumulator.Delta
	if _, err := acc.UpdateWithDeltas(context.Background(), &snap, &ds); err != nil {
		t.Fatal(err)
	}
	if len(snap.ConfigMaps) != 1 || len(snap.Pods) != 1 {
		t.Fatalf("snapshot holds %d ConfigMaps and %d Pods; want 1 and 1", len(snap.ConfigMaps), len(snap.Pods))
	}
	first := mustGet(t, snap.ConfigMaps[0])
	if plain, err := first.Marshal(); err != nil {
		t.Fatal(err)
	} else if size := snap.ConfigMaps[0].Size(); (size < len(plain)) != compress {
		t.Errorf("Size() = %d against an encoding of %d; want it smaller exactly when compressed (%v)", size, len(plain), compress)
	}
	first.Data["k"] = "edited"
	first.Labels["app"] = "edited"
	again := mustGet(t, snap.ConfigMaps[0])
	if again == first || again.Data["k"] != "v" || again.Labels["app"] != "web" {
		t.Errorf("a second Get gives %p with data %v labels %v; want a new object with k=v, app=web", again, again.Data, again.Labels)
	}
	meta, err := snap.ConfigMaps[0].Meta()
	if err != nil || meta.Labels["app"] != "web" {
		t.Errorf("Meta() = %v, %v; want labels app=web", meta, err)
	}
	// Deltas carry the object's metadata, decoded for them.
	for _, d := range ds {
		if d.Object == nil || d.Object.GetName() != d.Name {
			t.Errorf("delta %s %s/%s has Object %v", d.DeltaType, d.Namespace, d.Name, d.Object)
		}
	}
	// Running without a Ready condition.
	if st := snap.Pods[0].Status(); st.Status != kstatus.InProgressStatus || len(st.Conditions) == 0 {
		t.Errorf("Pod status %v; want InProgress with a condition", st)
	}
	// Into a struct field: the objects are decoded, new.
	var structs typedSnapshot
	if _, err := acc.Update(context.Background(), &structs); err != nil {
		t.Fatal(err)
	}
	if got := structs.ConfigMaps[0].Object.Data["k"]; got != "v" {
		t.Errorf("a struct snapshot after the edit holds k=%q; want v", got)
	}
	var zero accumulator.Compact[*corev1.Pod]
	if _, err := zero.Get(); err == nil || zero.Name() != "" || zero.Size() != 0 {
		t.Errorf("the zero Compact: Get err %v, Name %q, Size %d; want an error, \"\", 0", err, zero.Name(), zero.Size())
	}
}

// TestCompactNeedsARegisteredKind: a custom resource has no compact form; New says so when
// Options.Snapshot names the field, and Update when it is asked to fill one.
func TestCompactNeedsARegisteredKind(t *testing.T) {
	type widget struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata"`
	}
	var snap struct {
		Widgets []accumulator.Compact[*widget]
	}
	q := accumulator.QuerySpec{Name: "Widgets", GVK: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}}
	_, err := accumulator.New([]accumulator.QuerySpec{q}, accumulator.Options{Snapshot: &snap})
	if err == nil || !strings.Contains(err.Error(), "compact") {
		t.Errorf("New with a compact custom resource field: %v; want an error about compact mode", err)
	}
	acc := mustNew(t, accumulator.Options{}, q)
	replace(t, acc, "Widgets", "1")
	if _, err := acc.Update(context.Background(), &snap); err == nil || !strings.Contains(err.Error(), "compact") {
		t.Errorf("Update into a compact custom resource field: %v; want an error about compact mode", err)
	}
	if reflect.TypeFor[accumulator.Compact[*corev1.Pod]]().Size() != 8 {
		t.Errorf("Compact is %d bytes; want one pointer", reflect.TypeFor[accumulator.Compact[*corev1.Pod]]().Size())
	}
}

// shardByLabelOf places any object by its "shard" label: typed, unstructured, or the metadata
// a compact store keeps of a streamed list's items.
func shardByLabelOf(m metav1.Object) int {
	n, _ := strconv.Atoi(m.GetLabels()["shard"])
	return n
}

func describeCompact[T any](cs []accumulator.Compact[T]) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Namespace()+"/"+c.Name()+"@"+c.ResourceVersion())
	}
	return out
}

// TestCompactShardFeeds is TestShardFeeds into a compact store, fed typed objects as kates'
// protobuf decoding gives them (and a list through the store's Transformer, as kates streams
// one): placement, the client's writes matched by shard, a shard added, one moved away
// (ObjectMoved), give the same views and deltas as for structs.
func TestCompactShardFeeds(t *testing.T) {
	for _, compress := range []bool{false, true} {
		t.Run("compress="+strconv.FormatBool(compress), func(t *testing.T) { testCompactShardFeeds(t, compress) })
	}
}

func testCompactShardFeeds(t *testing.T, compress bool) {
	ov := &fakeOverlay{}
	spec := cmQuery("ConfigMaps", "")
	spec.ShardOf = shardByLabelOf
	var snap struct {
		ConfigMaps []accumulator.Compact[*corev1.ConfigMap]
	}
	opts := accumulator.Options{Overlay: ov, Snapshot: &snap}
	if compress {
		opts.Compressor = zstdcompact.New()
	}
	acc := mustNew(t, opts, spec)
	st := acc.Store("ConfigMaps")
	if !st.Compact() {
		t.Fatal("the store does not compact")
	}
	st.Own(0)
	st.Own(1)
	f0, f1 := st.NewFeed(0), st.NewFeed(1)
	typed := func(u *unstructured.Unstructured) any { return toTyped(t, u) }
	feed := func(f *accumulator.Feed, rv string, objs ...*unstructured.Unstructured) {
		t.Helper()
		var list []any
		for _, o := range objs {
			a, err := f.Transformer()(typed(o))
			must(t, err)
			list = append(list, a)
		}
		must(t, f.Replace(list, rv))
	}
	step := func(what string, wantDeltas []string) {
		t.Helper()
		var ds []*accumulator.Delta
		if _, err := acc.UpdateWithDeltas(context.Background(), &snap, &ds); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantDeltas, deltaStrings(ds)); diff != "" {
			t.Errorf("%s: deltas mismatch (-want +got):\n%s", what, diff)
		}
	}

	all := []*unstructured.Unstructured{inShard("a", "x0", "5", 0), inShard("a", "y1", "6", 1), inShard("a", "z2", "7", 2)}
	feed(f0, "10", all...)
	feed(f1, "11", all...)
	step("bootstrap", []string{"add ConfigMaps a/x0@5", "add ConfigMaps a/y1@6"})
	must(t, f0.Add(typed(inShard("a", "w2", "12", 2))))
	must(t, f1.Update(typed(inShard("a", "y1", "13", 1))))
	feed(f0, "14", inShard("a", "x0", "5", 0), inShard("a", "v0", "14", 0))
	step("events", []string{"add ConfigMaps a/v0@14", "update ConfigMaps a/y1@13"})

	ov.set(configMapGVK, written(inShard("a", "u2", "20", 2)), written(inShard("a", "t0", "21", 0)))
	step("writes", []string{"add ConfigMaps a/t0@21"})
	ov.set(configMapGVK)

	st.Own(2)
	f2 := st.NewFeed(2)
	feed(f2, "22", inShard("a", "z2", "7", 2))
	<-f2.Synced()
	step("shard added", []string{"delete ConfigMaps a/t0@21", "add ConfigMaps a/z2@7"})

	st.MoveOut(0)
	f0.Close()
	step("moved out", []string{"moved ConfigMaps a/v0@14", "moved ConfigMaps a/x0@5"})
	if diff := cmp.Diff([]string{"a/y1@13", "a/z2@7"}, describeCompact(snap.ConfigMaps)); diff != "" {
		t.Errorf("view after MoveOut mismatch (-want +got):\n%s", diff)
	}
	for _, c := range snap.ConfigMaps {
		if obj := mustGet(t, c); obj.Labels["shard"] == "" {
			t.Errorf("%s decoded without its labels", c.Name())
		}
	}
}
