package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/kates-dev/kates/kates"
)

// kind is one kind the benchmarks watch, named as each peer names it.
type kind struct {
	name  string // kates' query kind, and the snapshot field is name+"s"
	gvr   schema.GroupVersionResource
	typed client.Object // controller-runtime's
}

var (
	configMaps = kind{"ConfigMap", corev1.SchemeGroupVersion.WithResource("configmaps"), &corev1.ConfigMap{}}

	pods = kind{"Pod", corev1.SchemeGroupVersion.WithResource("pods"), &corev1.Pod{}}
)

// session is one peer watching kinds in one namespace. Prepare builds its clients and looks up
// its kinds (outside any measurement: every peer needs that once per program); Start starts
// watching and returns once the peer's view of every kind is complete; Stop stops watching and
// waits until the peer's goroutines are done.
type session struct {
	prepare func(b *testing.B)
	start   func(ctx context.Context) error
	// view returns what holds the peer's view, for measuring it.
	view func() any
	stop func()
	// snapshotTime is how long the last Start spent in kates' first Update, after the
	// Accumulator was complete; zero for other peers.
	snapshotTime time.Duration
}

// run starts s and returns a stop function.
func (s *session) run(b *testing.B) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.start(ctx); err != nil {
		cancel()
		b.Fatal(err)
	}
	return func() { cancel(); s.stop() }
}

// katesSession watches kinds with Client.WatchWith. With snapshot set, Start also calls
// Update into it once the Accumulator is complete (the consumer's first snapshot); snapshot is
// a pointer to a struct with one field per kind, named after it ("ConfigMaps").
func katesSession(ns string, opts kates.WatchOptions, snapshot any, kinds ...kind) *session {
	return katesQuerySession(ns, opts, false, snapshot, kinds...)
}

// katesQuerySession is katesSession whose queries ask for metadata only when metadataOnly is set.
func katesQuerySession(ns string, opts kates.WatchOptions, metadataOnly bool, snapshot any, kinds ...kind) *session {
	var (
		c   *kates.Client
		acc *kates.Accumulator
	)
	s := &session{}
	s.prepare = func(b *testing.B) {
		var err error
		if c, err = kates.NewClientFromRESTConfig(config(), ns); err != nil {
			b.Fatal(err)
		}
		for _, k := range kinds {
			if _, err := c.Mapping(k.name); err != nil {
				b.Fatal(err)
			}
		}
	}
	s.start = func(ctx context.Context) error {
		queries := make([]kates.Query, len(kinds))
		for i, k := range kinds {
			queries[i] = kates.Query{Name: k.name + "s", Kind: k.name, Namespace: ns, MetadataOnly: metadataOnly}
		}
		var err error
		if acc, err = c.WatchWith(ctx, opts, queries...); err != nil {
			return err
		}
		<-acc.Changed()
		if snapshot == nil {
			return nil
		}
		begin := time.Now()
		defer func() { s.snapshotTime = time.Since(begin) }()
		ok, err := acc.Update(ctx, snapshot)
		if err == nil && !ok {
			err = fmt.Errorf("first Update of a complete Accumulator changed nothing")
		}
		return err
	}
	s.view = func() any { return []any{acc, snapshot} }
	s.stop = func() {
		for range acc.Changed() { // closed once every goroutine of the Watch is done
		}
	}
	return s
}

// informerSession watches kinds with bare client-go dynamic informers, one per kind from a
// namespace-filtered dynamicinformer factory, with their default options; complete means every
// informer HasSynced (waited for without polling). With handler set, it is added to each.
func informerSession(ns string, handler cache.ResourceEventHandler, kinds ...kind) *session {
	var (
		f    dynamicinformer.DynamicSharedInformerFactory
		infs []cache.SharedIndexInformer
	)
	s := &session{}
	s.prepare = func(b *testing.B) {
		dyn, err := dynamic.NewForConfig(config())
		if err != nil {
			b.Fatal(err)
		}
		f = dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, ns, nil)
		infs = nil
		for _, k := range kinds {
			inf := f.ForResource(k.gvr).Informer()
			if handler != nil {
				if _, err := inf.AddEventHandler(handler); err != nil {
					b.Fatal(err)
				}
			}
			infs = append(infs, inf)
		}
	}
	s.start = func(ctx context.Context) error {
		f.Start(ctx.Done())
		checkers := make([]cache.DoneChecker, len(infs))
		for i, inf := range infs {
			checkers[i] = inf.HasSyncedChecker()
		}
		if !cache.WaitFor(ctx, "", checkers...) {
			return fmt.Errorf("informers did not sync")
		}
		return nil
	}
	s.view = func() any { return infs }
	s.stop = func() { f.Shutdown() }
	return s
}

// controllerRuntimeSession watches kinds with controller-runtime's cache (the cache behind a
// manager's client) restricted to ns, with its default options; complete means every
// informer has synced (waited for without polling: the cache's own WaitForCacheSync polls
// every 100 ms). With handler set, it is added to each informer.
func controllerRuntimeSession(ns string, handler cache.ResourceEventHandler, kinds ...kind) *session {
	return controllerRuntimeSessionWith(ns, handler, crcache.Options{}, kinds...)
}

// controllerRuntimeSessionWith is controllerRuntimeSession with opts as the cache's options
// (its HTTPClient, Scheme, Mapper and DefaultNamespaces are set here).
func controllerRuntimeSessionWith(ns string, handler cache.ResourceEventHandler, opts crcache.Options, kinds ...kind) *session {
	var (
		c    crcache.Cache
		done chan struct{}
	)
	s := &session{}
	s.prepare = func(b *testing.B) {
		cfg := config()
		hc, err := rest.HTTPClientFor(cfg)
		if err != nil {
			b.Fatal(err)
		}
		mapper, err := apiutil.NewDynamicRESTMapper(cfg, hc)
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range kinds {
			if _, err := mapper.RESTMapping(k.gvr.GroupVersion().WithKind(k.name).GroupKind()); err != nil {
				b.Fatal(err)
			}
		}
		o := opts
		o.HTTPClient, o.Scheme, o.Mapper = hc, clientgoscheme.Scheme, mapper
		o.DefaultNamespaces = map[string]crcache.Config{ns: {}}
		c, err = crcache.New(cfg, o)
		if err != nil {
			b.Fatal(err)
		}
	}
	s.start = func(ctx context.Context) error {
		var checkers []cache.DoneChecker
		for _, k := range kinds {
			inf, err := c.GetInformer(ctx, k.typed.DeepCopyObject().(client.Object), crcache.BlockUntilSynced(false))
			if err != nil {
				return err
			}
			if handler != nil {
				if _, err := inf.AddEventHandler(handler); err != nil {
					return err
				}
			}
			checkers = append(checkers, inf.HasSyncedChecker())
		}
		done = make(chan struct{})
		go func() {
			defer close(done)
			_ = c.Start(ctx)
		}()
		if !cache.WaitFor(ctx, "", checkers...) {
			return fmt.Errorf("controller-runtime cache did not sync")
		}
		return nil
	}
	s.view = func() any { return c }
	s.stop = func() { <-done }
	return s
}
