package shards_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
	"github.com/kates-dev/kates/testenv/katestest"
)

// slowWire holds the bytes of each ConfigMap write for delay before they reach the API server,
// whatever becomes of the request meanwhile: a request cancelled by its sender after its bytes
// left still arrives, as it does through a proxy or a congested network. The sender is told of
// its cancellation at once, as a transport tells it.
type slowWire struct {
	next  http.RoundTripper
	delay time.Duration
	sent  chan struct{} // receives once a write is on the wire
	// arrived is when the last delayed write reached the server (Unix nanoseconds).
	arrived atomic.Int64
}

func (w *slowWire) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet || !strings.HasSuffix(req.URL.Path, "/configmaps") {
		return w.next.RoundTrip(req)
	}
	onWire := req.Clone(context.WithoutCancel(req.Context()))
	type answer struct {
		resp *http.Response
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		time.Sleep(w.delay)
		w.arrived.Store(time.Now().UnixNano())
		resp, err := w.next.RoundTrip(onWire)
		answered <- answer{resp, err}
	}()
	select {
	case w.sent <- struct{}{}:
	default:
	}
	select {
	case a := <-answered:
		return a.resp, a.err
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
}

// TestNoWriteAfterRelease: a shard's run sends a write whose bytes take a second to reach the
// API server, and the replica is stopped (Release set) while they are on the way: run's
// context ends, the write's call returns, run returns. The write still lands, and the shard's
// release record must come after it in the server's order: Release waits for the term's
// writes in flight. Their resourceVersions say the order. When the bytes take longer than
// RenewDeadline, the shard is not released at all: its Lease runs out.
func TestNoWriteAfterRelease(t *testing.T) {
	for _, tc := range []struct {
		name    string
		delay   time.Duration
		release bool
	}{
		{"answered within the bound", time.Second, true},
		{"not answered within the bound", testRenew + time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) { testNoWriteAfterRelease(t, tc.delay, tc.release) })
	}
}

func testNoWriteAfterRelease(t *testing.T, delay time.Duration, release bool) {
	ns := newNamespace(t)
	wire := &slowWire{delay: delay, sent: make(chan struct{}, 1)}
	cfg := cluster.RESTConfig()
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { wire.next = rt; return wire }
	client, err := kates.NewClientFromRESTConfig(cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writeErr := make(chan error, 1)
	ran := make(chan error, 1)
	go func() {
		ran <- shards.Run(ctx, client, shards.Options{Name: "settle", Shards: 1, LeaseDuration: testLease,
			RenewDeadline: testRenew, RetryPeriod: testRetry, Release: true}, func(ctx context.Context, shard int) error {
			cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
				ObjectMeta: metav1.ObjectMeta{Name: "late", Namespace: ns}}
			writeErr <- client.Create(ctx, cm, nil)
			<-ctx.Done()
			return nil
		})
	}()
	select {
	case <-wire.sent:
	case <-time.After(within):
		t.Fatal("the run's write was never sent")
	}
	stoppedAt := time.Now()
	cancel()
	if err := <-writeErr; !errors.Is(err, context.Canceled) {
		t.Errorf("the write cut short returned %v, want context.Canceled", err)
	}
	if err := <-ran; err != nil {
		t.Fatalf("Run = %v", err)
	}
	returned := time.Since(stoppedAt)

	// The write landed (it was on the wire); the release came after it.
	cs := katestest.Clientset(t, client)
	var cm *corev1.ConfigMap
	for deadline := time.Now().Add(within); ; {
		cm, err = cs.CoreV1().ConfigMaps(ns).Get(context.Background(), "late", metav1.GetOptions{})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the write on the wire never landed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	l, err := cs.CoordinationV1().Leases(ns).Get(context.Background(), shards.ShardLeaseName("settle", 0), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !release {
		if l.Spec.HolderIdentity == nil {
			t.Errorf("shard 0's Lease was released although its write was not answered within RenewDeadline")
		}
		if returned > testRenew+time.Second {
			t.Errorf("Run returned %s after the stop, want about RenewDeadline (%s)", returned, testRenew)
		}
		t.Logf("Run returned %s after the stop, the Lease not released (the write took %s)", returned.Round(time.Millisecond), delay)
		return
	}
	if l.Spec.HolderIdentity != nil {
		t.Fatalf("shard 0's Lease is held by %s after a stop with Release: no release record", *l.Spec.HolderIdentity)
	}
	written, _ := strconv.ParseInt(cm.ResourceVersion, 10, 64)
	released, _ := strconv.ParseInt(l.ResourceVersion, 10, 64)
	t.Logf("Run returned %s after the stop; the write landed at resourceVersion %d, %s after the stop; the release record is %d",
		returned.Round(time.Millisecond), written, time.Duration(wire.arrived.Load()-stoppedAt.UnixNano()).Round(time.Millisecond), released)
	if written >= released {
		t.Errorf("the term's write (resourceVersion %d) reached the server after its release record (%d)", written, released)
	}
}
