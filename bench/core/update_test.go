package core_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/bench/internal/fixture"
)

// updateSizes are the numbers of stored objects BenchmarkUpdateOneChange runs at.
var updateSizes = []int{1_000, 10_000, 50_000}

// BenchmarkUpdateOneChange measures getting the full, current view of N ConfigMaps into the
// consumer's hands after one of them changed, each op delivering the change to the store
// first. Peers:
//
//   - kates: Accumulator.Update into []*corev1.ConfigMap (the store fed directly, with
//     managedFields stripped as kates.Watch does); kates-reuse: the same with
//     Options.ReuseSlices, which writes changes into the slice handed out last; kates-map: the
//     same into a map[string]*corev1.ConfigMap, which Update changes in place.
//   - json: the way kates used to fill a snapshot, the baseline: JSON-marshal every object of
//     the kind and unmarshal the lot into the slice.
//   - lister: a client-go typed informer's indexer and lister.List, which hands out the
//     stored pointers themselves, uncopied and unsorted: the floor for any view of N objects.
//   - controller-runtime: its cache-backed client's List into a ConfigMapList, which deep-copies
//     every stored object.
func BenchmarkUpdateOneChange(b *testing.B) {
	for _, n := range updateSizes {
		runPeers(b, fmt.Sprintf("N=%d/", n),
			peer{"kates", func(b *testing.B) {
				var snap struct{ ConfigMaps []*corev1.ConfigMap }
				benchKates(b, n, accumulator.Options{}, &snap, func() int { return len(snap.ConfigMaps) })
			}},
			peer{"kates-reuse", func(b *testing.B) {
				var snap struct{ ConfigMaps []*corev1.ConfigMap }
				benchKates(b, n, accumulator.Options{ReuseSlices: true}, &snap, func() int { return len(snap.ConfigMaps) })
			}},
			peer{"kates-map", func(b *testing.B) {
				var snap struct{ ConfigMaps map[string]*corev1.ConfigMap }
				benchKates(b, n, accumulator.Options{}, &snap, func() int { return len(snap.ConfigMaps) })
			}},
			peer{"json", func(b *testing.B) { benchJSON(b, n) }},
			peer{"lister", func(b *testing.B) { benchLister(b, n) }},
			peer{"controller-runtime", func(b *testing.B) { benchControllerRuntime(b, n) }},
		)
	}
}

// changed returns which object op i changes: a spread of keys, so no two consecutive ops hit
// the same region of a sorted view.
func changed(i, n int) int { return i * 7919 % n }

// changeBatch is how many change objects a changeSource builds at a time.
const changeBatch = 4096

// changeSource hands out the object each op changes, fresh every time (stores own what they
// are given), built in batches with the timer stopped: the benchmarks measure delivering and
// reading a change, not building it.
type changeSource[T any] struct {
	b     *testing.B
	n, rv int
	op    int
	build func(i, rv int) T
	batch []T
}

func newChangeSource[T any](b *testing.B, n int, build func(i, rv int) T) *changeSource[T] {
	return &changeSource[T]{b: b, n: n, rv: n, build: build}
}

func (c *changeSource[T]) next() T {
	if len(c.batch) == 0 {
		c.b.StopTimer()
		c.batch = make([]T, changeBatch)
		for k := range c.batch {
			c.rv++
			c.batch[k] = c.build(changed(c.op+k, c.n), c.rv)
		}
		c.b.StartTimer()
	}
	c.op++
	t := c.batch[0]
	c.batch = c.batch[1:]
	return t
}

func unstructuredChange(i, rv int) *unstructured.Unstructured { return fixture.ConfigMap(i, rv, true) }
func typedChange(i, rv int) *corev1.ConfigMap                 { return fixture.TypedConfigMap(i, rv, true) }

func benchKates(b *testing.B, n int, opts accumulator.Options, snap any, size func() int) {
	acc := newAccumulatorWith(b, opts)
	list := make([]any, n)
	for i := range n {
		list[i] = fixture.ConfigMap(i, 1+i, true)
	}
	st := acc.Store("ConfigMaps")
	if err := st.Replace(list, strconv.Itoa(n)); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := acc.Update(ctx, snap); err != nil {
		b.Fatal(err)
	}
	src := newChangeSource(b, n, unstructuredChange)
	b.ReportAllocs()
	for b.Loop() {
		if err := st.Update(src.next()); err != nil {
			b.Fatal(err)
		}
		if ok, err := acc.Update(ctx, snap); err != nil || !ok {
			b.Fatalf("Update = %v, %v", ok, err)
		}
	}
	if size() != n {
		b.Fatalf("%d objects, want %d", size(), n)
	}
}

func benchJSON(b *testing.B, n int) {
	objs := make([]*unstructured.Unstructured, n)
	for i := range n {
		objs[i] = fixture.ConfigMap(i, 1+i, true)
		stripManagedFields(objs[i])
	}
	var snap struct{ ConfigMaps []*corev1.ConfigMap }
	src := newChangeSource(b, n, unstructuredChange)
	b.ReportAllocs()
	for b.Loop() {
		u := src.next()
		stripManagedFields(u)
		ns, name := u.GetNamespace(), u.GetName()
		// The index of the object is in its name; the lookup is not the baseline's cost.
		j := indexOf(name)
		if objs[j].GetNamespace() != ns {
			b.Fatalf("object %d is %s/%s", j, ns, name)
		}
		objs[j] = u
		data, err := json.Marshal(objs)
		if err != nil {
			b.Fatal(err)
		}
		snap.ConfigMaps = nil
		if err := json.Unmarshal(data, &snap.ConfigMaps); err != nil {
			b.Fatal(err)
		}
	}
	if len(snap.ConfigMaps) != n {
		b.Fatalf("%d objects, want %d", len(snap.ConfigMaps), n)
	}
}

func benchLister(b *testing.B, n int) {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	list := make([]any, n)
	for i := range n {
		list[i] = fixture.TypedConfigMap(i, 1+i, true)
	}
	if err := idx.Replace(list, strconv.Itoa(n)); err != nil {
		b.Fatal(err)
	}
	lister := corev1listers.NewConfigMapLister(idx)
	var view []*corev1.ConfigMap
	src := newChangeSource(b, n, typedChange)
	b.ReportAllocs()
	for b.Loop() {
		if err := idx.Update(src.next()); err != nil {
			b.Fatal(err)
		}
		var err error
		if view, err = lister.List(labels.Everything()); err != nil {
			b.Fatal(err)
		}
	}
	if len(view) != n {
		b.Fatalf("%d objects, want %d", len(view), n)
	}
}

func benchControllerRuntime(b *testing.B, n int) {
	list := &corev1.ConfigMapList{}
	list.ResourceVersion = strconv.Itoa(n)
	for i := range n {
		list.Items = append(list.Items, *fixture.TypedConfigMap(i, 1+i, true))
	}
	c, inf := controllerRuntimeCache(b, list)
	ctx := context.Background()
	var view corev1.ConfigMapList
	src := newChangeSource(b, n, typedChange)
	b.ReportAllocs()
	for b.Loop() {
		if err := inf.GetIndexer().Update(src.next()); err != nil {
			b.Fatal(err)
		}
		if err := c.List(ctx, &view); err != nil {
			b.Fatal(err)
		}
	}
	if len(view.Items) != n {
		b.Fatalf("%d objects, want %d", len(view.Items), n)
	}
}

// indexOf returns i of the scripted ConfigMap named "cm-<i>".
func indexOf(name string) int {
	i, err := strconv.Atoi(name[len("cm-"):])
	if err != nil {
		panic(err)
	}
	return i
}
