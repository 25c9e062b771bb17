package kates_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// listRecorder records the query strings of the LIST requests (GETs that are not watches)
// sent for one resource.
type listRecorder struct {
	next     http.RoundTripper
	resource string

	mu    sync.Mutex
	lists []string
}

func (r *listRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	if req.Method == http.MethodGet && q.Get("watch") != "true" && strings.HasSuffix(req.URL.Path, "/"+r.resource) {
		r.mu.Lock()
		r.lists = append(r.lists, req.URL.RawQuery)
		r.mu.Unlock()
	}
	return r.next.RoundTrip(req)
}

func (r *listRecorder) recorded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lists...)
}

// TestWatchFirstListIsConsistent: the first list of every kind of query (typed, unstructured,
// metadata only) is a consistent read, not one at resourceVersion "0", which the API server
// answers from its watch cache as it stands, possibly without a write the client has just
// made.
func TestWatchFirstListIsConsistent(t *testing.T) {
	ns := newNamespace(t)
	rec := &listRecorder{resource: "configmaps"}
	cfg := cluster.RESTConfig()
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { rec.next = rt; return rec }
	c, err := kates.NewClientFromRESTConfig(cfg, ns)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	katestest.CreateConfigMaps(t, c, ns, "cm", 3)

	type snapshot struct {
		Typed    []*corev1.ConfigMap
		Whole    []*unstructured.Unstructured
		Metadata []*unstructured.Unstructured
	}
	acc, err := c.Watch(ctx,
		kates.Query{Name: "Typed", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=cm"},
		kates.Query{Name: "Whole", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=cm"},
		kates.Query{Name: "Metadata", Kind: "ConfigMap", Namespace: ns, LabelSelector: "set=cm", MetadataOnly: true})
	require.NoError(t, err)
	var snap snapshot
	nextSnapshot(t, ctx, acc, &snap)
	assert.Len(t, snap.Typed, 3)
	assert.Len(t, snap.Whole, 3)
	assert.Len(t, snap.Metadata, 3)

	lists := rec.recorded()
	require.GreaterOrEqual(t, len(lists), 2, "the typed and metadata queries list: %q", lists)
	for _, q := range lists {
		assert.NotContains(t, "&"+q+"&", "&resourceVersion=0&", "a list at any resource version: %s", q)
	}
}

// TestWatchShowsWritesMadeBeforeIt: an object the client created is in the first snapshot of
// every Watch begun after the create returned, time after time (the write is not recorded for
// coherence, as nothing watched its kind when it was made: the first list must be fresh).
func TestWatchShowsWritesMadeBeforeIt(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	type snapshot struct{ Pods []*corev1.Pod }
	for i := range 20 {
		require.NoError(t, c.Create(ctx, sharedPod(ns, i), nil))
		wctx, stop := context.WithCancel(ctx)
		acc, err := c.Watch(wctx, kates.Query{Name: "Pods", Kind: "Pod", Namespace: ns})
		require.NoError(t, err)
		var snap snapshot
		nextSnapshot(t, ctx, acc, &snap)
		stop()
		names := map[string]bool{}
		for _, p := range snap.Pods {
			names[p.Name] = true
		}
		require.Len(t, snap.Pods, i+1, "Watch %d's first snapshot: %v", i, names)
		require.True(t, names[fmt.Sprintf("web-%d", i)], "Watch %d's first snapshot lacks the Pod just created: %v", i, names)
	}
}
