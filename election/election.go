package election

import (
	"context"
	"fmt"
	"strings"
	"time"

	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"

	"github.com/kates-dev/kates/internal/lease"
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
	// returned and every write it sent has been answered (one cancelled with run's context
	// may already be on the wire: see kates.Fence), so no write of run can follow; if they
	// are not all answered within RenewDeadline, the lease is not released and runs out —
	// so that a standby takes over at once instead of after LeaseDuration. The release is a write conditional on the Lease being exactly
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
		o.Identity = lease.Identity()
	}
	lease.DefaultTimings(&o.LeaseDuration, &o.RenewDeadline, &o.RetryPeriod)
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
	h := lease.NewHolder(leases.Leases(ns), name, lease.Config{
		Identity: o.Identity, LeaseDuration: o.LeaseDuration, RenewDeadline: o.RenewDeadline,
		RetryPeriod: o.RetryPeriod, Fence: o.Fence, Wait: client.WaitToRetry,
	})
	if err := h.Acquire(ctx); err != nil {
		return nil // ctx ended before this replica won
	}
	ending, err := h.Hold(ctx, run)
	// Hold returns once run has returned and the fence is dropped: nothing of run's can write
	// any more, so the lease may be given up.
	if o.Release {
		h.Release(ctx)
	}
	switch ending {
	case lease.Returned:
		return err
	case lease.Lost:
		return ErrLeaseLost
	default: // ctx ended
		return nil
	}
}
