package kates

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
)

// After an outage of the API server, every retry of the Client's requests would otherwise wait
// out the backoff it built up while the server did not answer: client-go's reflector doubles its
// watch retries from 0.8 s towards 30 s, and a query's relists double too. A control plane that
// restarts for an upgrade is back in seconds, and a view stalled 10–20 s after it is what users
// notice. So the Client follows whether the server answers: a request that fails in transport
// (refused, reset, timed out) marks it down; while it is down and a retry is waiting, one probe
// of /readyz every ProbeInterval (every second once the outage has lasted a minute) asks for
// all of them; and the first answer after that, the probe's or any other request's, wakes
// every waiting retry at once.
//
// The server is not hammered for it: whatever the number of queries, a Client sends one probe
// at a time, only while something waits to retry, and each retry still fails into its own
// backoff if the server is not serving it. An answer of 429 Too Many Requests or 5xx is not an
// answer that wakes anyone (the server is overloaded or not ready: waking every query into it
// would be a thundering herd), and a probe answered 429 waits for its Retry-After. A server
// that flaps costs each waiting query one request per return, and the probes.

// reachProbeInterval is how often a down server is probed while retries wait, for the first
// reachSlowAfter of an outage; reachSlowInterval after that.
const (
	reachProbeInterval = 250 * time.Millisecond
	reachSlowAfter     = time.Minute
	reachSlowInterval  = time.Second
	reachProbeTimeout  = 2 * time.Second
)

// serverReach follows whether the API server answers the Client's requests; see above.
type serverReach struct {
	// probe sends one readiness request and returns how long the server asked to be left
	// alone (its Retry-After), or 0. Its answer reaches answered through the transport.
	probe func(ctx context.Context) time.Duration

	// down is read on every request, so it is kept outside mu.
	down atomic.Bool

	mu        sync.Mutex
	downSince time.Time
	// back is closed when the server answers again after being down, and then replaced.
	back chan struct{}
	// waiting counts the retries waiting now (wait); the probe runs only while some do.
	waiting int
	// stopProbe ends the running probe loop; nil when none runs.
	stopProbe context.CancelFunc
	// returns counts the outages ended (for tests and metrics).
	returns atomic.Int64
}

func newServerReach() *serverReach {
	return &serverReach{back: make(chan struct{})}
}

// failed records a request that got no answer from the server.
func (r *serverReach) failed() {
	if r.down.Load() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.down.Load() {
		r.down.Store(true)
		r.downSince = time.Now()
		r.startProbeLocked()
	}
}

// answered records an answer of the server: if it was down, every waiting retry goes now.
func (r *serverReach) answered() {
	if !r.down.Load() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.down.Load() {
		return
	}
	r.down.Store(false)
	close(r.back)
	r.back = make(chan struct{})
	r.returns.Add(1)
	if r.stopProbe != nil {
		r.stopProbe()
		r.stopProbe = nil
	}
}

// wait waits d, or less if the server answers again after being down; it returns ctx's error
// if ctx ends first. It is what a retry waits on.
func (r *serverReach) wait(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	back := r.back
	r.waiting++
	r.startProbeLocked()
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.waiting--
		if r.waiting == 0 && r.stopProbe != nil {
			r.stopProbe()
			r.stopProbe = nil
		}
		r.mu.Unlock()
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	case <-back:
	}
	return nil
}

// startProbeLocked starts the probe loop if the server is down, a retry waits, and none runs.
func (r *serverReach) startProbeLocked() {
	if !r.down.Load() || r.waiting == 0 || r.stopProbe != nil || r.probe == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.stopProbe = cancel
	go r.probeLoop(ctx, r.downSince)
}

// probeLoop probes the server until ctx ends: when it answers (answered stops the loop) or
// when no retry waits any more.
func (r *serverReach) probeLoop(ctx context.Context, since time.Time) {
	pause := reachProbeInterval
	for {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, reachProbeTimeout)
		retryAfter := r.probe(pctx)
		cancel()
		pause = reachProbeInterval
		if time.Since(since) > reachSlowAfter {
			pause = reachSlowInterval
		}
		pause = max(pause, retryAfter)
	}
}

// reachTransport tells reach of every request's outcome.
type reachTransport struct {
	next  http.RoundTripper
	reach *serverReach
}

func (t *reachTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	switch {
	case err != nil:
		// A request its caller gave up on says nothing about the server.
		if req.Context().Err() == nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			t.reach.failed()
		}
	case resp.StatusCode < http.StatusInternalServerError && resp.StatusCode != http.StatusTooManyRequests:
		t.reach.answered()
	}
	return resp, err
}

// probeReadyz is the Client's probe: GET /readyz through the Client's own transport (so
// that its answer reaches serverReach like any other).
func (c *Client) probeReadyz(ctx context.Context) time.Duration {
	base, _, err := rest.DefaultServerUrlFor(c.config)
	if err != nil {
		return 0
	}
	u := *base
	// A server behind a path prefix (a proxy) serves /readyz under it.
	u.Path = strings.TrimSuffix(u.Path, "/") + "/readyz"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			return time.Duration(s) * time.Second
		}
	}
	return 0
}

// WaitToRetry waits d before a retry of a request that failed, or less: it returns early, at
// once, when the API server answers again after requests of the Client found it not answering
// (see the Client's doc on outages). It returns ctx's error if ctx ends first, nil otherwise.
// The Client's own retries (its Watches, Waits, elections and shard Leases) wait with it; a
// program's own retry loop can too, so that it is back within about a second of the API
// server's return, whatever backoff it had reached.
func (c *Client) WaitToRetry(ctx context.Context, d time.Duration) error {
	return c.reach.wait(ctx, d)
}

// ServerReturns is how many times the Client has seen the API server answer again after
// its requests found it not answering.
func (c *Client) ServerReturns() int64 { return c.reach.returns.Load() }

// retryClock is the clock a query's reflector waits out its watch retries on: its After waits
// with the Client's serverReach, so that a retry goes as soon as the server is back.
type retryClock struct {
	clock.RealClock
	ctx   context.Context
	reach *serverReach
}

// After returns a channel that receives the time once d has passed, or the server has come
// back, or the reflector's context has ended (some of the reflector's waits do not watch
// its context, and must not hang).
func (c retryClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		_ = c.reach.wait(c.ctx, d)
		ch <- time.Now()
	}()
	return ch
}
