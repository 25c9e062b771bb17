package shards

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"

	"github.com/kates-dev/kates/internal/lease"
	"github.com/kates-dev/kates/kates"
)

// The labels on every Lease of a group: one list, by GroupLabel, reads the whole group.
const (
	// GroupLabel carries Options.Name on the group's member and shard Leases.
	GroupLabel = "shards.kates.dev/group"
	// RoleLabel is RoleMember on a member Lease and RoleShard on a shard Lease.
	RoleLabel  = "shards.kates.dev/role"
	RoleMember = "member"
	RoleShard  = "shard"
	// ShardLabel carries a shard Lease's shard number.
	ShardLabel = "shards.kates.dev/shard"
	// LiveAnnotation, on a member Lease, is the members its replica counts live: the
	// resourceVersion of the list of the group's Leases it judged from, a space, and the
	// names of the live members' Leases, sorted and separated by commas. A replica that has
	// not watched a member Lease for its lease duration yet (it has just started) trusts that
	// judgement: see Run.
	LiveAnnotation = "shards.kates.dev/live"
)

// Options configures Run. Name and Shards are required.
type Options struct {
	// Name names the group of replicas: its Leases are "<Name>-shard-<i>", one per shard, and
	// "<Name>-member-<hash of the identity>", one per replica, all labelled GroupLabel=Name. It
	// must be a valid label value, and the Lease names valid object names.
	Name string
	// Namespace holds the Leases. Default: the client's namespace.
	Namespace string
	// Identity is this replica's name in the Leases' holderIdentity; every replica needs its
	// own. Default: the host name (a Pod's name in a cluster) and a random suffix.
	Identity string
	// Shards is the number of virtual shards, the same on every replica. Choose it larger than
	// the most replicas you will run (a replica beyond Shards owns nothing) and fixed for the
	// life of the group: changing it moves every shard. 16 to 64 is a good range.
	Shards int
	// LeaseDuration, RenewDeadline and RetryPeriod are as in election.Options, for every Lease
	// of the group: a killed replica's shards are taken over within LeaseDuration plus one to
	// two RetryPeriods; a replica stops acting on a shard RenewDeadline after its last successful
	// renewal. Defaults 15 s, 10 s, 2 s.
	LeaseDuration time.Duration
	RenewDeadline time.Duration
	RetryPeriod   time.Duration
	// Release gives every shard and the membership up when Run returns — after every run
	// has returned — so that the others take the shards over at once instead of after
	// LeaseDuration. Default false: they run out, as a crashed replica's do. A shard handed to
	// another replica while Run runs is always released, once its run has returned.
	Release bool
	// StampFences sets kates.Fence.Stamp on every shard's fence: each write records when it
	// passed its fence (kates.FenceCheckedHeader), for audits and tests.
	StampFences bool
	// Observe, if set, is called with the group's state as this replica sees it, each time it
	// changes; for logs and metrics. It is called from Run's goroutine: return quickly.
	Observe func(State)
	// Handover, if set, is called each time a shard comes to this replica or leaves it, for
	// metrics (metrics.ShardHandovers). It is called from Run's goroutines, several at
	// once: it must be safe for concurrent use, and return quickly.
	Handover func(Handover)
}

// Handover is one shard coming to this replica or leaving it.
type Handover struct {
	Shard int
	// In: this replica took the shard, Duration after Assign first gave it to this replica
	// (the time the shard waited for its former owner to let go, or its Lease to run out).
	// Otherwise the shard's term here ended (handed away, lost, or Run stopping), and
	// Duration is from then until its Lease was released, or left to run out.
	In       bool
	Duration time.Duration
	// Released, for a shard leaving: its Lease was released, so the next owner takes it at
	// once. False: it runs out, LeaseDuration after its last renewal (Release not set, the
	// term lost, or writes of the term not answered in time: see Run).
	Released bool
}

// State is a replica's view of its group.
type State struct {
	// Identity is this replica's.
	Identity string
	// Members are the live replicas, sorted: this one, and every other whose member Lease
	// has been renewed within its lease duration.
	Members []string
	// Assigned are the shards Assign(Members) gives this replica, in order.
	Assigned []int
	// Held are the shards whose Lease this replica holds and whose run is running, in order.
	// A shard is Assigned before it is Held (while its former owner lets go) and Held after it
	// is no longer Assigned (while its run returns).
	Held []int
}

func (s State) equal(o State) bool {
	return slices.Equal(s.Members, o.Members) && slices.Equal(s.Assigned, o.Assigned) && slices.Equal(s.Held, o.Held)
}

func (o Options) withDefaults(c *kates.Client) (Options, error) {
	if o.Namespace == "" {
		o.Namespace = c.Namespace()
	}
	if o.Identity == "" {
		o.Identity = lease.Identity()
	}
	lease.DefaultTimings(&o.LeaseDuration, &o.RenewDeadline, &o.RetryPeriod)
	o.LeaseDuration = o.LeaseDuration.Truncate(time.Second)
	switch {
	case o.Name == "":
		return o, errors.New("shards: Options.Name is required")
	case len(validation.IsValidLabelValue(o.Name)) > 0:
		return o, fmt.Errorf("shards: name %q: %s", o.Name, validation.IsValidLabelValue(o.Name)[0])
	case len(validation.IsDNS1123Subdomain(memberLeaseName(o.Name, o.Identity))) > 0:
		return o, fmt.Errorf("shards: name %q makes invalid Lease names: %s", o.Name, validation.IsDNS1123Subdomain(memberLeaseName(o.Name, o.Identity))[0])
	case o.Namespace == "":
		return o, errors.New("shards: no namespace: set Options.Namespace or the client's")
	case o.Shards <= 0:
		return o, fmt.Errorf("shards: %d shards: want at least one", o.Shards)
	case o.LeaseDuration < time.Second:
		return o, fmt.Errorf("shards: lease duration %s: want at least 1s", o.LeaseDuration)
	case o.RenewDeadline >= o.LeaseDuration:
		return o, fmt.Errorf("shards: renew deadline %s must be less than the lease duration %s (whole seconds)", o.RenewDeadline, o.LeaseDuration)
	case o.RetryPeriod <= 0 || o.RetryPeriod >= o.RenewDeadline:
		return o, fmt.Errorf("shards: retry period %s must be positive and less than the renew deadline %s", o.RetryPeriod, o.RenewDeadline)
	}
	return o, nil
}

// ShardLeaseName is the name of the Lease of shard i of the group name.
func ShardLeaseName(name string, i int) string { return name + "-shard-" + strconv.Itoa(i) }

// memberLeaseName is the name of identity's member Lease. An identity need not be a valid
// object name (the default has an underscore), so the name carries a hash of it; the Lease's
// holderIdentity carries the identity itself.
func memberLeaseName(name, identity string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(identity))
	return fmt.Sprintf("%s-member-%016x", name, h.Sum64())
}

// forgetAfter is how many lease durations a member Lease stays unchanged before the others
// delete it.
const forgetAfter = 5

// errHandedAway is the cause of a shard's context ending because the shard was assigned to
// another replica.
var errHandedAway = errors.New("shards: shard handed to another replica")

// HandedAway reports whether ctx, a context Run gave run, ended because its shard was
// assigned to another replica (and not because its Lease was lost or Run is stopping).
func HandedAway(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errHandedAway) }

// Run makes this replica a member of the group opts.Name and calls run(ctx, i) for each
// virtual shard i it owns, each in a goroutine of its own, while it owns it. run's context
// carries shard i's kates.Fence (kates.FenceFrom) and ends when the shard is handed to
// another replica (HandedAway), its Lease is lost (kates.ErrLeaseLost is the cause), or Run's
// ctx ends; run must then return promptly. run's context also stamps the owned objects the
// Client writes with it (kates.WithOwnerShardStamp, for a space by UID of Shards shards), so
// that queries placed by kates.PlaceByOwnerLabel have the API server select them. Run returns when ctx ends, after every run has
// returned: nil, or, if a run returns while its shard is still owned, that error (every other
// shard is stopped first).
//
// # Membership
//
// Each replica renews a member Lease of its own every RetryPeriod and lists the group's
// Leases as often. The live members are those whose member Lease changed within its lease
// duration, as this replica counts it (on its own monotonic clock, from when it first saw
// each version: replicas' clocks need not agree); a replica that stops cleanly deletes its
// member Lease, so the others see it leave at their next list, and the member Lease of one
// that died is deleted by the others once unchanged for five lease durations. Every replica
// computes the owners of the shards from the live members with Assign.
//
// A replica that has just started has watched no member Lease for a lease duration, and would
// count a dead member live for that long, disagreeing with the others on who owns what (and
// leaving the shards they hand it untaken). So each replica writes the members it counts live,
// and the list it judged from, on its member Lease (LiveAnnotation), and a replica takes a
// member for dead once any member has judged that very record of it dead. Membership only
// decides who should own what: the shard Leases alone decide who may write, and they are held
// as below, whatever the members. So what a joiner still waits for is its own view of the
// shard Leases: it takes a dead member's shard only once it has seen its record unchanged for
// the lease duration itself, so a replica that joins a moment after a kill takes the dead
// member's shards Assign gives it that moment after the others take theirs.
//
// # Handover
//
// Replicas may briefly disagree on the members, so the owner of a shard is whoever holds its
// Lease, and a shard's Lease is held exactly as election.Run holds its own: every write
// conditional on the record last seen, a free record taken only once seen unchanged for its
// lease duration, a term that ends RenewDeadline after its last renewal was sent, and every
// kates Client write sent with run's context checked against the shard's Fence just before it
// leaves. A replica that should no longer own a shard cancels the shard's context, waits for
// run to return, drops the shard's Fence, waits for every write of the term still in flight to
// be answered by the API server (a write cancelled with run's context may already be on the
// wire), and only then releases the Lease; the new owner takes it at its next list. Writes not
// answered within RenewDeadline keep the Lease from being released: it runs out instead, as a
// crashed replica's does (see kates.Fence for what remains). A shard is therefore never acted on by two replicas at once (the
// guarantee, and its one exception, are election.Run's), and a shard is left unowned for at most
// about two RetryPeriods on a handover, LeaseDuration plus up to one RetryPeriod after a crash
// (a replica sees each record change up to a RetryPeriod late, then acts as it runs out).
//
// A replica observes every shard Lease it does not hold at each list, so the lease duration of a
// crashed replica's shards is counted from when they were last renewed, not from when they were
// assigned to this one: a crashed replica's shards are taken over about LeaseDuration after its
// last renewal, when its member Lease runs out too.
func Run(ctx context.Context, client *kates.Client, opts Options, run func(ctx context.Context, shard int) error) error {
	o, err := opts.withDefaults(client)
	if err != nil {
		return err
	}
	// A typed client of coordination.k8s.io alone, on the Client's connections (so its
	// writes pass the Client's fence too).
	coord, err := coordinationclient.NewForConfigAndClient(client.RESTConfig(), client.HTTPClient())
	if err != nil {
		return fmt.Errorf("shards: %w", err)
	}
	g := &group{
		o:      o,
		leases: coord.Leases(o.Namespace),
		member: memberLeaseName(o.Name, o.Identity),
		seen:   map[string]seenMember{},
		ended:  make(chan termEnd, o.Shards),
		// Capacity 1: a kick waiting is enough.
		liveKick: make(chan struct{}, 1),
		run:      run,
		// Microseconds: what a Lease's times keep.
		started: metav1.NewMicroTime(time.Now().Truncate(time.Microsecond)),
	}
	for i := range o.Shards {
		fence := &kates.Fence{Stamp: o.StampFences}
		g.shards = append(g.shards, &shard{i: i, holder: lease.NewHolder(g.leases, ShardLeaseName(o.Name, i), lease.Config{
			Identity: o.Identity, LeaseDuration: o.LeaseDuration, RenewDeadline: o.RenewDeadline,
			RetryPeriod: o.RetryPeriod, Fence: fence, Wait: client.WaitToRetry,
			Labels: map[string]string{GroupLabel: o.Name, RoleLabel: RoleShard, ShardLabel: strconv.Itoa(i)},
		})})
	}
	return g.loop(ctx)
}

// group is one replica's membership in a group, run by one goroutine (loop); each held
// shard's term runs in a goroutine of its own, which alone touches that shard's holder until
// it reports on ended.
type group struct {
	o      Options
	leases coordinationclient.LeaseInterface
	run    func(context.Context, int) error
	member string // this replica's member Lease's name

	// held is this replica's member Lease as last written, nil when it must be read again;
	// only the heartbeat goroutine touches it.
	held *coordinationv1.Lease
	// started is when this Run began, the member Lease's acquireTime: it tells this Run's
	// record from that of an earlier process of the same Identity.
	started metav1.MicroTime
	// seen is each member Lease listed, by name: which version, and since when.
	seen   map[string]seenMember
	shards []*shard
	ended  chan termEnd
	// state is the latest state, notified the last one Observe was given.
	state, notified State
	// live is this replica's LiveAnnotation, as of its latest list; the heartbeat writes it,
	// at once when kicked (the members it counts live changed).
	live     atomic.Pointer[string]
	liveKick chan struct{}
	// soonest is how long until the next record this replica is waiting on runs out (a
	// member Lease, so that its shards are assigned anew, or a shard Lease this replica is
	// to take), when that is within a RetryPeriod; 0 if none is. The loop lists again then
	// rather than at its next tick: a dead replica's shards are taken as their records run
	// out, not up to a RetryPeriod later.
	soonest time.Duration
}

type seenMember struct {
	version  string
	since    time.Time
	identity string
	duration time.Duration
}

// shard is one virtual shard as this replica sees it.
type shard struct {
	i      int
	holder *lease.Holder // holds the shard's Lease and its Fence
	// cancel ends the running term's context; nil when no term of this replica's runs.
	cancel context.CancelCauseFunc
	// assigned is when Assign first gave the shard to this replica while it did not hold it;
	// zero otherwise. Only the loop's goroutine touches it.
	assigned time.Time
}

type termEnd struct {
	shard  int
	ending lease.Ending
	err    error
}

func (g *group) loop(ctx context.Context) error {
	// stopCtx ends when ctx does or a run returns on its own: every term derives from it.
	stopCtx, stop := context.WithCancel(ctx)
	defer stop()
	var runErr error
	// The member Lease is renewed on a goroutine of its own: a slow round of takes (a
	// request per shard, on a loaded API server) must not let it run out.
	beating := make(chan struct{})
	go func() {
		defer close(beating)
		beat := time.NewTicker(g.o.RetryPeriod)
		defer beat.Stop()
		for {
			g.heartbeat(stopCtx)
			select {
			case <-stopCtx.Done():
				return
			case <-beat.C:
			case <-g.liveKick:
				// The members this replica counts live changed: say so now, so
				// that a replica joining meanwhile agrees at its next list.
			}
		}
	}()
	tick := time.NewTicker(g.o.RetryPeriod)
	defer tick.Stop()
	soon := time.NewTimer(0)
	defer soon.Stop()
	for stopCtx.Err() == nil {
		g.soonest = 0
		list, err := g.leases.List(stopCtx, metav1.ListOptions{LabelSelector: labels.Set{GroupLabel: g.o.Name}.String()})
		if err == nil {
			g.balance(stopCtx, list.ResourceVersion, list.Items)
		}
		g.notify()
		var wake <-chan time.Time
		if g.soonest > 0 {
			// Just past the moment the record runs out (as this replica counts it).
			soon.Reset(g.soonest + time.Millisecond)
			wake = soon.C
		}
		select {
		case <-stopCtx.Done():
		case <-wake:
		case <-tick.C:
		case e := <-g.ended:
			if g.ended1(e) {
				runErr = e.err
				stop()
			}
		}
	}
	<-beating
	if g.o.Release {
		// Leave the group first, so that the others assign this replica's shards among
		// themselves while its runs return; they take each shard once it is released.
		g.leave(ctx)
	}
	// Stop every term; each releases its shard if opts.Release, once its run has returned.
	for _, s := range g.shards {
		if s.cancel != nil {
			s.cancel(context.Canceled)
		}
	}
	for g.running() > 0 {
		if e := <-g.ended; g.ended1(e) && runErr == nil {
			runErr = e.err
		}
	}
	g.notify()
	return runErr
}

// leave deletes this replica's member Lease, if it is still its own. The last heartbeat's
// answer may have been abandoned when ctx ended, so the Lease is read again: the delete is
// conditional on that record, which a process restarted with the same Identity would have
// rewritten.
func (g *group) leave(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), g.o.RenewDeadline)
	defer cancel()
	l, err := g.leases.Get(ctx, g.member, metav1.GetOptions{})
	if err != nil || lease.HolderOf(l) != g.o.Identity || l.Spec.AcquireTime == nil ||
		l.Spec.AcquireTime.UnixMicro() != g.started.UnixMicro() {
		return
	}
	rv := l.ResourceVersion
	_ = g.leases.Delete(ctx, g.member, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
}

// ended1 records that a shard's term ended and reports whether it ended because run returned on
// its own, which stops Run.
func (g *group) ended1(e termEnd) bool {
	g.shards[e.shard].cancel = nil
	return e.ending == lease.Returned
}

func (g *group) running() int {
	n := 0
	for _, s := range g.shards {
		if s.cancel != nil {
			n++
		}
	}
	return n
}

// heartbeat renews this replica's member Lease, creating it if needed. Only this replica
// writes it (its name carries a hash of the identity), so a conflict means a process of the
// same identity wrote it before this one started: read it and write over it.
func (g *group) heartbeat(ctx context.Context) {
	now := metav1.NewMicroTime(time.Now())
	seconds := int32(g.o.LeaseDuration / time.Second)
	if g.held == nil {
		l, err := g.leases.Get(ctx, g.member, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			l = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: g.member,
				Labels: map[string]string{GroupLabel: g.o.Name, RoleLabel: RoleMember}}}
		case err != nil:
			return
		}
		g.held = l
	}
	l := g.held.DeepCopy()
	l.Spec.HolderIdentity = &g.o.Identity
	l.Spec.AcquireTime = &g.started
	l.Spec.LeaseDurationSeconds = &seconds
	l.Spec.RenewTime = &now
	if live := g.live.Load(); live != nil && l.Annotations[LiveAnnotation] != *live {
		l.Annotations = maps.Clone(l.Annotations)
		if l.Annotations == nil {
			l.Annotations = map[string]string{}
		}
		l.Annotations[LiveAnnotation] = *live
	}
	var err error
	if l.ResourceVersion == "" {
		g.held, err = g.leases.Create(ctx, l, metav1.CreateOptions{})
	} else {
		g.held, err = g.leases.Update(ctx, l, metav1.UpdateOptions{})
	}
	if err != nil {
		g.held = nil
	}
}

// balance reads the group's Leases as just listed (at resourceVersion listRV), works out the
// members and this replica's shards, hands away the shards it should no longer own and takes
// the free ones it should.
func (g *group) balance(ctx context.Context, listRV string, items []coordinationv1.Lease) {
	now := time.Now()
	records := make([]*coordinationv1.Lease, len(g.shards))
	members := []string{g.o.Identity}
	liveNames := []string{g.member}
	listed := map[string]bool{}
	judged := judgements(items)
	for i := range items {
		l := &items[i]
		switch l.Labels[RoleLabel] {
		case RoleShard:
			n, err := strconv.Atoi(l.Labels[ShardLabel])
			if err == nil && n >= 0 && n < len(records) && l.Name == ShardLeaseName(g.o.Name, n) {
				records[n] = l
			}
		case RoleMember:
			listed[l.Name] = true
			s, ok := g.seen[l.Name]
			if !ok || s.version != l.ResourceVersion {
				s = seenMember{version: l.ResourceVersion, since: now, identity: lease.HolderOf(l), duration: g.o.LeaseDuration}
				if d := l.Spec.LeaseDurationSeconds; d != nil && *d > 0 {
					s.duration = max(s.duration, time.Duration(*d)*time.Second)
				}
				g.seen[l.Name] = s
			}
			switch {
			case s.identity != "" && now.Sub(s.since) < s.duration && !judged.dead(l):
				members = append(members, s.identity)
				liveNames = append(liveNames, l.Name)
				if l.Name != g.member {
					g.expectIn(s.duration - now.Sub(s.since))
				}
			case l.Name != g.member && now.Sub(s.since) >= forgetAfter*s.duration:
				// A replica that died without leaving: delete its record, so that a
				// group whose Pods come and go does not pile them up. Conditional on the
				// version judged dead: a replica that came back meanwhile keeps its own.
				rv := l.ResourceVersion
				_ = g.leases.Delete(ctx, l.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
			}
		}
	}
	for name := range g.seen {
		if !listed[name] {
			delete(g.seen, name)
		}
	}
	slices.Sort(members)
	members = slices.Compact(members)
	slices.Sort(liveNames)
	live := listRV + " " + strings.Join(slices.Compact(liveNames), ",")
	if old := g.live.Swap(&live); old != nil && !sameLive(*old, live) {
		select {
		case g.liveKick <- struct{}{}:
		default:
		}
	}
	owners := Assign(members, len(g.shards))
	g.state.Members = members
	g.state.Assigned = Owned(owners, g.o.Identity)
	var take []*shard
	for _, s := range g.shards {
		mine := owners[s.i] == g.o.Identity
		if mine && s.cancel == nil && s.assigned.IsZero() {
			s.assigned = now
		} else if !mine {
			s.assigned = time.Time{}
		}
		switch {
		case s.cancel != nil && !mine:
			// Hand it away: its term ends once run has returned, and the Lease is released
			// after that (see term).
			s.cancel(errHandedAway)
		case s.cancel == nil && mine:
			take = append(take, s)
		case s.cancel == nil:
			// Keep counting how long its record has been unchanged, so that it can be taken
			// over as soon as it runs out once it is this replica's.
			s.holder.Observe(records[s.i])
		}
	}
	g.takeTogether(ctx, g.ripe(take, records), records)
}

// expectIn notes that a record this replica waits on runs out in d (see group.soonest).
func (g *group) expectIn(d time.Duration) {
	if d > 0 && d <= g.o.RetryPeriod && (g.soonest == 0 || d < g.soonest) {
		g.soonest = d
	}
}

// ripe returns the shards of take to take now. Every shard Lease of a replica is renewed on a
// schedule of its own, so a dead replica's records run out up to a RetryPeriod apart: taken
// as each runs out, its shards would come in two rounds, and be listed twice, the second list
// after the first. So the free shards of a former holder are left for the next round while
// another of its records runs out within a RetryPeriod: the last of them is taken no later,
// and all of them together.
func (g *group) ripe(take []*shard, records []*coordinationv1.Lease) []*shard {
	soon := map[string]bool{} // former holders with a record running out within a RetryPeriod
	free := make([]bool, len(take))
	for k, s := range take {
		switch in := s.holder.FreeIn(records[s.i]); {
		case in == 0:
			free[k] = true
		case in <= g.o.RetryPeriod:
			soon[lease.HolderOf(records[s.i])] = true
			g.expectIn(in)
		}
	}
	var ripe []*shard
	for k, s := range take {
		if free[k] && (records[s.i] == nil || !soon[lease.HolderOf(records[s.i])]) {
			ripe = append(ripe, s)
		}
	}
	return ripe
}

// takeTogether tries to take the shards take, whose records are as just listed, all at once,
// and starts the runs of those it took together. A dead or departing replica's shards come
// free together: taken one request at a time they would be taken, and listed, one after
// another (0.5-1.9 s for eight on a loaded API server), while started together their runs
// add them to the view as one change (see kates.Accumulator.AddShard). Each take is the same
// conditional write as alone (lease.Holder.TryTake), on its own shard's holder, which only
// this goroutine touches while no term of the shard runs.
func (g *group) takeTogether(ctx context.Context, take []*shard, records []*coordinationv1.Lease) {
	won := make([]bool, len(take))
	var wg sync.WaitGroup
	for k, s := range take {
		wg.Go(func() { won[k] = s.holder.TryTake(ctx, records[s.i]) })
	}
	wg.Wait()
	for k, s := range take {
		if won[k] {
			if g.o.Handover != nil {
				g.o.Handover(Handover{Shard: s.i, In: true, Duration: time.Since(s.assigned)})
			}
			s.assigned = time.Time{}
			g.start(ctx, s)
		}
	}
}

// sameLive reports whether two LiveAnnotations name the same members (as of any list).
func sameLive(a, b string) bool {
	_, x, _ := strings.Cut(a, " ")
	_, y, _ := strings.Cut(b, " ")
	return x == y
}

// judgement is one replica's LiveAnnotation: the member Leases it counted live as of a list.
type judgement struct {
	asOf int64
	live map[string]bool
}

// judgementsOf are the judgements the member Leases of a list carry.
type judgementsOf []judgement

// judgements reads the LiveAnnotation of every member Lease of items.
func judgements(items []coordinationv1.Lease) judgementsOf {
	var out judgementsOf
	for i := range items {
		l := &items[i]
		if l.Labels[RoleLabel] != RoleMember {
			continue
		}
		rv, names, ok := strings.Cut(l.Annotations[LiveAnnotation], " ")
		asOf, err := strconv.ParseInt(rv, 10, 64)
		if !ok || err != nil {
			continue
		}
		j := judgement{asOf: asOf, live: map[string]bool{}}
		for _, n := range strings.Split(names, ",") {
			j.live[n] = true
		}
		out = append(out, j)
	}
	return out
}

// dead reports whether a member of the group has judged l dead in the version listed now: one
// that judged from a list at least as new as l's resourceVersion (so it saw this very record)
// and did not count it live. That member had seen the record unchanged for its lease duration,
// on its own clock, as this replica would itself, later: a replica that has just started
// agrees with the group at its first list instead of counting a dead member live for a lease
// duration (and leaving the shards the others hand it untaken meanwhile). A member that comes
// back renews its Lease, whose new version no judgement has seen yet. Membership only decides
// who should own what; the shard Leases alone decide who may write, and each is still taken
// only once this replica has seen its record unchanged for its lease duration.
func (js judgementsOf) dead(l *coordinationv1.Lease) bool {
	rv, err := strconv.ParseInt(l.ResourceVersion, 10, 64)
	if err != nil {
		return false
	}
	for _, j := range js {
		if j.asOf >= rv && !j.live[l.Name] {
			return true
		}
	}
	return false
}

// start runs a term of shard s, which this replica has just taken.
func (g *group) start(ctx context.Context, s *shard) {
	termCtx, cancel := context.WithCancelCause(ctx)
	s.cancel = cancel
	go func() {
		var ended atomic.Int64 // when the term was told to end (Unix nanoseconds)
		stopEnded := context.AfterFunc(termCtx, func() { ended.CompareAndSwap(0, time.Now().UnixNano()) })
		defer stopEnded()
		ending, err := s.holder.Hold(termCtx, func(ctx context.Context) error {
			return g.run(kates.WithOwnerShardStamp(ctx, g.space()), s.i)
		})
		ended.CompareAndSwap(0, time.Now().UnixNano()) // run returned on its own, or the term was lost
		// Hold has returned: run has returned and the fence is dropped. Release the Lease
		// unless Run is stopping without Release (as a crash would leave it).
		released := false
		if ctx.Err() == nil || g.o.Release {
			released = !s.holder.Release(ctx) && ending != lease.Lost
		}
		if g.o.Handover != nil {
			g.o.Handover(Handover{Shard: s.i, Duration: time.Since(time.Unix(0, ended.Load())), Released: released})
		}
		cancel(nil)
		if err != nil {
			err = fmt.Errorf("shard %d: %w", s.i, err)
		}
		g.ended <- termEnd{shard: s.i, ending: ending, err: err}
	}()
}

// space is the group's shards as a kates.ShardSpace by UID: the space whose OwnerShardLabel
// the Client stamps on the owned objects each run writes (kates.WithOwnerShardStamp).
func (g *group) space() kates.ShardSpace {
	return kates.ShardSpace{Key: kates.ShardByUID, Count: len(g.shards)}
}

// notify calls Observe if the state changed.
func (g *group) notify() {
	var held []int
	for _, s := range g.shards {
		if s.cancel != nil {
			held = append(held, s.i)
		}
	}
	g.state = State{Identity: g.o.Identity, Members: g.state.Members, Assigned: g.state.Assigned, Held: held}
	if g.o.Observe != nil && !g.state.equal(g.notified) {
		g.o.Observe(g.state)
	}
	g.notified = g.state
}
