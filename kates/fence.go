package kates

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// ErrLeaseLost is what a write made on behalf of a lease holder returns once its term may have
// ended (see Fence), and what election.Run returns when run was stopped because this replica no
// longer holds the lease (it could not renew it within RenewDeadline, or another replica took
// it). The safe reaction is to exit the process, as Kubernetes' own controllers do, or to call
// election.Run again to stand by for the next term.
var ErrLeaseLost = errors.New("kates: leader election lease lost")

// FenceCheckedHeader is the request header a Fence with Stamp set adds to each write it lets
// through: the time of the check, in nanoseconds since the Unix epoch. A proxy or audit log
// can then tell a write that passed its fence before a pause from one sent after it.
const FenceCheckedHeader = "Kates-Fence-Checked"

// A Fence is the deadline past which writes made on behalf of a leader-election term are
// refused with ErrLeaseLost. election.Run moves it forward at each renewal of the lease and
// drops it when the term ends; the deadline is RenewDeadline after the last successful
// renewal was sent, which is always before any other replica can take the lease over.
//
// A timer that fires late is no fence: a process stopped by a debugger, a frozen VM or a long
// GC pause wakes with its timers overdue and its goroutines mid-write. So the check happens on
// the write path itself, on the monotonic clock, immediately before each request is sent:
//
//   - every write a Client sends with a context that descends from run's (see election.Run) is
//     checked, whatever the verb: create, update, patch, apply, delete;
//   - writes sent by other clients (a client-go clientset, an event recorder) are checked
//     when their rest.Config carries the fence: cfg.Wrap(fence.WrapTransport), where fence is
//     election.Options.Fence. Such a client sends no write outside a term at all.
//
// A write that has passed its check is not abandoned when its context ends: a cancelled
// request may already be on the wire, and reach the API server after the caller has given up
// on it, after the term's release. So the caller's call returns at once with its context's
// error, but the request itself goes on, detached, until the server answers it; the fence
// counts such writes in flight, and Settle waits for them, so that a holder releases its Lease
// only once every write of the term has been answered (election and shards do; past a bound
// they do not release, and the Lease runs out instead).
//
// What remains is a write that passed its check and was then stopped before it reached the
// API server, and is never answered: its connection broke (the bytes may still be in a proxy
// between), or Settle gave up on it, or the process was paused between the check and the
// socket. Nothing on the client can recall it; a write that must never race a successor's
// should also carry a precondition (a resourceVersion, as Update and UpdateStatus send), so
// that a stale one fails rather than overwrites.
//
// The zero Fence is not held: it refuses every write. A Fence is safe for concurrent use.
type Fence struct {
	// Stamp adds FenceCheckedHeader to each write the fence lets through.
	Stamp bool

	mu    sync.RWMutex
	until time.Time // guarded by mu; carries a monotonic reading; zero when not held

	// The writes in flight (see Settle), guarded by wmu: how many, a channel closed when
	// none is, and how to abandon each.
	wmu      sync.Mutex
	inflight map[*inflightWrite]struct{}
	idle     chan struct{}
}

type inflightWrite struct{ abandon context.CancelFunc }

// begin counts a write in flight, abandoned by cancel; the caller calls end when it is answered
// or abandoned.
func (f *Fence) begin(cancel context.CancelFunc) *inflightWrite {
	w := &inflightWrite{abandon: cancel}
	f.wmu.Lock()
	defer f.wmu.Unlock()
	if f.inflight == nil {
		f.inflight = map[*inflightWrite]struct{}{}
	}
	if len(f.inflight) == 0 {
		f.idle = make(chan struct{})
	}
	f.inflight[w] = struct{}{}
	return w
}

func (f *Fence) end(w *inflightWrite) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	if _, ok := f.inflight[w]; !ok {
		return
	}
	delete(f.inflight, w)
	if len(f.inflight) == 0 {
		close(f.idle)
	}
}

// InFlight returns how many writes that passed the fence have not been answered yet.
func (f *Fence) InFlight() int {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	return len(f.inflight)
}

// Settle waits until every write that passed the fence has been answered by the API server
// (or failed on the client), and reports true; or, if that takes longer than timeout (or ctx
// ends first), abandons the writes still in flight — their requests are cancelled, though
// their bytes may already be on the way — and reports false. A holder that has dropped the
// fence calls it before it releases its Lease, and does not release it if it reports false:
// the Lease then runs out, as a crashed holder's does, and no other holder starts a term
// before that.
func (f *Fence) Settle(ctx context.Context, timeout time.Duration) bool {
	f.wmu.Lock()
	idle := f.idle
	n := len(f.inflight)
	f.wmu.Unlock()
	if n == 0 {
		return true
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-ctx.Done():
	case <-t.C:
	}
	f.wmu.Lock()
	defer f.wmu.Unlock()
	if len(f.inflight) == 0 {
		return true
	}
	for w := range f.inflight {
		w.abandon()
	}
	return false
}

// NewFence returns a Fence that is not held.
func NewFence() *Fence { return &Fence{} }

// Check returns nil while the fence is held and its deadline has not passed, and an error
// that wraps ErrLeaseLost otherwise.
func (f *Fence) Check() error {
	_, err := f.check()
	return err
}

func (f *Fence) check() (time.Time, error) {
	f.mu.RLock()
	until := f.until
	f.mu.RUnlock()
	now := time.Now()
	if until.IsZero() || !now.Before(until) {
		return now, ErrLeaseLost
	}
	return now, nil
}

// hold moves the deadline to until, if that is later than the current one.
// Hold arms the fence until the given time: writes sent under it pass Check until then. The
// election package calls it when a term is won or renewed; other code has no reason to.
func (f *Fence) Hold(until time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if until.After(f.until) {
		f.until = until
	}
}

// drop ends the term: every later check fails.
// Drop disarms the fence at once: every write sent under it fails Check from now on.
func (f *Fence) Drop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.until = time.Time{}
}

// Deadline returns the time past which the fence refuses writes, and false when it is not held.
func (f *Fence) Deadline() (time.Time, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.until, !f.until.IsZero()
}

// WrapTransport fences every request but reads (GET, HEAD, OPTIONS) sent through rt: a write
// is refused with an error wrapping ErrLeaseLost unless the fence is held. Use it as
// rest.Config.Wrap(fence.WrapTransport) for clients that write on behalf of the elected run.
func (f *Fence) WrapTransport(rt http.RoundTripper) http.RoundTripper {
	return &fencedTransport{next: rt, fence: func(*http.Request) *Fence { return f }}
}

// fenceKey is the context key of the Fence a context's writes are checked against.
type fenceKey struct{}

// WithFence returns a context whose Client writes are checked against f. election.Run gives
// run such a context; other code rarely needs it.
func WithFence(ctx context.Context, f *Fence) context.Context {
	return context.WithValue(ctx, fenceKey{}, f)
}

// FenceFrom returns the Fence that writes sent with ctx are checked against (the one
// election.Run gives run), or nil.
func FenceFrom(ctx context.Context) *Fence {
	f, _ := ctx.Value(fenceKey{}).(*Fence)
	return f
}

// fencedTransport refuses writes whose fence is not held. The Client's transport finds the
// fence in each request's context; WrapTransport's always uses the same one.
type fencedTransport struct {
	next  http.RoundTripper
	fence func(*http.Request) *Fence
}

func (t *fencedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return t.next.RoundTrip(req)
	}
	f := t.fence(req)
	if f == nil {
		return t.next.RoundTrip(req)
	}
	checked, err := f.check()
	if err != nil {
		if req.Body != nil {
			_ = req.Body.Close() // a RoundTripper closes the body, even on error
		}
		return nil, fmt.Errorf("%s %s refused: %w", req.Method, req.URL.Path, err)
	}
	if err := req.Context().Err(); err != nil {
		// Given up on before it left: it is not sent, whatever the fence says.
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	// Detach the request from its context's end (but not its values), so that a cancelled
	// write is answered rather than cut off mid-flight: see Fence.
	callerCtx := req.Context()
	detached, abandon := context.WithCancel(context.WithoutCancel(callerCtx))
	req = req.Clone(detached)
	if f.Stamp {
		req.Header.Set(FenceCheckedHeader, strconv.FormatInt(checked.UnixNano(), 10))
	}
	w := f.begin(abandon)
	type answer struct {
		resp *http.Response
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := t.next.RoundTrip(req)
		f.end(w) // answered (or failed on this side): it can no longer land later
		answered <- answer{resp, err}
	}()
	select {
	case a := <-answered:
		if a.err != nil {
			abandon()
			return nil, a.err
		}
		// The body is read under the detached context: end it once the caller is done.
		a.resp.Body = &cancelOnClose{ReadCloser: a.resp.Body, cancel: abandon}
		return a.resp, nil
	case <-callerCtx.Done():
		go func() {
			if a := <-answered; a.resp != nil {
				_, _ = io.Copy(io.Discard, a.resp.Body)
				_ = a.resp.Body.Close()
			}
			abandon()
		}()
		return nil, callerCtx.Err()
	}
}

// cancelOnClose is a response body that ends its request's context when closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// contextFence is the Client's fence lookup: the fence election.Run put in the request's context.
func contextFence(req *http.Request) *Fence { return FenceFrom(req.Context()) }
