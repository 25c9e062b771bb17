package election

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"

	"github.com/kates-dev/kates/kates"
)

// ErrLeaseLost is what Run returns when run was stopped because the term ended; it is
// kates.ErrLeaseLost, the error a fenced write fails with outside a term.
var ErrLeaseLost = kates.ErrLeaseLost

// Options configures Run. Only Lease is required.
type Options struct {
	// Lease names the coordination.k8s.io Lease the replicas compete for: "namespace/name",
	// or "name" in the client's namespace. Run creates it if it does not exist.
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
	// stop writing (see Run). Default 10 s.
	RenewDeadline time.Duration
	// RetryPeriod is how often the leader renews and the others try to acquire. Default 2 s.
	RetryPeriod time.Duration
	// Release gives the lease up when Run returns while holding it — after run has
	// returned, so no write of run can follow — so that a standby takes over at once instead
	// of after LeaseDuration. The release is a write conditional on the Lease being exactly
	// the record this replica last wrote (its resourceVersion): a replica whose lease was
	// taken over meanwhile (it was paused past its term, say) leaves the successor's record
	// alone. Default false: the lease runs out, as a crashed leader's does.
	Release bool
	// Fence is the fence of this replica's terms (see Fence): Run holds it while run
	// may write and drops it when the term ends. Give one to fence clients other than the
	// kates Client too: cfg.Wrap(fence.WrapTransport). Default: a new Fence, used for the
	// Client's writes made with run's context.
	Fence *kates.Fence
	// Views are the Accumulators run will read. Run campaigns only once each is
	// bootstrapped (Accumulator.Bootstrapped), so a replica never wins with an incomplete view
	// and, standing by, keeps every view current: see Run.
	Views []*kates.Accumulator
}

// withDefaults fills in the defaults and checks the durations.
func (o Options) withDefaults(c *kates.Client) (Options, string, string, error) {
	ns, name := c.Namespace(), o.Lease
	if i := strings.IndexByte(o.Lease, '/'); i >= 0 {
		ns, name = o.Lease[:i], o.Lease[i+1:]
	}
	if name == "" || ns == "" {
		return o, "", "", fmt.Errorf("election: lease %q: want \"namespace/name\" or \"name\"", o.Lease)
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
	if o.Fence == nil {
		o.Fence = kates.NewFence()
	}
	// The others wait for the lease duration the Lease records, in whole seconds: the fence
	// below must be measured against that, not against what was asked for.
	o.LeaseDuration = o.LeaseDuration.Truncate(time.Second)
	switch {
	case o.LeaseDuration < time.Second:
		return o, "", "", fmt.Errorf("election: lease duration %s: want at least 1s", o.LeaseDuration)
	case o.RenewDeadline >= o.LeaseDuration:
		return o, "", "", fmt.Errorf("election: renew deadline %s must be less than the lease duration %s (whole seconds)", o.RenewDeadline, o.LeaseDuration)
	case o.RetryPeriod <= 0 || o.RetryPeriod >= o.RenewDeadline:
		return o, "", "", fmt.Errorf("election: retry period %s must be positive and less than the renew deadline %s", o.RetryPeriod, o.RenewDeadline)
	}
	return o, ns, name, nil
}

// Run runs run while this replica holds the coordination.k8s.io Lease opts.Lease
// names. It first waits for opts.Views to be bootstrapped, then campaigns; when it wins it
// calls run with a context that is cancelled when ctx ends or the term ends, and returns once
// run has returned:
//
//   - run's error, if run returned on its own;
//   - ErrLeaseLost, if run was stopped because the term ended;
//   - nil, if ctx ended (before winning, or while run was running).
//
// Run never returns while run or any goroutine it started is still running.
//
// # The guarantee
//
// No write of run's reaches the API server after another replica has taken the lease over,
// whether this replica crashed, was stopped, or was paused past its term and woke up, with
// one exception: a write that had passed its fence check when the process was paused (on
// the wire, or between the check and the socket). Three mechanisms make that so. Every
// write to the Lease is conditional on the resourceVersion this replica last read or wrote,
// so a replica never overwrites a record it has not seen — not to renew, not to release, not
// to take over. A standby takes the lease only once it has seen the same record
// (resourceVersion) for the record's lease duration, counted from when it first read it,
// which is after the holder sent it. And the holder's term ends — run's context cancelled,
// its Fence dropped — RenewDeadline after it sent its last successful renewal, on the
// monotonic clock, and at once when a renewal finds the Lease rewritten by anyone else; every
// write the Client sends with run's context checks the Fence immediately before it leaves
// (see Fence), so a woken process whose timers are overdue sends nothing. With
// RenewDeadline < LeaseDuration and clocks that run at the same rate (they need not agree on
// the time), a term ends at least LeaseDuration-RenewDeadline before a successor can begin.
//
// Run should still not start writes that outlive its context — every kates call takes the
// context — and writes that must never race a successor's should carry a precondition (a
// resourceVersion, as Update and UpdateStatus send), so that a stale one fails rather than
// overwrites.
//
// The election reads and writes the Lease itself rather than through client-go's
// leaderelection package, whose release on cancel (ReleaseOnCancel) decides from its own
// last observed record, not the server's, and so can release — and then retake — a lease a
// successor holds after a pause. A holder restarted with the same Identity is treated like
// any other replica: it waits for its old record to run out.
//
// # Warm standbys
//
// Start the Watch before Run, and pass its Accumulator in opts.Views. Every replica then
// lists once and keeps its view current from the watch while it stands by, and a new leader's
// first Update hands run the complete, current view at once: failover costs LeaseDuration plus
// one Update, never a list of everything. Standing by costs the memory of the view (measured
// in bench/README.md). Update nothing before winning: the first Update after winning then
// carries every object, with an ObjectAdd delta each.
func Run(ctx context.Context, client *kates.Client, opts Options, run func(ctx context.Context) error) error {
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
	// A typed client of coordination.k8s.io alone, on the Client's connections (so its writes
	// pass the Client's fence too).
	leases, err := coordinationclient.NewForConfigAndClient(client.RESTConfig(), client.HTTPClient())
	if err != nil {
		return fmt.Errorf("election: %w", err)
	}
	e := &elector{leases: leases.Leases(ns), name: name, o: o}
	if err := e.acquire(ctx); err != nil {
		return nil // ctx ended before this replica won
	}
	return e.lead(ctx, run)
}

// elector campaigns for one Lease and, once it holds it, renews it.
type elector struct {
	leases coordinationclient.LeaseInterface
	name   string
	o      Options

	// What this replica last saw of the Lease as a candidate, and since when (monotonic).
	seenVersion string
	seenAt      time.Time
	// held is the Lease as this replica last wrote it while holding it: every renewal and
	// the release are conditional on its resourceVersion.
	held *coordinationv1.Lease
}

// acquire returns once this replica holds the lease, or with ctx's error.
func (e *elector) acquire(ctx context.Context) error {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if e.tryAcquire(ctx) {
			return nil
		}
		t.Reset(e.o.RetryPeriod)
	}
}

// tryAcquire reads the Lease and takes it if it is free: released, or unchanged for its lease
// duration since this replica first saw that record. Errors mean "not now": the next try
// reads the Lease again.
func (e *elector) tryAcquire(ctx context.Context) bool {
	lease, err := e.leases.Get(ctx, e.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		lease = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: e.name}}
		e.stamp(lease, true)
		sent := time.Now()
		created, err := e.leases.Create(ctx, lease, metav1.CreateOptions{})
		if err != nil {
			return false
		}
		e.won(created, sent)
		return true
	}
	if err != nil {
		return false
	}
	now := time.Now()
	if lease.ResourceVersion != e.seenVersion {
		e.seenVersion, e.seenAt = lease.ResourceVersion, now
	}
	holder := ""
	if lease.Spec.HolderIdentity != nil {
		holder = *lease.Spec.HolderIdentity
	}
	duration := e.o.LeaseDuration
	if s := lease.Spec.LeaseDurationSeconds; s != nil && *s > 0 {
		// The holder's own promise: it stops within that long of its last renewal.
		duration = max(duration, time.Duration(*s)*time.Second)
	}
	if holder != "" && now.Sub(e.seenAt) < duration {
		return false
	}
	lease = lease.DeepCopy()
	e.stamp(lease, holder != e.o.Identity)
	sent := time.Now()
	// Update is conditional on lease.ResourceVersion, the record just judged free: if anyone
	// wrote it since, this fails with a conflict and the next try reads it again.
	updated, err := e.leases.Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		return false
	}
	e.won(updated, sent)
	return true
}

// stamp makes lease a fresh record of this replica's term.
func (e *elector) stamp(lease *coordinationv1.Lease, newHolder bool) {
	now := metav1.NewMicroTime(time.Now())
	seconds := int32(e.o.LeaseDuration / time.Second)
	lease.Spec.HolderIdentity = &e.o.Identity
	lease.Spec.LeaseDurationSeconds = &seconds
	lease.Spec.AcquireTime = &now
	lease.Spec.RenewTime = &now
	if newHolder {
		transitions := int32(0)
		if lease.Spec.LeaseTransitions != nil {
			transitions = *lease.Spec.LeaseTransitions + 1
		}
		lease.Spec.LeaseTransitions = &transitions
	}
}

// won starts a term with the record written by a request sent at sent.
func (e *elector) won(lease *coordinationv1.Lease, sent time.Time) {
	e.held = lease
	e.o.Fence.Hold(sent.Add(e.o.RenewDeadline))
}

// lead runs run for one term and ends the term once run has returned.
func (e *elector) lead(ctx context.Context, run func(context.Context) error) error {
	runCtx, cancel := context.WithCancelCause(kates.WithFence(ctx, e.o.Fence))
	defer cancel(nil)
	renewing := make(chan struct{})
	go func() {
		defer close(renewing)
		e.renew(runCtx, cancel)
	}()
	err := run(runCtx)
	returnedOnItsOwn := runCtx.Err() == nil
	cause := context.Cause(runCtx)
	cancel(nil)
	<-renewing
	// run has returned: nothing of its can write any more, so the term may end.
	e.o.Fence.Drop()
	if e.o.Release {
		e.release(ctx)
	}
	switch {
	case returnedOnItsOwn:
		return err
	case errors.Is(cause, ErrLeaseLost):
		return ErrLeaseLost
	default: // ctx ended
		return nil
	}
}

// renew renews the lease every RetryPeriod until ctx ends, and ends the term (cancelling with
// ErrLeaseLost) when the fence's deadline passes or a renewal finds the Lease rewritten.
func (e *elector) renew(ctx context.Context, cancel context.CancelCauseFunc) {
	tick := time.NewTicker(e.o.RetryPeriod)
	defer tick.Stop()
	for {
		deadline, _ := e.o.Fence.Deadline()
		expire := time.NewTimer(time.Until(deadline))
		select {
		case <-ctx.Done():
			expire.Stop()
			return
		case <-expire.C:
			e.o.Fence.Drop()
			cancel(ErrLeaseLost)
			return
		case <-tick.C:
			expire.Stop()
		}
		// A renewal after the deadline would extend a term run has been told is over: the
		// check is made here, on the monotonic clock, not left to the timer above, which a
		// paused process runs late.
		if e.o.Fence.Check() != nil {
			e.o.Fence.Drop()
			cancel(ErrLeaseLost)
			return
		}
		lease := e.held.DeepCopy()
		now := metav1.NewMicroTime(time.Now())
		lease.Spec.RenewTime = &now
		sent := time.Now()
		renewCtx, stop := context.WithDeadline(ctx, deadline)
		updated, err := e.leases.Update(renewCtx, lease, metav1.UpdateOptions{})
		stop()
		switch {
		case err == nil:
			e.held = updated
			e.o.Fence.Hold(sent.Add(e.o.RenewDeadline))
		case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
			// Someone else wrote the Lease (or deleted it): this term is over now, not
			// RenewDeadline from now. Drop the fence before anything else.
			e.o.Fence.Drop()
			cancel(ErrLeaseLost)
			return
		}
		// Other errors (a timeout, the API server restarting): try again at the next tick,
		// until the deadline ends the term.
	}
}

// release gives the lease up, only if the Lease is still a record of this replica's: the
// update is conditional on the resourceVersion of the record it last wrote. A conflict has two
// causes. Another replica took the lease over: its record names it, and is left alone. Or a
// renewal of this replica's landed after its answer was abandoned (run's context ended while
// it was in flight): the record still names this replica with this term's acquireTime — a
// later term, even of a process restarted with the same Identity, has its own — so it is
// released, conditional on that record's resourceVersion.
func (e *elector) release(ctx context.Context) {
	releaseCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.o.RenewDeadline)
	defer cancel()
	lease := e.held
	for range 2 {
		released := lease.DeepCopy()
		now := metav1.NewMicroTime(time.Now())
		one := int32(1)
		released.Spec.HolderIdentity = nil
		released.Spec.LeaseDurationSeconds = &one
		released.Spec.RenewTime = &now
		_, err := e.leases.Update(releaseCtx, released, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return
		}
		lease, err = e.leases.Get(releaseCtx, e.name, metav1.GetOptions{})
		if err != nil || !e.ownTerm(lease) {
			return // someone else's now
		}
	}
}

// ownTerm reports whether lease is a record of this replica's current term: its holder and
// its acquireTime are the ones this replica wrote when it won.
func (e *elector) ownTerm(lease *coordinationv1.Lease) bool {
	h, mine := lease.Spec.HolderIdentity, e.held.Spec.AcquireTime
	return h != nil && *h == e.o.Identity && mine != nil && lease.Spec.AcquireTime != nil &&
		lease.Spec.AcquireTime.Equal(mine)
}
