package kates

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"k8s.io/client-go/rest"
)

// fakeServer answers /readyz as told: not at all (its listener closed), 429 with a
// Retry-After, 503, or 200. It counts the probes it answered. A pure unit: the real outage is
// TestBackWithinASecondOfTheAPIServer's.
type fakeServer struct {
	mu     sync.Mutex
	answer int // 0: refuse the connection (closed listener)
	probes atomic.Int32
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.probes.Add(1)
	f.mu.Lock()
	code := f.answer
	f.mu.Unlock()
	if code == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	w.WriteHeader(code)
}

func (f *fakeServer) set(code int) {
	f.mu.Lock()
	f.answer = code
	f.mu.Unlock()
}

// TestReachWakesRetriesOnlyOnAnAnswer checks the rules of reach.go on a server played by an
// httptest server: while it refuses connections, 429s or 503s, a waiting retry is not woken
// (and a 429's Retry-After spaces the probes); its first 200 wakes it at once; the probe sends
// one request at a time, and stops once no retry waits.
func TestReachWakesRetriesOnlyOnAnAnswer(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	fake := &fakeServer{}
	srv := httptest.NewUnstartedServer(fake)
	addr := srv.Listener.Addr().String()
	srv.Listener.Close() // refused until started below
	defer srv.Close()

	c, err := NewClientFromRESTConfig(&rest.Config{Host: "http://" + addr}, "default")
	require.NoError(t, err)
	// A request that gets no answer marks the server down.
	_, err = c.HTTPClient().Get("http://" + addr + "/api")
	require.Error(t, err)
	require.True(t, c.reach.down.Load(), "a refused connection marks the server down")

	woken := make(chan time.Time, 1)
	go func() {
		_ = c.WaitToRetry(context.Background(), time.Minute)
		woken <- time.Now()
	}()
	notWoken := func(what string, d time.Duration) {
		t.Helper()
		select {
		case <-woken:
			t.Fatalf("woken %s", what)
		case <-time.After(d):
		}
	}
	notWoken("while the server refuses connections", time.Second)

	// The server listens again, but answers 429 and then 503: still nobody woken.
	l, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	srv.Listener = l
	fake.set(http.StatusTooManyRequests)
	srv.Start()
	notWoken("by 429", 1500*time.Millisecond)
	require.LessOrEqual(t, fake.probes.Load(), int32(3), "a 429 with Retry-After: 1 spaces the probes a second apart")
	fake.set(http.StatusServiceUnavailable)
	notWoken("by 503", time.Second)

	fake.set(http.StatusOK)
	answered := time.Now()
	select {
	case at := <-woken:
		require.Less(t, at.Sub(answered), time.Second+reachProbeInterval, "woken at the next probe")
	case <-time.After(5 * time.Second):
		t.Fatal("not woken within 5 s of the server answering 200")
	}
	require.False(t, c.reach.down.Load())
	require.EqualValues(t, 1, c.ServerReturns())

	// Nothing waits any more: no probe is sent, even with the server marked down again.
	c.reach.failed()
	before := fake.probes.Load()
	time.Sleep(3 * reachProbeInterval)
	require.Equal(t, before, fake.probes.Load(), "probes while no retry waits")

	// No goroutine of reach's outlives the waits (the connections' are the transport's).
	c.HTTPClient().CloseIdleConnections()
	srv.Close()
	goleak.VerifyNone(t, ignore)
}
