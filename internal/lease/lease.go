// Package lease holds one coordination.k8s.io Lease with fenced terms: the protocol that
// election.Run and shards.Run share. Every write to the Lease is conditional on the
// resourceVersion this holder last read or wrote; a candidate takes a Lease only once it has
// seen the same record for the record's lease duration, or when it is released; a term ends —
// its kates.Fence dropped, its context cancelled — RenewDeadline after the last successful
// renewal was sent, or at once when a renewal finds the Lease rewritten. The guarantee this
// gives is documented on election.Run.
package lease

import (
	"context"
	"errors"
	"os"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"

	"github.com/kates-dev/kates/kates"
)

// Config is one holder's settings; the caller has checked and defaulted them (see election's
// Options for what each means).
type Config struct {
	Identity      string
	LeaseDuration time.Duration // whole seconds
	RenewDeadline time.Duration
	RetryPeriod   time.Duration
	// Fence is held while a term lasts and dropped when it ends.
	Fence *kates.Fence
	// Labels are set on a Lease this holder creates, so that a group of Leases can be listed.
	Labels map[string]string
	// Wait waits d before a retry, or less: kates.Client.WaitToRetry, which returns early when
	// the API server answers again after an outage, so that a renewal or a campaign that
	// failed while it was down goes again at once. Required.
	Wait func(ctx context.Context, d time.Duration) error
}

// Ending says why Hold returned.
type Ending int

const (
	// Returned: run returned while the term lasted and ctx had not ended.
	Returned Ending = iota
	// Lost: the term ended (a renewal failed past RenewDeadline, or found the Lease
	// rewritten) and run was stopped.
	Lost
	// Cancelled: ctx ended and run was stopped.
	Cancelled
)

// Holder campaigns for one Lease and, once it holds it, renews it. It is not safe for
// concurrent use: one goroutine at a time calls its methods.
type Holder struct {
	leases coordinationclient.LeaseInterface
	name   string
	cfg    Config

	// What this holder last saw of the Lease as a candidate, and since when (monotonic).
	seenVersion string
	seenAt      time.Time
	// held is the Lease as this holder last wrote it while holding it: every renewal and the
	// release are conditional on its resourceVersion.
	held *coordinationv1.Lease
}

// NewHolder returns a Holder of the Lease name in leases.
func NewHolder(leases coordinationclient.LeaseInterface, name string, cfg Config) *Holder {
	return &Holder{leases: leases, name: name, cfg: cfg}
}

// Name is the Lease's name.
func (h *Holder) Name() string { return h.name }

// Acquire returns once this holder holds the Lease, or with ctx's error.
func (h *Holder) Acquire(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if h.TryAcquire(ctx) {
			return nil
		}
		if err := h.cfg.Wait(ctx, h.cfg.RetryPeriod); err != nil {
			return err
		}
	}
}

// TryAcquire reads the Lease and takes it if it is free (see TryTake). Errors mean "not now".
func (h *Holder) TryAcquire(ctx context.Context) bool {
	lease, err := h.leases.Get(ctx, h.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return h.TryTake(ctx, nil)
	}
	if err != nil {
		return false
	}
	return h.TryTake(ctx, lease)
}

// Observe records a read of the Lease (nil: it does not exist) made just now, as TryTake
// does: a record is free once it has been seen unchanged for its lease duration. Call it with
// every read of the Lease made by other means (a list of a group of Leases), so that the
// wait for a holder's record to run out counts from the first time it was seen.
func (h *Holder) Observe(lease *coordinationv1.Lease) {
	if lease == nil {
		return
	}
	if lease.ResourceVersion != h.seenVersion {
		h.seenVersion, h.seenAt = lease.ResourceVersion, time.Now()
	}
}

// Free reports whether lease (as just observed) may be taken now: it does not exist, is
// released, or has been seen unchanged for its lease duration.
func (h *Holder) Free(lease *coordinationv1.Lease) bool {
	if lease == nil {
		return true
	}
	h.Observe(lease)
	holder := HolderOf(lease)
	duration := h.cfg.LeaseDuration
	if s := lease.Spec.LeaseDurationSeconds; s != nil && *s > 0 {
		// The holder's own promise: it stops within that long of its last renewal.
		duration = max(duration, time.Duration(*s)*time.Second)
	}
	return holder == "" || time.Since(h.seenAt) >= duration
}

// FreeIn returns how long until lease (as just observed; nil: it does not exist) may be
// taken: 0 if it is free now (see Free).
func (h *Holder) FreeIn(lease *coordinationv1.Lease) time.Duration {
	if h.Free(lease) {
		return 0
	}
	duration := h.cfg.LeaseDuration
	if s := lease.Spec.LeaseDurationSeconds; s != nil && *s > 0 {
		duration = max(duration, time.Duration(*s)*time.Second)
	}
	return max(duration-time.Since(h.seenAt), time.Nanosecond)
}

// TryTake takes the Lease if lease, this holder's latest read of it (nil: it does not
// exist), is free. It reports whether this holder now holds it. Errors mean "not now": the
// next try reads the Lease again.
func (h *Holder) TryTake(ctx context.Context, lease *coordinationv1.Lease) bool {
	if lease == nil {
		lease = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: h.name, Labels: h.cfg.Labels}}
		h.stamp(lease, true)
		sent := time.Now()
		created, err := h.leases.Create(ctx, lease, metav1.CreateOptions{})
		if err != nil {
			return false
		}
		h.won(created, sent)
		return true
	}
	if !h.Free(lease) {
		return false
	}
	lease = lease.DeepCopy()
	h.stamp(lease, HolderOf(lease) != h.cfg.Identity)
	sent := time.Now()
	// Update is conditional on lease.ResourceVersion, the record just judged free: if anyone
	// wrote it since, this fails with a conflict and the next try reads it again.
	updated, err := h.leases.Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		return false
	}
	h.won(updated, sent)
	return true
}

// HolderOf returns lease's holder, "" when released.
func HolderOf(lease *coordinationv1.Lease) string {
	if lease == nil || lease.Spec.HolderIdentity == nil {
		return ""
	}
	return *lease.Spec.HolderIdentity
}

// stamp makes lease a fresh record of this holder's term.
func (h *Holder) stamp(lease *coordinationv1.Lease, newHolder bool) {
	now := metav1.NewMicroTime(time.Now())
	seconds := int32(h.cfg.LeaseDuration / time.Second)
	lease.Spec.HolderIdentity = &h.cfg.Identity
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
	for k, v := range h.cfg.Labels {
		if lease.Labels[k] != v {
			if lease.Labels == nil {
				lease.Labels = map[string]string{}
			}
			lease.Labels[k] = v
		}
	}
}

// won starts a term with the record written by a request sent at sent.
func (h *Holder) won(lease *coordinationv1.Lease, sent time.Time) {
	h.held = lease
	h.cfg.Fence.Hold(sent.Add(h.cfg.RenewDeadline))
}

// Hold runs run for the term TryTake or Acquire began, renewing the Lease every RetryPeriod,
// and ends the term once run has returned: run's context (which carries the Fence) is
// cancelled when ctx ends or the term ends, and the Fence is dropped after run has returned
// and before Hold returns. It returns why it returned and run's error. It does not release the
// Lease: call Release for that.
func (h *Holder) Hold(ctx context.Context, run func(context.Context) error) (Ending, error) {
	runCtx, cancel := context.WithCancelCause(kates.WithFence(ctx, h.cfg.Fence))
	defer cancel(nil)
	renewing := make(chan struct{})
	go func() {
		defer close(renewing)
		h.renew(runCtx, cancel)
	}()
	err := run(runCtx)
	returnedOnItsOwn := runCtx.Err() == nil
	cause := context.Cause(runCtx)
	cancel(nil)
	<-renewing
	// run has returned: it sends no more writes, so the term may end. Writes it sent that
	// are still in flight may yet land; Release waits for them (Fence.Settle).
	h.cfg.Fence.Drop()
	switch {
	case returnedOnItsOwn:
		return Returned, err
	case errors.Is(cause, kates.ErrLeaseLost):
		return Lost, err
	default:
		return Cancelled, err
	}
}

// renew renews the lease every RetryPeriod until ctx ends, and ends the term (cancelling with
// ErrLeaseLost) when the fence's deadline passes or a renewal finds the Lease rewritten.
func (h *Holder) renew(ctx context.Context, cancel context.CancelCauseFunc) {
	for {
		// The next renewal is RetryPeriod after the last one, or sooner after one that failed
		// if the API server comes back (cfg.Wait); the term ends at the fence's deadline if no
		// renewal has succeeded by then.
		deadline, _ := h.cfg.Fence.Deadline()
		waitCtx, stop := context.WithDeadline(ctx, deadline)
		_ = h.cfg.Wait(waitCtx, h.cfg.RetryPeriod)
		expired := waitCtx.Err() != nil
		stop()
		if ctx.Err() != nil {
			return
		}
		if expired {
			h.cfg.Fence.Drop()
			cancel(kates.ErrLeaseLost)
			return
		}
		// A renewal after the deadline would extend a term run has been told is over: the
		// check is made here, on the monotonic clock, not left to the timer above, which a
		// paused process runs late.
		if h.cfg.Fence.Check() != nil {
			h.cfg.Fence.Drop()
			cancel(kates.ErrLeaseLost)
			return
		}
		lease := h.held.DeepCopy()
		now := metav1.NewMicroTime(time.Now())
		lease.Spec.RenewTime = &now
		sent := time.Now()
		renewCtx, stop := context.WithDeadline(ctx, deadline)
		updated, err := h.leases.Update(renewCtx, lease, metav1.UpdateOptions{})
		stop()
		switch {
		case err == nil:
			h.held = updated
			h.cfg.Fence.Hold(sent.Add(h.cfg.RenewDeadline))
		case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
			// Someone else wrote the Lease (or deleted it): this term is over now, not
			// RenewDeadline from now. Drop the fence before anything else.
			h.cfg.Fence.Drop()
			cancel(kates.ErrLeaseLost)
			return
		}
		// Other errors (a timeout, the API server restarting): try again at the next tick,
		// until the deadline ends the term.
	}
}

// Release gives the Lease up, only if it is still a record of this holder's term: the update
// is conditional on the resourceVersion of the record it last wrote. Call it only after Hold
// has returned. A conflict has two causes. Another replica took the lease over: its record
// names it, and is left alone. Or a renewal of this holder's landed after its answer was
// abandoned (run's context ended while it was in flight): the record still names this holder
// with this term's acquireTime — a later term, even of a process restarted with the same
// Identity, has its own — so it is released, conditional on that record's resourceVersion.
// ctx's cancellation is ignored (a release is what a graceful stop does after ctx ends); the
// release gives up after RenewDeadline.
//
// Release first waits for every write of the term still in flight to be answered (the Fence's
// Settle): a write cancelled when run's context ended may already be on the wire, and the
// release record must come after it, or the next holder's term could begin before it lands.
// If they are not all answered within RenewDeadline, Release does not release: the Lease runs
// out as a crashed holder's does, LeaseDuration after its last renewal. It reports whether it
// waited in vain.
func (h *Holder) Release(ctx context.Context) (unsettled bool) {
	if h.held == nil {
		return false
	}
	releaseCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.cfg.RenewDeadline)
	defer cancel()
	if !h.cfg.Fence.Settle(releaseCtx, h.cfg.RenewDeadline) {
		return true
	}
	lease := h.held
	for range 2 {
		released := lease.DeepCopy()
		now := metav1.NewMicroTime(time.Now())
		one := int32(1)
		released.Spec.HolderIdentity = nil
		released.Spec.LeaseDurationSeconds = &one
		released.Spec.RenewTime = &now
		_, err := h.leases.Update(releaseCtx, released, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return false
		}
		lease, err = h.leases.Get(releaseCtx, h.name, metav1.GetOptions{})
		if err != nil || !h.ownTerm(lease) {
			return false // someone else's now
		}
	}
	return false
}

// ownTerm reports whether lease is a record of this holder's current term: its holder and
// its acquireTime are the ones this holder wrote when it won.
func (h *Holder) ownTerm(lease *coordinationv1.Lease) bool {
	hid, mine := lease.Spec.HolderIdentity, h.held.Spec.AcquireTime
	return hid != nil && *hid == h.cfg.Identity && mine != nil && lease.Spec.AcquireTime != nil &&
		lease.Spec.AcquireTime.Equal(mine)
}

// Identity is a replica's default identity: its hostname and a random suffix, so that two
// processes on one host (or a restarted one) are never taken for the same holder.
func Identity() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "kates"
	}
	return host + "_" + rand.String(6)
}

// DefaultTimings fills the zero ones of a lease's timings with client-go's leader-election
// defaults: a 15 s lease, renewed within 10 s, retried every 2 s.
func DefaultTimings(leaseDuration, renewDeadline, retryPeriod *time.Duration) {
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{leaseDuration, 15 * time.Second}, {renewDeadline, 10 * time.Second}, {retryPeriod, 2 * time.Second}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
}
