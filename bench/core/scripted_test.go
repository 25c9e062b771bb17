package core_test

import (
	"context"
	"flag"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kates-dev/kates/accumulator"
)

var configMapGVK = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}

// controller-runtime complains, with a stack trace, when nothing takes its logs.
func init() { ctrllog.SetLogger(logr.Discard()) }

var reverse = flag.Bool("reverse", false, "run the peers of each benchmark in reverse order (hack/bench.sh alternates)")

// peer is one sub-benchmark of a comparison.
type peer struct {
	name string
	run  func(b *testing.B)
}

// runPeers runs peers as sub-benchmarks named prefix+name, in order or, with -reverse, in
// reverse order, so that alternating runs cancel out what running first or last does.
func runPeers(b *testing.B, prefix string, peers ...peer) {
	if *reverse {
		slices.Reverse(peers)
	}
	for _, p := range peers {
		b.Run(prefix+p.name, p.run)
	}
}

// scriptedLW is a ListerWatcher that lists a fixed list once and then delivers whatever the
// benchmark sends on events: an API server with nothing between it and the reflector.
type scriptedLW struct {
	list   runtime.Object
	events chan watch.Event
}

func newScriptedLW(list runtime.Object) *scriptedLW {
	return &scriptedLW{list: list, events: make(chan watch.Event, 100)}
}

func (lw *scriptedLW) List(metav1.ListOptions) (runtime.Object, error) { return lw.list, nil }

func (lw *scriptedLW) Watch(metav1.ListOptions) (watch.Interface, error) {
	return watch.NewProxyWatcher(lw.events), nil
}

// IsWatchListSemanticsUnSupported makes reflectors list, then watch: a scripted stream has no
// initial events and bookmark to send.
func (lw *scriptedLW) IsWatchListSemanticsUnSupported() bool { return true }

// unstructuredList wraps objects as the dynamic client's list.
func unstructuredList(objs []*unstructured.Unstructured, rv string) *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMapList"}}
	l.SetResourceVersion(rv)
	for _, o := range objs {
		l.Items = append(l.Items, *o)
	}
	return l
}

// stripManagedFields is the transform kates.Watch applies by default.
func stripManagedFields(u *unstructured.Unstructured) { u.SetManagedFields(nil) }

// newAccumulator returns an accumulator for ConfigMaps in every namespace, configured as
// kates.Watch configures it by default.
func newAccumulator(b *testing.B) *accumulator.Accumulator {
	return newAccumulatorWith(b, accumulator.Options{})
}

// newAccumulatorWith is newAccumulator with options (Transform is always kates.Watch's).
func newAccumulatorWith(b *testing.B, opts accumulator.Options) *accumulator.Accumulator {
	opts.Transform = stripManagedFields
	acc, err := accumulator.New([]accumulator.QuerySpec{{Name: "ConfigMaps", GVK: configMapGVK}}, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(acc.Stop)
	return acc
}

// runReflector feeds store from lw as kates.Watch does, until the benchmark ends.
func runReflector(b *testing.B, lw cache.ListerWatcher, store cache.ReflectorStore) {
	ctx, cancel := context.WithCancel(context.Background())
	expected := &unstructured.Unstructured{}
	expected.SetGroupVersionKind(configMapGVK)
	r := cache.NewReflectorWithOptions(lw, expected, store, cache.ReflectorOptions{Name: "bench", MinWatchTimeout: time.Hour})
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunWithContext(ctx)
	}()
	b.Cleanup(func() { cancel(); <-done })
}

// dynamicInformer returns an informer built as dynamicinformer builds one for a dynamic
// client: unstructured objects, indexed by namespace.
func dynamicInformer(lw cache.ListerWatcher) cache.SharedIndexInformer {
	return cache.NewSharedIndexInformerWithOptions(lw, &unstructured.Unstructured{}, cache.SharedIndexInformerOptions{
		Indexers: cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
	})
}

// startInformer runs inf until the benchmark ends and waits for its first list.
func startInformer(b *testing.B, inf cache.SharedIndexInformer) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.RunWithContext(ctx)
	}()
	b.Cleanup(func() { cancel(); <-done })
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		b.Fatal("informer did not sync")
	}
}

// controllerRuntimeCache returns a started controller-runtime cache of ConfigMaps whose
// informer lists list and watches nothing: the benchmark writes into the returned informer's
// indexer directly, as the accumulator benchmarks write into the accumulator's store.
func controllerRuntimeCache(b *testing.B, list *corev1.ConfigMapList) (crcache.Cache, cache.SharedIndexInformer) {
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(configMapGVK, meta.RESTScopeNamespace)
	var inf cache.SharedIndexInformer
	c, err := crcache.New(&rest.Config{Host: "http://127.0.0.1:1"}, crcache.Options{
		Scheme:     clientgoscheme.Scheme,
		Mapper:     mapper,
		HTTPClient: http.DefaultClient,
		NewInformer: func(_ cache.ListerWatcher, obj runtime.Object, resync time.Duration, idx cache.Indexers) cache.SharedIndexInformer {
			inf = cache.NewSharedIndexInformer(newScriptedLW(list), obj, resync, idx)
			return inf
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	if _, err := c.GetInformer(ctx, &corev1.ConfigMap{}, crcache.BlockUntilSynced(false)); err != nil {
		b.Fatal(err)
	}
	go func() {
		defer close(done)
		_ = c.Start(ctx)
	}()
	b.Cleanup(func() { cancel(); <-done })
	if !c.WaitForCacheSync(ctx) {
		b.Fatal("controller-runtime cache did not sync")
	}
	return c, inf
}
