package kates

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// ErrLeaseLost is what RunElected returns when run was stopped because this replica no longer
// holds the lease (it could not renew it within RenewDeadline, or another replica took it).
// The safe reaction is to exit the process, as Kubernetes' own controllers do, or to call
// RunElected again to stand by for the next term.
var ErrLeaseLost = errors.New("kates: leader election lease lost")

// ElectionOptions configures RunElected. Only Lease is required.
type ElectionOptions struct {
	// Lease names the coordination.k8s.io Lease the replicas compete for: "namespace/name",
	// or "name" in the client's namespace. RunElected creates it if it does not exist.
	Lease string
	// Identity is this replica's name in the Lease's holderIdentity; every replica needs its
	// own. Default: the host name (a Pod's name in a cluster) and a random suffix.
	Identity string
	// LeaseDuration is how long the other replicas wait, after last seeing the lease renewed,
	// before they take it over: the longest a crashed leader goes unreplaced. The Lease stores
	// it in whole seconds, so it is rounded down to a second, and must be at least one.
	// Default 15 s, as Kubernetes' own controllers.
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps acting without managing to renew the lease:
	// run's context is cancelled RenewDeadline after the last successful renewal was sent.
	// It must be less than LeaseDuration; the difference is the margin within which run must
	// stop writing (see RunElected). Default 10 s.
	RenewDeadline time.Duration
	// RetryPeriod is how often the leader renews and the others try to acquire. Default 2 s.
	RetryPeriod time.Duration
	// Release gives the lease up when RunElected returns while holding it — after run has
	// returned, so no write of run can follow — so that a standby takes over at once instead
	// of after LeaseDuration. Default false: the lease runs out, as a crashed leader's does.
	Release bool
	// Views are the Accumulators run will read. RunElected campaigns only once each is
	// bootstrapped (Accumulator.Bootstrapped), so a replica never wins with an incomplete view
	// and, standing by, keeps every view current: see RunElected.
	Views []*Accumulator
}

// withDefaults fills in the defaults and checks the durations.
func (o ElectionOptions) withDefaults(c *Client) (ElectionOptions, string, string, error) {
	ns, name := c.namespace, o.Lease
	if i := strings.IndexByte(o.Lease, '/'); i >= 0 {
		ns, name = o.Lease[:i], o.Lease[i+1:]
	}
	if name == "" || ns == "" {
		return o, "", "", fmt.Errorf("kates: election: lease %q: want \"namespace/name\" or \"name\"", o.Lease)
	}
	if o.Identity == "" {
		host, err := os.Hostname()
		if err != nil || host == "" {
			host = "kates"
		}
		o.Identity = host + "_" + rand.String(6)
	}
	if o.LeaseDuration == 0 {
		o.LeaseDuration = 15 * time.Second
	}
	if o.RenewDeadline == 0 {
		o.RenewDeadline = 10 * time.Second
	}
	if o.RetryPeriod == 0 {
		o.RetryPeriod = 2 * time.Second
	}
	// The others wait for the lease duration the Lease records, in whole seconds: the fence
	// below must be measured against that, not against what was asked for.
	o.LeaseDuration = o.LeaseDuration.Truncate(time.Second)
	switch {
	case o.LeaseDuration < time.Second:
		return o, "", "", fmt.Errorf("kates: election: lease duration %s: want at least 1s", o.LeaseDuration)
	case o.RenewDeadline >= o.LeaseDuration:
		return o, "", "", fmt.Errorf("kates: election: renew deadline %s must be less than the lease duration %s (whole seconds)", o.RenewDeadline, o.LeaseDuration)
	case o.RetryPeriod <= 0 || o.RetryPeriod >= o.RenewDeadline:
		return o, "", "", fmt.Errorf("kates: election: retry period %s must be positive and less than the renew deadline %s", o.RetryPeriod, o.RenewDeadline)
	}
	return o, ns, name, nil
}

// RunElected runs run while this replica holds the lease opts.Lease names, through client-go's
// leader election (tools/leaderelection, a Lease lock), the mechanism Kubernetes' own
// controllers use. It first waits for opts.Views to be bootstrapped, then campaigns; when it
// wins it calls run with a context that is cancelled when ctx ends or the lease is lost, and
// returns once run has returned:
//
//   - run's error, if run returned on its own;
//   - ErrLeaseLost, if run was stopped because the lease was lost;
//   - nil, if ctx ended (before winning, or while run was running).
//
// RunElected never returns while run or any goroutine it started is still running.
//
// # Fencing
//
// Losing the lease cancels run's context before another replica can act. The others take the
// lease over only once they have seen its record unchanged for LeaseDuration, counted from when
// they first read it, which is after this replica sent it; the leader cancels run's context
// RenewDeadline after it sent that record (see fencedLock for what "that record" means: client-go
// compares records to the second). With RenewDeadline < LeaseDuration, and clocks that run at
// the same rate (they need not agree on the time), run's context is cancelled at least
// LeaseDuration-RenewDeadline before a successor can win. That margin is all run
// has to stop: a write sent before the cancellation may still land after it, so run must not
// start writes that outlive its context — every kates call takes the context — and writes that
// must never race a successor's should also carry a precondition (a resourceVersion, as Update
// and UpdateStatus do) so that a stale one fails rather than overwrites.
//
// # Warm standbys
//
// Start the Watch before RunElected, and pass its Accumulator in opts.Views. Every replica then
// lists once and keeps its view current from the watch while it stands by, and a new leader's
// first Update hands run the complete, current view at once: failover costs LeaseDuration plus
// one Update, never a list of everything. Standing by costs the memory of the view (measured
// in bench/README.md). Update nothing before winning: the first Update after winning then
// carries every object, with an ObjectAdd delta each.
func RunElected(ctx context.Context, client *Client, opts ElectionOptions, run func(ctx context.Context) error) error {
	o, ns, name, err := opts.withDefaults(client)
	if err != nil {
		return err
	}
	for _, acc := range o.Views {
		select {
		case <-acc.Bootstrapped():
		case <-ctx.Done():
			return nil
		}
	}
	lock := &fencedLock{Interface: &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: ns, Name: name},
		Client:     client.typed.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: o.Identity},
	}}

	// The election runs on a context of its own, ended only once run has returned: ending it
	// stops the renewals (and releases the lease, with o.Release), which must not happen while
	// run may still write. client-go does not wait for its OnStartedLeading callback.
	electCtx, stopElecting := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElecting()
	var (
		mu      sync.Mutex
		started bool // guarded by mu: run was (or is being) called
		result  error
	)
	leadDone := make(chan struct{})
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		Name:            ns + "/" + name,
		LeaseDuration:   o.LeaseDuration,
		RenewDeadline:   o.RenewDeadline,
		RetryPeriod:     o.RetryPeriod,
		ReleaseOnCancel: o.Release,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(leadCtx context.Context) {
				defer close(leadDone)
				defer stopElecting()
				mu.Lock()
				if ctx.Err() != nil {
					mu.Unlock()
					return
				}
				started = true
				mu.Unlock()
				result = lead(ctx, leadCtx, lock, o.RenewDeadline, run)
			},
			OnStoppedLeading: func() {},
		},
	})
	if err != nil {
		return fmt.Errorf("kates: election: %w", err)
	}
	// ctx ending before this replica wins stops the campaign; once run has started, run's
	// return does.
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !started {
			stopElecting()
		}
	})
	defer stop()
	le.Run(electCtx)
	if lock.acquired() {
		// le.Run called OnStartedLeading, in a goroutine of its own.
		<-leadDone
	}
	return result
}

// lead runs run with a context cancelled when ctx ends, when leadCtx (client-go's) ends, or
// when the fence trips: RenewDeadline after the last successful renewal was sent.
func lead(ctx, leadCtx context.Context, lock *fencedLock, renewDeadline time.Duration, run func(context.Context) error) error {
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(leadCtx, func() { cancel(ErrLeaseLost) })
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() { lock.fence(runCtx, renewDeadline, cancel) })
	err := run(runCtx)
	returnedOnItsOwn := runCtx.Err() == nil
	cause := context.Cause(runCtx)
	cancel(nil)
	wg.Wait()
	switch {
	case returnedOnItsOwn:
		return err
	case errors.Is(cause, ErrLeaseLost):
		return ErrLeaseLost
	default: // ctx ended
		return nil
	}
}

// fencedLock is a Lease lock that remembers since when the others may have been counting down
// from the lease record this replica last wrote as its holder (an acquisition or a renewal).
//
// That is not simply when the last renewal was sent. A candidate restarts its countdown only
// when the record it reads differs from the one it read before, compared as JSON, and a
// LeaderElectionRecord's renewTime encodes in whole seconds: renewals within one second look
// the same, and the countdown runs from the first of them. So the fence runs from when the first
// successful write of the current record's encoding was sent.
type fencedLock struct {
	resourcelock.Interface
	mu      sync.Mutex
	renewed time.Time // guarded by mu; zero until the first acquisition
	last    []byte    // guarded by mu; the JSON encoding of the record written at renewed
}

func (l *fencedLock) Create(ctx context.Context, r resourcelock.LeaderElectionRecord) error {
	sent := time.Now()
	err := l.Interface.Create(ctx, r)
	l.record(err, r, sent)
	return err
}

func (l *fencedLock) Update(ctx context.Context, r resourcelock.LeaderElectionRecord) error {
	sent := time.Now()
	err := l.Interface.Update(ctx, r)
	l.record(err, r, sent)
	return err
}

// record notes a successful write that makes this replica the holder; a release (holder "")
// does not count.
func (l *fencedLock) record(err error, r resourcelock.LeaderElectionRecord, sent time.Time) {
	if err != nil || r.HolderIdentity != l.Identity() {
		return
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return // cannot happen; counting from the older write is the safe side anyway
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !bytes.Equal(raw, l.last) {
		l.renewed, l.last = sent, raw
	}
}

func (l *fencedLock) lastRenewal() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.renewed
}

func (l *fencedLock) acquired() bool { return !l.lastRenewal().IsZero() }

// fence cancels with ErrLeaseLost once renewDeadline has passed since the last successful
// renewal (in the sense of fencedLock) was sent, unless ctx ends first.
func (l *fencedLock) fence(ctx context.Context, renewDeadline time.Duration, cancel context.CancelCauseFunc) {
	for {
		left := time.Until(l.lastRenewal().Add(renewDeadline))
		if left <= 0 {
			cancel(ErrLeaseLost)
			return
		}
		t := time.NewTimer(left)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
