package shards_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
	"github.com/kates-dev/kates/testenv/katestest"
)

// Short lease timings for tests: a killed replica's shards are taken over within about
// two and a half seconds.
const (
	testLease = 2 * time.Second
	testRenew = 1500 * time.Millisecond
	testRetry = 300 * time.Millisecond
	within    = 30 * time.Second // how long a test waits for the shards to settle
)

// partitionable fails every request while cut is set, as a network partition between one
// replica and the API server would.
type partitionable struct {
	next http.RoundTripper
	cut  *atomic.Bool
	// slowTakes, when set, delays each write of a shard Lease by that many nanoseconds: a
	// loaded API server.
	slowTakes *atomic.Int64
	// onSlow, if set, is called with the path of each shard Lease write before it is delayed.
	onSlow func(path string)
}

func (p *partitionable) RoundTrip(req *http.Request) (*http.Response, error) {
	if p.cut.Load() {
		return nil, errors.New("partitioned")
	}
	if d := time.Duration(p.slowTakes.Load()); d > 0 && req.Method == http.MethodPut && strings.Contains(req.URL.Path, "-shard-") {
		if p.onSlow != nil {
			p.onSlow(req.URL.Path)
		}
		time.Sleep(d)
	}
	return p.next.RoundTrip(req)
}

// term is one run of a shard's callback on one replica.
type term struct {
	replica    string
	start, end time.Time
	handedAway bool // its context ended with shards.HandedAway
	cause      string
	fenced     bool // its context carried a held fence when it began
}

// terms records every run of every shard's callback, across replicas.
type terms struct {
	mu      sync.Mutex
	byShard map[int][]*term
}

func (r *terms) begin(shard int, replica string, fenced bool) *term {
	r.mu.Lock()
	defer r.mu.Unlock()
	tm := &term{replica: replica, start: time.Now(), fenced: fenced}
	r.byShard[shard] = append(r.byShard[shard], tm)
	return tm
}

func (r *terms) finish(tm *term, ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	tm.end, tm.handedAway = time.Now(), shards.HandedAway(ctx)
	if err := context.Cause(ctx); err != nil {
		tm.cause = err.Error()
	}
}

// open returns the replicas whose callback runs for each shard now.
func (r *terms) open(n int) [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][]string, n)
	for i := range n {
		for _, tm := range r.byShard[i] {
			if tm.end.IsZero() {
				out[i] = append(out[i], tm.replica)
			}
		}
	}
	return out
}

// checkNoOverlap fails the test if two callbacks of one shard ever ran at once, and if a
// callback's context did not carry a held fence.
func (r *terms) checkNoOverlap(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	runs := 0
	for shard, ts := range r.byShard {
		sorted := slices.Clone(ts)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].start.Before(sorted[j].start) })
		for i, tm := range sorted {
			runs++
			if !tm.fenced {
				t.Errorf("shard %d: %s's run began without a held fence in its context", shard, tm.replica)
			}
			if i == 0 {
				continue
			}
			prev := sorted[i-1]
			if prev.end.IsZero() || tm.start.Before(prev.end) {
				t.Errorf("shard %d: %s's run began at %s, before %s's ended (at %s)", shard, tm.replica,
					tm.start.Format(time.StampMicro), prev.replica, prev.end.Format(time.StampMicro))
			}
		}
	}
	t.Logf("%d runs of %d shards, none overlapping", runs, len(r.byShard))
}

// replica is one member of the group, in this process, with a client of its own.
type replica struct {
	id     string
	client *kates.Client
	cut    atomic.Bool
	slow   atomic.Int64 // see partitionable.slowTakes
	onSlow atomic.Pointer[func(path string)]
	cancel context.CancelFunc
	done   chan error

	mu     sync.Mutex
	states []shards.State
}

func startReplica(t *testing.T, ns, id string, opts shards.Options, rec *terms) *replica {
	t.Helper()
	r := &replica{id: id, done: make(chan error, 1)}
	cfg := cluster.RESTConfig()
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return &partitionable{next: rt, cut: &r.cut, slowTakes: &r.slow, onSlow: func(path string) {
			if f := r.onSlow.Load(); f != nil {
				(*f)(path)
			}
		}}
	}
	client, err := kates.NewClientFromRESTConfig(cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	r.client = client
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	opts.Identity = id
	opts.Observe = func(s shards.State) {
		r.mu.Lock()
		r.states = append(r.states, s)
		r.mu.Unlock()
	}
	go func() {
		r.done <- shards.Run(ctx, client, opts, func(ctx context.Context, shard int) error {
			f := kates.FenceFrom(ctx)
			tm := rec.begin(shard, id, f != nil && f.Check() == nil)
			<-ctx.Done()
			rec.finish(tm, ctx)
			return nil
		})
	}()
	t.Cleanup(func() { cancel(); <-r.done })
	return r
}

func (r *replica) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("%s: Run = %v, want nil after its context ended", r.id, err)
		}
		r.done <- nil // for the cleanup
	case <-time.After(within):
		t.Fatalf("%s: Run has not returned %s after its context ended", r.id, within)
	}
}

// waitCovered waits until every shard runs on exactly one replica, each of live running the
// shards Assign gives it, and returns how long that took.
func waitCovered(t *testing.T, rec *terms, n int, live ...*replica) time.Duration {
	t.Helper()
	begin := time.Now()
	var ids []string
	for _, r := range live {
		ids = append(ids, r.id)
	}
	want := shards.Assign(ids, n)
	var last string
	for time.Since(begin) < within {
		open := rec.open(n)
		ok := true
		var b strings.Builder
		for i := range n {
			if len(open[i]) != 1 || open[i][0] != want[i] {
				ok = false
				fmt.Fprintf(&b, " shard %d on %v (want %s);", i, open[i], want[i])
			}
		}
		if ok {
			return time.Since(begin)
		}
		last = b.String()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the shards are not covered by %v after %s:%s", ids, within, last)
	return 0
}

// TestRebalance runs a group of replicas in this process through a join, a graceful stop, a
// kill (context ended, nothing released) and a partition from the API server. After each,
// every shard runs on exactly the replica Assign names, and no shard's callback ever runs on
// two replicas at once.
func TestRebalance(t *testing.T) {
	ns := newNamespace(t)
	ignore := goleak.IgnoreCurrent()
	const n = 12
	opts := shards.Options{Name: "grp", Shards: n, LeaseDuration: testLease, RenewDeadline: testRenew,
		RetryPeriod: testRetry, Release: true}
	rec := &terms{byShard: map[int][]*term{}}
	a := startReplica(t, ns, "a", opts, rec)
	b := startReplica(t, ns, "b", opts, rec)
	c := startReplica(t, ns, "c", func() shards.Options { o := opts; o.Release = false; return o }(), rec)
	took := waitCovered(t, rec, n, a, b, c)
	t.Logf("3 replicas cover %d shards %s after starting", n, took.Round(time.Millisecond))

	// A join: d takes its share from the others, which see their shards handed away.
	d := startReplica(t, ns, "d", opts, rec)
	joinedAt := time.Now()
	took = waitCovered(t, rec, n, a, b, c, d)
	moved, handedAway := 0, 0
	rec.mu.Lock()
	for i, ts := range rec.byShard {
		for _, tm := range ts {
			if !tm.end.IsZero() && tm.end.After(joinedAt) {
				moved++
				if tm.handedAway {
					handedAway++
				} else {
					t.Logf("join: shard %d's run on %s ended %s after d started: %s", i, tm.replica, tm.end.Sub(joinedAt).Round(time.Millisecond), tm.cause)
				}
			}
		}
	}
	rec.mu.Unlock()
	t.Logf("join: 4 replicas cover the shards %s after d started; %d shards moved", took.Round(time.Millisecond), moved)
	if moved == 0 || handedAway != moved {
		t.Errorf("join: %d shards moved, %d of them with HandedAway, want every one", moved, handedAway)
	}

	// A graceful stop, with Release: the others take b's shards at once, not after the lease.
	stoppedAt := time.Now()
	b.stop(t)
	took = waitCovered(t, rec, n, a, c, d)
	t.Logf("graceful stop: b's shards taken over %s after Run returned (%s after it was told to stop)",
		took.Round(time.Millisecond), time.Since(stoppedAt).Round(time.Millisecond))
	if took >= testLease {
		t.Errorf("graceful stop: the shards were covered again after %s, want less than the lease duration %s (released)", took, testLease)
	}

	// A kill: c's context ends and nothing is released (Release false), as when the process
	// dies. Its shards run out after the lease duration.
	c.stop(t)
	killedAt := time.Now()
	took = waitCovered(t, rec, n, a, d)
	t.Logf("kill: c's shards taken over %s after it stopped (lease %s, retry %s)", took.Round(time.Millisecond), testLease, testRetry)
	if took < testLease-testRetry-200*time.Millisecond || took > testLease+3*testRetry+time.Second {
		t.Errorf("kill: the shards were covered again after %s, want about the lease duration %s plus a retry period %s",
			took, testLease, testRetry)
	}
	_ = killedAt

	// A partition: a keeps running but reaches nothing. Its runs end RenewDeadline after its
	// last renewal; d takes the shards only after the lease duration.
	a.cut.Store(true)
	took = waitCovered(t, rec, n, d)
	t.Logf("partition: a's shards taken over by d %s after a was cut off", took.Round(time.Millisecond))
	a.stop(t)
	// The member Leases of the replicas that left without a word (c, a) are deleted by d
	// once they have not changed for five lease durations; b's and d's own are gone already.
	leases := katestest.Clientset(t, d.client).CoordinationV1().Leases(ns)
	deadline := time.Now().Add(5*testLease + within)
	for {
		list, err := leases.List(context.Background(), metav1.ListOptions{LabelSelector: shards.RoleLabel + "=" + shards.RoleMember})
		if err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, l := range list.Items {
			if h := l.Spec.HolderIdentity; h != nil && *h != "d" {
				left = append(left, *h)
			}
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the member Leases of %v are still there", left)
		}
		time.Sleep(100 * time.Millisecond)
	}
	d.stop(t)
	rec.checkNoOverlap(t)
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
}

// TestRunReturnsRunsError: a run that returns an error while its shard is owned stops Run,
// which returns that error once every other shard's run has returned.
func TestRunReturnsRunsError(t *testing.T) {
	ns := newNamespace(t)
	client, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	want := errors.New("broken")
	var others atomic.Int32
	err = shards.Run(context.Background(), client, shards.Options{Name: "err", Shards: 4, LeaseDuration: testLease,
		RenewDeadline: testRenew, RetryPeriod: testRetry}, func(ctx context.Context, shard int) error {
		if shard == 2 {
			return want
		}
		<-ctx.Done()
		others.Add(1)
		return nil
	})
	if !errors.Is(err, want) {
		t.Errorf("Run = %v, want run's error %v", err, want)
	}
	t.Logf("Run = %v; %d other runs had returned", err, others.Load())
}

func TestOptionsRejected(t *testing.T) {
	client, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), "default")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts shards.Options
		want string
	}{
		{"no name", shards.Options{Shards: 1}, "Name"},
		{"name not a label value", shards.Options{Name: "a/b", Shards: 1}, "name"},
		{"no shards", shards.Options{Name: "g"}, "0 shards"},
		{"deadline not below whole-second lease", shards.Options{Name: "g", Shards: 1, LeaseDuration: 1900 * time.Millisecond, RenewDeadline: 1500 * time.Millisecond}, "renew deadline"},
		{"retry not below deadline", shards.Options{Name: "g", Shards: 1, RetryPeriod: 10 * time.Second}, "retry period"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := shards.Run(context.Background(), client, tc.opts, func(context.Context, int) error {
				return fmt.Errorf("run called")
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run = %v, want an error about %q", err, tc.want)
			}
		})
	}
}

// TestDeadShardsTakenTogether: a killed replica's shards come free together, and the survivor
// takes them together, each with its own conditional write, so that their runs start together
// (and add them to a view as one change) although each write takes 200 ms here: taken one
// after another, the last would start 1.2 s after the first (for 6), together about 200 ms.
func TestDeadShardsTakenTogether(t *testing.T) {
	ns := newNamespace(t)
	const n = 12
	opts := shards.Options{Name: "together", Shards: n, LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}
	rec := &terms{byShard: map[int][]*term{}}
	a := startReplica(t, ns, "a", opts, rec)
	b := startReplica(t, ns, "b", opts, rec)
	waitCovered(t, rec, n, a, b)
	const slow = 200 * time.Millisecond
	// The first write of a shard Lease a does not hold yet: the first take.
	var firstTake atomic.Pointer[time.Time]
	heldByA := map[string]bool{}
	for i, on := range rec.open(n) {
		if slices.Contains(on, "a") {
			heldByA[shards.ShardLeaseName("together", i)] = true
		}
	}
	onSlow := func(path string) {
		if !heldByA[path[strings.LastIndexByte(path, '/')+1:]] {
			now := time.Now()
			firstTake.CompareAndSwap(nil, &now)
		}
	}
	a.onSlow.Store(&onSlow)
	a.slow.Store(int64(slow))
	b.stop(t) // Release false: b's shards run out, as a killed replica's do
	killedAt := time.Now()
	took := waitCovered(t, rec, n, a)
	var starts []time.Time
	rec.mu.Lock()
	for _, ts := range rec.byShard {
		for _, tm := range ts {
			if tm.replica == "a" && tm.start.After(killedAt) {
				starts = append(starts, tm.start)
			}
		}
	}
	rec.mu.Unlock()
	slices.SortFunc(starts, func(x, y time.Time) int { return x.Compare(y) })
	if len(starts) < 4 {
		t.Fatalf("a took %d of b's shards: the test proves nothing", len(starts))
	}
	if firstTake.Load() == nil {
		t.Fatal("no take of b's shards recorded")
	}
	spread := starts[len(starts)-1].Sub(*firstTake.Load())
	t.Logf("a took b's %d shards %s after b stopped; the last run started %s after the first take was sent (each take %s)",
		len(starts), took.Round(time.Millisecond), spread.Round(time.Millisecond), slow)
	// Taken one after another, the last run starts len(starts) takes after the first take is
	// sent; taken together, about one take after. Half the serial time tells them apart with
	// room for a loaded machine (407 ms against a bound of 400 ms was seen beside make test).
	if limit := time.Duration(len(starts)) * slow / 2; spread >= limit {
		t.Errorf("b's %d shards' runs on a started %s after the first take, want within %s (one at a time: %s): taken one at a time",
			len(starts), spread, limit, time.Duration(len(starts))*slow)
	}
	a.stop(t)
	rec.checkNoOverlap(t)
}

// TestKilledShardsTakenAsTheyRunOut: a survivor lists the group every RetryPeriod, so it sees a
// killed replica's last renewal up to a RetryPeriod late; it must then take the shards as their
// records run out (as it counts them), not at its next list up to another RetryPeriod later. A
// long RetryPeriod here makes the two apart: the first of the killed replica's shards runs again
// within LeaseDuration + RetryPeriod (+ room for a loaded machine) of the kill.
func TestKilledShardsTakenAsTheyRunOut(t *testing.T) {
	ns := newNamespace(t)
	const n = 8
	const retry = 900 * time.Millisecond
	opts := shards.Options{Name: "ripe", Shards: n, LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: retry}
	rec := &terms{byShard: map[int][]*term{}}
	a := startReplica(t, ns, "a", opts, rec)
	b := startReplica(t, ns, "b", opts, rec)
	waitCovered(t, rec, n, a, b)
	b.stop(t) // Release false: b's shards run out, as a killed replica's do
	killedAt := time.Now()
	waitCovered(t, rec, n, a)
	var first time.Time
	rec.mu.Lock()
	for _, ts := range rec.byShard {
		for _, tm := range ts {
			if tm.replica == "a" && tm.start.After(killedAt) && (first.IsZero() || tm.start.Before(first)) {
				first = tm.start
			}
		}
	}
	rec.mu.Unlock()
	if first.IsZero() {
		t.Fatal("a ran none of b's shards after b stopped")
	}
	took := first.Sub(killedAt)
	limit := testLease + retry + 500*time.Millisecond
	t.Logf("a ran the first of b's shards %s after b stopped (lease %s, retry period %s; bound %s)",
		took.Round(time.Millisecond), testLease, retry, limit)
	if took > limit {
		t.Errorf("a took b's shards %s after b stopped, want within %s: taken at a later list, not as their records ran out", took, limit)
	}
	a.stop(t)
	rec.checkNoOverlap(t)
}
