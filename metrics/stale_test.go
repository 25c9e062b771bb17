package metrics_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
)

// replayingProxy stands between a client and the API server and, in the JSON watch streams of
// ConfigMaps it forwards, sends events from the past as a lagging or misbehaving server would:
// after each MODIFIED event of an object, the one before it again (an older version), and
// after each DELETED event, the object's last ADDED or MODIFIED event again (a deleted object
// brought back).
type replayingProxy struct {
	mu       sync.Mutex
	last     map[string][]byte // object name → its latest ADDED or MODIFIED event line
	replayed int
}

func (p *replayingProxy) start(t *testing.T, cfg *rest.Config) *rest.Config {
	t.Helper()
	target, err := url.Parse(cfg.Host)
	require.NoError(t, err)
	transport, err := rest.TransportFor(cfg)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = transport
	proxy.FlushInterval = -1
	director := proxy.Director
	proxy.Director = func(req *http.Request) {
		director(req)
		req.Header.Del("Accept-Encoding") // the streams are edited: no compression
	}
	proxy.ModifyResponse = func(resp *http.Response) error {
		q := resp.Request.URL.Query()
		if resp.StatusCode == http.StatusOK && (q.Get("watch") == "true" || q.Get("watch") == "1") &&
			strings.HasSuffix(resp.Request.URL.Path, "/configmaps") && strings.Contains(resp.Header.Get("Content-Type"), "json") {
			pr, pw := io.Pipe()
			go p.replay(resp.Body, pw)
			resp.Body = pr
		}
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return &rest.Config{Host: srv.URL, QPS: -1}
}

// replay copies a watch stream's events from in to out, adding the events from the past. The
// events are JSON objects one after another (the API server need not end them with a newline).
func (p *replayingProxy) replay(in io.ReadCloser, out *io.PipeWriter) {
	defer in.Close()
	dec := json.NewDecoder(in)
	for {
		var ev json.RawMessage
		if err := dec.Decode(&ev); err != nil {
			out.CloseWithError(err)
			return
		}
		if _, err := out.Write(append(ev, '\n')); err != nil {
			return
		}
		if extra := p.past(ev); extra != nil {
			if _, err := out.Write(append(extra, '\n')); err != nil {
				return
			}
		}
	}
}

// past returns the event from the past to send after line, or nil.
func (p *replayingProxy) past(line []byte) []byte {
	var ev struct {
		Type   string `json:"type"`
		Object struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		} `json:"object"`
	}
	if json.Unmarshal(line, &ev) != nil {
		return nil
	}
	name := ev.Object.Metadata.Name
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last == nil {
		p.last = map[string][]byte{}
	}
	before := p.last[name]
	switch ev.Type {
	case "ADDED", "MODIFIED":
		p.last[name] = bytes.Clone(line)
		if ev.Type == "MODIFIED" && before != nil {
			p.replayed++
			return before
		}
	case "DELETED":
		delete(p.last, name)
		if before != nil {
			p.replayed++
			return before
		}
	}
	return nil
}

// TestStaleEventsAreRefusedAndCounted watches ConfigMaps through a proxy that sends older
// versions after newer ones, and deleted objects again after their deletion, on the real
// watch streams of the local cluster: the view never shows an older version or a deleted
// object, and kates_accumulator_stale_events_total counts each refusal.
func TestStaleEventsAreRefusedAndCounted(t *testing.T) {
	admin, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var proxy replayingProxy
	c, err := kates.NewClientFromRESTConfig(proxy.start(t, cluster.RESTConfig()), ns)
	require.NoError(t, err)
	reg := prometheus.NewRegistry()
	require.NoError(t, metrics.Register(c, reg))

	createConfigMaps(t, admin, ns, "cm", 3)
	// A Transform makes the watch unstructured, so its stream is JSON the proxy can edit.
	acc, err := c.WatchWith(ctx, kates.WatchOptions{Transform: func(*unstructured.Unstructured) {}},
		kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns})
	require.NoError(t, err)
	var snap struct{ ConfigMaps map[string]*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)

	// Every version the view shows of an object must be at least as new as the one before.
	shown := map[string]string{}
	check := func() {
		t.Helper()
		for key, cm := range snap.ConfigMaps {
			if prev, ok := shown[key]; ok && newer(prev, cm.ResourceVersion) {
				t.Fatalf("%s went back from version %s to %s", key, prev, cm.ResourceVersion)
			}
			shown[key] = cm.ResourceVersion
		}
	}
	check()

	// Three updates of cm-0000 (after the second and the third, the proxy replays the one
	// before), and an update and a delete of cm-0001 (after the delete, the proxy sends its
	// update again): three events from the past, which ask for a relist too.
	patch := func(name, v string) {
		t.Helper()
		require.NoError(t, admin.Patch(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}},
			kates.MergePatchType, []byte(`{"data":{"v":"`+v+`"}}`), nil))
	}
	for _, v := range []string{"1", "2", "3"} {
		patch("cm-0000", v)
	}
	patch("cm-0001", "1")
	require.NoError(t, admin.Delete(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "cm-0001", Namespace: ns}}, nil))
	var truth kates.ConfigMap
	require.NoError(t, admin.Get(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "cm-0000", Namespace: ns}}, &truth))

	stale := func() float64 {
		return metricValue(t, reg, metrics.StaleName, map[string]string{"query": "ConfigMaps"})
	}
	holdsWithin(t, 30*time.Second, func() string {
		proxy.mu.Lock()
		defer proxy.mu.Unlock()
		return fmt.Sprintf("the proxy's replays refused and counted: %d replayed, %v counted", proxy.replayed, stale())
	}, func() bool {
		proxy.mu.Lock()
		replayed := proxy.replayed
		proxy.mu.Unlock()
		return replayed >= 3 && stale() >= 3
	})
	// Then the view is the truth: cm-0000 at its last version, cm-0001 gone; and every
	// snapshot on the way went forward only.
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := acc.Update(ctx, &snap)
		require.NoError(t, err)
		if ok {
			check()
		}
		cm0, gone := snap.ConfigMaps[ns+"/cm-0000"], snap.ConfigMaps[ns+"/cm-0001"] == nil
		if cm0 != nil && cm0.ResourceVersion == truth.ResourceVersion && gone {
			break
		}
		require.True(t, time.Now().Before(deadline), "the view did not reach the truth: cm-0000 %v, cm-0001 gone %v", cm0, gone)
		time.Sleep(20 * time.Millisecond)
	}
	// Nothing the proxy replayed reached the view afterwards either.
	time.Sleep(200 * time.Millisecond)
	if ok, _ := acc.Update(ctx, &snap); ok {
		check()
	}
	require.Equal(t, truth.ResourceVersion, snap.ConfigMaps[ns+"/cm-0000"].ResourceVersion)
	require.Nil(t, snap.ConfigMaps[ns+"/cm-0001"])
	// By type: the replays of an update are updates (and the first, of the event that listed
	// the object in a streamed list, an add).
	require.GreaterOrEqual(t, metricValue(t, reg, metrics.StaleName, map[string]string{"query": "ConfigMaps", "type": "update"}), 2.0)
	// The Client's count of the API server's returns is exposed too (none here).
	if v, n := metricSeries(t, reg, metrics.ServerReturnsName, nil); n != 1 || v != 0 {
		t.Errorf("%s: %d series, value %v; want one, 0", metrics.ServerReturnsName, n, v)
	}
	holdsWithin(t, 10*time.Second, func() string { return "a relist after three refusals" }, func() bool {
		return metricValue(t, reg, metrics.RelistsName, map[string]string{"query": "ConfigMaps"}) >= 1
	})
}

// newer reports whether resource version a is newer than b (both decimal integers).
func newer(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}
